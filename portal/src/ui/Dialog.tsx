/**
 * A modal dialog (react-aria-components: focus trapped inside, Escape closes, focus returns to what
 * opened it). Controlled: the caller keeps `isOpen`. Actions go in the footer.
 */
import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

export function Dialog(props: { title: string; isOpen: boolean; onOpenChange(open: boolean): void; children: ReactNode; role?: 'dialog' | 'alertdialog'; wide?: boolean }) {
  return (
    <ModalOverlay className="modal-overlay" isOpen={props.isOpen} onOpenChange={props.onOpenChange} isDismissable>
      <Modal className={props.wide ? 'modal modal-wide' : 'modal'}>
        <AriaDialog className="dialog" role={props.role ?? 'dialog'}>
          <Heading slot="title" className="dialog-title">
            {props.title}
          </Heading>
          {props.children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="dialog-actions">{children}</div>;
}
