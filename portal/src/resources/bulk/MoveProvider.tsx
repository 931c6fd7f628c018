/**
 * Moves by drag and drop inside the file manager, and Undo (spec document 2: "Drag within a
 * top-level folder moves, with Undo"). Listing rows (files and folders the caller may move) are
 * dragged onto a folder row of the listing or of the tree; the drag carries our own type,
 * `application/x-platform-resources` (desktop drops carry Files and are the upload's), and the
 * dragged items stay in this page's memory.
 *
 * - Only a folder of the same library takes a drop: another top-level folder is refused in the UI
 *   (moving between libraries is Edit details' Top-level folder, never a drag), saying so.
 * - A drop moves each item with the routes of Move to (a file: PATCH `path`; a folder: the folder
 *   rename route). The first refusal (a collision, authority, a folder into itself, more than 500
 *   files beneath) is shown in the server's words and the items already moved are put back, so
 *   nothing has moved.
 * - A move, by drag or by Move to on a selection, offers Undo: the same routes put each item back.
 */
import { createContext, useCallback, useContext, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../api/client';
import { Button } from '../../ui/Button';
import { folderName, type FolderRef } from '../address';
import { allows, itemsLabel, libraryOf, type BulkItem } from './items';
import { moveItem, placeOf, undoMoves, type MoveRecord } from './operations';
import './bulk.css';

/** The drag type of items dragged inside the file manager. */
export const dragType = 'application/x-platform-resources';

export const crossLibraryRefusal = 'Moving to another top-level folder is done in Edit details (Top-level folder), not by drag.';

interface Toast {
  text: string;
  error?: boolean;
  undo?: MoveRecord[];
}

export interface DropHandlers {
  onDragOver(e: DragEvent<HTMLElement>): void;
  onDragLeave(e: DragEvent<HTMLElement>): void;
  onDrop(e: DragEvent<HTMLElement>): void;
}

interface Moves {
  /** Starts dragging `items` (answers false, and the drag is cancelled, when one of them may not move). */
  startDrag(e: DragEvent<HTMLElement>, items: BulkItem[]): boolean;
  endDrag(): void;
  /** Drop handlers for an element whose rows name folders (`folderAt` finds the folder under the pointer). */
  dropHandlers(folderAt: (target: HTMLElement) => { folder: FolderRef; element: HTMLElement } | undefined): DropHandlers;
  /** Offers Undo of moves made another way (Move to on a selection). */
  offerUndo(records: MoveRecord[], text: string): void;
}

const MovesContext = createContext<Moves | null>(null);

/** The file manager's moves; null outside a MoveProvider (a folder tree used as a picker). */
export function useMoves(): Moves | null {
  return useContext(MovesContext);
}

/** A message as a sentence: ends with one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function placeName(path: string): string {
  return path ? folderName(path) : 'the top level';
}

/** Whether dropping `items` into `folder` would move anything (not onto itself, not where they are). */
function movesAny(items: readonly BulkItem[], folder: FolderRef): boolean {
  return items.some((i) => placeOf(i) !== folder.path && !(i.kind === 'folder' && i.folder.path === folder.path));
}

export function MoveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const dragged = useRef<BulkItem[] | null>(null);
  const highlighted = useRef<HTMLElement | null>(null);
  const busy = useRef(false);
  const [toast, setToast] = useState<Toast | null>(null);
  const toastRef = useRef<HTMLDivElement>(null);

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['folders'] }),
        queryClient.invalidateQueries({ queryKey: ['list'] }),
        queryClient.invalidateQueries({ queryKey: ['resource'] }),
      ]),
    [queryClient],
  );

  const highlight = (el: HTMLElement | null) => {
    if (highlighted.current === el) return;
    highlighted.current?.classList.remove('is-drop-target');
    el?.classList.add('is-drop-target');
    highlighted.current = el;
  };

  const drop = useCallback(
    async (items: BulkItem[], folder: FolderRef) => {
      busy.current = true;
      const moving = items.filter((i) => placeOf(i) !== folder.path && !(i.kind === 'folder' && i.folder.path === folder.path));
      setToast({ text: `Moving ${itemsLabel(moving)} to ${placeName(folder.path)}…` });
      const done: MoveRecord[] = [];
      try {
        for (const item of moving) {
          try {
            done.push(await moveItem(item, folder.path));
          } catch (e) {
            const notBack = await undoMoves(done);
            const back = notBack.length > 0 ? ` Could not put back: ${notBack.map((f) => `${f.name} (${f.message})`).join('; ')}.` : ' Nothing was moved.';
            setToast({ text: `${item.name} was not moved: ${sentence(messageOf(e))}${back}`, error: true });
            return;
          }
        }
        setToast({ text: `Moved ${itemsLabel(moving)} to ${placeName(folder.path)}.`, undo: done });
      } finally {
        busy.current = false;
        await refresh();
      }
    },
    [refresh],
  );

  const moves = useMemo<Moves>(
    () => ({
      startDrag(e, items) {
        const refused = items.find((i) => !allows(i, 'move'));
        if (items.length === 0 || refused || new Set(items.map(libraryOf)).size !== 1) {
          e.preventDefault();
          if (refused) setToast({ text: `${refused.name} may not be moved by you.`, error: true });
          return false;
        }
        dragged.current = items;
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData(dragType, JSON.stringify(items.map((i) => i.key)));
        return true;
      },
      endDrag() {
        dragged.current = null;
        highlight(null);
      },
      dropHandlers(folderAt) {
        const target = (e: DragEvent<HTMLElement>) => {
          if (!e.dataTransfer.types.includes(dragType) || !dragged.current) return undefined;
          return folderAt(e.target as HTMLElement);
        };
        return {
          onDragOver(e) {
            const items = dragged.current;
            const at = target(e);
            if (!items || !at) return highlight(null);
            e.stopPropagation();
            if (at.folder.library !== libraryOf(items[0]!)) {
              // Not a target: the browser shows no-drop and there is no drop event.
              e.dataTransfer.dropEffect = 'none';
              highlight(null);
              setToast((t) => (t?.text === crossLibraryRefusal ? t : { text: crossLibraryRefusal, error: true }));
              return;
            }
            if (busy.current || !movesAny(items, at.folder)) {
              e.dataTransfer.dropEffect = 'none';
              return highlight(null);
            }
            e.preventDefault();
            e.dataTransfer.dropEffect = 'move';
            highlight(at.element);
          },
          onDragLeave(e) {
            if (highlighted.current && !highlighted.current.contains(e.relatedTarget as Node | null)) highlight(null);
          },
          onDrop(e) {
            const items = dragged.current;
            const at = target(e);
            highlight(null);
            if (!items || !at || at.folder.library !== libraryOf(items[0]!) || busy.current || !movesAny(items, at.folder)) return;
            e.preventDefault();
            e.stopPropagation();
            dragged.current = null;
            void drop(items, at.folder);
          },
        };
      },
      offerUndo(records, text) {
        if (records.length > 0) setToast({ text, undo: records });
      },
    }),
    [drop],
  );

  const undo = async (records: MoveRecord[]) => {
    busy.current = true;
    setToast({ text: 'Putting back…' });
    const failures = await undoMoves(records);
    busy.current = false;
    await refresh();
    setToast(
      failures.length === 0
        ? { text: `Moved ${records.length === 1 ? records[0]!.name : `${records.length} items`} back.` }
        : { text: `Could not put back: ${failures.map((f) => `${f.name} (${f.message})`).join('; ')}.`, error: true },
    );
    // The Undo button is gone: focus stays in the message, on its Dismiss.
    requestAnimationFrame(() => toastRef.current?.querySelector<HTMLElement>('[aria-label="Dismiss"]')?.focus());
  };

  return (
    <MovesContext.Provider value={moves}>
      {children}
      {toast ? (
        <div ref={toastRef} className={`move-toast${toast.error ? ' is-error' : ''}`} role="region" aria-label="Moves">
          <span className="move-toast-text" role={toast.error ? 'alert' : 'status'}>
            {toast.text}
          </span>
          {toast.undo ? <Button onPress={() => void undo(toast.undo!)}>Undo</Button> : null}
          <Button
            aria-label="Dismiss"
            onPress={() => {
              setToast(null);
              // Back to the listing's focused row rather than nowhere.
              document.querySelector<HTMLElement>('.grid [role="row"][tabindex="0"]')?.focus();
            }}
          >
            ×
          </Button>
        </div>
      ) : null}
    </MovesContext.Provider>
  );
}
