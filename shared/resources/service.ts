/**
 * The managed-resources service: every write in one database transaction, bytes in the object
 * store (one object per version, written before the transaction that records it and removed
 * again when that transaction fails or loses a race), authority from authority.ts.
 *
 * Concurrency, in short:
 *  - one live resource per address: the unique index `resources_address` decides; the loser of
 *    two simultaneous creates re-reads the winner (row lock) and answers per its if_exists;
 *  - writes to an existing resource lock its row (`SELECT … FOR UPDATE`) and re-check it, so a
 *    replace racing a delete either lands before the delete (whose object sweep then includes
 *    it) or finds the resource gone (not_found, its uploaded object removed);
 *  - filing into a library takes a shared advisory lock on the library, folder delete an
 *    exclusive one, so a folder cannot be deleted while a file is being filed into it.
 */
import type { Readable } from 'node:stream';
import type pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import type { AuditLog } from '../audit/index.js';
import { auditActive, resourceStoreName, type PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { ensurePlatformBucket, isObjstoreError, type ObjstoreConnection, type ObjstoreConnections } from '../objstore/index.js';
import { isAgent, may, refusal, type ResourceAction } from './authority.js';
import { chooseContentType, contentTypeFromName } from './content-type.js';
import { folderAndAncestors, normalizeFolderPath } from './folders.js';
import {
  addressOrThrow,
  createDetails,
  descriptionOrThrow,
  executableTypeOrThrow,
  fileNameOrThrow,
  folderPathOrThrow,
  libraryOrThrow,
  replaceDetails,
  updateDetails,
} from './input.js';
import { formatLibrary, formatLibraryPath, libraryKey, LibraryTextError, parseLibraryPath, sameLibrary } from './library.js';
import { createResourceListing } from './listing.js';
import { isResourceId, rowLibrary, rowUri, toVersionView, toView, toWriterView, type ResourceRow, type VersionRow, type WriterRow } from './rows.js';
import {
  ResourceError,
  type CreateInput,
  type CreateOutcome,
  type CreateResult,
  type IfExists,
  type Library,
  type ReadDoor,
  type ReferenceCounter,
  type ReferenceCounts,
  type ReplaceInput,
  type ResourceActor,
  type ResourceChangeEvent,
  type ResourceService,
  type ResourceView,
  type UpdateInput,
  type UsageView,
  type VersionView,
  type WriterView,
} from './types.js';
import { storeUpload as putUpload } from './upload.js';
import { parseCanonicalUri, parseReference } from './uri.js';

export interface ResourceServiceDeps {
  config: PlatformConfig;
  db: Db;
  objstore: ObjstoreConnections;
  log: Pick<Logger, 'warn' | 'error' | 'info' | 'debug'>;
  /** Read audit entries go here (only while auditActive(config)). */
  audit?: AuditLog;
  clock?: () => Date;
  /** Things that may point at a resource (assets, prompts, tables); asked before a delete. */
  references?: ReferenceCounter[];
}


const readDoors: readonly ReadDoor[] = ['resources_read', 'search_fetch', 'portal_download', 'portal_preview'];

/** The tool name a read is audited under (spec: content reads are recorded by door). */
export const auditToolOfDoor: Record<ReadDoor, string> = {
  resources_read: 'resources/read',
  search_fetch: 'search_fetch',
  portal_download: 'portal_download',
  portal_preview: 'portal_preview',
};


/** The objstore connection resource bytes live on (resourceStoreName); fails when none is configured. */
export function resourceConnectionName(config: PlatformConfig): string {
  const name = resourceStoreName(config);
  if (name === undefined) throw new Error('managed resources need an object store: configure toolkits.objstore (or resources.managed.connection)');
  return name;
}

type Client = pg.PoolClient;

interface StoredObject {
  bucket: string;
  key: string;
}

function libraryLockKey(library: Library): string {
  const { kind, key } = libraryKey(library);
  return `resources:${kind}:${key}`;
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '23505';
}

function notFound(what = 'resource'): ResourceError {
  return new ResourceError('not_found', `${what} not found`);
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

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function createResourceService(deps: ResourceServiceDeps): ResourceService {
  const { config, db, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const references = deps.references ?? [];
  const maxBytes = config.resources.managed.max_upload_bytes;
  const maxVersions = config.resources.managed.max_versions;
  const listeners = new Set<(event: ResourceChangeEvent) => void>();

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

  // ---------------------------------------------------------------- helpers

  function emit(kind: ResourceChangeEvent['kind'], row: ResourceRow): void {
    const event: ResourceChangeEvent = { kind, resource: { id: row.id, library: formatLibrary(rowLibrary(row)), uri: rowUri(row) } };
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'resource change listener failed');
      }
    }
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

  const listing = createResourceListing({ config, db, check });

  /** Libraries written to must exist: a persona library names a configured persona. */
  function checkLibraryExists(library: Library): void {
    if (library.kind === 'persona' && !Object.hasOwn(config.personas.definitions, library.name)) {
      throw new ResourceError('invalid', `persona "${library.name}" is not configured`);
    }
    if (library.kind === 'person' && library.subject.trim() === '') throw new ResourceError('invalid', 'person library needs a subject');
  }

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

  async function insertVersion(
    client: Client,
    v: {
      resourceId: string;
      version: number;
      uploader: string;
      now: Date;
      size: number;
      contentType: string;
      sha256: string | null;
      changeSummary: string | null;
      restoredFrom: number | null;
      object: StoredObject;
    },
  ): Promise<void> {
    await client.query(
      `INSERT INTO resource_versions (resource_id, version, uploader, created_at, size, content_type, content_sha256, change_summary, restored_from, object_bucket, object_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [v.resourceId, v.version, v.uploader, v.now, v.size, v.contentType, v.sha256, v.changeSummary, v.restoredFrom, v.object.bucket, v.object.key],
    );
  }

  /** Drops versions beyond max_versions, oldest first; the head is never among them. Returns their objects. */
  async function prune(client: Client, resourceId: string, head: number): Promise<StoredObject[]> {
    const res = await client.query<{ object_bucket: string; object_key: string }>(
      `DELETE FROM resource_versions WHERE resource_id = $1 AND version <= $2 AND version < $3 RETURNING object_bucket, object_key`,
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
    v: { size: number; contentType: string; sha256: string | null; changeSummary: string | null; restoredFrom: number | null; object: StoredObject; now: Date; eventKind: string },
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
      { version, ...(v.restoredFrom !== null ? { restored_from: v.restoredFrom } : {}), ...(v.changeSummary ? { change_summary: v.changeSummary } : {}) },
      v.now,
    );
    const pruned = await prune(client, row.id, version);
    return { row: updated.rows[0]!, pruned };
  }

  /** Drains a body the service will not read, so the caller's stream (an HTTP upload) completes. */
  function discard(body: Readable): void {
    if (!body.destroyed && !body.readableEnded) body.resume();
  }

  function contentTypeFor(fileName: string, declared: string | undefined, fallback?: string): string {
    const d = declared?.trim();
    if (d && d.toLowerCase() !== 'application/octet-stream') return d;
    return contentTypeFromName(fileName) ?? fallback ?? chooseContentType(fileName, declared);
  }

  // ---------------------------------------------------------------- create

  async function create(actor: ResourceActor, input: CreateInput): Promise<CreateResult> {
    let details: ReturnType<typeof createDetails>;
    let contentType: string;
    let existing: ResourceRow | undefined;
    const ifExists: IfExists = input.if_exists ?? 'fail';
    try {
      if (!['fail', 'skip_unchanged', 'replace'].includes(ifExists)) {
        throw new ResourceError('invalid', 'if_exists must be one of fail, skip_unchanged, replace');
      }
      details = createDetails(input);
      contentType = contentTypeFor(details.fileName, details.declaredType);
      executableTypeOrThrow(details.fileName, contentType, details.declaredType);
      const { library, folderPath, fileName } = details;
      existing = await rowByAddress(db, library, folderPath, fileName);
      const mayChangeExisting = existing !== undefined && ifExists !== 'fail' && may(actor, 'change', { library, uploader: existing.uploader }) && may(actor, 'dereference', { library });
      if (!mayChangeExisting) {
        check(actor, 'add', library);
        checkLibraryExists(library);
      }
      if (existing && ifExists === 'fail') throw conflictAt(existing);
    } catch (err) {
      discard(input.body);
      throw err;
    }
    const { library, folderPath, fileName, displayName, description, tags, searchSetting, changeSummary } = details;

    const newId = uuidv7();
    const object: StoredObject = { bucket: await bucket(), key: `${existing?.id ?? newId}/${uuidv7()}` };
    const stored = await (async () => {
      try {
        return await storeUpload(object, input.body, fileName, contentType);
      } catch (err) {
        discard(input.body);
        throw err;
      }
    })();

    let outcome: CreateOutcome = 'created';
    let pruned: StoredObject[] = [];
    let keepObject = false;
    try {
      const row = await withTransaction(db, async (client) => {
        await lockLibrary(client, library, 'shared');
        const now = clock();
        let current = await rowByAddress(client, library, folderPath, fileName, true);
        if (!current) {
          const inserted = await client.query<ResourceRow>(
            `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, description, tags, content_type, size, content_sha256, head_version, search_setting, uploader, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $13, $14, $14)
             ON CONFLICT (library_kind, library_key, folder_path, file_name) DO NOTHING
             RETURNING *`,
            [newId, libraryKey(library).kind, libraryKey(library).key, folderPath, fileName, displayName, description, tags, contentType, stored.size, stored.sha256, searchSetting, actor.subject, now],
          );
          const fresh = inserted.rows[0];
          if (fresh) {
            await insertVersion(client, {
              resourceId: fresh.id,
              version: 1,
              uploader: actor.subject,
              now,
              size: stored.size,
              contentType,
              sha256: stored.sha256,
              changeSummary,
              restoredFrom: null,
              object,
            });
            await recordFolders(client, library, folderPath, now);
            await recordWriter(client, actor, fresh.id, true, now);
            await recordEvent(client, fresh.id, 'created', actor, { version: 1, origin: input.origin }, now);
            outcome = 'created';
            keepObject = true;
            return fresh;
          }
          // Lost the race to a simultaneous create: the winner's row is there now.
          current = await rowByAddress(client, library, folderPath, fileName, true);
          if (!current) throw new ResourceError('conflict', `the address ${formatLibraryPath(library, folderPath)}/${fileName} changed while uploading; try again`);
        }
        if (ifExists === 'fail') throw conflictAt(current);
        checkChange(actor, current);
        if (ifExists === 'skip_unchanged' && current.content_sha256 !== null && current.content_sha256 === stored.sha256) {
          outcome = 'unchanged';
          return current;
        }
        const appended = await appendVersion(client, actor, current, {
          size: stored.size,
          contentType,
          sha256: stored.sha256,
          changeSummary,
          restoredFrom: null,
          object,
          now,
          eventKind: 'revised',
        });
        pruned = appended.pruned;
        outcome = 'revised';
        keepObject = true;
        return appended.row;
      });
      if (!keepObject) await removeObjects([object]);
      await removeObjects(pruned);
      if (outcome === 'created') emit('created', row);
      else if (outcome === 'revised') emit('replaced', row);
      return { outcome, resource: toView(row, actor) };
    } catch (err) {
      await removeObjects([object]);
      throw err;
    }
  }

  function conflictAt(row: ResourceRow): ResourceError {
    const at = formatLibraryPath(rowLibrary(row), row.folder_path);
    return new ResourceError('conflict', `a file named "${row.file_name}" already exists in ${at} (${rowUri(row)})`, {
      existing: { id: row.id, uri: rowUri(row), file_name: row.file_name },
    });
  }

  async function storeUpload(object: StoredObject, body: Readable, fileName: string, contentType: string) {
    return putUpload(objects().store, object, body, { fileName, contentType, maxBytes });
  }

  // ---------------------------------------------------------------- reads

  async function get(actor: ResourceActor, id: string): Promise<ResourceView> {
    return toView(await visibleRow(actor, id), actor);
  }

  /** The live row at a canonical URI, else the resource that most recently vacated it. */
  async function rowAtUri(uri: string): Promise<ResourceRow | undefined> {
    const parsed = parseCanonicalUri(uri);
    if (!parsed) return undefined;
    addressOrThrow(parsed);
    const live = await rowByAddress(db, parsed.library, parsed.folderPath, parsed.fileName);
    if (live) return live;
    // Aliases are stored in canonical form; re-encode what was given so equivalent spellings match.
    const canonical = rowUri({ ...libraryColumns(parsed.library), folder_path: parsed.folderPath, file_name: parsed.fileName });
    const alias = await db.query<ResourceRow>(
      `SELECT r.* FROM resource_aliases a JOIN resources r ON r.id = a.resource_id WHERE a.uri = $1 ORDER BY a.vacated_at DESC LIMIT 1`,
      [canonical],
    );
    return alias.rows[0];
  }

  async function resolve(actor: ResourceActor, text: string): Promise<ResourceView> {
    const t = text.trim();
    const id = parseReference(t) ?? (isResourceId(t) ? t : undefined);
    if (id !== undefined) return get(actor, id);
    let row: ResourceRow | undefined;
    if (t.startsWith('mcp://')) {
      if (!parseCanonicalUri(t)) throw new ResourceError('invalid', `"${text}" is not a resource address (mcp://user/…, mcp://persona/…, mcp://global/…)`);
      row = await rowAtUri(t);
    } else {
      // `<library text>/<folder path>/<file name>`, e.g. `global/templates/report.docx`.
      const slash = t.lastIndexOf('/');
      if (slash < 0) {
        throw new ResourceError('invalid', `"${text}" is neither mcp:resource:<id>, an mcp:// address, nor <library>/<folder>/<file name>`);
      }
      let parsed;
      try {
        parsed = parseLibraryPath(t.slice(0, slash), actor.subject);
      } catch (err) {
        if (err instanceof LibraryTextError) throw new ResourceError('invalid', err.message);
        throw err;
      }
      const fileName = t.slice(slash + 1);
      row = await rowAtUri(rowUri({ ...libraryColumns(parsed.library), folder_path: normalizeFolderPath(parsed.folderPath), file_name: fileName }));
    }
    if (!row) throw notFound();
    checkVisible(actor, row);
    return toView(row, actor);
  }

  async function openContent(actor: ResourceActor, id: string, door: ReadDoor): Promise<{ resource: ResourceView; body: Readable }> {
    if (!readDoors.includes(door)) throw new ResourceError('invalid', `unknown read door ${String(door)}`);
    // MCP resources/read is membership-scoped; the other doors follow the by-id rule.
    const row = await visibleRow(actor, id, door === 'resources_read' ? 'read' : 'dereference');
    const head = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 AND version = $2`, [row.id, row.head_version]);
    const version = head.rows[0];
    if (!version) throw notFound('resource content');
    let body: Readable;
    try {
      body = (await objects().store.getObject(version.object_bucket, version.object_key)).body;
    } catch (err) {
      // Deleted or replaced-and-pruned between the row read and the object read.
      if (isObjstoreError(err, 'NoSuchKey')) throw notFound('resource content');
      throw err;
    }
    const now = clock();
    try {
      // An image tile (portal_preview) is audited but does not stamp last read (spec).
      if (door !== 'portal_preview') await db.query(`UPDATE resources SET last_read_at = $2 WHERE id = $1`, [row.id, now]);
      if (auditActive(config)) {
        await db.query(`INSERT INTO resource_reads (resource_id, door, reader, read_at) SELECT id, $2, $3, $4 FROM resources WHERE id = $1`, [
          row.id,
          door,
          actor.subject,
          now,
        ]);
        deps.audit?.record({
          occurredAt: now,
          subject: actor.subject,
          ...(actor.email ? { email: actor.email } : {}),
          authType: actor.authType ?? 'unknown',
          ...(actor.activePersona ? { persona: actor.activePersona } : {}),
          tool: auditToolOfDoor[door],
          parameters: { reference: `mcp:resource:${row.id}`, uri: rowUri(row), version: row.head_version },
          durationMs: 0,
          outcome: 'ok',
          ...(actor.writer.kind === 'agent_session' ? { sessionId: actor.writer.sessionId } : {}),
        });
      }
    } catch (err) {
      body.destroy();
      throw err;
    }
    const stamped = door !== 'portal_preview' ? { ...row, last_read_at: now } : row;
    return { resource: toView(stamped, actor), body };
  }

  // ---------------------------------------------------------------- writes by id

  async function update(actor: ResourceActor, id: string, input: UpdateInput): Promise<ResourceView> {
    const { displayName, description, tags, searchSetting, targetPath, library: targetLibrary } = updateDetails(input);

    let moved = false;
    const row = await withTransaction(db, async (client) => {
      const current = await rowById(client, id, true);
      if (!current) throw notFound();
      checkChange(actor, current);
      const fromLibrary = rowLibrary(current);
      const toLibrary = targetLibrary ?? fromLibrary;
      const toPath = targetPath ?? current.folder_path;
      const libraryChanges = !sameLibrary(fromLibrary, toLibrary);
      const now = clock();
      moved = libraryChanges || toPath !== current.folder_path;
      if (libraryChanges) {
        if (isAgent(actor)) {
          throw new ResourceError('forbidden', 'agents cannot move resources between libraries; a person can, with Edit details > Top-level folder');
        }
        check(actor, 'move_to', toLibrary);
        checkLibraryExists(toLibrary);
      }
      if (moved) {
        // Re-filing a name applies today's name rule: a legacy name now refused stays where it is.
        fileNameOrThrow(current.file_name);
        await lockLibrary(client, toLibrary, 'shared');
        const collision = await rowByAddress(client, toLibrary, toPath, current.file_name);
        if (collision && collision.id !== current.id) throw conflictAt(collision);
      }
      const { kind, key } = libraryKey(toLibrary);
      let updated;
      try {
        updated = await client.query<ResourceRow>(
          `UPDATE resources SET library_kind = $2, library_key = $3, folder_path = $4,
             display_name = COALESCE($5, display_name), description = COALESCE($6, description),
             tags = COALESCE($7, tags), search_setting = COALESCE($8, search_setting), updated_at = $9
           WHERE id = $1 RETURNING *`,
          [id, kind, key, toPath, displayName ?? null, description ?? null, tags ?? null, searchSetting ?? null, now],
        );
      } catch (err) {
        if (isUniqueViolation(err)) {
          const taken = await rowByAddress(db, toLibrary, toPath, current.file_name);
          if (taken) throw conflictAt(taken);
          throw new ResourceError('conflict', `a file named "${current.file_name}" already exists in ${formatLibraryPath(toLibrary, toPath)}`);
        }
        throw err;
      }
      const next = updated.rows[0]!;
      if (moved) {
        const fromUri = rowUri(current);
        await client.query(
          `INSERT INTO resource_aliases (uri, resource_id, vacated_at) VALUES ($1, $2, $3)
           ON CONFLICT (uri, resource_id) DO UPDATE SET vacated_at = EXCLUDED.vacated_at`,
          [fromUri, id, now],
        );
        await recordFolders(client, toLibrary, toPath, now);
        await recordEvent(
          client,
          id,
          'moved',
          actor,
          {
            from: { library: formatLibrary(fromLibrary), path: current.folder_path, uri: fromUri },
            to: { library: formatLibrary(toLibrary), path: toPath, uri: rowUri(next) },
          },
          now,
        );
      }
      const edited = {
        ...(displayName !== undefined ? { display_name: displayName } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(tags !== undefined ? { tags } : {}),
        ...(searchSetting !== undefined ? { search_setting: searchSetting } : {}),
      };
      if (Object.keys(edited).length > 0) await recordEvent(client, id, 'updated', actor, { fields: Object.keys(edited) }, now);
      await recordWriter(client, actor, id, false, now);
      return next;
    });
    emit('updated', row);
    return toView(row, actor);
  }

  async function replaceContent(actor: ResourceActor, id: string, input: ReplaceInput): Promise<ResourceView> {
    let current: ResourceRow;
    let contentType: string;
    let details: ReturnType<typeof replaceDetails>;
    try {
      details = replaceDetails(input);
      current = await visibleRow(actor, id);
      checkChange(actor, current);
      // The file name is kept whatever the upload was called; the type follows the new bytes.
      contentType = contentTypeFor(current.file_name, details.declaredType, current.content_type);
      executableTypeOrThrow(current.file_name, contentType, details.declaredType);
    } catch (err) {
      discard(input.body);
      throw err;
    }
    const object: StoredObject = { bucket: await bucket(), key: `${id}/${uuidv7()}` };
    const stored = await (async () => {
      try {
        return await storeUpload(object, input.body, current.file_name, contentType);
      } catch (err) {
        discard(input.body);
        throw err;
      }
    })();
    return commitHead(actor, id, object, {
      size: stored.size,
      contentType,
      sha256: stored.sha256,
      changeSummary: details.changeSummary,
      restoredFrom: null,
      eventKind: 'replaced',
    });
  }

  /**
   * Records an already-stored object as the resource's new head: under the row lock (the resource
   * may have been deleted or lost to the caller meanwhile), prune, tell listeners. If anything
   * fails, the object is removed so no bytes are left without a version row.
   */
  async function commitHead(
    actor: ResourceActor,
    id: string,
    object: StoredObject,
    v: { size: number; contentType: string; sha256: string | null; changeSummary: string | null; restoredFrom: number | null; eventKind: string },
  ): Promise<ResourceView> {
    try {
      const result = await withTransaction(db, async (client) => {
        const locked = await rowById(client, id, true);
        if (!locked) throw notFound();
        checkChange(actor, locked);
        return appendVersion(client, actor, locked, { ...v, object, now: clock() });
      });
      await removeObjects(result.pruned);
      emit('replaced', result.row);
      return toView(result.row, actor);
    } catch (err) {
      await removeObjects([object]);
      throw err;
    }
  }

  async function restore(actor: ResourceActor, id: string, version: number): Promise<ResourceView> {
    if (!Number.isInteger(version) || version < 1) throw new ResourceError('invalid', 'version must be a positive integer');
    const current = await visibleRow(actor, id);
    checkChange(actor, current);
    const source = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 AND version = $2`, [id, version]);
    const from = source.rows[0];
    if (!from) throw new ResourceError('not_found', `version ${version} of this resource does not exist (it may have been pruned)`);
    // A copy, not a shared object: pruning the source version later must not take these bytes.
    const object: StoredObject = { bucket: await bucket(), key: `${id}/${uuidv7()}` };
    try {
      await objects().store.copyObject({ bucket: from.object_bucket, key: from.object_key }, object);
    } catch (err) {
      if (isObjstoreError(err, 'NoSuchKey')) throw new ResourceError('not_found', `version ${version} of this resource has no stored content`);
      throw err;
    }
    return commitHead(actor, id, object, {
      size: Number(from.size),
      contentType: from.content_type,
      sha256: from.content_sha256,
      changeSummary: `restored from version ${version}`,
      restoredFrom: version,
      eventKind: 'restored',
    });
  }

  async function countReferences(id: string): Promise<ReferenceCounts> {
    return sumCounts(await Promise.all(references.map((r) => r.count(id))));
  }

  async function remove(actor: ResourceActor, id: string, opts: { force: boolean }): Promise<void> {
    const current = await visibleRow(actor, id);
    checkChange(actor, current);
    const counts = await countReferences(id);
    const referenced = counts.assets + counts.prompts + counts.tables > 0;
    if (referenced && !opts.force) {
      throw new ResourceError(
        'conflict',
        `"${current.file_name}" is used by ${plural(counts.assets, 'asset', 'assets')}, ${plural(counts.prompts, 'prompt', 'prompts')} and ${plural(counts.tables, 'registered table', 'registered tables')}; delete with force to delete it anyway`,
        { references: counts },
      );
    }
    const { row, objs } = await withTransaction(db, async (client) => {
      const locked = await rowById(client, id, true);
      if (!locked) throw notFound();
      checkChange(actor, locked);
      // Read under the lock: a replace that committed first has its version (and object) here.
      const versions = await client.query<{ object_bucket: string; object_key: string }>(
        `SELECT object_bucket, object_key FROM resource_versions WHERE resource_id = $1`,
        [id],
      );
      await client.query(`DELETE FROM resources WHERE id = $1`, [id]);
      await recordEvent(client, id, 'deleted', actor, { uri: rowUri(locked), force: opts.force, references: counts }, clock());
      return { row: locked, objs: versions.rows.map((v) => ({ bucket: v.object_bucket, key: v.object_key })) };
    });
    await removeObjects(objs);
    if (referenced) {
      for (const r of references) {
        try {
          await r.released?.(id);
        } catch (err) {
          log.warn({ err: { message: (err as Error).message }, resourceId: id }, 'reference counter could not release a deleted resource');
        }
      }
    }
    emit('deleted', row);
  }

  // ---------------------------------------------------------------- history, usage, writers

  async function versions(actor: ResourceActor, id: string): Promise<VersionView[]> {
    await visibleRow(actor, id);
    const res = await db.query<VersionRow>(`SELECT * FROM resource_versions WHERE resource_id = $1 ORDER BY version DESC`, [id]);
    return res.rows.map(toVersionView);
  }

  async function usage(actor: ResourceActor, id: string): Promise<UsageView> {
    await visibleRow(actor, id);
    const zero = (): Record<ReadDoor, number> => ({ resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 });
    const view: UsageView = { last_read_at: null, last_30_days: zero(), last_90_days: zero() };
    // Usage is derived from the read trail, which exists only while audit runs (spec).
    if (!auditActive(config)) return view;
    const now = clock().getTime();
    const day = 86_400_000;
    const res = await db.query<{ door: ReadDoor; n30: number; n90: number; last: Date | null }>(
      `SELECT door,
              count(*) FILTER (WHERE read_at > $2)::int AS n30,
              count(*) FILTER (WHERE read_at > $3)::int AS n90,
              max(read_at) AS last
       FROM resource_reads WHERE resource_id = $1 GROUP BY door`,
      [id, new Date(now - 30 * day), new Date(now - 90 * day)],
    );
    let last: Date | null = null;
    for (const r of res.rows) {
      view.last_30_days[r.door] = r.n30;
      view.last_90_days[r.door] = r.n90;
      if (r.last && r.door !== 'portal_preview' && (!last || r.last > last)) last = r.last;
    }
    view.last_read_at = last ? last.toISOString() : null;
    return view;
  }

  async function usedBy(actor: ResourceActor, id: string): Promise<ReferenceCounts> {
    await visibleRow(actor, id);
    return countReferences(id);
  }

  async function writers(actor: ResourceActor, id: string): Promise<WriterView[]> {
    await visibleRow(actor, id);
    const res = await db.query<WriterRow>(
      `SELECT writer_kind, writer_id, display, created, last_written_at FROM resource_writers WHERE resource_id = $1
       ORDER BY last_written_at DESC, writer_kind, writer_id`,
      [id],
    );
    return res.rows.map(toWriterView);
  }

  // ---------------------------------------------------------------- folders

  function folderTarget(actor: ResourceActor, library: Library, path: string, action: ResourceAction): string {
    libraryOrThrow(library);
    const folder = folderPathOrThrow(path);
    if (folder === '') throw new ResourceError('invalid', 'the library root is not a folder; name a folder path');
    check(actor, action, library);
    checkLibraryExists(library);
    return folder;
  }

  async function createFolder(actor: ResourceActor, library: Library, path: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'add');
    await withTransaction(db, async (client) => {
      await lockLibrary(client, library, 'shared');
      await recordFolders(client, library, folder, clock());
    });
  }

  async function deleteFolder(actor: ResourceActor, library: Library, path: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'add');
    const { kind, key } = libraryKey(library);
    await withTransaction(db, async (client) => {
      // Exclusive: no file can be filed into this library until the delete commits.
      await lockLibrary(client, library, 'exclusive');
      const exists = await client.query(`SELECT 1 FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND path = $3`, [kind, key, folder]);
      if (exists.rowCount === 0) throw new ResourceError('not_found', `folder ${formatLibraryPath(library, folder)} not found`);
      const held = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM resources WHERE library_kind = $1 AND library_key = $2 AND (folder_path = $3 OR folder_path LIKE $3 || '/%')`,
        [kind, key, folder],
      );
      const n = held.rows[0]?.n ?? 0;
      if (n > 0) {
        throw new ResourceError('conflict', `folder ${formatLibraryPath(library, folder)} still holds ${plural(n, 'file', 'files')}; only an empty folder can be deleted`, {
          count: n,
        });
      }
      // Its empty subfolders go with it: a folder row never outlives its ancestors.
      await client.query(`DELETE FROM resource_folders WHERE library_kind = $1 AND library_key = $2 AND (path = $3 OR path LIKE $3 || '/%')`, [kind, key, folder]);
    });
  }

  async function describeFolder(actor: ResourceActor, library: Library, path: string, description: string): Promise<void> {
    const folder = folderTarget(actor, library, path, 'describe_folder');
    const text = descriptionOrThrow(description) ?? '';
    const { kind, key } = libraryKey(library);
    await withTransaction(db, async (client) => {
      await lockLibrary(client, library, 'shared');
      const now = clock();
      // Describing a folder that does not exist yet creates it (and its ancestors), as PUT would.
      await recordFolders(client, library, folder, now);
      await client.query(`UPDATE resource_folders SET description = $4, updated_at = $5 WHERE library_kind = $1 AND library_key = $2 AND path = $3`, [
        kind,
        key,
        folder,
        text,
        now,
      ]);
    });
  }

  function onChange(listener: (event: ResourceChangeEvent) => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  return {
    create,
    get,
    resolve,
    openContent,
    ...listing,
    update,
    replaceContent,
    delete: remove,
    versions,
    restore,
    usage,
    usedBy,
    writers,
    createFolder,
    deleteFolder,
    describeFolder,
    onChange,
  };
}

function libraryColumns(library: Library): { library_kind: string; library_key: string } {
  const { kind, key } = libraryKey(library);
  return { library_kind: kind, library_key: key };
}

