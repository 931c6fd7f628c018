/**
 * Delete a file (DELETE /api/v1/resources/{id}: every version and its stored bytes) or an empty
 * folder (DELETE /api/v1/resources/folders). A confirmation names what goes; a refusal (assets or
 * a registered table still pointing at the file, a folder still holding files) shows the server's
 * words and nothing is deleted.
 */
import { api, unwrap } from '../../api/client';
import type { FolderRef } from '../address';
import { ActionDialog } from './ActionDialog';

export function DeleteFileDialog(props: { resource: { id: string; display_name: string; file_name: string }; onClose(): void; onDone(): void }) {
  return (
    <ActionDialog
      title="Delete file"
      submitLabel="Delete"
      danger
      role="alertdialog"
      onClose={props.onClose}
      onSubmit={async () => {
        unwrap(await api.DELETE('/api/v1/resources/{id}', { params: { path: { id: props.resource.id } } }));
        props.onDone();
      }}
    >
      <p>
        Delete <span className="dialog-subject">{props.resource.display_name}</span> ({props.resource.file_name})? Every version and its stored
        bytes are removed; this cannot be undone.
      </p>
    </ActionDialog>
  );
}

export function DeleteFolderDialog(props: { folder: FolderRef; name: string; onClose(): void; onDone(): void }) {
  return (
    <ActionDialog
      title="Delete folder"
      submitLabel="Delete"
      danger
      role="alertdialog"
      onClose={props.onClose}
      onSubmit={async () => {
        unwrap(await api.DELETE('/api/v1/resources/folders', { body: { library: props.folder.library, path: props.folder.path } }));
        props.onDone();
      }}
    >
      <p>
        Delete the folder <span className="dialog-subject">{props.name}</span>? Only an empty folder can be deleted.
      </p>
    </ActionDialog>
  );
}
