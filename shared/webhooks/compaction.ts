/**
 * The compaction of one window (spec document 3, "Webhook window", row `compacting`): every raw
 * segment of the window plus its previous Parquet file — read in place on the filesystem driver,
 * copied into a private temp directory from S3 — are merged on DuckDB (compaction-duckdb.ts) into
 * one Parquet file holding the earliest received event per event id, stored as the managed
 * resource `webhooks/{source}/{dt}/{HH}-{MM}.parquet` in the persona's library (a recompaction is a
 * new version of it), and the window's compacted partition is placed over that version's
 * directory, so the view reads the window from Parquet.
 *
 * Pure I/O, no Temporal: the compaction workflow's activity calls compactWindow. Every step may be
 * repeated: the file's content is a function of the events (a rerun reads the previous file, which
 * holds the same events), an unchanged file makes no version, and placing the partition where it
 * already is changes nothing — so a worker killed at any step and retried ends with the same
 * content and one registration.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import { attachedByFile, type AttachedTables } from '../search/attached-tables.js';
import { ResourceError, type Library, type ResourceActor, type ResourceService } from '../resources/index.js';
import { canonicalUri } from '../resources/uri.js';
import { prefixDirectory } from '../objstore/index.js';
import type { ScratchStorage, StorageLocation } from '../sql/scratch/index.js';
import { mergeToParquet } from './compaction-duckdb.js';
import { rawWindowPrefix, webhookTableName, type Window } from './layout.js';
import type { WebhookTableCatalog } from './table.js';

export interface CompactionDeps {
  /** The platform's storage: raw segments are read from it (the resources live there too). */
  storage: ScratchStorage;
  tables: WebhookTableCatalog;
  resources: ResourceService;
  config: PlatformConfig;
  /** Scratch space: each compaction makes a directory of its own under it and removes it. */
  tempDir: string;
  /** Temporal heartbeats from the caller, after each step and each segment copied (from S3). */
  heartbeat?: (detail: { step: string; segments?: number }) => void;
}

export interface CompactionTarget {
  source: { id: string; name: string; connection: string; persona: string };
  window: Pick<Window, 'dt' | 'hour' | 'minute'>;
}

export interface CompactionResult {
  resourceId: string;
  version: number;
  sha256: string;
  events: number;
  /** Rows of the window's raw segments not kept: its duplicates as of this compaction (a recompaction counts earlier ones again). */
  duplicatesDropped: number;
  segments: number;
  /** False when the head version already had this content (no version was made). */
  created: boolean;
}

/** The written file of a window, before it is stored. */
export interface CompactedFile {
  path: string;
  sha256: string;
  events: number;
  duplicatesDropped: number;
  segments: number;
}

/** The stored file: its resource version and the directory holding exactly it. */
export interface StoredWindowFile {
  resourceId: string;
  version: number;
  sha256: string;
  created: boolean;
  location: StorageLocation;
}

/**
 * DuckDB's memory a merge needs with one thread, and per thread beyond it (a thread's JSON reader
 * buffers, its share of the row groups in flight). Measured on a window of 200,000 1 KiB events
 * (test/bench/webhooks-compaction.ts): one thread in 512 MiB always passed; two to four threads
 * in 512 MiB failed one run in five or so (one allocation of 100 MiB); two and eight in 1 GiB
 * always passed.
 */
const MERGE_MEMORY_BASE = 512 * 2 ** 20;
const MERGE_MEMORY_PER_THREAD = 64 * 2 ** 20;

/** Where a window's file is filed: the persona's library, folder `webhooks/{source}/{dt}`, name `{HH}-{MM}.parquet`. */
export function compactedFileAddress(target: CompactionTarget): { library: Library; path: string; fileName: string } {
  const { source, window } = target;
  return { library: { kind: 'persona', name: source.persona }, path: `webhooks/${source.name}/${window.dt}`, fileName: `${window.hour}-${window.minute}.parquet` };
}

/** The uploader of every compacted file. */
export const COMPACTOR_SUBJECT = 'platform:webhook-compactor';

/**
 * The platform writing a persona's compacted files: administrator of that persona's library only
 * (it adds and revises files there, nothing else), recorded as the script `webhook-compactor`.
 */
export function compactorActor(persona: string): ResourceActor {
  return {
    subject: COMPACTOR_SUBJECT,
    personas: [persona],
    adminOfPersonas: [persona],
    platformAdmin: false,
    writer: { kind: 'script', scriptId: 'webhook-compactor', name: 'webhook compaction' },
    authType: 'platform',
  };
}

/** Compacts the window: writes, stores and registers its file (see the module comment). */
export async function compactWindow(deps: CompactionDeps, target: CompactionTarget): Promise<CompactionResult> {
  const dir = await mkdtemp(join(deps.tempDir, 'webhook-compaction-'));
  try {
    const file = await writeCompactedFile(deps, target, dir);
    const stored = await storeCompactedFile(deps, target, file);
    // The source's table is checked and repaired before the window is placed in it: a compaction
    // that cannot restore it fails (and its failure is recorded on the window), never reports success.
    await deps.tables.create(target.source);
    await deps.tables.registerCompactedWindow(target.source, target.window, stored.version, stored.location);
    deps.heartbeat?.({ step: 'registered' });
    const { resourceId, version, sha256, created } = stored;
    return { resourceId, version, sha256, created, events: file.events, duplicatesDropped: file.duplicatesDropped, segments: file.segments };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Merges the window's segments and previous file into `dir`/window.parquet: read where they lie on
 * the filesystem driver, copied into `dir` first from S3.
 */
export async function writeCompactedFile(deps: CompactionDeps, target: CompactionTarget, dir: string): Promise<CompactedFile> {
  const segments = await segmentFiles(deps, target, dir);
  deps.heartbeat?.({ step: 'segments ready', segments: segments.length });
  const previous = await previousFile(deps, target, dir);
  if (previous !== undefined) deps.heartbeat?.({ step: 'previous file ready', segments: segments.length });
  const output = join(dir, 'window.parquet');
  await mkdir(join(dir, 'duckdb'));
  const merged = await mergeToParquet({
    segments,
    ...(previous !== undefined ? { previous } : {}),
    window: target.window,
    output,
    tempDir: dir,
    ...mergeBounds(deps.config),
  });
  deps.heartbeat?.({ step: 'merged', segments: segments.length });
  return { path: output, sha256: await sha256Of(output), segments: segments.length, ...merged };
}

/**
 * DuckDB's bounds for a merge: `webhooks.compactor.memory_limit`, and a thread per core as far as
 * that memory allows: a thread per 64 MiB beyond 512 MiB, at least one (DuckDB spills into the
 * compaction's temp directory past its limit). The file's bytes do not depend on the thread count.
 */
export function mergeBounds(config: PlatformConfig, cores = availableParallelism()): { memoryLimitBytes: number; threads: number } {
  const memoryLimitBytes = config.webhooks.compactor.memory_limit;
  const threadsAllowed = Math.floor((memoryLimitBytes - MERGE_MEMORY_BASE) / MERGE_MEMORY_PER_THREAD);
  return { memoryLimitBytes, threads: Math.max(1, Math.min(cores, threadsAllowed)) };
}

/**
 * The window's raw segments as local files: the store's own files on the filesystem driver (the
 * `o_…` files of the window's directory, what the raw view reads), else copies in `dir`.
 */
async function segmentFiles(deps: CompactionDeps, target: CompactionTarget, dir: string): Promise<string[]> {
  const { storage } = deps;
  const prefix = rawWindowPrefix(target.source.name, target.window);
  const root = filesystemRoot(storage);
  if (root !== undefined) {
    const directory = prefixDirectory(root, storage.bucket, prefix);
    return (await filesIn(directory)).filter((name) => name.startsWith('o_')).sort().map((name) => join(directory, name));
  }
  const segments: string[] = [];
  for (const key of await listKeys(storage, prefix)) {
    const local = join(dir, `segment-${segments.length}.jsonl.gz`);
    await download((await storage.connection.store.getObject(storage.bucket, key)).body, local);
    segments.push(local);
    deps.heartbeat?.({ step: 'copying segments', segments: segments.length });
  }
  return segments;
}

/**
 * The head version's file of the window's resource, or undefined before its first compaction: on
 * the filesystem driver the `o_…` file of the version's directory, which holds exactly it (what
 * the compacted view reads); else a copy in `dir`.
 */
async function previousFile(deps: CompactionDeps, target: CompactionTarget, dir: string): Promise<string | undefined> {
  const object = await previousObject(deps, target);
  if (object === undefined) return undefined;
  const root = filesystemRoot(deps.storage);
  if (root !== undefined) return `${prefixDirectory(root, object.bucket, object.key.slice(0, object.key.lastIndexOf('/') + 1))}/o_*`;
  const local = join(dir, 'previous.parquet');
  await download((await deps.storage.connection.store.getObject(object.bucket, object.key)).body, local);
  return local;
}

/** The store's root directory when it is the filesystem driver, whose objects are files DuckDB reads in place. */
function filesystemRoot(storage: ScratchStorage): string | undefined {
  return storage.connection.driver === 'filesystem' ? storage.connection.root : undefined;
}

/** The names in `directory`; none when it does not exist (a window whose raw segments were removed). */
async function filesIn(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Stores the file as the window's resource: created, or a new version of it with a change
 * summary, or nothing when the head already has this content. Its bytes lie alone in their
 * version's directory, the location the partition is placed over.
 */
export async function storeCompactedFile(deps: CompactionDeps, target: CompactionTarget, file: CompactedFile): Promise<StoredWindowFile> {
  const actor = compactorActor(target.source.persona);
  const address = compactedFileAddress(target);
  const { outcome, resource } = await deps.resources.create(actor, {
    library: address.library,
    path: address.path,
    file_name: address.fileName,
    object_name: address.fileName,
    content_type: 'application/vnd.apache.parquet',
    // Names the table the events are queried through; search also attaches it (compactedWindowTables).
    description:
      `Webhook events of source ${target.source.name}, window ${target.window.dt} ${target.window.hour}:${target.window.minute} UTC, one row per event id; ` +
      `query them as the table ${webhookTableName(target.source.name)} of connection ${target.source.connection}.`,
    // Search finds it by its details; a Parquet file's bytes are not text to index.
    search_setting: 'details_only',
    if_exists: 'skip_unchanged',
    change_summary: `compacted: ${file.events} events from ${file.segments} segments, ${file.duplicatesDropped} duplicates dropped`,
    origin: 'webhook',
    body: createReadStream(file.path),
  });
  deps.heartbeat?.({ step: 'stored', segments: file.segments });
  const { object } = await deps.resources.headObject(actor, resource.id);
  const slash = object.key.lastIndexOf('/');
  const location = { bucket: object.bucket, prefix: object.key.slice(0, slash + 1) };
  return { resourceId: resource.id, version: resource.version, sha256: file.sha256, created: outcome !== 'unchanged', location };
}

/** The head version's object of the window's resource, or undefined before its first compaction. */
async function previousObject(deps: CompactionDeps, target: CompactionTarget): Promise<{ bucket: string; key: string } | undefined> {
  const actor = compactorActor(target.source.persona);
  const address = compactedFileAddress(target);
  try {
    const resource = await deps.resources.resolve(actor, canonicalUri(address.library, address.path, address.fileName));
    return (await deps.resources.headObject(actor, resource.id)).object;
  } catch (error) {
    if (error instanceof ResourceError && error.code === 'not_found') return undefined;
    throw error;
  }
}

/** Every key under `prefix` in the platform storage, page by page. */
export async function listKeys(storage: ScratchStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const page = await storage.connection.store.listObjects(storage.bucket, { prefix, delimiter: '/', maxKeys: 1000, ...(continuationToken ? { continuationToken } : {}) });
    keys.push(...page.objects.map((o) => o.key).filter((key) => key.endsWith('.jsonl.gz')));
    continuationToken = page.nextContinuationToken;
  } while (continuationToken);
  return keys.sort();
}

async function download(body: Readable, path: string): Promise<void> {
  await pipeline(body, createWriteStream(path, { flags: 'wx' }));
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The source's table attached to each compacted file (search shows it with the file: spec
 * document 3, "found by search with the table attached"): a file the compactor uploaded under
 * `webhooks/{source}/` in the source persona's library.
 */
export function compactedWindowTables(db: Pick<Db, 'query'>): AttachedTables {
  return async (resourceIds) => {
    // Source names are [a-z0-9-]: nothing in them is a LIKE wildcard.
    const res = await db.query<{ id: string; connection: string; name: string }>(
      `SELECT r.id, w.connection, w.name FROM resources r
         JOIN webhook_sources w ON r.library_kind = 'persona' AND r.library_key = w.persona AND r.folder_path LIKE 'webhooks/' || w.name || '/%'
        WHERE r.id = ANY($1::text[]) AND r.uploader = $2`,
      [resourceIds, COMPACTOR_SUBJECT],
    );
    return attachedByFile(res.rows.map((row) => ({ resourceId: row.id, connection: row.connection, table: webhookTableName(row.name) })));
  };
}
