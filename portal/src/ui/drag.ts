import type { DragEvent } from 'react';

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
