/**
 * Delete (offered where allowed_actions.delete): a confirmation naming the file; the server's
 * refusal (assets or a registered table still point at it) is shown in the dialog. Deleted, the
 * page goes to the file's folder.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Trash2 } from 'lucide-react';
import { api, messageOf, unwrap } from '../../api/client';
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
    mutationFn: async () => unwrap(await api.DELETE('/api/v1/resources/{id}', { params: { path: { id: resource.id }, query: {} } })),
    onSuccess: async () => {
      setOpen(false);
      queryClient.removeQueries({ queryKey: ['resource', resource.id] });
      void refreshAfterChange(queryClient);
      await navigate(folderAddress({ library: resource.library, path: resource.path }), { replace: true, state: { deleted: resource.display_name } });
    },
  });
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
        <DialogActions>
          <Button slot="close" autoFocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            onPress={() => {
              if (!remove.isPending) remove.mutate();
            }}
          >
            {remove.isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
