/**
 * New folder (POST /api/v1/resources/folders) inside the open folder; offered where the folder's
 * allowed_actions.add says the server accepts it. A name breaking the folder rule is refused by
 * the server naming the rule, shown here as it says it; the rule itself is shown under the field.
 */
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Field } from '../../ui/Field';
import { joinFolderPath, type FolderRef } from '../address';
import { ActionDialog, folderRule } from './ActionDialog';

export function NewFolderDialog(props: { parent: FolderRef; parentName: string; onClose(): void; onDone(created: FolderRef): void }) {
  const [name, setName] = useState('');
  return (
    <ActionDialog
      title={`New folder in ${props.parentName}`}
      submitLabel="Create"
      onClose={props.onClose}
      submitDisabled={name.trim() === ''}
      onSubmit={async () => {
        const answer = unwrap(await api.POST('/api/v1/resources/folders', { body: { library: props.parent.library, path: joinFolderPath(props.parent.path, name.trim()) } }));
        props.onDone({ library: props.parent.library, path: answer.path });
      }}
    >
      <Field label="Folder name" value={name} onChange={setName} autoFocus description={folderRule} />
    </ActionDialog>
  );
}
