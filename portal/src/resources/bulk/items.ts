/**
 * What a selection in the listing stands for (spec document 2, "Upload rules in the portal": bulk
 * actions), and which bulk actions it is offered: a file, or a folder of a library standing for
 * every file beneath it. An action is offered only when the server would accept it for every
 * item, as each item's allowed actions say (a file: `change` / `delete`; a folder: the folder's
 * `delete`, the authority to add files there, which is also the authority over every file in it).
 * Rows that are no file or folder of a library (a top-level folder, People, the top-level files
 * row) take no bulk action.
 */
import type { FolderRef } from '../address';
import { filesLabel } from '../tree/FolderTree';
import type { ListedResource, Row } from '../listing/rows';
import { offeredFor, type BulkAction } from './rules';

export type { BulkAction } from './rules';

export type BulkItem =
  | { kind: 'file'; key: string; name: string; resource: ListedResource }
  | { kind: 'folder'; key: string; name: string; folder: FolderRef; delete: boolean };


/** The selected rows as bulk items, in listing order; undefined when one of them takes no bulk action. */
export function selectedItems(rows: readonly Row[], selected: ReadonlySet<string>): BulkItem[] | undefined {
  const items: BulkItem[] = [];
  for (const row of rows) {
    if (!selected.has(row.key)) continue;
    if (row.type === 'file') items.push({ kind: 'file', key: row.key, name: row.resource.display_name, resource: row.resource });
    else if (row.type === 'folder' && row.kind === 'folder' && row.folder && row.folder.path !== '') {
      items.push({ kind: 'folder', key: row.key, name: row.name, folder: row.folder, delete: row.actions?.delete === true });
    } else return undefined;
  }
  return items;
}

export function libraryOf(item: BulkItem): string {
  return item.kind === 'file' ? item.resource.library : item.folder.library;
}

/** Whether the server accepts `action` for the item (a folder: its rename route and the files beneath). */
export function allows(item: BulkItem, action: BulkAction): boolean {
  if (item.kind === 'folder') return item.delete;
  return action === 'delete' ? item.resource.allowed_actions.delete : item.resource.allowed_actions.change;
}

/** The bulk actions offered for the items: each one every item allows, all in one library. */
export function offeredActions(items: readonly BulkItem[]): BulkAction[] {
  return offeredFor(items.map((i) => ({ library: libraryOf(i), move: allows(i, 'move'), tag: allows(i, 'tag'), delete: allows(i, 'delete') })));
}

/** "2 files and 1 folder". */
export function itemsLabel(items: readonly BulkItem[]): string {
  const files = items.filter((i) => i.kind === 'file').length;
  const folders = items.length - files;
  return [files > 0 ? filesLabel(files) : '', folders > 0 ? `${folders.toLocaleString()} ${folders === 1 ? 'folder' : 'folders'}` : ''].filter(Boolean).join(' and ');
}

export const actionLabels: Record<BulkAction, string> = { move: 'Move to…', tag: 'Tag…', delete: 'Delete…' };
