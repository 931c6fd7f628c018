/**
 * What every part of the managed-resources service shares, created once per service: the
 * dependencies, the object store connection and bucket, the write transaction that publishes what
 * it changed (to every replica) and the in-process change listeners, the authority checks, row
 * lookups, and the records a write adds inside its transaction (folders, writers, events,
 * versions, and the jobs its changes ask for: jobs/). The operations (reads.ts, writes.ts, history.ts, folder-writes.ts, listing.ts) reach
 * these through the context; service.ts composes them.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { resourceStoreName, type PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { ensurePlatformBucket, type ObjstoreConnection, type ObjstoreConnections } from '../objstore/index.js';
import { may, refusal, type ResourceAction } from './authority.js';
import { publishResourceChanges } from './change-feed.js';
import { folderAndAncestors } from './folders.js';
import { jobsForChange, recordJobs, type JobRequest, type ResourceJobHandOff } from './jobs/index.js';
import { formatLibrary, libraryKey, sameLibrary } from './library.js';
import { isResourceId, rowLibrary, rowUri, type ResourceRow } from './rows.js';
import {
  ResourceError,
  type Library,
  type ReferenceCounter,
  type ReferenceCounts,
  type ReferencingAssets,
  type ResourceActor,
  type ResourceChangeEvent,
  type ResourceChangeKind,
  type WriteOrigin,
} from './types.js';

export interface ResourceServiceDeps {
  config: PlatformConfig;
  db: Db;
  objstore: ObjstoreConnections;
  log: Pick<Logger, 'warn' | 'error' | 'info' | 'debug'>;
  clock?: () => Date;
  /** Things that may point at a resource (assets, prompts, tables); asked before a delete. */
  references?: ReferenceCounter[];
  /**
   * Starts the jobs a write recorded, right after it commits (this process's dispatcher, with a
   * Temporal client). Without it the jobs wait in the outbox for a sweeper elsewhere.
   */
  jobs?: ResourceJobHandOff;
}

/** What a new version holds, whichever write makes it. */
export interface VersionContent {
  now: Date;
  size: number;
  contentType: string;
  sha256: string | null;
  changeSummary: string | null;
  restoredFrom: number | null;
  origin: WriteOrigin;
  object: StoredObject;
}

/** The objstore connection resource bytes live on (resourceStoreName); fails when none is configured. */
export function resourceConnectionName(config: PlatformConfig): string {
  const name = resourceStoreName(config);
  if (name === undefined) throw new Error('managed resources need an object store: configure toolkits.objstore (or resources.managed.connection)');
  return name;
}

export type Client = pg.PoolClient;

export interface StoredObject {
  bucket: string;
  key: string;
}

export type ResourceContext = ReturnType<typeof createResourceContext>;

/** The service's shared state and helpers; the operations destructure what they use. */
export function createResourceContext(deps: ResourceServiceDeps) {
  const { config, db, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const references = deps.references ?? [];
  const maxVersions = config.resources.managed.max_versions;

  // ---------------------------------------------------------------- object store

  let connection: ObjstoreConnection | undefined;
  let bucketReady: Promise<string> | undefined;
  function objects(): ObjstoreConnection {
    connection ??= deps.objstore.get(resourceConnectionName(config));
    return connection;
  }
  function bucket(): Promise<string> {
    bucketReady ??= ensurePlatformBucket(objects(), 'resources').catch((err: unknown) => {
      bucketReady = undefined;
      throw err;
    });
    return bucketReady;
  }

  async function removeObjects(objs: readonly StoredObject[]): Promise<void> {
    for (const o of objs) {
      try {
        await objects().store.deleteObject(o.bucket, o.key);
      } catch (err) {
        // An orphan object wastes space but breaks nothing; never fail the caller's write for it.
        log.warn({ err: { message: (err as Error).message }, bucket: o.bucket, key: o.key }, 'could not delete a resource object');
      }
    }
  }

  // ---------------------------------------------------------------- change events

  const changeOrigin = randomUUID();
  const listeners = new Set<(event: ResourceChangeEvent) => void>();

  function changeEvent(kind: ResourceChangeKind, row: ResourceRow, before?: ResourceRow): ResourceChangeEvent {
    const left = before && !sameLibrary(rowLibrary(before), rowLibrary(row)) ? rowLibrary(before) : undefined;
    return {
      kind,
      resource: { id: row.id, library: formatLibrary(rowLibrary(row)), uri: rowUri(row) },
      ...(left ? { previousLibrary: formatLibrary(left) } : {}),
    };
  }

  /**
   * A write's transaction, told what it changed: `changed(kind, row, before?)` records a change
   * (`before`, the row as it was, names the library a move left). The jobs the changes ask for
   * (indexing, …) are recorded in the outbox and the changes published to every replica, both
   * inside the transaction (NOTIFY is delivered on commit only); once it committed, this
   * process's dispatcher starts the jobs and its listeners hear of the changes. A rolled-back
   * write records no job and tells no one.
   */
  async function changeTransaction<T>(
    fn: (client: Client, changed: (kind: ResourceChangeKind, row: ResourceRow, before?: ResourceRow) => void) => Promise<T>,
  ): Promise<T> {
    const events: ResourceChangeEvent[] = [];
    const jobs: JobRequest[] = [];
    let workflowIds: string[] = [];
    const result = await withTransaction(db, async (client) => {
      const value = await fn(client, (kind, row, before) => {
        events.push(changeEvent(kind, row, before));
        jobs.push(...jobsForChange(kind, row));
      });
      workflowIds = await recordJobs(client, jobs, clock());
      await publishResourceChanges(client, changeOrigin, events, log);
      return value;
    });
    deps.jobs?.dispatch(workflowIds);
    for (const event of events) announce(event);
    return result;
  }

  /** Starts jobs recorded by a transaction of this service's own (a Recapture), after its commit. */
  function dispatchJobs(workflowIds: readonly string[]): void {
    deps.jobs?.dispatch(workflowIds);
  }

  function announce(event: ResourceChangeEvent): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'resource change listener failed');
      }
    }
  }

  function onChange(listener: (event: ResourceChangeEvent) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  // ---------------------------------------------------------------- authority

  function check(actor: ResourceActor, action: ResourceAction, library: Library, uploader?: string): void {
    if (!may(actor, action, { library, ...(uploader !== undefined ? { uploader } : {}) })) {
      throw new ResourceError('forbidden', refusal(action, formatLibrary(library)));
    }
  }

  /** Read authority for a row: unreadable resources answer not_found, never revealing they exist. */
  function checkVisible(actor: ResourceActor, row: ResourceRow, action: 'read' | 'dereference' = 'dereference'): void {
    if (!may(actor, action, { library: rowLibrary(row) })) throw notFound();
  }

  function checkChange(actor: ResourceActor, row: ResourceRow): void {
    checkVisible(actor, row);
    check(actor, 'change', rowLibrary(row), row.uploader);
  }

  /** Libraries written to must exist: a persona library names a configured persona. */
  function checkLibraryExists(library: Library): void {
    if (library.kind === 'persona' && !Object.hasOwn(config.personas.definitions, library.name)) {
      throw new ResourceError('invalid', `persona "${library.name}" is not configured`);
    }
    if (library.kind === 'person' && library.subject.trim() === '') throw new ResourceError('invalid', 'person library needs a subject');
  }

  // ---------------------------------------------------------------- lookups

  async function rowById(q: Db | Client, id: string, lock = false): Promise<ResourceRow | undefined> {
    if (!isResourceId(id)) return undefined;
    const res = await q.query<ResourceRow>(`SELECT * FROM resources WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return res.rows[0];
  }

  async function rowByAddress(q: Db | Client, library: Library, folderPath: string, fileName: string, lock = false): Promise<ResourceRow | undefined> {
    const { kind, key } = libraryKey(library);
    const res = await q.query<ResourceRow>(
      `SELECT * FROM resources WHERE library_kind = $1 AND library_key = $2 AND folder_path = $3 AND file_name = $4${lock ? ' FOR UPDATE' : ''}`,
      [kind, key, folderPath, fileName],
    );
    return res.rows[0];
  }

  async function visibleRow(actor: ResourceActor, id: string, action: 'read' | 'dereference' = 'dereference'): Promise<ResourceRow> {
    const row = await rowById(db, id);
    if (!row) throw notFound();
    checkVisible(actor, row, action);
    return row;
  }

  async function countReferences(id: string): Promise<ReferenceCounts> {
    return sumCounts(await Promise.all(references.map((r) => r.count(id))));
  }

  /** The referencing assets as `actor` sees them (none without an assets counter). */
  async function referencingAssets(id: string, actor: ResourceActor): Promise<ReferencingAssets> {
    const parts = await Promise.all(references.map((r) => r.referencingAssets?.(id, actor)));
    const total: ReferencingAssets = { named: [], hidden: 0, public_link: false };
    for (const p of parts) {
      if (!p) continue;
      total.named.push(...p.named);
      total.hidden += p.hidden;
      total.public_link ||= p.public_link;
    }
    return total;
  }

  // ---------------------------------------------------------------- inside a write transaction: library locks, records, versions

  async function lockLibrary(client: Client, library: Library, mode: 'shared' | 'exclusive'): Promise<void> {
    const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
    await client.query(`SELECT ${fn}(hashtextextended($1, 0))`, [libraryLockKey(library)]);
  }

  /** Records the folder and each ancestor (spec: every write that files a resource). */
  async function recordFolders(client: Client, library: Library, folderPath: string, now: Date): Promise<void> {
    const paths = folderAndAncestors(folderPath);
    if (paths.length === 0) return;
    const { kind, key } = libraryKey(library);
    await client.query(
      `INSERT INTO resource_folders (library_kind, library_key, path, created_at, updated_at)
       SELECT $1, $2, p, $4, $4 FROM unnest($3::text[]) AS p
       ON CONFLICT (library_kind, library_key, path) DO NOTHING`,
      [kind, key, paths, now],
    );
  }

  async function recordWriter(client: Client, actor: ResourceActor, resourceId: string, created: boolean, now: Date): Promise<void> {
    await client.query(
      `INSERT INTO resource_writers (resource_id, writer_kind, writer_id, display, created, last_written_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (resource_id, writer_kind, writer_id)
       DO UPDATE SET display = EXCLUDED.display, created = resource_writers.created OR EXCLUDED.created, last_written_at = EXCLUDED.last_written_at`,
      [resourceId, actor.writer.kind, writerId(actor), writerDisplay(actor), created, now],
    );
  }

  async function recordEvent(client: Client, resourceId: string, kind: string, actor: ResourceActor, details: object, now: Date): Promise<void> {
    await client.query(
      `INSERT INTO resource_events (resource_id, kind, actor, details, occurred_at) VALUES ($1, $2, $3, $4::jsonb, $5)`,
      [resourceId, kind, actor.subject, JSON.stringify({ writer: actor.writer, ...details }), now],
    );
  }

  async function insertVersion(client: Client, v: VersionContent & { resourceId: string; version: number; uploader: string }): Promise<void> {
    await client.query(
      `INSERT INTO resource_versions (resource_id, version, uploader, created_at, size, content_type, content_sha256, change_summary, restored_from, origin, object_bucket, object_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [v.resourceId, v.version, v.uploader, v.now, v.size, v.contentType, v.sha256, v.changeSummary, v.restoredFrom, v.origin, v.object.bucket, v.object.key],
    );
  }

  /**
   * Drops versions beyond max_versions, oldest first; the head is never among them, nor a version a
   * registered table reads (resource_tables, shared/tables/). Returns their objects.
   */
  async function prune(client: Client, resourceId: string, head: number): Promise<StoredObject[]> {
    const res = await client.query<{ object_bucket: string; object_key: string }>(
      `DELETE FROM resource_versions v WHERE resource_id = $1 AND version <= $2 AND version < $3
         AND NOT EXISTS (SELECT 1 FROM resource_tables t WHERE t.resource_id = v.resource_id AND t.version = v.version)
       RETURNING object_bucket, object_key`,
      [resourceId, head - maxVersions, head],
    );
    return res.rows.map((r) => ({ bucket: r.object_bucket, key: r.object_key }));
  }

  /**
   * Appends version head+1 to a locked row and makes it the head. Returns the updated row and the
   * objects of pruned versions (to delete after commit).
   */
  async function appendVersion(
    client: Client,
    actor: ResourceActor,
    row: ResourceRow,
    v: VersionContent & { eventKind: string },
  ): Promise<{ row: ResourceRow; pruned: StoredObject[] }> {
    const version = row.head_version + 1;
    await insertVersion(client, { resourceId: row.id, version, uploader: actor.subject, ...v });
    const updated = await client.query<ResourceRow>(
      `UPDATE resources SET head_version = $2, size = $3, content_type = $4, content_sha256 = $5, updated_at = $6 WHERE id = $1 RETURNING *`,
      [row.id, version, v.size, v.contentType, v.sha256, v.now],
    );
    await recordFolders(client, rowLibrary(row), row.folder_path, v.now);
    await recordWriter(client, actor, row.id, false, v.now);
    await recordEvent(
      client,
      row.id,
      v.eventKind,
      actor,
      { version, origin: v.origin, ...(v.restoredFrom !== null ? { restored_from: v.restoredFrom } : {}), ...(v.changeSummary ? { change_summary: v.changeSummary } : {}) },
      v.now,
    );
    const pruned = await prune(client, row.id, version);
    return { row: updated.rows[0]!, pruned };
  }

  return {
    config,
    db,
    log,
    clock,
    references,
    objects,
    bucket,
    changeOrigin,
    changeTransaction,
    dispatchJobs,
    onChange,
    removeObjects,
    check,
    checkVisible,
    checkChange,
    checkLibraryExists,
    rowById,
    rowByAddress,
    visibleRow,
    countReferences,
    referencingAssets,
    lockLibrary,
    recordFolders,
    recordWriter,
    recordEvent,
    insertVersion,
    appendVersion,
  };
}

function libraryLockKey(library: Library): string {
  const { kind, key } = libraryKey(library);
  return `resources:${kind}:${key}`;
}

export function notFound(what = 'resource'): ResourceError {
  return new ResourceError('not_found', `${what} not found`);
}

/**
 * The origin of a write whose caller did not name one (a restore): a person writes at the portal,
 * an agent session through its tools, a managed script as itself.
 */
export function actorOrigin(actor: ResourceActor): WriteOrigin {
  switch (actor.writer.kind) {
    case 'person':
      return 'portal';
    case 'agent_session':
      return 'agent';
    case 'script':
      return 'script';
  }
}

function writerDisplay(actor: ResourceActor): string {
  switch (actor.writer.kind) {
    case 'person':
      return actor.writer.subject === actor.subject && actor.email ? actor.email : actor.writer.subject;
    case 'agent_session':
      return actor.writer.sessionId;
    case 'script':
      return actor.writer.name ?? actor.writer.scriptId;
  }
}

function writerId(actor: ResourceActor): string {
  switch (actor.writer.kind) {
    case 'person':
      return actor.writer.subject;
    case 'agent_session':
      return actor.writer.sessionId;
    case 'script':
      return actor.writer.scriptId;
  }
}

function sumCounts(parts: Partial<ReferenceCounts>[]): ReferenceCounts {
  const total: ReferenceCounts = { assets: 0, prompts: 0, tables: 0 };
  for (const p of parts) {
    total.assets += p.assets ?? 0;
    total.prompts += p.prompts ?? 0;
    total.tables += p.tables ?? 0;
  }
  return total;
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
