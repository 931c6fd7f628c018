/**
 * Attachment picking (issue 40): the Resources folder tree (resources/tree/FolderTree, browsed in
 * place) beside the files of the open folder, each with Attach or Detach. The server decides: a
 * refused attach (the Attachment rule, a file the caller cannot open) shows its message. The tree
 * offers every folder the caller may list; the rule is never re-implemented here.
 */
import { useState } from 'react';
import { messageOf } from '../api/client';
import { useSession } from '../app/session';
import { apiFolderPath, type FolderRef } from '../resources/address';
import { useFileList } from '../resources/listing/rows';
import { FolderTree } from '../resources/tree/FolderTree';
import { useTopFolders } from '../resources/tree/folders';
import { Button } from '../ui/Button';
import { Dialog, DialogActions } from '../ui/Dialog';
import { ErrorMessage, StatusMessage } from '../ui/Alert';
import { promptApi, type Prompt } from './queries';

function FolderFiles(props: { folder: FolderRef; prompt: Prompt; onChanged(prompt: Prompt): void; onError(message: string): void }) {
  const list = useFileList(apiFolderPath(props.folder), true, 'name');
  const files = list.data?.pages.flatMap((p) => p.items) ?? [];
  const attached = new Set(props.prompt.attachments.map((a) => a.resource_id));
  const toggle = async (id: string) => {
    try {
      props.onChanged(attached.has(id) ? await promptApi.detach(props.prompt.id, id) : await promptApi.attach(props.prompt.id, id));
    } catch (error) {
      props.onError(messageOf(error));
    }
  };
  if (list.isError) return <ErrorMessage>{messageOf(list.error)}</ErrorMessage>;
  if (list.isPending) return <p className="loading">Loading…</p>;
  if (files.length === 0) return <p className="muted">No files in this folder.</p>;
  return (
    <ul className="picker-files" aria-label="Files in the folder">
      {files.map((file) => (
        <li key={file.id} className="picker-file">
          <span className="picker-file-name">{file.display_name}</span>
          <span className="muted picker-file-type">{file.file_name}</span>
          <Button onPress={() => void toggle(file.id)} aria-label={`${attached.has(file.id) ? 'Detach' : 'Attach'} ${file.display_name}`}>
            {attached.has(file.id) ? 'Detach' : 'Attach'}
          </Button>
        </li>
      ))}
    </ul>
  );
}

export function AttachDialog(props: { prompt: Prompt; isOpen: boolean; onOpenChange(open: boolean): void; onChanged(prompt: Prompt): void }) {
  const session = useSession();
  const top = useTopFolders();
  const [folder, setFolder] = useState<FolderRef | undefined>();
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  return (
    <Dialog title={`Attach resources to ${props.prompt.name}`} isOpen={props.isOpen} onOpenChange={props.onOpenChange} wide>
      <p className="muted">An attachment must be at least as widely visible as the prompt: your own files on personal prompts, a persona&apos;s files on that persona&apos;s prompts, Global files anywhere.</p>
      <div className="picker">
        <FolderTree
          location={folder ? { kind: 'folder', folder } : { kind: 'root' }}
          top={top.folders}
          topError={top.error}
          ownSubject={session.subject}
          label="Resource folders"
          onOpen={(f) => {
            setFolder(f);
            setError('');
          }}
        />
        <div className="picker-pane">
          {folder ? (
            <FolderFiles
              folder={folder}
              prompt={props.prompt}
              onChanged={(p) => {
                setError('');
                setStatus(`${p.attachments.length} attached`);
                props.onChanged(p);
              }}
              onError={setError}
            />
          ) : (
            <p className="muted">Open a folder to see its files.</p>
          )}
          <ErrorMessage>{error}</ErrorMessage>
          {status ? <StatusMessage>{status}</StatusMessage> : null}
        </div>
      </div>
      <DialogActions>
        <Button variant="primary" onPress={() => props.onOpenChange(false)}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
