/**
 * The hooks the resources' writers call (shared/resources `TableHooks`): after an upload, after an
 * export or extraction, and the file's view of its tables.
 */
import type { ResourceActor, TableChange, TableHooks } from '../resources/index.js';
import type { TableDeps } from './deps.js';
import { afterUpload, followNewVersion, handToWorkflow, TABLES_ACTOR, type ReconcileMode } from './follow.js';
import { listTables } from './register.js';

/**
 * The hooks the writers of new versions call. The write itself has committed, so a failure here
 * never fails it: the follow-up is handed to the registerTable workflow, which retries durably.
 */
export function tableHooks(deps: TableDeps): TableHooks {
  const clock = deps.clock ?? (() => new Date());
  async function handOver(actor: ResourceActor, resourceId: string, mode: ReconcileMode, error: unknown): Promise<TableChange[]> {
    deps.log.warn({ err: { message: (error as Error).message }, resourceId }, 'tables could not follow a new version inline; handing it to the workflow');
    const workflowId = await handToWorkflow(deps, actor, resourceId, mode, clock());
    return [{ table: '*', change: `not moved yet (${(error as Error).message}); workflow ${workflowId} retries` }];
  }
  return {
    async afterUpload(actor, resourceId) {
      try {
        return await afterUpload(deps, actor, resourceId);
      } catch (error) {
        return { table_changes: await handOver(actor, resourceId, 'upload', error) };
      }
    },
    async tablesOf(actor, resourceId) {
      const views = await listTables(deps, actor, { reference: `mcp:resource:${resourceId}` });
      return views.map((v) => ({ table: v.table, connection: v.connection, version: v.version, state: v.state }));
    },
    async followNewVersion(resourceId, version) {
      try {
        return await followNewVersion(deps, resourceId, version);
      } catch (error) {
        return handOver(TABLES_ACTOR, resourceId, 'follow', error);
      }
    },
  };
}
