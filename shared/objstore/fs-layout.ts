/**
 * How the filesystem driver lays keys out on disk (pure functions).
 *
 * A key `a/b/c.csv` in bucket `data` lives at
 *   <root>/data/d_a/d_b/m_c%2Ecsv.json    the sidecar: etag, size, type, times, metadata — the commit point
 *   <root>/data/d_a/d_b/o_c%2Ecsv.<id>    the bytes of the version the sidecar names
 * Each `/`-separated segment is escaped so any S3 key maps to safe names: bytes outside
 * [a-z0-9_-] become %XX (upper-case letters too, so case-insensitive filesystems cannot merge two
 * keys; `.` too, so `.`/`..` segments are inert). Prefixes keep objects and "folders" of the same
 * name apart (S3 allows both `a` and `a/b`). Listing walks directories in S3 order (UTF-8 bytes
 * of the full key), so a prefix or delimiter listing reads only the directories it needs.
 */
import { ObjstoreError } from './errors.js';

/** Longest escaped segment: filenames are at most 255 bytes, and `o_<seg>.<16 hex>` adds 19. */
export const maxEscapedSegment = 230;

const safeByte = (b: number): boolean =>
  (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === 0x2d;

export function escapeSegment(segment: string): string {
  let out = '';
  for (const b of Buffer.from(segment, 'utf8')) {
    out += safeByte(b) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function unescapeSegment(escaped: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped.charCodeAt(i);
    if (c === 0x25) {
      bytes.push(Number.parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c);
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface KeyLocation {
  /** Escaped directory names from the bucket down (`d_…`). */
  dirs: string[];
  /** Escaped last segment. */
  leaf: string;
}

export function locateKey(key: string): KeyLocation {
  const segments = key.split('/').map(escapeSegment);
  for (const s of segments) {
    if (s.length > maxEscapedSegment) {
      throw new ObjstoreError('KeyTooLong', `a path segment of the key is too long for the filesystem store (${s.length} bytes once escaped, at most ${maxEscapedSegment})`);
    }
  }
  const leaf = segments.pop()!;
  return { dirs: segments.map((s) => `d_${s}`), leaf };
}

export const sidecarName = (leaf: string): string => `m_${leaf}.json`;
export const dataName = (leaf: string, id: string): string => `o_${leaf}.${id}`;

/** A directory entry of interest to listing: an object (by its sidecar) or a sub-folder. */
export type LayoutEntry = { kind: 'object'; segment: string } | { kind: 'dir'; segment: string; name: string };

export function parseEntry(name: string, isDirectory: boolean): LayoutEntry | undefined {
  if (isDirectory && name.startsWith('d_')) return { kind: 'dir', segment: unescapeSegment(name.slice(2)), name };
  if (!isDirectory && name.startsWith('m_') && name.endsWith('.json')) {
    return { kind: 'object', segment: unescapeSegment(name.slice(2, -5)) };
  }
  return undefined;
}

/** S3 orders keys by their UTF-8 bytes (JavaScript's < compares UTF-16 units, which differs above U+FFFF). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Sorts one directory's entries into S3 order. Every key below sub-folder `x` starts with
 * `<base>x/`, so sorting folders by `x/` and objects by `x` orders whole subtrees correctly
 * against their siblings.
 */
export function sortEntries(entries: LayoutEntry[]): LayoutEntry[] {
  const sortKey = (e: LayoutEntry) => Buffer.from(e.kind === 'dir' ? `${e.segment}/` : e.segment, 'utf8');
  return entries
    .map((e) => ({ e, k: sortKey(e) }))
    .sort((x, y) => Buffer.compare(x.k, y.k))
    .map((x) => x.e);
}

/** Where a listing resumes: after `after` (a key or common prefix), skipping keys under `skipPrefix`. */
export interface ListCursor {
  after?: string;
  skipPrefix?: string;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

export function decodeCursor(token: string): ListCursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: unknown; after?: unknown; skipPrefix?: unknown };
    if (value.v !== 1) throw new Error('version');
    const cursor: ListCursor = {};
    if (typeof value.after === 'string') cursor.after = value.after;
    if (typeof value.skipPrefix === 'string') cursor.skipPrefix = value.skipPrefix;
    return cursor;
  } catch {
    throw new ObjstoreError('InvalidArgument', 'the continuation token is not valid', {
      hint: 'Pass next_continuation_token from the previous page unchanged, with the same bucket, prefix and delimiter.',
    });
  }
}

/**
 * Whether the subtree of keys starting with `subtree` can hold a key the listing still wants:
 * one starting with `prefix`, after the cursor.
 */
export function subtreeWanted(subtree: string, prefix: string, cursor: ListCursor): boolean {
  if (!(subtree.startsWith(prefix) || prefix.startsWith(subtree))) return false;
  if (cursor.skipPrefix !== undefined && subtree.startsWith(cursor.skipPrefix)) return false;
  if (cursor.after !== undefined && !cursor.after.startsWith(subtree) && compareKeys(cursor.after, subtree) > 0) return false;
  return true;
}

export function keyWanted(key: string, prefix: string, cursor: ListCursor): boolean {
  if (!key.startsWith(prefix)) return false;
  if (cursor.skipPrefix !== undefined && key.startsWith(cursor.skipPrefix)) return false;
  if (cursor.after !== undefined && compareKeys(key, cursor.after) <= 0) return false;
  return true;
}

/** The common prefix a key rolls up into under a delimiter listing, if any. */
export function commonPrefixOf(key: string, prefix: string, delimiter: string | undefined): string | undefined {
  if (!delimiter) return undefined;
  const at = key.indexOf(delimiter, prefix.length);
  return at < 0 ? undefined : key.slice(0, at + delimiter.length);
}

/**
 * The directory holding the objects directly under `prefix` (empty, or ending in `/`) of `bucket`
 * in a filesystem store rooted at `root`: engines that read the store's files (DuckDB) list it.
 * Its objects' bytes are the `o_…` files there.
 */
export function prefixDirectory(root: string, bucket: string, prefix: string): string {
  const dirs = prefix === '' ? [] : locateKey(`${prefix}x`).dirs;
  return [root.replace(/\/+$/, ''), bucket, ...dirs].join('/');
}
