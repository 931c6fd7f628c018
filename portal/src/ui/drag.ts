import { useEffect, type DragEvent } from 'react';

type DragHandler = (e: DragEvent<HTMLElement>) => void;
export interface DragHandlers {
  onDragOver?: DragHandler;
  onDragLeave?: DragHandler;
  onDrop?: DragHandler;
}

/**
 * The handlers of several drop behaviours on one element (the folder tree takes desktop files to
 * upload and listing items to move): each is called in turn and acts only on the drags it knows by
 * their data types, so spreading them one over another would silently drop one of them.
 */
export function joinDragHandlers(...sets: Array<DragHandlers | undefined>): Required<DragHandlers> {
  const each =
    (name: keyof DragHandlers): DragHandler =>
    (e) => {
      for (const set of sets) set?.[name]?.(e);
    };
  return { onDragOver: each('onDragOver'), onDragLeave: each('onDragLeave'), onDrop: each('onDrop') };
}

/**
 * Files dragged from the desktop onto a part of the page that takes none (the preview pane, a
 * header, another page) are refused (the no-drop cursor) instead of being opened by the browser in
 * place of the portal. Drops a part of the page handled (defaultPrevented) and file inputs are left
 * alone.
 */
export function useRefuseStrayFileDrops(): void {
  useEffect(() => {
    const refuse = (e: globalThis.DragEvent) => {
      if (e.defaultPrevented || !e.dataTransfer || !Array.from(e.dataTransfer.types).includes('Files')) return;
      if (e.target instanceof Element && e.target.closest('input[type="file"]')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}
