/**
 * Describe folder (PUT /api/v1/resources/folders/description): the text search shows for the
 * folder entry (reaching search at the next index sweep); offered where allowed_actions.describe.
 */
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Field } from '../../ui/Field';
import type { FolderRef } from '../address';
import { ActionDialog } from './ActionDialog';

export function DescribeFolderDialog(props: { folder: FolderRef; name: string; description: string; onClose(): void; onDone(): void }) {
  const [description, setDescription] = useState(props.description);
  return (
    <ActionDialog
      title={`Describe ${props.name}`}
      submitLabel="Save"
      onClose={props.onClose}
      onSubmit={async () => {
        unwrap(await api.PUT('/api/v1/resources/folders/description', { body: { library: props.folder.library, path: props.folder.path, description } }));
        props.onDone();
      }}
    >
      <Field
        label="Description"
        value={description}
        onChange={setDescription}
        multiline
        autoFocus
        description="What the folder holds and when to use it. Search shows it as the folder's entry within a few minutes."
      />
    </ActionDialog>
  );
}
