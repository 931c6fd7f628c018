/**
 * Move to: another folder of the same library (another top-level folder is Edit details' Top-level
 * folder). A file moves with PATCH /api/v1/resources/{id} `path`; a folder with POST
 * /api/v1/resources/folders/rename, keeping its name under the chosen parent. The folders of the
 * library are offered in a combo box (a new path may be typed: it is created by the move). A
 * collision is refused by the server naming the colliding file, and nothing moves.
 */
import { useCallback, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { folderName, joinFolderPath, parentFolder, type FolderRef } from '../address';
import { ActionDialog } from './ActionDialog';
import { destinationPath, FolderCombo } from './FolderCombo';

export type MoveTarget = { type: 'file'; resource: { id: string; display_name: string; library: string; path: string } } | { type: 'folder'; folder: FolderRef };

export function MoveDialog(props: { target: MoveTarget; libraryName: string; onClose(): void; onDone(result: { resource?: Resource; folder?: FolderRef }): void }) {
  const { target } = props;
  const library = target.type === 'file' ? target.resource.library : target.folder.library;
  const current = target.type === 'file' ? target.resource.path : (parentFolder(target.folder)?.path ?? '');
  const [value, setValue] = useState('');
  const offered = useCallback(
    (p: string) => p !== current && (target.type === 'file' || (p !== target.folder.path && !p.startsWith(`${target.folder.path}/`))),
    [current, target],
  );
  const name = target.type === 'file' ? target.resource.display_name : folderName(target.folder.path);
  const destination = destinationPath(value);

  return (
    <ActionDialog
      title={`Move ${name}`}
      submitLabel="Move"
      onClose={props.onClose}
      submitDisabled={value.trim() === '' || destination === current}
      onSubmit={async () => {
        if (target.type === 'file') {
          const resource = unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: target.resource.id } }, body: { path: destination } }));
          props.onDone({ resource });
        } else {
          const newPath = joinFolderPath(destination, folderName(target.folder.path));
          const answer = unwrap(await api.POST('/api/v1/resources/folders/rename', { body: { library, path: target.folder.path, new_path: newPath } }));
          props.onDone({ folder: { library, path: answer.new_path } });
        }
      }}
    >
      <FolderCombo library={library} libraryName={props.libraryName} value={value} onChange={setValue} offered={offered} now={current === '' ? 'the top level' : current} />
    </ActionDialog>
  );
}
