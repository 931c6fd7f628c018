/**
 * Drops from the desktop onto a folder (spec document 2, "a drop from the desktop uploads into the
 * target folder"): the tree's rows, the listing's folder rows and the listing's background (the
 * open folder) take files where the api lets the person add them, and open the Upload dialog with
 * the dropped files (folders walked) and that folder. Only drags carrying files
 * (`dataTransfer.types` holds 'Files') are handled here; dragging items within the file manager is
 * not an upload and is left alone.
 */
import type { DragEvent } from 'react';
import type { FolderRef } from '../address';
import { useUploads } from './context';
import { pickedFromDrop } from './sources';
import './upload.css';

/** The folder a tree or listing row key names (`<library>/<folder path>`, the library percent-encoded), or undefined. */
export function folderOfKey(key: string): FolderRef | undefined {
  const slash = key.indexOf('/');
  let library: string;
  try {
    library = decodeURIComponent(slash < 0 ? key : key.slice(0, slash));
  } catch {
    return undefined;
  }
  if (library !== 'global' && !/^(person|persona):./.test(library)) return undefined;
  return { library, path: slash < 0 ? '' : key.slice(slash + 1) };
}

/** The folder a row under the pointer stands for (a row with a folder key), and the row. */
export function folderRowAt(target: EventTarget | null): { folder: FolderRef; element: HTMLElement } | undefined {
  const row = (target as HTMLElement | null)?.closest?.<HTMLElement>('[role="row"][data-key]');
  const folder = row?.dataset.key ? folderOfKey(row.dataset.key) : undefined;
  return row && folder ? { folder, element: row } : undefined;
}

function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer.types).includes('Files');
}

let marked: HTMLElement | undefined;
function mark(element: HTMLElement | undefined): void {
  if (marked === element) return;
  marked?.removeAttribute('data-file-drop');
  marked = element;
  marked?.setAttribute('data-file-drop', '');
}

/**
 * Handlers for a container: `resolve` names the folder under the pointer and the element to mark
 * (or undefined: no folder there). Spread them on the container element.
 */
export function useFileDrop(resolve: (target: EventTarget | null, container: HTMLElement) => { folder: FolderRef; element: HTMLElement } | undefined) {
  const uploads = useUploads();
  const at = (e: DragEvent<HTMLElement>) => {
    const found = resolve(e.target, e.currentTarget);
    return found && uploads.canAdd(found.folder.library) ? found : undefined;
  };
  return {
    onDragOver(e: DragEvent<HTMLElement>) {
      if (!carriesFiles(e)) return;
      const found = at(e);
      // The nearest container decides (a tree row inside the page: the tree).
      e.stopPropagation();
      mark(found?.element);
      // Handled either way, so files dropped where nothing may be added are refused ('none')
      // rather than opened by the browser in place of the portal.
      e.preventDefault();
      e.dataTransfer.dropEffect = found ? 'copy' : 'none';
    },
    onDragLeave(e: DragEvent<HTMLElement>) {
      if (!carriesFiles(e)) return;
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) mark(undefined);
    },
    onDrop(e: DragEvent<HTMLElement>) {
      if (!carriesFiles(e)) return;
      mark(undefined);
      const found = at(e);
      e.stopPropagation();
      e.preventDefault();
      if (!found) return;
      uploads.open({ target: found.folder, picked: pickedFromDrop(e.dataTransfer) });
    },
  };
}
