/**
 * The asset service: rows in Postgres (migrations/0030_assets.sql), bytes in the objstore
 * connection `portal.s3_connection` (else the first instance), bucket `portal.s3_bucket` (else the
 * platform's `artifacts` bucket), under `portal.s3_prefix`, one object per version — written
 * before the transaction that records it and removed again when that transaction fails.
 *
 * Authority, in short: the owner (who saved it first) and platform administrators read, change,
 * delete and share an asset; the person a live private share names may read it; anyone else gets
 * the same not_found as for an asset that does not exist. Share links are 32 random bytes, kept
 * only as their SHA-256; a revoked, expired or unknown token, and a private share opened by someone
 * else, all answer the same not_found.
 */
import { randomBytes } from 'node:crypto';
import { auditRow, insertAuditRows, type AuditEntry } from '../audit/index.js';
import { auditActive, type PlatformConfig } from '../config/index.js';
import { uuidv7 } from '../crypto/index.js';
import { withTransaction, type Db } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { ensurePlatformBucket, type ObjstoreConnection, type ObjstoreConnections } from '../objstore/index.js';
import { referenceOf, ResourceError, type ResourceService } from '../resources/index.js';
import {
  assetContentType,
  checkContent,
  checkDescription,
  checkName,
  checkSize,
  checkSources,
  decodeAssetCursor,
  encodeAssetCursor,
  isTextType,
  MAX_ASSET_VERSIONS,
  MAX_CHANGE_SUMMARY_CHARS,
  MAX_PROVENANCE_CALLS,
  normaliseTags,
  referenceCandidates,
  type AssetContentType,
} from './rules.js';
import {
  AssetError,
  type AssetActions,
  type AssetActor,
  type AssetContent,
  type AssetDetail,
  type AssetListPage,
  type AssetListQuery,
  type AssetResourceReference,
  type AssetService,
  type AssetUpdate,
  type AssetVersionView,
  type AssetView,
  type Provenance,
  type ProvenanceCall,
  type SaveInput,
  type SaveResult,
} from './types.js';

import { createShareOperations } from './shares.js';
import { type AssetRow, type Client, DEFAULT_LIMIT, MAX_LIMIT, type VersionRow, assetColumns, createHashHex, escapeLike, namesCaller, notFound, readBody } from './rows.js';

export interface AssetServiceDeps {
  config: PlatformConfig;
  db: Db;
  objstore: ObjstoreConnections;
  /** Resolves the resources an asset points at (references, URIs) as the caller may see them. */
  resources?: ResourceService;
  log: Pick<Logger, 'warn' | 'error' | 'info' | 'debug'>;
  clock?: () => Date;
  /** The base of portal links (portal.public_base_url, else the api's own URL once it listens). */
  publicBaseUrl?: () => string | undefined;
}

export function createAssetService(deps: AssetServiceDeps): AssetService {
  const { config, db, log } = deps;
  const clock = deps.clock ?? (() => new Date());
  const maxBytes = config.portal.max_content_size;
  const prefix = config.portal.s3_prefix === '' || config.portal.s3_prefix.endsWith('/') ? config.portal.s3_prefix : `${config.portal.s3_prefix}/`;

  let store: Promise<{ connection: ObjstoreConnection; bucket: string }> | undefined;
  /** The connection and bucket of asset bytes, the bucket created on first use. */
  function storage(): Promise<{ connection: ObjstoreConnection; bucket: string }> {
    store ??= (async () => {
      const name = config.portal.s3_connection ?? Object.keys(config.toolkits.objstore).sort()[0];
      if (name === undefined) throw new Error('assets need an object store: configure toolkits.objstore and portal.s3_bucket');
      const connection = deps.objstore.get(name);
      await connection.ready();
      let bucket: string;
      if (config.portal.s3_bucket) {
        bucket = config.portal.s3_bucket;
        connection.checkBucket(bucket);
        await connection.ensureBucket(bucket);
      } else {
        bucket = await ensurePlatformBucket(connection, 'artifacts');
      }
      return { connection, bucket };
    })();
    store.catch(() => (store = undefined));
    return store;
  }

  function baseUrl(): string | undefined {
    const base = config.portal.public_base_url || deps.publicBaseUrl?.();
    return base ? base.replace(/\/+$/, '') : undefined;
  }

  function actionsOf(actor: AssetActor, row: AssetRow): AssetActions {
    const manage = row.owner === actor.subject || actor.platformAdmin;
    return { read: manage || row.recipient === true, change: manage, delete: manage, share: manage };
  }

  function toView(actor: AssetActor, row: AssetRow): AssetView {
    const base = baseUrl();
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      tags: row.tags,
      content_type: row.content_type,
      size: Number(row.size),
      content_sha256: row.content_sha256,
      version: row.head_version,
      owner: { subject: row.owner, ...(row.owner_email ? { email: row.owner_email } : {}) },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      ...(base ? { portal_url: `${base}/portal/assets/${row.id}` } : {}),
      shares: { active: row.active_shares ?? 0, public_link: row.public_link ?? false },
      allowed_actions: actionsOf(actor, row),
    };
  }

  function toVersionView(row: VersionRow): AssetVersionView {
    return {
      version: row.version,
      content_type: row.content_type,
      size: Number(row.size),
      content_sha256: row.content_sha256,
      author: row.author,
      origin: row.origin,
      change_summary: row.change_summary,
      restored_from: row.restored_from,
      session_id: row.session_id,
      calls_recorded: row.calls.length,
      created_at: row.created_at.toISOString(),
    };
  }

  async function rowFor(q: Db | Client, actor: AssetActor, id: string, lock = false): Promise<AssetRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const res = await q.query<AssetRow>(`SELECT ${assetColumns} FROM assets a WHERE a.id = $4${lock ? ' FOR UPDATE OF a' : ''}`, [clock(), actor.subject, actor.email?.toLowerCase() ?? null, id]);
    return res.rows[0];
  }

  /** The asset when the caller may read it; not_found otherwise (whether or not it exists). */
  async function readable(actor: AssetActor, id: string, q: Db | Client = db, lock = false): Promise<AssetRow> {
    const row = await rowFor(q, actor, id, lock);
    if (!row || !actionsOf(actor, row).read) throw notFound();
    return row;
  }

  /** The asset when the caller may change it: not_found when it may not even read it, forbidden when it only reads. */
  async function changeable(actor: AssetActor, id: string, q: Db | Client = db, lock = false): Promise<AssetRow> {
    const row = await readable(actor, id, q, lock);
    if (!actionsOf(actor, row).change) throw new AssetError('forbidden', 'only the asset\'s owner or a platform administrator may change, delete or share it');
    return row;
  }

  async function recordEvent(actor: AssetActor, tool: string, parameters: Record<string, unknown>, q: Db | Client = db): Promise<void> {
    if (!auditActive(config) || actor.writer.kind !== 'person') return;
    const at = clock();
    const entry: AuditEntry = {
      occurredAt: at,
      subject: actor.subject,
      ...(actor.email ? { email: actor.email } : {}),
      authType: actor.authType ?? 'unknown',
      ...(actor.activePersona ? { persona: actor.activePersona } : {}),
      tool,
      parameters,
      durationMs: 0,
      outcome: 'ok',
    };
    await insertAuditRows(q, [auditRow(entry, at.getTime())]);
  }

  // ------------------------------------------------------------------ references, provenance

  /** The resources the texts point at that the saver may open (unknown and unreadable ones are not recorded). */
  async function resolveReferences(actor: AssetActor, texts: string[]): Promise<string[]> {
    const resources = deps.resources;
    if (!resources) return [];
    const { ids, uris } = referenceCandidates(texts);
    const found = new Set<string>();
    const tryResolve = async (run: () => Promise<{ id: string }>) => {
      try {
        found.add((await run()).id);
      } catch (error) {
        if (!(error instanceof ResourceError)) throw error;
      }
    };
    for (const id of ids) await tryResolve(() => resources.get(actor, id));
    for (const uri of uris) await tryResolve(() => resources.resolve(actor, uri));
    return [...found];
  }

  async function provenanceCalls(actor: AssetActor): Promise<{ sessionId: string | null; calls: ProvenanceCall[] }> {
    if (actor.writer.kind !== 'agent_session') return { sessionId: null, calls: [] };
    const sessionId = actor.writer.sessionId;
    if (!auditActive(config) || sessionId === 'stdio') return { sessionId, calls: [] };
    try {
      const res = await db.query<{ id: string; tool: string; occurred_at: Date; outcome: string }>(
        `SELECT id, tool, occurred_at, outcome FROM audit_log WHERE session_id = $1 AND occurred_at <= $2 ORDER BY occurred_at DESC, id DESC LIMIT $3`,
        [sessionId, clock(), MAX_PROVENANCE_CALLS],
      );
      return { sessionId, calls: res.rows.reverse().map((r) => ({ id: r.id, tool: r.tool, at: r.occurred_at.toISOString(), outcome: r.outcome })) };
    } catch (error) {
      log.warn({ err: { message: (error as Error).message } }, 'asset provenance: the session\'s tool calls could not be read');
      return { sessionId, calls: [] };
    }
  }

  async function referencesView(actor: AssetActor, assetId: string): Promise<AssetResourceReference[]> {
    const res = await db.query<{ resource_id: string; exists: boolean }>(
      // The resources table is read for existence alone: a forced delete leaves the reference, reported missing.
      `SELECT r.resource_id, EXISTS (SELECT 1 FROM resources x WHERE x.id = r.resource_id) AS exists
         FROM asset_references r WHERE r.asset_id = $1 ORDER BY r.resource_id`,
      [assetId],
    );
    const out: AssetResourceReference[] = [];
    for (const r of res.rows) {
      const base = { resource_id: r.resource_id, reference: referenceOf(r.resource_id) };
      if (!r.exists) {
        out.push({ ...base, missing: true, readable: false });
        continue;
      }
      try {
        const resource = await deps.resources!.get(actor, r.resource_id);
        out.push({ ...base, missing: false, readable: true, name: resource.display_name, uri: resource.uri });
      } catch (error) {
        if (!(error instanceof ResourceError)) throw error;
        out.push({ ...base, missing: false, readable: false });
      }
    }
    return out;
  }

  function provenanceOf(row: VersionRow): Provenance {
    return { origin: row.origin, author: row.author, session_id: row.session_id, calls: row.calls, sources: row.sources };
  }

  // ------------------------------------------------------------------ writes

  async function putObject(id: string, version: number, bytes: Buffer, type: string): Promise<{ bucket: string; key: string }> {
    const { connection, bucket } = await storage();
    const key = `${prefix}assets/${id}/${version}-${randomBytes(6).toString('hex')}`;
    await connection.store.putObject(bucket, key, bytes, { contentType: type });
    return { bucket, key };
  }

  async function removeObjects(objects: Array<{ bucket: string; key: string }>): Promise<void> {
    if (objects.length === 0) return;
    const { connection } = await storage();
    for (const o of objects) {
      try {
        await connection.store.deleteObject(o.bucket, o.key);
      } catch (error) {
        log.warn({ err: { message: (error as Error).message }, key: o.key }, 'asset object could not be removed');
      }
    }
  }

  async function replaceReferences(client: Client, assetId: string, resourceIds: string[]): Promise<void> {
    await client.query(`DELETE FROM asset_references WHERE asset_id = $1`, [assetId]);
    if (resourceIds.length > 0) {
      await client.query(`INSERT INTO asset_references (asset_id, resource_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [assetId, resourceIds]);
    }
  }

  /** Versions past MAX_ASSET_VERSIONS (never the head): their rows go, their objects are returned for removal. */
  async function pruneVersions(client: Client, assetId: string): Promise<Array<{ bucket: string; key: string }>> {
    const res = await client.query<{ object_bucket: string; object_key: string }>(
      `DELETE FROM asset_versions WHERE asset_id = $1 AND version NOT IN (
         SELECT version FROM asset_versions WHERE asset_id = $1 ORDER BY version DESC LIMIT $2)
       RETURNING object_bucket, object_key`,
      [assetId, MAX_ASSET_VERSIONS],
    );
    return res.rows.map((r) => ({ bucket: r.object_bucket, key: r.object_key }));
  }

  interface NewVersion {
    type: AssetContentType;
    bytes: Buffer;
    sha256: string;
    changeSummary: string | null;
    restoredFrom: number | null;
    sessionId: string | null;
    calls: ProvenanceCall[];
    sources: string[];
    references: string[];
  }

  async function insertVersion(client: Client, actor: AssetActor, id: string, version: number, v: NewVersion, object: { bucket: string; key: string }, now: Date): Promise<void> {
    await client.query(
      `INSERT INTO asset_versions (asset_id, version, content_type, size, content_sha256, object_bucket, object_key, author, origin,
                                   change_summary, restored_from, session_id, calls, sources, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        id,
        version,
        v.type,
        v.bytes.length,
        v.sha256,
        object.bucket,
        object.key,
        actor.subject,
        // An agent's session or a managed script's run is an agent's save; a person's is theirs.
        actor.writer.kind === 'person' ? 'person' : 'agent',
        v.changeSummary,
        v.restoredFrom,
        v.sessionId,
        JSON.stringify(v.calls),
        v.sources,
        now,
      ],
    );
  }

  /** Writes the next version of an existing asset (locked, re-checked) from `v`; answers the new head. */
  async function commitVersion(actor: AssetActor, id: string, v: NewVersion, details: AssetUpdate = {}): Promise<AssetRow> {
    const current = await changeable(actor, id);
    let object: { bucket: string; key: string } | undefined = await putObject(id, current.head_version + 1, v.bytes, v.type);
    try {
      const { row, pruned } = await withTransaction(db, async (client) => {
        const locked = await changeable(actor, id, client, true);
        const version = locked.head_version + 1;
        const now = clock();
        if (version !== current.head_version + 1) {
          // Another save won the race: this object is keyed for its version number; write a fresh one.
          await removeObjects([object!]);
          object = await putObject(id, version, v.bytes, v.type);
        }
        await insertVersion(client, actor, id, version, v, object!, now);
        await client.query(
          `UPDATE assets SET content_type = $2, size = $3, content_sha256 = $4, head_version = $5, updated_at = $6,
                  name = COALESCE($7, name), description = COALESCE($8, description), tags = COALESCE($9, tags)
            WHERE id = $1`,
          [id, v.type, v.bytes.length, v.sha256, version, now, details.name ?? null, details.description ?? null, details.tags ?? null],
        );
        await replaceReferences(client, id, v.references);
        const pruned = await pruneVersions(client, id);
        return { row: (await rowFor(client, actor, id))!, pruned };
      });
      object = undefined;
      await removeObjects(pruned);
      return row;
    } finally {
      if (object) await removeObjects([object]);
    }
  }

  function sha256(bytes: Buffer): string {
    return createHashHex(bytes);
  }

  async function save(actor: AssetActor, input: SaveInput): Promise<SaveResult> {
    const type = assetContentType(input.content_type);
    checkSize(input.content.length, maxBytes);
    checkContent(type, input.content);
    const name = input.name !== undefined ? checkName(input.name) : undefined;
    const description = input.description !== undefined ? checkDescription(input.description) : undefined;
    const tags = input.tags !== undefined ? normaliseTags(input.tags) : undefined;
    const sources = checkSources(input.sources ?? []);
    const changeSummary = input.change_summary?.trim() || null;
    if (changeSummary && [...changeSummary].length > MAX_CHANGE_SUMMARY_CHARS) throw new AssetError('invalid', `change_summary is longer than ${MAX_CHANGE_SUMMARY_CHARS} characters`);
    if (input.asset_id !== undefined) await changeable(actor, input.asset_id);
    else if (name === undefined) throw new AssetError('invalid', 'name is required for a new asset');
    const texts = isTextType(type) ? [input.content.toString('utf8'), ...sources] : sources;
    const references = await resolveReferences(actor, texts);
    const { sessionId, calls } = await provenanceCalls(actor);
    const v: NewVersion = { type, bytes: input.content, sha256: sha256(input.content), changeSummary, restoredFrom: null, sessionId, calls, sources, references };
    const provenance = { captured: sessionId !== null || calls.length > 0, calls_recorded: calls.length, session_id: sessionId };

    if (input.asset_id !== undefined) {
      const row = await commitVersion(actor, input.asset_id, v, { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}), ...(tags !== undefined ? { tags } : {}) });
      return { asset: toView(actor, row), created: false, version: row.head_version, provenance };
    }

    const id = uuidv7();
    const object = await putObject(id, 1, input.content, type);
    try {
      const row = await withTransaction(db, async (client) => {
        const now = clock();
        await client.query(
          `INSERT INTO assets (id, owner, owner_email, name, description, tags, content_type, size, content_sha256, head_version, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10)`,
          [id, actor.subject, actor.email ?? null, name!, description ?? '', tags ?? [], type, input.content.length, v.sha256, now],
        );
        await insertVersion(client, actor, id, 1, v, object, now);
        await replaceReferences(client, id, references);
        return (await rowFor(client, actor, id))!;
      });
      return { asset: toView(actor, row), created: true, version: 1, provenance };
    } catch (error) {
      await removeObjects([object]);
      throw error;
    }
  }

  async function restore(actor: AssetActor, id: string, version: number): Promise<AssetView> {
    const current = await changeable(actor, id);
    const res = await db.query<VersionRow>(`SELECT * FROM asset_versions WHERE asset_id = $1 AND version = $2`, [id, version]);
    const from = res.rows[0];
    if (!from) throw new AssetError('not_found', `version ${version} of this asset is not kept (versions kept: the latest ${MAX_ASSET_VERSIONS})`);
    if (version === current.head_version) throw new AssetError('conflict', `version ${version} is already the current version`);
    const { connection } = await storage();
    const got = await connection.store.getObject(from.object_bucket, from.object_key);
    const bytes = await readBody(got.body);
    const texts = isTextType(from.content_type) ? [bytes.toString('utf8'), ...from.sources] : from.sources;
    const references = await resolveReferences(actor, texts);
    const row = await commitVersion(actor, id, {
      type: from.content_type,
      bytes,
      sha256: from.content_sha256,
      changeSummary: `restored from version ${version}`,
      restoredFrom: version,
      sessionId: from.session_id,
      calls: from.calls,
      sources: from.sources,
      references,
    });
    await recordEvent(actor, 'portal_asset_restore', { asset_id: id, version });
    return toView(actor, row);
  }

  async function update(actor: AssetActor, id: string, changes: AssetUpdate): Promise<AssetView> {
    const name = changes.name !== undefined ? checkName(changes.name) : undefined;
    const description = changes.description !== undefined ? checkDescription(changes.description) : undefined;
    const tags = changes.tags !== undefined ? normaliseTags(changes.tags) : undefined;
    if (name === undefined && description === undefined && tags === undefined) throw new AssetError('invalid', 'update changes nothing: give name, description or tags');
    const row = await withTransaction(db, async (client) => {
      await changeable(actor, id, client, true);
      await client.query(
        `UPDATE assets SET name = COALESCE($2, name), description = COALESCE($3, description), tags = COALESCE($4, tags), updated_at = $5 WHERE id = $1`,
        [id, name ?? null, description ?? null, tags ?? null, clock()],
      );
      await recordEvent(actor, 'portal_asset_update', { asset_id: id, ...changes }, client);
      return (await rowFor(client, actor, id))!;
    });
    return toView(actor, row);
  }

  async function remove(actor: AssetActor, id: string): Promise<void> {
    const objects = await withTransaction(db, async (client) => {
      await changeable(actor, id, client, true);
      const versions = await client.query<{ object_bucket: string; object_key: string }>(`SELECT object_bucket, object_key FROM asset_versions WHERE asset_id = $1`, [id]);
      await client.query(`DELETE FROM assets WHERE id = $1`, [id]);
      await recordEvent(actor, 'portal_asset_delete', { asset_id: id }, client);
      return versions.rows.map((v) => ({ bucket: v.object_bucket, key: v.object_key }));
    });
    await removeObjects(objects);
  }

  // ------------------------------------------------------------------ reads

  async function list(actor: AssetActor, query: AssetListQuery): Promise<AssetListPage> {
    const limit = Math.min(Math.max(query.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
    if (query.scope === 'all' && !actor.platformAdmin) throw new AssetError('forbidden', 'only platform administrators list every asset (scope all)');
    const params: unknown[] = [clock(), actor.subject, actor.email?.toLowerCase() ?? null];
    const where: string[] = [];
    if (query.scope === 'mine') where.push('a.owner = $2');
    if (query.scope === 'shared_with_me') where.push(`EXISTS (SELECT 1 FROM asset_shares s WHERE s.asset_id = a.id AND ${namesCaller('s', '$1', '$2', '$3')})`);
    const words = (query.query ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 10);
    for (const word of words) {
      params.push(`%${escapeLike(word)}%`);
      const p = `$${params.length}`;
      where.push(`(a.name ILIKE ${p} OR a.description ILIKE ${p} OR EXISTS (SELECT 1 FROM unnest(a.tags) t WHERE t ILIKE ${p}))`);
    }
    if (query.cursor) {
      const { updatedAt, id } = decodeAssetCursor(query.cursor);
      params.push(updatedAt, id);
      where.push(`(a.updated_at, a.id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const res = await db.query<AssetRow>(
      `SELECT ${assetColumns} FROM assets a ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.updated_at DESC, a.id DESC LIMIT $${params.length}`,
      params,
    );
    const rows = res.rows.slice(0, limit);
    const last = rows[rows.length - 1];
    return { items: rows.map((r) => toView(actor, r)), next_cursor: res.rows.length > limit && last ? encodeAssetCursor(last.updated_at, last.id) : null };
  }

  async function headVersion(id: string, version: number): Promise<VersionRow> {
    const res = await db.query<VersionRow>(`SELECT * FROM asset_versions WHERE asset_id = $1 AND version = $2`, [id, version]);
    const row = res.rows[0];
    if (!row) throw new AssetError('not_found', `version ${version} of this asset is not kept`);
    return row;
  }

  async function get(actor: AssetActor, id: string): Promise<AssetDetail> {
    const row = await readable(actor, id);
    const head = await headVersion(id, row.head_version);
    return { ...toView(actor, row), references: deps.resources ? await referencesView(actor, id) : [], provenance: provenanceOf(head) };
  }

  async function contentOf(actor: AssetActor, row: AssetRow, version: number): Promise<AssetContent> {
    const v = await headVersion(row.id, version);
    const { connection } = await storage();
    const got = await connection.store.getObject(v.object_bucket, v.object_key);
    return { asset: toView(actor, row), version: toVersionView(v), body: got.body };
  }

  async function openContent(actor: AssetActor, id: string, version?: number): Promise<AssetContent> {
    const row = await readable(actor, id);
    return contentOf(actor, row, version ?? row.head_version);
  }

  async function versions(actor: AssetActor, id: string): Promise<AssetVersionView[]> {
    await readable(actor, id);
    const res = await db.query<VersionRow>(`SELECT * FROM asset_versions WHERE asset_id = $1 ORDER BY version DESC`, [id]);
    return res.rows.map(toVersionView);
  }

  const shares = createShareOperations({ config, db, clock, baseUrl, changeable, recordEvent, toView, contentOf });

  return {
    save,
    list,
    get,
    openContent,
    versions,
    restore,
    update,
    delete: remove,
    ...shares,
  };
}
