/**
 * Delete (offered where allowed_actions.delete): a confirmation naming the file; the server's
 * refusal is shown in the dialog. While assets or a registered table point at the file the api
 * refuses with their counts and accepts the delete forced: then, and only then, "Delete anyway" is
 * offered. Deleted, the page goes to the file's folder.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Trash2 } from 'lucide-react';
import { ApiError, api, messageOf, unwrap } from '../../api/client';
import type { Resource } from '../../api/types';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/Alert';
import { folderAddress } from '../address';
import { refreshAfterChange } from './queries';

export function DeleteResource({ resource }: { resource: Resource }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: async (force: boolean) =>
      unwrap(await api.DELETE('/api/v1/resources/{id}', { params: { path: { id: resource.id }, query: force ? { force: 'true' } : {} } })),
    onSuccess: async () => {
      setOpen(false);
      queryClient.removeQueries({ queryKey: ['resource', resource.id] });
      void refreshAfterChange(queryClient);
      await navigate(folderAddress({ library: resource.library, path: resource.path }), { replace: true, state: { deleted: resource.display_name } });
    },
  });
  // Refused because something points at the file: the forced delete is what the api accepts.
  const held = remove.error instanceof ApiError && remove.error.code === 'conflict' && remove.error.details.references !== undefined;
  return (
    <>
      <Button variant="danger" onPress={() => setOpen(true)}>
        <Trash2 aria-hidden size={16} /> Delete
      </Button>
      <Dialog
        title={`Delete “${resource.display_name}”?`}
        role="alertdialog"
        isOpen={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) remove.reset();
        }}
      >
        <p>
          The file <strong>{resource.file_name}</strong> and every version of it, with their stored bytes, are removed. This cannot be undone.
        </p>
        <ErrorMessage>{remove.isError ? messageOf(remove.error) : undefined}</ErrorMessage>
        {held ? <p className="muted">Delete anyway: assets that use it report it as missing, and tables over it are dropped.</p> : null}
        <DialogActions>
          <Button slot="close" autoFocus>
            Cancel
          </Button>
          {held ? (
            <Button
              variant="danger"
              onPress={() => {
                if (!remove.isPending) remove.mutate(true);
              }}
            >
              {remove.isPending ? 'Deleting…' : 'Delete anyway'}
            </Button>
          ) : (
            <Button
              variant="danger"
              onPress={() => {
                if (!remove.isPending) remove.mutate(false);
              }}
            >
              {remove.isPending ? 'Deleting…' : 'Delete'}
            </Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
