/**
 * The activity of registerTable (workflows/tables.ts): bring one file's tables to its latest
 * version as shared/tables does inline, with corrections of any size (docs/resources.md, "Table
 * registration"). It heartbeats while it works (the worker's interceptor, activities/heartbeat.ts), so
 * a lost worker is noticed within the heartbeat timeout.
 */
import type { ResourceActor, TableChange } from '../shared/resources/index.js';
import { isFileRefusal, reconcileTables, refusedNews, stopCorrecting, type ReconcileMode, type TableDeps } from '../shared/tables/index.js';

/** What the `table` job starts the workflow with (shared/resources/jobs/kinds.ts: the resource id and the job's params). */
export interface ReconcileTablesInput {
  resourceId: string;
  /** Who asked (the registering caller, the uploader; the platform for follow-ups). */
  actor: ResourceActor;
  /** `upload`: tables that correct the file move; `follow`: followed tables move too. */
  mode: ReconcileMode;
}

export interface TableReconcileOutcome {
  table_changes: TableChange[];
  corrected?: { version: number; reference: string };
}

export interface TableActivities {
  reconcileResourceTables(input: ReconcileTablesInput): Promise<TableReconcileOutcome>;
}

export type TableActivityDeps = TableDeps;

export function createTableActivities(deps: TableActivityDeps): TableActivities {
  return {
    async reconcileResourceTables(input) {
      try {
        return await reconcileTables(deps, input.actor, input.resourceId, input.mode, { inWorkflow: true });
      } catch (error) {
        // The file's newest version cannot be a table: retrying reads it again to the same answer.
        if (!isFileRefusal(error)) throw error;
        await stopCorrecting(deps.db, input.resourceId, (deps.clock ?? (() => new Date()))());
        return refusedNews(error);
      }
    },
  };
}
