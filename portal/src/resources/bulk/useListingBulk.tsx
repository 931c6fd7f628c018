/**
 * The listing's part of the bulk actions and of moves by drag (FolderListing uses it): the
 * selection bar, the bulk dialog, the context menu's actions for a selection, Delete and Move to
 * of a selection from the keyboard, and the drag sources and drop targets among the rows.
 */
import { lazy, useEffect, useMemo, useState, type HTMLAttributes } from 'react';
import type { GridState } from '../listing/ListingGrid';
import type { MenuAction } from '../listing/RowMenu';
import type { Row } from '../listing/rows';
import type { BulkOutcome } from './BulkDialog';
import { actionLabels, allows, offeredActions, selectedItems, type BulkAction, type BulkItem } from './items';
import { useMoves } from './MoveProvider';
import { SelectionBar } from './SelectionBar';

const bulkPrefix = 'bulk-';

/** Loaded the first time it opens (render it in a Suspense boundary), as the other dialogs are. */
const BulkDialog = lazy(() => import('./BulkDialog').then((m) => ({ default: m.BulkDialog })));

function itemOf(row: Row): BulkItem | undefined {
  return selectedItems([row], new Set([row.key]))?.[0];
}

export function useListingBulk(opts: {
  rows: Row[];
  grid: GridState;
  setGrid(grid: GridState): void;
  libraryName(library: string): string;
  /** Read the tree and the listing again. */
  refresh(): void;
  /** Say something in the listing's status line. */
  say(text: string): void;
  /** The dialog closed: focus goes to this row. */
  focusRow(key: string | undefined): void;
}) {
  const { rows, grid } = opts;
  const moves = useMoves();
  if (!moves) throw new Error('the listing is rendered inside MoveProvider (ResourcesPage)');
  const multi = grid.selected.size > 1;
  const items = useMemo(() => (multi ? selectedItems(rows, grid.selected) : undefined), [multi, rows, grid.selected]);
  const offered = items ? offeredActions(items) : [];
  const [open, setOpen] = useState<{ action: BulkAction; items: BulkItem[] } | null>(null);

  // Rows moved or deleted away (a drop, a bulk action) leave the selection, so neither the bar nor
  // the preview speaks of rows the listing no longer shows.
  const { setGrid } = opts;
  useEffect(() => {
    const shown = new Set(rows.map((r) => r.key));
    const kept = [...grid.selected].filter((k) => shown.has(k));
    if (kept.length !== grid.selected.size) setGrid({ ...grid, selected: new Set(kept) });
  }, [rows, grid, setGrid]);

  const start = (action: BulkAction) => {
    if (items && offered.includes(action)) setOpen({ action, items });
    else opts.say(`${actionLabels[action].replace('…', '')} is not offered for the selection.`);
  };

  /** Where focus goes after the action: the first row from the selection on that is still there. */
  const focusAfter = (outcome: BulkOutcome | undefined) => {
    const gone = new Set(outcome?.gone ?? []);
    const first = Math.max(0, rows.findIndex((r) => grid.selected.has(r.key)));
    const next = rows.slice(first).find((r) => !gone.has(r.key)) ?? [...rows.slice(0, first)].reverse().find((r) => !gone.has(r.key));
    opts.focusRow(next?.key);
  };

  const rowProps = (row: Row): HTMLAttributes<HTMLDivElement> => {
    const item = itemOf(row);
    // Draggable exactly where the server would take the move.
    if (!item || !allows(item, 'move')) return {};
    return {
      draggable: true,
      onDragStart: (e) => {
        const inSelection = multi && grid.selected.has(row.key) && items;
        if (!inSelection) opts.setGrid({ focusedKey: row.key, anchorKey: row.key, selected: new Set([row.key]) });
        moves.startDrag(e, inSelection ? items : [item]);
      },
      onDragEnd: () => moves.endDrag(),
    };
  };

  const gridProps: HTMLAttributes<HTMLDivElement> = moves.dropHandlers((target) => {
    const element = target.closest<HTMLElement>('[role="row"][data-index]');
    const row = element ? rows[Number(element.dataset.index)] : undefined;
    return row?.type === 'folder' && row.folder && element ? { folder: row.folder, element } : undefined;
  });

  return {
    /** Whether the row's action is one for the whole selection (then it has been started). */
    intercept(id: string, row: Row): boolean {
      if (id.startsWith(bulkPrefix)) {
        start(id.slice(bulkPrefix.length) as BulkAction);
        return true;
      }
      if (multi && grid.selected.has(row.key) && (id === 'move' || id === 'delete')) {
        start(id);
        return true;
      }
      return false;
    },
    /** The context menu of a row in a selection: the selection's actions. */
    menuActions(row: Row): { label: string; actions: MenuAction[] } | undefined {
      if (!multi || !grid.selected.has(row.key)) return undefined;
      return {
        label: `Actions for ${grid.selected.size} selected`,
        actions: offered.map((a) => ({ id: `${bulkPrefix}${a}`, label: actionLabels[a], ...(a === 'delete' ? { danger: true, shortcut: 'Delete' } : {}) })),
      };
    },
    rowProps,
    gridProps,
    bar: multi ? (
      <SelectionBar
        count={grid.selected.size}
        items={items}
        onAction={start}
        onClear={() => opts.setGrid({ ...grid, selected: new Set(grid.focusedKey ? [grid.focusedKey] : []) })}
      />
    ) : null,
    dialog: open ? (
      <BulkDialog
        action={open.action}
        items={open.items}
        libraryName={opts.libraryName(open.items[0]!.kind === 'file' ? open.items[0]!.resource.library : open.items[0]!.folder.library)}
        onChanged={opts.refresh}
        onClose={(outcome) => {
          setOpen(null);
          if (outcome) {
            opts.say(outcome.summary);
            if (outcome.action === 'move') moves.offerUndo(outcome.moved, outcome.summary);
          }
          focusAfter(outcome);
        }}
      />
    ) : null,
  };
}
