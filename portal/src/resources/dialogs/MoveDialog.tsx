/**
 * Move to: another folder of the same library (another top-level folder is Edit details' Top-level
 * folder). A file moves with PATCH /api/v1/resources/{id} `path`; a folder with POST
 * /api/v1/resources/folders/rename, keeping its name under the chosen parent. The folders of the
 * library are offered in a combo box (a new path may be typed: it is created by the move). A
 * collision is refused by the server naming the colliding file, and nothing moves.
 */
import { useMemo, useState } from 'react';
import { Button as AriaButton, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { ChevronDown } from 'lucide-react';
import { api, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { folderName, joinFolderPath, parentFolder, type FolderRef } from '../address';
import { useLibraryFolderPaths } from '../tree/folders';
import { ActionDialog, folderRule } from './ActionDialog';

export type MoveTarget = { type: 'file'; resource: { id: string; display_name: string; library: string; path: string } } | { type: 'folder'; folder: FolderRef };

const topLevel = '/';

export function MoveDialog(props: { target: MoveTarget; libraryName: string; onClose(): void; onDone(result: { resource?: Resource; folder?: FolderRef }): void }) {
  const { target } = props;
  const library = target.type === 'file' ? target.resource.library : target.folder.library;
  const current = target.type === 'file' ? target.resource.path : (parentFolder(target.folder)?.path ?? '');
  const paths = useLibraryFolderPaths(library);
  const [value, setValue] = useState('');
  const choices = useMemo(() => {
    const all = ['', ...(paths.data ?? [])];
    return all
      .filter((p) => p !== current)
      .filter((p) => target.type === 'file' || (p !== target.folder.path && !p.startsWith(`${target.folder.path}/`)))
      .map((p) => ({ id: p === '' ? topLevel : p, path: p }));
  }, [paths.data, current, target]);
  const name = target.type === 'file' ? target.resource.display_name : folderName(target.folder.path);
  const destination = value.trim() === topLevel ? '' : value.trim().replace(/^\/+|\/+$/g, '');

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
      <ComboBox className="combo" allowsCustomValue menuTrigger="focus" inputValue={value} onInputChange={setValue} defaultItems={choices} autoFocus>
        <Label className="field-label">Move to folder in {props.libraryName}</Label>
        <div className="combo-input-row">
          <Input className="field-input" placeholder={topLevel} />
          <AriaButton className="combo-button" aria-label="Show folders">
            <ChevronDown aria-hidden size={16} />
          </AriaButton>
        </div>
        <Text slot="description" className="field-description">
          Now in {current === '' ? 'the top level' : current}. “{topLevel}” is the top level. {folderRule}
        </Text>
        <Popover className="combo-popover">
          <ListBox className="combo-list">
            {(item: { id: string; path: string }) => (
              <ListBoxItem className="combo-item" id={item.id} textValue={item.id}>
                {item.id}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
    </ActionDialog>
  );
}
