/**
 * The bulk actions' rules over plain values (no imports, so unit tests reach them without the
 * page's modules): which actions a selection is offered, and which folders a folder kept by a bulk
 * Delete loses.
 */

export type BulkAction = 'move' | 'tag' | 'delete';

/** What the server accepts for one selected item, as its allowed actions say. */
export interface ItemRights {
  library: string;
  move: boolean;
  tag: boolean;
  delete: boolean;
}

/** An action is offered when every item allows it and all of them are in one library. */
export function offeredFor(items: readonly ItemRights[]): BulkAction[] {
  if (items.length === 0 || new Set(items.map((i) => i.library)).size !== 1) return [];
  return (['move', 'tag', 'delete'] as const).filter((a) => items.every((i) => i[a]));
}

/**
 * The folders to delete beneath a folder that stays because files in `kept` folders could not be
 * deleted: the highest ones holding none of them (deleting one takes its empty subfolders along).
 */
export function emptiedFolders(subfolders: readonly string[], kept: ReadonlySet<string>): string[] {
  const holds = (p: string) => [...kept].some((k) => k === p || k.startsWith(`${p}/`));
  const free = subfolders.filter((p) => !holds(p));
  return free.filter((p) => !free.some((q) => p.startsWith(`${q}/`)));
}
