/**
 * The hooks the resources' writers call (shared/resources `TableHooks`): after an upload, after an
 * export or extraction (neither ever fails the write: follow.ts), and the file's view of its tables.
 */
import { MAX_LIST_LIMIT, type TableHooks } from '../resources/index.js';
import type { TableDeps } from './deps.js';
import { afterUpload, followNewVersion } from './follow.js';
import { registrationsOf } from './records.js';
import { listTables } from './register.js';

export function tableHooks(deps: TableDeps): TableHooks {
  return {
    afterUpload: (actor, resourceId) => afterUpload(deps, actor, resourceId),
    followNewVersion: (resourceId, version) => followNewVersion(deps, resourceId, version),
    async tablesOf(actor, resourceId) {
      // Every read of every file asks; almost none has a table, which one indexed query answers.
      if ((await registrationsOf(deps.db, resourceId)).length === 0) return [];
      const { items: views } = await listTables(deps, actor, { reference: `mcp:resource:${resourceId}`, limit: MAX_LIST_LIMIT });
      return views.map((v) => ({ table: v.table, connection: v.connection, version: v.version, state: v.state }));
    },
  };
}
