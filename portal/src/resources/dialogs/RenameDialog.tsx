/**
 * Rename (F2): a file's display name (PATCH /api/v1/resources/{id}; its file name, id and address
 * stay), or a folder's name (POST /api/v1/resources/folders/rename, every file beneath at every
 * depth moving with it; the server refuses a taken name naming the file, or more than 500 files
 * stating how many, and nothing moves).
 */
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { Field } from '../../ui/Field';
import { folderName, joinFolderPath, parentFolder, type FolderRef } from '../address';
import { ActionDialog, folderRule } from './ActionDialog';

export function RenameFileDialog(props: { resource: { id: string; display_name: string; file_name: string }; onClose(): void; onDone(updated: Resource): void }) {
  const [name, setName] = useState(props.resource.display_name);
  return (
    <ActionDialog
      title="Rename file"
      submitLabel="Rename"
      onClose={props.onClose}
      submitDisabled={name.trim() === ''}
      onSubmit={async () => {
        const updated = unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: props.resource.id } }, body: { display_name: name.trim() } }));
        props.onDone(updated);
      }}
    >
      <Field
        label="Display name"
        value={name}
        onChange={setName}
        autoFocus
        description={`The file keeps its file name (${props.resource.file_name}), its id and its address.`}
      />
    </ActionDialog>
  );
}

export function RenameFolderDialog(props: { folder: FolderRef; onClose(): void; onDone(renamed: FolderRef): void }) {
  const [name, setName] = useState(folderName(props.folder.path));
  const parent = parentFolder(props.folder)?.path ?? '';
  return (
    <ActionDialog
      title="Rename folder"
      submitLabel="Rename"
      onClose={props.onClose}
      submitDisabled={name.trim() === ''}
      onSubmit={async () => {
        const newPath = joinFolderPath(parent, name.trim());
        const answer = unwrap(
          await api.POST('/api/v1/resources/folders/rename', { body: { library: props.folder.library, path: props.folder.path, new_path: newPath } }),
        );
        props.onDone({ library: props.folder.library, path: answer.new_path });
      }}
    >
      <Field label="Folder name" value={name} onChange={setName} autoFocus description={`${folderRule} Every file beneath moves with it (at most 500).`} />
    </ActionDialog>
  );
}
