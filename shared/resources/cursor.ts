/**
 * Listing order and opaque keyset cursors. Every sort breaks ties by id in the same direction, so
 * (sort key, id) is a total order and a page boundary never skips or repeats a row, whatever
 * changes meanwhile elsewhere in the order.
 */
import { isResourceId } from './rows.js';
import type { ListSort } from './types.js';

/** The cursor key of a file never read (a timestamptz Postgres accepts). */
const NEVER_READ = '-infinity';

export interface SortSpec {
  /** SQL of the sort key (a column of `resources r`). */
  column: string;
  /** SQL turning the key into the text a cursor carries. */
  keyText: string;
  /** SQL cast of the cursor's text back to the key's type. */
  cast: string;
  descending: boolean;
}

const name = { column: 'lower(r.display_name)', keyText: 'lower(r.display_name)', cast: '::text' };
const updated = {
  column: 'r.updated_at',
  keyText: `to_char(r.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  cast: '::timestamptz',
};
const size = { column: 'r.size', keyText: 'r.size::text', cast: '::bigint' };
/** A file never read sorts as -infinity (the index `resources_folder_last_read` has the same expression). */
const lastRead = {
  column: `coalesce(r.last_read_at, '-infinity'::timestamptz)`,
  keyText: `CASE WHEN r.last_read_at IS NULL THEN '${NEVER_READ}' ELSE to_char(r.last_read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') END`,
  cast: '::timestamptz',
};

/**
 * name / size ascend, updated and last_read start with the most recent (never-read files last);
 * the `_desc` / `_asc` variants reverse them.
 */
export const sortSpecs: Record<ListSort, SortSpec> = {
  name: { ...name, descending: false },
  name_desc: { ...name, descending: true },
  updated: { ...updated, descending: true },
  updated_asc: { ...updated, descending: false },
  size: { ...size, descending: false },
  size_desc: { ...size, descending: true },
  last_read: { ...lastRead, descending: true },
  last_read_asc: { ...lastRead, descending: false },
};

/** Sorts that reveal when files were read: platform administrators only (as `last_read_at` is). */
export function isLastReadSort(sort: ListSort): boolean {
  return sort === 'last_read' || sort === 'last_read_asc';
}

export const listSorts = Object.keys(sortSpecs) as ListSort[];

export function isListSort(value: string): value is ListSort {
  return Object.hasOwn(sortSpecs, value);
}

export interface CursorPosition {
  sort: ListSort;
  /** The listing path the cursor was issued for: a cursor is valid only for the same listing. */
  path: string;
  direct: boolean;
  key: string;
  id: string;
}

export function encodeCursor(pos: CursorPosition): string {
  return Buffer.from(JSON.stringify([pos.sort, pos.path, pos.direct ? 1 : 0, pos.key, pos.id]), 'utf8').toString('base64url');
}

const timestamp = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A real UTC instant in the form `updated` and `last_read` keys take (Postgres refuses 2025-02-30 as a timestamptz). */
function isTimestampKey(key: string): boolean {
  if (!timestamp.test(key)) return false;
  const ms = Date.parse(`${key.slice(0, 23)}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === key.slice(0, 19);
}

/**
 * Whether `key` is text the sort issues. A cursor is client input that reaches a query cast to the
 * key's type: a forged one must be refused here (400), not by Postgres (500).
 */
function isSortKey(sort: ListSort, key: string): boolean {
  if (sort === 'updated' || sort === 'updated_asc') return isTimestampKey(key);
  if (isLastReadSort(sort)) return key === NEVER_READ || isTimestampKey(key);
  if (sort === 'size' || sort === 'size_desc') return /^\d{1,18}$/.test(key);
  return !key.includes('\u0000');
}

/** Undefined when the cursor is not one this module issued. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
    const [sort, path, direct, key, id] = parsed as unknown[];
    if (typeof sort !== 'string' || !isListSort(sort) || typeof path !== 'string' || typeof key !== 'string' || typeof id !== 'string') return undefined;
    if (direct !== 0 && direct !== 1) return undefined;
    if (!isSortKey(sort, key) || !isResourceId(id)) return undefined;
    return { sort, path, direct: direct === 1, key, id };
  } catch {
    return undefined;
  }
}
