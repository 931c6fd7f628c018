/**
 * The listing as an ARIA grid (role grid, rows, column headers with aria-sort, grid cells) on top
 * of TanStack Virtual: only the rows in view (plus a margin, plus the focused row) are in the DOM,
 * so a folder of 10,000 files scrolls smoothly; aria-rowcount and aria-rowindex tell assistive
 * technology where a row sits among all of them.
 *
 * One row is the tab stop (roving tabindex). Keyboard (spec document 2, "Upload rules in the
 * portal"): Up/Down move (Shift extends the selection), Home/End, Page Up/Down, Space toggles a
 * row's selection, Ctrl/Cmd-A selects every loaded row, Enter opens, Backspace goes up,
 * Cmd/Ctrl-Backspace or Delete deletes, F2 renames, Shift+F10 or the Menu key opens the context
 * menu (right click too). The focused row always stays rendered, and focus is moved back onto a
 * row whenever the page asks (after a dialog, after a delete: the next row).
 */
import { useEffect, useLayoutEffect, useRef, type HTMLAttributes, type KeyboardEvent, type MouseEvent } from 'react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, File, FileText, Folder, Globe, Image, User, Users } from 'lucide-react';
import { formatBytes } from '../../ui/format';
import { fullMoment, shortMoment } from './when';
import { filesLabel } from '../tree/FolderTree';
import type { Row, Sort } from './rows';

export const rowHeight = 36;
const headerHeight = 36;

export interface GridState {
  focusedKey: string | undefined;
  selected: ReadonlySet<string>;
  anchorKey: string | undefined;
}

export const emptyGrid: GridState = { focusedKey: undefined, selected: new Set(), anchorKey: undefined };

type ColumnId = 'name' | 'modified' | 'size' | 'last_read';

interface Column {
  id: ColumnId;
  label: string;
  /** The sort of the first click, then of the second (reversed). */
  sorts: [Sort, Sort];
}

const columns: Column[] = [
  { id: 'name', label: 'Name', sorts: ['name', 'name_desc'] },
  { id: 'modified', label: 'Modified', sorts: ['updated', 'updated_asc'] },
  { id: 'size', label: 'Size', sorts: ['size', 'size_desc'] },
  { id: 'last_read', label: 'Last read', sorts: ['last_read', 'last_read_asc'] },
];

/** aria-sort of a column under a sort: names and sizes ascend first; times start with the newest. */
function ariaSort(column: Column, sort: Sort): 'ascending' | 'descending' | undefined {
  if (!column.sorts.includes(sort)) return undefined;
  return sort === 'name' || sort === 'size' || sort === 'updated_asc' || sort === 'last_read_asc' ? 'ascending' : 'descending';
}

function sortWords(column: Column, sort: Sort): string {
  switch (sort) {
    case 'updated':
      return 'newest first';
    case 'updated_asc':
      return 'oldest first';
    case 'last_read':
      return 'recently read first';
    case 'last_read_asc':
      return 'never read first';
    default:
      return ariaSort(column, sort) === 'ascending' ? 'ascending' : 'descending';
  }
}

function RowIcon({ row }: { row: Row }) {
  if (row.type === 'top-files') return <FileText aria-hidden size={16} className="row-icon" />;
  if (row.type === 'folder') {
    const Icon = row.kind === 'global' ? Globe : row.kind === 'people' ? Users : row.kind === 'personal' || row.kind === 'person' ? User : Folder;
    return <Icon aria-hidden size={16} className="row-icon row-icon-folder" />;
  }
  const type = row.resource.content_type;
  const Icon = type.startsWith('image/') ? Image : type.startsWith('text/') || type.includes('json') || type.includes('xml') ? FileText : File;
  return <Icon aria-hidden size={16} className="row-icon" />;
}

function cells(row: Row, lastRead: boolean) {
  if (row.type === 'top-files') {
    return (
      <>
        <div role="gridcell" className="cell cell-name">
          <RowIcon row={row} />
          <span className="cell-text">{`${filesLabel(row.count)} at the top level`}</span>
        </div>
        <div role="gridcell" className="cell" />
        <div role="gridcell" className="cell cell-size">
          {filesLabel(row.count)}
        </div>
        {lastRead ? <div role="gridcell" className="cell" /> : null}
      </>
    );
  }
  if (row.type === 'folder') {
    return (
      <>
        <div role="gridcell" className="cell cell-name">
          <RowIcon row={row} />
          <span className="cell-text">{row.name}</span>
          {row.description ? <span className="cell-sub">{row.description}</span> : null}
        </div>
        <div role="gridcell" className="cell" title={fullMoment(row.lastChanged)}>
          {shortMoment(row.lastChanged)}
        </div>
        <div role="gridcell" className="cell cell-size">
          {filesLabel(row.count)}
        </div>
        {lastRead ? <div role="gridcell" className="cell" /> : null}
      </>
    );
  }
  const r = row.resource;
  return (
    <>
      <div role="gridcell" className="cell cell-name">
        <RowIcon row={row} />
        <span className="cell-text">{r.display_name}</span>
        {r.display_name !== r.file_name ? <span className="cell-sub">{r.file_name}</span> : null}
      </div>
      <div role="gridcell" className="cell" title={fullMoment(r.updated_at)}>
        {shortMoment(r.updated_at)}
      </div>
      <div role="gridcell" className="cell cell-size">
        {formatBytes(r.size)}
      </div>
      {lastRead ? (
        <div role="gridcell" className="cell" title={fullMoment(r.last_read_at)}>
          {r.last_read_at ? shortMoment(r.last_read_at) : 'never'}
        </div>
      ) : null}
    </>
  );
}

export interface GridHandlers {
  onOpen(row: Row): void;
  onGoUp(): void;
  onDelete(row: Row): void;
  onRename(row: Row): void;
  /** The context menu of a row: at a point (right click) or at the row (keyboard). */
  onMenu(row: Row, anchor: { x: number; y: number } | HTMLElement): void;
}

export function ListingGrid(props: {
  label: string;
  rows: Row[];
  /** Rows of the whole folder (for aria-rowcount), when known. */
  totalRows: number | undefined;
  sort: Sort;
  onSort(sort: Sort): void;
  /** Show the Last read column (platform administrators: the answer carries last_read_at). */
  lastRead: boolean;
  hasMore: boolean;
  loadMore(): void;
  state: GridState;
  onState(state: GridState): void;
  /** Increment to move focus onto the focused row (once it is rendered). */
  focusRequest: number;
  handlers: GridHandlers;
  /** More attributes of a row and of the grid (drag sources and drop targets of moves). */
  rowProps?(row: Row): HTMLAttributes<HTMLDivElement>;
  gridProps?: HTMLAttributes<HTMLDivElement>;
}) {
  const { rows, state, onState, handlers } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusedIndex = rows.findIndex((r) => r.key === state.focusedKey);
  const tabIndexRow = focusedIndex >= 0 ? focusedIndex : 0;
  const shown = columns.filter((c) => c.id !== 'last_read' || props.lastRead);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin: headerHeight,
    // The focused row stays in the DOM while it scrolls out of view, so focus is never dropped.
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      if (tabIndexRow < rows.length && !indexes.includes(tabIndexRow)) return [...indexes, tabIndexRow].sort((a, b) => a - b);
      return indexes;
    },
  });
  const items = virtualizer.getVirtualItems();

  // Load the next page as the end comes into view.
  const lastShown = items.length > 0 ? items[items.length - 1]!.index : -1;
  const { hasMore, loadMore } = props;
  useEffect(() => {
    if (hasMore && lastShown >= rows.length - 40) loadMore();
  }, [hasMore, lastShown, rows.length, loadMore]);

  /** Focus goes onto the focused row at the next layout: after a keyboard move, or when the page asks. */
  const pendingFocus = useRef(false);
  const answeredRequest = useRef(props.focusRequest);

  /** Scrolls so row `index` is in view below the sticky header. */
  const ensureVisible = (index: number) => {
    const el = scrollRef.current;
    if (!el) return;
    const top = headerHeight + index * rowHeight;
    if (top - headerHeight < el.scrollTop) el.scrollTop = top - headerHeight;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  };

  useLayoutEffect(() => {
    if ((!pendingFocus.current && answeredRequest.current === props.focusRequest) || focusedIndex < 0) return;
    pendingFocus.current = false;
    answeredRequest.current = props.focusRequest;
    ensureVisible(focusedIndex);
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${focusedIndex}"]`);
    el?.focus({ preventScroll: true });
  });

  /** Moves focus to row `index`; selects it alone, or (extend) the range from the anchor. */
  const moveTo = (index: number, mode: 'replace' | 'extend' | 'keep') => {
    const clamped = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[clamped];
    if (!row) return;
    pendingFocus.current = true;
    if (mode === 'keep') {
      onState({ ...state, focusedKey: row.key });
      return;
    }
    if (mode === 'extend') {
      const anchor = rows.findIndex((r) => r.key === state.anchorKey);
      const from = anchor >= 0 ? anchor : focusedIndex >= 0 ? focusedIndex : clamped;
      const [lo, hi] = from < clamped ? [from, clamped] : [clamped, from];
      onState({ focusedKey: row.key, anchorKey: rows[from]?.key, selected: new Set(rows.slice(lo, hi + 1).map((r) => r.key)) });
      return;
    }
    onState({ focusedKey: row.key, anchorKey: row.key, selected: new Set([row.key]) });
  };

  const rowAt = (el: EventTarget | null): number => {
    const rowEl = (el as HTMLElement | null)?.closest?.('[role="row"][data-index]');
    return rowEl ? Number((rowEl as HTMLElement).dataset.index) : -1;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const index = rowAt(e.target);
    if (index < 0) return;
    const row = rows[index]!;
    const mod = e.metaKey || e.ctrlKey;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 2);
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    switch (e.key) {
      case 'ArrowDown':
        handled();
        return moveTo(index + 1, e.shiftKey ? 'extend' : 'replace');
      case 'ArrowUp':
        handled();
        return moveTo(index - 1, e.shiftKey ? 'extend' : 'replace');
      case 'PageDown':
        handled();
        return moveTo(index + page, e.shiftKey ? 'extend' : 'replace');
      case 'PageUp':
        handled();
        return moveTo(index - page, e.shiftKey ? 'extend' : 'replace');
      case 'Home':
        handled();
        return moveTo(0, e.shiftKey ? 'extend' : 'replace');
      case 'End':
        handled();
        return moveTo(rows.length - 1, e.shiftKey ? 'extend' : 'replace');
      case ' ': {
        handled();
        const selected = new Set(state.selected);
        if (selected.has(row.key)) selected.delete(row.key);
        else selected.add(row.key);
        return onState({ focusedKey: row.key, anchorKey: row.key, selected });
      }
      case 'a':
      case 'A':
        if (!mod) return;
        handled();
        return onState({ ...state, selected: new Set(rows.map((r) => r.key)) });
      case 'Enter':
        handled();
        return handlers.onOpen(row);
      case 'Backspace':
        handled();
        return mod ? handlers.onDelete(row) : handlers.onGoUp();
      case 'Delete':
        handled();
        return handlers.onDelete(row);
      case 'F2':
        handled();
        return handlers.onRename(row);
      case 'ContextMenu':
        handled();
        return handlers.onMenu(row, e.target as HTMLElement);
      case 'F10':
        if (!e.shiftKey) return;
        handled();
        return handlers.onMenu(row, e.target as HTMLElement);
    }
  };

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const index = rowAt(e.target);
    const row = rows[index];
    if (!row) return;
    if (e.shiftKey) return moveTo(index, 'extend');
    if (e.metaKey || e.ctrlKey) {
      const selected = new Set(state.selected);
      if (selected.has(row.key)) selected.delete(row.key);
      else selected.add(row.key);
      pendingFocus.current = true;
      return onState({ focusedKey: row.key, anchorKey: row.key, selected });
    }
    moveTo(index, 'replace');
  };

  const onContextMenu = (e: MouseEvent<HTMLDivElement>) => {
    const index = rowAt(e.target);
    const row = rows[index];
    if (!row) return;
    e.preventDefault();
    if (!state.selected.has(row.key)) moveTo(index, 'replace');
    else moveTo(index, 'keep');
    // A keyboard-initiated contextmenu event has no pointer position: anchor at the row.
    const rowEl = (e.target as HTMLElement).closest<HTMLElement>('[role="row"]');
    handlers.onMenu(row, e.clientX === 0 && e.clientY === 0 && rowEl ? rowEl : { x: e.clientX, y: e.clientY });
  };

  return (
    <div
      {...props.gridProps}
      ref={scrollRef}
      className="grid"
      role="grid"
      aria-label={props.label}
      aria-multiselectable="true"
      aria-rowcount={props.totalRows !== undefined ? props.totalRows + 1 : -1}
      aria-colcount={shown.length}
      data-empty={rows.length === 0 || undefined}
      onKeyDown={onKeyDown}
      onClick={onClick}
      onDoubleClick={(e) => {
        const row = rows[rowAt(e.target)];
        if (row) handlers.onOpen(row);
      }}
      onContextMenu={onContextMenu}
    >
      <div role="rowgroup" className="grid-head">
        <div role="row" aria-rowindex={1} className={`grid-row grid-cols-${shown.length}`}>
          {shown.map((c) => {
            const sorted = ariaSort(c, props.sort);
            return (
              <div key={c.id} role="columnheader" aria-sort={sorted ?? 'none'} className={`cell cell-head${c.id === 'size' ? ' cell-size' : ''}`}>
                <button
                  type="button"
                  className="sort-button"
                  onClick={() => props.onSort(c.sorts[0] === props.sort ? c.sorts[1] : c.sorts[0])}
                  title={sorted ? `Sorted ${sortWords(c, props.sort)}; click to reverse` : `Sort by ${c.label.toLowerCase()}`}
                >
                  {c.id === 'last_read' && props.sort === 'last_read' ? 'Recently read' : c.label}
                  {sorted === 'ascending' ? <ArrowUp aria-hidden size={14} /> : sorted === 'descending' ? <ArrowDown aria-hidden size={14} /> : null}
                </button>
              </div>
            );
          })}
        </div>
      </div>
      <div role="rowgroup" className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((v) => {
          const row = rows[v.index]!;
          const selected = state.selected.has(row.key);
          return (
            <div
              {...props.rowProps?.(row)}
              key={row.key}
              role="row"
              data-index={v.index}
              data-key={row.key}
              aria-rowindex={v.index + 2}
              aria-selected={selected}
              tabIndex={v.index === tabIndexRow ? 0 : -1}
              className={`grid-row grid-cols-${shown.length}${selected ? ' is-selected' : ''}`}
              style={{ transform: `translateY(${v.start - headerHeight}px)` }}
              onFocus={(e) => {
                if (e.target === e.currentTarget && state.focusedKey !== row.key) onState({ ...state, focusedKey: row.key });
              }}
            >
              {cells(row, props.lastRead)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
