/**
 * Listing of the filesystem driver (fs-driver.ts): walks a bucket's directories in S3 order
 * (layout and order in fs-layout.ts), starting in the deepest folder the prefix names and
 * descending only into folders that can hold a wanted key, then reads the listed sidecars.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errno, mapFsError } from './fs-io.js';
import {
  commonPrefixOf,
  decodeCursor,
  encodeCursor,
  escapeSegment,
  keyWanted,
  maxEscapedSegment,
  parseEntry,
  sidecarName,
  sortEntries,
  subtreeWanted,
  type ListCursor,
} from './fs-layout.js';
import { readSidecar } from './fs-sidecar.js';
import type { ListOptions, ListPage, ObjectSummary } from './types.js';

/** One page of a bucket's listing, read from its directory (the caller has checked the bucket exists). */
export async function listBucket(bucketDir: string, opts: ListOptions): Promise<ListPage> {
  const prefix = opts.prefix ?? '';
  const delimiter = opts.delimiter ? opts.delimiter : undefined;
  const maxKeys = opts.maxKeys !== undefined && opts.maxKeys > 0 ? Math.min(Math.floor(opts.maxKeys), 1000) : 1000;
  const cursor: ListCursor = opts.continuationToken
    ? decodeCursor(opts.continuationToken)
    : opts.startAfter
      ? { after: opts.startAfter }
      : {};

  // Start in the deepest folder the prefix names in full.
  const prefixDirs = prefix.split('/').slice(0, -1);
  const escaped = prefixDirs.map(escapeSegment);
  if (escaped.some((s) => s.length > maxEscapedSegment)) return { objects: [], commonPrefixes: [], isTruncated: false };
  const startDir = join(bucketDir, ...escaped.map((s) => `d_${s}`));
  const startBase = prefixDirs.length ? `${prefixDirs.join('/')}/` : '';

  const found: Array<{ kind: 'object'; key: string; path: string } | { kind: 'prefix'; prefix: string }> = [];
  let truncated = false;
  const state = { lastPrefix: undefined as string | undefined };
  for await (const item of walk(startDir, startBase, prefix, delimiter, cursor, state)) {
    if (found.length === maxKeys) {
      truncated = true;
      break;
    }
    found.push(item);
  }

  const sidecars = await mapLimit(found, 32, async (item) => (item.kind === 'object' ? readSidecar(item.path) : undefined));
  const objects: ObjectSummary[] = [];
  const commonPrefixes: string[] = [];
  found.forEach((item, i) => {
    if (item.kind === 'prefix') {
      commonPrefixes.push(item.prefix);
      return;
    }
    const sc = sidecars[i];
    if (!sc) return; // deleted while listing
    objects.push({ key: sc.key, size: sc.size, etag: sc.etag, lastModified: new Date(sc.last_modified), storageClass: 'STANDARD' });
  });
  const last = found.at(-1);
  const next: ListCursor | undefined = !truncated || !last
    ? undefined
    : last.kind === 'prefix'
      ? { after: last.prefix, skipPrefix: last.prefix }
      : { after: last.key };
  return { objects, commonPrefixes, isTruncated: truncated, ...(next ? { nextContinuationToken: encodeCursor(next) } : {}) };
}

/** Yields objects and common prefixes in S3 order, descending only into folders that can matter. */
async function* walk(
  dirPath: string,
  base: string,
  prefix: string,
  delimiter: string | undefined,
  cursor: ListCursor,
  state: { lastPrefix: string | undefined },
): AsyncGenerator<{ kind: 'object'; key: string; path: string } | { kind: 'prefix'; prefix: string }> {
  let dirents;
  try {
    dirents = await readdir(dirPath, { withFileTypes: true });
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return;
    throw mapFsError(err, 'listing');
  }
  const entries = sortEntries(dirents.flatMap((d) => parseEntry(d.name, d.isDirectory()) ?? []));
  for (const entry of entries) {
    if (entry.kind === 'object') {
      const key = base + entry.segment;
      if (!keyWanted(key, prefix, cursor)) continue;
      const cp = commonPrefixOf(key, prefix, delimiter);
      if (cp !== undefined) {
        if (cp !== state.lastPrefix) {
          state.lastPrefix = cp;
          yield { kind: 'prefix', prefix: cp };
        }
        continue;
      }
      yield { kind: 'object', key, path: join(dirPath, sidecarName(escapeSegment(entry.segment))) };
      continue;
    }
    const subtree = `${base}${entry.segment}/`;
    if (!subtreeWanted(subtree, prefix, cursor)) continue;
    const sub = join(dirPath, entry.name);
    // A folder whose path already contains the delimiter past the prefix rolls up whole.
    const cp = subtree.startsWith(prefix) ? commonPrefixOf(subtree, prefix, delimiter) : undefined;
    if (cp !== undefined) {
      if (cp !== state.lastPrefix && (await holdsObjects(sub))) {
        state.lastPrefix = cp;
        yield { kind: 'prefix', prefix: cp };
      }
      continue;
    }
    yield* walk(sub, subtree, prefix, delimiter, cursor, state);
  }
}

/** Whether a folder (at any depth) still holds an object; empty leftovers must not show as prefixes. */
async function holdsObjects(dir: string): Promise<boolean> {
  let dirents;
  try {
    dirents = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (dirents.some((d) => !d.isDirectory() && d.name.startsWith('m_'))) return true;
  for (const d of dirents) {
    if (d.isDirectory() && d.name.startsWith('d_') && (await holdsObjects(join(dir, d.name)))) return true;
  }
  return false;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
