/**
 * The frame of the file manager's action dialogs: a form whose primary button runs the request;
 * while it runs the buttons wait, and a refusal shows the server's own words (role alert) with
 * the dialog still open, so the person can correct and try again. Escape and Cancel close it.
 */
import { useState, type ReactNode } from 'react';
import { messageOf } from '../../api/client';
import { ErrorMessage } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import './dialogs.css';

export function ActionDialog(props: {
  title: string;
  submitLabel: string;
  danger?: boolean;
  role?: 'dialog' | 'alertdialog';
  onClose(): void;
  /** Runs the request; a throw keeps the dialog open showing the error's message. */
  onSubmit(): Promise<void>;
  children?: ReactNode;
  submitDisabled?: boolean;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const submit = async () => {
    if (pending) return;
    setPending(true);
    setError(undefined);
    try {
      await props.onSubmit();
    } catch (e) {
      setError(messageOf(e));
      setPending(false);
    }
  };
  return (
    <Dialog title={props.title} isOpen onOpenChange={(open) => !open && !pending && props.onClose()} role={props.role}>
      <form
        className="action-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {props.children}
        <ErrorMessage>{error}</ErrorMessage>
        <DialogActions>
          <Button onPress={props.onClose} isDisabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant={props.danger ? 'danger' : 'primary'} isDisabled={pending || props.submitDisabled}>
            {pending ? `${props.submitLabel}…` : props.submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** The folder name rule (spec document 2, "Folder"), shown under every folder name field. */
export const folderRule = 'Lowercase letters, digits and hyphens, starting with a letter or digit; a path is at most 8 folders deep and 200 characters.';
