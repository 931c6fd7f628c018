/**
 * Applying approved knowledge to the catalog as a recorded changeset, and rolling it back.
 *
 * apply: the changeset and its planned changes are committed first (with the approved insights it
 * applies, locked so no other changeset takes them meanwhile); then each change reads what the
 * catalog holds, writes, and records that prior value — in order, one at a time. A write that
 * fails stops the changeset there: it is `partial`, the changes before it `applied` (and undoable),
 * the failed one `failed` with the catalog's message, the rest `planned`; its insights stay approved.
 * Only a changeset whose every change applied is `applied` and marks its insights applied.
 *
 * rollback: claims the changeset (applied, partial, or a rollback that stopped), then undoes its
 * applied changes in reverse order, restoring each prior value; it stops at a failed undo, or at a
 * change the catalog no longer holds as the apply left it (someone edited it since; `force`
 * restores anyway) — `rollback_partial`, to be tried again. Fully rolled back, its insights are
 * `rolled_back`.
 */
import type { CatalogConnection, CatalogConnections, WritePlan } from '../catalog/index.js';
import type { PlatformConfig } from '../config/index.js';
import { uuidv7 } from '../crypto/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { afterOf, priorOf, resolveChanges, undoFor, writeFor, type Prior, type ResolvedChange } from './changes.js';
import { recordKnowledgeChange } from './insights.js';
import { KnowledgeError, LIMITS, type Change, type ChangeInput, type Changeset, type ChangesetStatus, type KnowledgeActor } from './types.js';

export interface ApplyRequest {
  entity_urn: string;
  changes: ChangeInput[];
  /** Approved insights this changeset applies (marked applied when it fully applies). */
  insight_ids?: string[];
  review_notes?: string;
  confirm?: boolean;
}

/** What an apply would change, when confirmation is required and was not given. */
export interface ApplyPreview {
  confirmation_required: true;
  entity_urn: string;
  connection: string;
  changes: Array<ChangeInput & { current: Prior; writes: boolean }>;
}

type Row = Record<string, unknown>;
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));

function changeFromRow(r: Row): Change {
  return {
    position: r.position as number,
    change_type: r.change_type as Change['change_type'],
    ...(r.target ? { target: r.target as string } : {}),
    detail: r.detail as string,
    status: r.status as Change['status'],
    prior: (r.prior as Change['prior']) ?? null,
    error: (r.error as string | null) ?? null,
  };
}

function changesetFromRow(r: Row, changes: Change[]): Changeset {
  return {
    id: r.id as string,
    entity_urn: r.entity_urn as string,
    connection: r.connection as string,
    status: r.status as ChangesetStatus,
    insight_ids: r.insight_ids as string[],
    review_notes: (r.review_notes as string | null) ?? null,
    applied_by: { subject: r.applied_by as string, email: (r.applied_by_email as string | null) ?? null },
    error: (r.error as string | null) ?? null,
    created_at: iso(r.created_at)!,
    finished_at: iso(r.finished_at),
    rolled_back_by: (r.rolled_back_by as string | null) ?? null,
    rolled_back_at: iso(r.rolled_back_at),
    changes,
  };
}

const urnShape = /^urn:li:dataset:\(urn:li:dataPlatform:[^,()]+,[^,()]+,[^,()]+\)$/;

/**
 * The session-level advisory lock an apply holds on a connection of its own from before its
 * changeset is recorded until it finishes. A process that dies mid-apply loses its connection and
 * with it the lock, so a changeset still `applying` whose lock is free has no one applying it any
 * more: a rollback may take it over (rollback).
 */
const applyLock = (changesetId: string) => `knowledge-changeset:${changesetId}`;
const lockSql = 'hashtextextended($1, 0)';

export class Changesets {
  constructor(private readonly opts: { db: Db; config: PlatformConfig; catalog: CatalogConnections | undefined }) {}

  /** The catalog written: knowledge.apply.datahub_connection, else the default catalog instance. */
  connection(): CatalogConnection {
    const catalog = this.opts.catalog;
    if (!catalog || catalog.connections.size === 0) {
      throw new KnowledgeError('unavailable', 'no catalog to write to: configure a toolkits.catalog instance (and knowledge.apply.datahub_connection)');
    }
    const c = catalog.connection(this.opts.config.knowledge.apply.datahub_connection);
    if (c.config.read_only) throw new KnowledgeError('unavailable', `catalog connection "${c.name}" is read-only (toolkits.catalog.${c.name}.read_only): knowledge cannot be applied to it`);
    return c;
  }

  async apply(actor: KnowledgeActor, request: ApplyRequest): Promise<Changeset | ApplyPreview> {
    const entity = request.entity_urn.trim();
    if (!urnShape.test(entity)) throw new KnowledgeError('invalid', `entity_urn must be a dataset URN, urn:li:dataset:(urn:li:dataPlatform:<platform>,<name>,<env>) (got "${entity.slice(0, 200)}")`);
    const changes = resolveChanges(request.changes);
    const insightIds = [...new Set(request.insight_ids ?? [])];
    if (insightIds.length > LIMITS.insightIds) throw new KnowledgeError('invalid', `insight_ids: at most ${LIMITS.insightIds} at once (got ${insightIds.length})`);
    const c = this.connection();
    if (this.opts.config.knowledge.apply.require_confirmation && request.confirm !== true) return this.preview(c, entity, changes);
    const id = uuidv7();
    const holder = await this.opts.db.connect();
    let broken: Error | undefined;
    try {
      await holder.query(`SELECT pg_advisory_lock(${lockSql})`, [applyLock(id)]);
      await this.open(id, actor, c, entity, changes, insightIds, request.review_notes);
      return await this.applyChanges(actor, c, id, entity, changes, insightIds);
    } finally {
      await holder.query(`SELECT pg_advisory_unlock(${lockSql})`, [applyLock(id)]).catch((error: unknown) => {
        broken = error instanceof Error ? error : new Error(String(error));
      });
      // A connection whose unlock failed is closed, which frees the lock all the same.
      holder.release(broken);
    }
  }

  /**
   * Writes the changes in order. Each change's prior value is recorded before its write, so a
   * change left `planned` with a prior by a process that died may have been written, and its
   * rollback knows what to restore.
   */
  private async applyChanges(actor: KnowledgeActor, c: CatalogConnection, id: string, entity: string, changes: ResolvedChange[], insightIds: string[]): Promise<Changeset> {
    let failure: { position: number; message: string } | undefined;
    for (const [position, change] of changes.entries()) {
      try {
        const prior = priorOf(change, await c.client.getEditableState(entity, change.column));
        await this.opts.db.query(`UPDATE knowledge_changes SET prior = $3 WHERE changeset_id = $1 AND position = $2`, [id, position, JSON.stringify(prior)]);
        await send(c, writeFor(entity, change, prior));
        await this.opts.db.query(`UPDATE knowledge_changes SET status = 'applied' WHERE changeset_id = $1 AND position = $2`, [id, position]);
      } catch (error) {
        failure = { position, message: error instanceof Error ? error.message : String(error) };
        await this.opts.db.query(`UPDATE knowledge_changes SET status = 'failed', error = $3 WHERE changeset_id = $1 AND position = $2`, [id, position, failure.message]);
        break;
      }
    }
    await withTransaction(this.opts.db, async (client) => {
      const error = failure ? `changes[${failure.position}] failed: ${failure.message}` : null;
      await client.query(`UPDATE knowledge_changesets SET status = $2, error = $3, finished_at = now() WHERE id = $1`, [id, failure ? 'partial' : 'applied', error]);
      if (!failure && insightIds.length) {
        await client.query(`UPDATE knowledge_insights SET status = 'applied', changeset_id = $2, updated_at = now() WHERE id = ANY($1::text[])`, [insightIds, id]);
      }
      await recordKnowledgeChange(client, this.opts.config, actor, { action: 'apply', changeset_id: id, entity_urn: entity, insight_ids: insightIds, status: failure ? 'partial' : 'applied' });
    });
    return this.get(id);
  }

  /** What each change would write, from what the catalog holds now; nothing is written or recorded. */
  private async preview(c: CatalogConnection, entity: string, changes: ResolvedChange[]): Promise<ApplyPreview> {
    const shown = [];
    for (const change of changes) {
      const current = priorOf(change, await c.client.getEditableState(entity, change.column));
      shown.push({ change_type: change.change_type, ...(change.target ? { target: change.target } : {}), detail: change.labelUrn ?? change.detail, current, writes: writeFor(entity, change, current) !== undefined });
    }
    return { confirmation_required: true, entity_urn: entity, connection: c.name, changes: shown };
  }

  /** Records the changeset and its planned changes, taking the approved insights it applies. */
  private async open(id: string, actor: KnowledgeActor, c: CatalogConnection, entity: string, changes: ResolvedChange[], insightIds: string[], notes: string | undefined): Promise<void> {
    await withTransaction(this.opts.db, async (client) => {
      if (insightIds.length) {
        const { rows } = await client.query<{ id: string; status: string }>('SELECT id, status FROM knowledge_insights WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [insightIds]);
        const missing = insightIds.filter((i) => !rows.some((r) => r.id === i));
        if (missing.length) throw new KnowledgeError('not_found', `no insight ${missing.join(', ')}`, { missing });
        const notApproved = rows.filter((r) => r.status !== 'approved');
        if (notApproved.length) {
          throw new KnowledgeError('conflict', `only approved insights are applied: ${notApproved.map((r) => `${r.id} is ${r.status}`).join(', ')}`, { blocked: notApproved });
        }
        const busy = await client.query<{ id: string }>(`SELECT id FROM knowledge_changesets WHERE status = 'applying' AND insight_ids && $1::text[]`, [insightIds]);
        if (busy.rows[0]) throw new KnowledgeError('conflict', `changeset ${busy.rows[0].id} is applying these insights (if its apply died, roll it back)`);
      }
      await client.query(
        `INSERT INTO knowledge_changesets (id, entity_urn, connection, status, insight_ids, review_notes, applied_by, applied_by_email, created_at)
         VALUES ($1, $2, $3, 'applying', $4, $5, $6, $7, now())`,
        [id, entity, c.name, insightIds, notes ?? null, actor.subject, actor.email ?? null],
      );
      for (const [position, change] of changes.entries()) {
        await client.query(`INSERT INTO knowledge_changes (changeset_id, position, change_type, target, detail) VALUES ($1, $2, $3, $4, $5)`, [
          id,
          position,
          change.change_type,
          change.target ?? null,
          // A tag or term as its URN, so the record says exactly what was written.
          change.labelUrn ?? change.detail,
        ]);
      }
    });
  }

  /** `force`: restore the prior values even where the catalog was changed since the apply. */
  async rollback(actor: KnowledgeActor, changesetId: string, opts: { force?: boolean } = {}): Promise<Changeset> {
    const row = await this.claimRollback(changesetId);
    if (!row) {
      const now = await this.opts.db.query<{ status: string }>('SELECT status FROM knowledge_changesets WHERE id = $1', [changesetId]);
      if (!now.rows[0]) throw new KnowledgeError('not_found', `no changeset ${changesetId}`);
      throw new KnowledgeError('conflict', `changeset ${changesetId} is ${now.rows[0].status}: only an applied or partial changeset (or a rollback that stopped) is rolled back`);
    }
    const entity = row.entity_urn as string;
    let failure: string | undefined;
    try {
      const c = this.rollbackConnection(row.connection as string);
      // Applied changes, and those a process that died may have written (planned, their prior recorded).
      const { rows } = await this.opts.db.query(
        `SELECT * FROM knowledge_changes WHERE changeset_id = $1 AND (status IN ('applied', 'rollback_failed') OR (status = 'planned' AND prior IS NOT NULL)) ORDER BY position DESC`,
        [changesetId],
      );
      for (const r of rows) {
        const change = changeFromRow(r);
        try {
          const [resolved] = resolveChanges([change]);
          let undo = undoFor(entity, resolved!, change.prior!);
          if (undo && !opts.force) {
            // What the apply left must still be there: a later edit by someone else is not overwritten unasked.
            const now = priorOf(resolved!, await c.client.getEditableState(entity, resolved!.column));
            const left = afterOf(resolved!);
            // The catalog holds the prior value already (a change a dead apply never got to write, or
            // one undone by hand): nothing to restore.
            if (JSON.stringify(now) === JSON.stringify(change.prior)) undo = undefined;
            else if (JSON.stringify(now) !== JSON.stringify(left)) {
              throw new Error(`the catalog was changed since it was applied (it holds ${JSON.stringify(now)}, the apply left ${JSON.stringify(left)}); roll back with force: true to restore ${JSON.stringify(change.prior)} anyway`);
            }
          }
          await send(c, undo);
          await this.opts.db.query(`UPDATE knowledge_changes SET status = 'rolled_back', error = NULL WHERE changeset_id = $1 AND position = $2`, [changesetId, change.position]);
        } catch (error) {
          failure = `undoing changes[${change.position}] failed: ${error instanceof Error ? error.message : String(error)}`;
          await this.opts.db.query(`UPDATE knowledge_changes SET status = 'rollback_failed', error = $3 WHERE changeset_id = $1 AND position = $2`, [changesetId, change.position, failure]);
          break;
        }
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    await withTransaction(this.opts.db, async (client) => {
      await client.query(
        `UPDATE knowledge_changesets SET status = $2, error = $3, rolled_back_by = $4, rolled_back_at = CASE WHEN $2 = 'rolled_back' THEN now() END WHERE id = $1`,
        [changesetId, failure ? 'rollback_partial' : 'rolled_back', failure ?? null, actor.email ?? actor.subject],
      );
      if (!failure) await client.query(`UPDATE knowledge_insights SET status = 'rolled_back', updated_at = now() WHERE changeset_id = $1 AND status = 'applied'`, [changesetId]);
      await recordKnowledgeChange(client, this.opts.config, actor, { action: 'rollback', changeset_id: changesetId, entity_urn: entity, status: failure ? 'rollback_partial' : 'rolled_back' });
    });
    return this.get(changesetId);
  }

  /**
   * Takes the changeset for its rollback (`rolling_back`): an applied or partial one, a rollback
   * that stopped, or one still `applying` whose apply died (its lock is free: applyLock).
   */
  private async claimRollback(changesetId: string): Promise<Record<string, unknown>> {
    const client = await this.opts.db.connect();
    let broken: Error | undefined;
    try {
      const free = await client.query<{ free: boolean }>(`SELECT pg_try_advisory_lock(${lockSql}) AS free`, [applyLock(changesetId)]);
      const abandoned = free.rows[0]!.free;
      try {
        const claimed = await client.query(
          `UPDATE knowledge_changesets SET status = 'rolling_back'
            WHERE id = $1 AND (status IN ('applied', 'partial', 'rollback_partial') OR (status = 'applying' AND $2)) RETURNING *`,
          [changesetId, abandoned],
        );
        if (claimed.rows[0]) return claimed.rows[0];
      } finally {
        if (abandoned) await client.query(`SELECT pg_advisory_unlock(${lockSql})`, [applyLock(changesetId)]);
      }
      const now = await client.query<{ status: string }>('SELECT status FROM knowledge_changesets WHERE id = $1', [changesetId]);
      if (!now.rows[0]) throw new KnowledgeError('not_found', `no changeset ${changesetId}`);
      if (now.rows[0].status === 'applying') throw new KnowledgeError('conflict', `changeset ${changesetId} is being applied now: roll it back once it is applied`);
      throw new KnowledgeError('conflict', `changeset ${changesetId} is ${now.rows[0].status}: only an applied or partial changeset (or a rollback that stopped, or an apply that died) is rolled back`);
    } catch (error) {
      if (!(error instanceof KnowledgeError)) broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      // A connection that failed mid-way is closed, which frees any lock it took.
      client.release(broken);
    }
  }

  /** The instance the changeset wrote; it must still be configured and writable. */
  private rollbackConnection(name: string): CatalogConnection {
    const c = this.opts.catalog?.connections.get(name);
    if (!c) throw new KnowledgeError('unavailable', `the changeset wrote to catalog connection "${name}", which is no longer configured`);
    if (c.config.read_only) throw new KnowledgeError('unavailable', `catalog connection "${name}" is read-only now: the changeset cannot be rolled back`);
    return c;
  }

  async get(id: string): Promise<Changeset> {
    const { rows } = await this.opts.db.query('SELECT * FROM knowledge_changesets WHERE id = $1', [id]);
    if (!rows[0]) throw new KnowledgeError('not_found', `no changeset ${id}`);
    const changes = await this.opts.db.query('SELECT * FROM knowledge_changes WHERE changeset_id = $1 ORDER BY position', [id]);
    return changesetFromRow(rows[0], changes.rows.map(changeFromRow));
  }

  /** Changesets newest first, optionally of one entity, with their changes. */
  async list(filter: { entity_urn?: string; limit?: number; offset?: number }): Promise<{ changesets: Changeset[]; total: number; next_offset: number | null }> {
    const limit = Math.min(Math.max(filter.limit ?? LIMITS.pageDefault, 1), LIMITS.pageMax);
    const offset = Math.max(filter.offset ?? 0, 0);
    const where = filter.entity_urn ? 'WHERE entity_urn = $1' : '';
    const params = filter.entity_urn ? [filter.entity_urn] : [];
    const [page, count] = await Promise.all([
      this.opts.db.query(`SELECT * FROM knowledge_changesets ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`, params),
      this.opts.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_changesets ${where}`, params),
    ]);
    const ids = page.rows.map((r) => r.id as string);
    const changes = ids.length ? await this.opts.db.query('SELECT * FROM knowledge_changes WHERE changeset_id = ANY($1::text[]) ORDER BY changeset_id, position', [ids]) : { rows: [] };
    const total = count.rows[0]?.n ?? 0;
    return {
      changesets: page.rows.map((r) => changesetFromRow(r, changes.rows.filter((c) => c.changeset_id === r.id).map(changeFromRow))),
      total,
      next_offset: offset + ids.length < total ? offset + ids.length : null,
    };
  }
}

async function send(c: CatalogConnection, plan: WritePlan | undefined): Promise<void> {
  if (plan) await c.client.mutate(plan.operation, plan.variables);
}
