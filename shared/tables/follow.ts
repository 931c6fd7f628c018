/**
 * Keeping tables at the right version (spec document 2, "Table registration"):
 * - a new upload moves only tables that correct the file: to the upload when it passes the checks,
 *   else to a corrected copy written as a new version above it (the upload reply reports both);
 * - a new version from an export or an extraction also moves tables that follow the file (one
 *   that fails the checks stays where it is, unless the table corrects the file);
 * - everything else stays pinned at its version until registered again.
 * A correction larger than the inline limit is handed to the registerTable workflow through the
 * resource job outbox; the workflow runs `reconcileTables` with the same mode, which is idempotent:
 * a run that finds every table at the (clean) head moves nothing. Every pass writes the engine
 * objects of the tables it leaves where they are again, so it repairs what it owns.
 */
import { recordJobs, type ResourceActor, type TableChange } from '../resources/index.js';
import type { TableJobMode } from '../resources/jobs/index.js';
import { directoryOfVersion, engineOf, inlineLimit, scanVersion, withTableLock, writeCorrection, type TableDeps } from './deps.js';
import { moveRegistration, registrationsOf, type Registration } from './records.js';
import { isFileRefusal, passesChecks, problemsOf, type TableError, type TableFormat } from './rules.js';

/** Why tables are brought up to date: an upload, or an export or extraction (which followed tables follow). */
export type ReconcileMode = TableJobMode;

export interface ReconcileOptions {
  /** In the registerTable workflow: corrections of any size run here. */
  inWorkflow?: boolean;
  /** The version the writer wrote (for the message; the tables go to the head whatever it is). */
  written?: number;
}

/** What a write's reply reports of the tables over the file. */
export interface TableNews {
  table_changes: TableChange[];
  /** The corrected copy written above the new version, when one was. */
  corrected?: { version: number; reference: string };
}

/** The platform as the writer of follow-ups nobody in particular asked for (an export's or extraction's new version). */
export const TABLES_ACTOR: ResourceActor = {
  subject: 'platform:tables',
  personas: [],
  adminOfPersonas: [],
  platformAdmin: true,
  writer: { kind: 'script', scriptId: 'platform:tables', name: 'table registration' },
};

export function tableWorkflowId(resourceId: string): string {
  return `table:${resourceId}`;
}

/**
 * A new version was written by an export or an extraction: followed tables move to it (and tables
 * that correct the file to its corrected copy). Answers the changes, for the writer's
 * `table_changes`. The write has committed, so this never fails it: what cannot be done now is
 * handed to the registerTable workflow, which retries durably, and the change says so.
 */
export async function followNewVersion(deps: TableDeps, resourceId: string, version: number): Promise<TableChange[]> {
  try {
    return (await reconcileTables(deps, TABLES_ACTOR, resourceId, 'follow', { written: version })).table_changes;
  } catch (error) {
    return (await handOver(deps, TABLES_ACTOR, resourceId, 'follow', error)).table_changes;
  }
}

/** A new version was uploaded: tables that correct the file move (to a corrected copy if needed); never fails the upload, as above. */
export async function afterUpload(deps: TableDeps, actor: ResourceActor, resourceId: string): Promise<TableNews> {
  try {
    return await reconcileTables(deps, actor, resourceId, 'upload');
  } catch (error) {
    return handOver(deps, actor, resourceId, 'upload', error);
  }
}

async function handOver(deps: TableDeps, actor: ResourceActor, resourceId: string, mode: ReconcileMode, error: unknown): Promise<TableNews> {
  // The new version cannot be a table as it is: the workflow would read it to the same answer.
  if (isFileRefusal(error)) return refusedNews(error);
  const message = error instanceof Error ? error.message : String(error);
  deps.log.warn({ err: { message }, resourceId }, 'tables could not follow a new version inline; handing it to the workflow');
  const workflowId = await handToWorkflow(deps, actor, resourceId, mode, (deps.clock ?? (() => new Date()))());
  return { table_changes: [{ table: '*', change: `not moved yet (${message}); workflow ${workflowId} retries` }] };
}

/** What a write's reply says when the file's new version cannot be a table: the tables stay where they are. */
export function refusedNews(error: TableError): TableNews {
  return { table_changes: [{ table: '*', change: `not moved: ${error.message}` }] };
}

function moves(r: Registration, mode: ReconcileMode, head: number): boolean {
  if (r.version === head && !r.correcting) return false;
  return r.correcting || r.corrects || (mode !== 'upload' && r.follow);
}

export async function reconcileTables(deps: TableDeps, actor: ResourceActor, resourceId: string, mode: ReconcileMode, opts: ReconcileOptions = {}): Promise<TableNews> {
  const clock = deps.clock ?? (() => new Date());
  // Most files have no table: answered without taking the lock.
  if ((await registrationsOf(deps.db, resourceId)).length === 0) return { table_changes: [] };
  return withTableLock(deps, resourceId, async () => {
    const head = await headOf(deps, resourceId);
    if (!head) return { table_changes: [] };
    const registrations = await registrationsOf(deps.db, resourceId);
    const moving = registrations.filter((r) => moves(r, mode, head.version));
    const news: TableNews = { table_changes: await restoreStaying(deps, resourceId, registrations.filter((r) => !moving.includes(r))) };
    if (moving.length === 0) return news;
    const format = moving[0]!.format;
    const found = await scanVersion(deps, resourceId, head.version, format);
    let target = head.version;
    if (!passesChecks(found.report)) {
      const correcting = moving.filter((r) => r.corrects || r.correcting);
      const staying = moving.filter((r) => !r.corrects && !r.correcting);
      const why = problemsOf(found.report).join('; ');
      news.table_changes.push(...staying.map((r) => ({ table: r.table_name, change: `stays at version ${r.version}: version ${head.version} ${opts.written === head.version ? '(the new one) ' : ''}has problems (${why})` })));
      if (correcting.length === 0) return news;
      if (!opts.inWorkflow && found.object.size > inlineLimit(deps)) {
        await handToWorkflow(deps, actor, resourceId, mode, clock());
        news.table_changes.push(...correcting.map((r) => ({ table: r.table_name, change: `correcting version ${head.version} in workflow ${tableWorkflowId(resourceId)} (${why}); the table stays at version ${r.version ?? 'none'} until it is done` })));
        return news;
      }
      const view = await writeCorrection(deps, actor, { id: resourceId, content_type: head.content_type }, head.version, format, found);
      target = view.version;
      news.corrected = { version: view.version, reference: view.reference };
      await moveAll(deps, correcting, resourceId, target, format, found.report.columns, clock(), news, `corrected version ${head.version} (${why}) into version ${target}`);
      return news;
    }
    await moveAll(deps, moving, resourceId, target, format, found.report.columns, clock(), news);
    return news;
  });
}

/**
 * The tables a pass leaves at their version get their engine object written again (TableEngine.
 * restore): a pass repairs what it owns. One that cannot be restored is reported, not skipped.
 */
async function restoreStaying(deps: TableDeps, resourceId: string, registrations: readonly Registration[]): Promise<TableChange[]> {
  const changes: TableChange[] = [];
  for (const r of registrations) {
    if (r.version === null || r.relation === null) continue;
    try {
      const location = await directoryOfVersion(deps, resourceId, r.version, r.format);
      await engineOf(deps, r.connection).restore(r.table_name, r.relation, { format: r.format, location });
    } catch (error) {
      changes.push({ table: r.table_name, change: `stays at version ${r.version}, but its table could not be restored on connection ${r.connection}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  return changes;
}

async function moveAll(
  deps: TableDeps,
  registrations: readonly Registration[],
  resourceId: string,
  version: number,
  format: TableFormat,
  columns: readonly string[],
  now: Date,
  news: TableNews,
  how?: string,
): Promise<void> {
  const location = await directoryOfVersion(deps, resourceId, version, format);
  for (const r of registrations) {
    const engine = engineOf(deps, r.connection);
    const relation = await engine.register(r.table_name, { format, version, location, columns });
    await moveRegistration(deps.db, r.id, version, relation, now);
    if (r.relation && r.relation !== relation) await engine.dropRelation(r.table_name, r.relation);
    const from = r.version === null ? '' : ` from version ${r.version}`;
    news.table_changes.push({ table: r.table_name, change: how ? `${how}; moved${from} to version ${version}` : `moved${from} to version ${version}` });
  }
}

async function headOf(deps: TableDeps, resourceId: string): Promise<{ version: number; content_type: string } | undefined> {
  const res = await deps.db.query<{ head_version: number; content_type: string }>(`SELECT head_version, content_type FROM resources WHERE id = $1`, [resourceId]);
  const row = res.rows[0];
  return row ? { version: row.head_version, content_type: row.content_type } : undefined;
}

/** Records the registerTable job in the outbox (its tables marked correcting) and starts it. */
export async function handToWorkflow(deps: TableDeps, actor: ResourceActor, resourceId: string, mode: ReconcileMode, now: Date): Promise<string> {
  await deps.db.query(`UPDATE resource_tables SET correcting = true, updated_at = $2 WHERE resource_id = $1 AND corrects`, [resourceId, now]);
  const ids = await recordJobs(deps.db, [{ kind: 'table', resourceId, params: { actor, mode } }], now);
  deps.jobs?.dispatch(ids);
  return tableWorkflowId(resourceId);
}
