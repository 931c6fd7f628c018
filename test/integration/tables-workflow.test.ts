/**
 * The registerTable workflow (issue 20 item 6; docs/resources.md, "Table registration"): a
 * correction too large for the request goes through the resource job outbox (kind `table`, id
 * `table:{resourceId}`) to the workflow, which registers the corrected version; a broken upload
 * to a table that corrects the file is corrected there too; the activity is idempotent; and the
 * workflow's history replays. On the embedded DuckDB (the workflow is the same on Trino).
 */
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logging/index.js';
import { ResourceJobDispatcher, resourceJobKinds } from '../../shared/resources/index.js';
import { afterUpload, reconcileTables, registerTable, tableWorkflowId } from '../../shared/tables/index.js';
import { MAX_HEADER_CHARS } from '../../shared/tables/csv-scanner.js';
import { handToWorkflow, TABLES_ACTOR } from '../../shared/tables/follow.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { createPlatformWorker, temporalJobStarter, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import type { TableReconcileOutcome } from '../../activities/tables.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { sales, startTablesEnv, type TablesEnv } from './tables-fixtures.js';

const queue = 'tables-workflow';

describe('registerTable workflow', () => {
  let temporal: TestTemporal;
  let handle: TemporalHandle;
  let env: TablesEnv;
  let worker: PlatformWorker;
  let running: Promise<void>;
  let dispatcher: ResourceJobDispatcher;

  beforeAll(async () => {
    temporal = await startTestTemporal();
    handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
    // Every correction is "large" here: it goes to the workflow.
    env = await startTablesEnv('duckdb', { inlineCorrectionBytes: 10 });
    const log = silentLogger();
    const config = { ...env.rig.config, temporal: { ...env.rig.config.temporal, address: temporal.address, namespace: temporal.namespace, task_queue: queue } };
    worker = await createPlatformWorker({ config, db: env.deps.db, temporal: handle, log, tables: env.deps });
    running = worker.run();
    dispatcher = new ResourceJobDispatcher({ db: env.deps.db, starter: temporalJobStarter(handle.client), platformQueue: queue, log });
  }, 180_000);

  afterAll(async () => {
    await dispatcher?.close();
    await worker?.shutdown();
    await running?.catch(() => undefined);
    await env?.stop();
    await handle?.close();
    await temporal?.stop();
  });

  /** Starts the table jobs waiting in the outbox (the others are not what this file is about) and awaits the run. */
  async function runTableJob(resourceId: string): Promise<TableReconcileOutcome> {
    await env.deps.db.query(`DELETE FROM resource_jobs WHERE kind <> 'table'`);
    await dispatcher.sweep();
    return handle.client.workflow.getHandle(tableWorkflowId(resourceId)).result() as Promise<TableReconcileOutcome>;
  }

  it('a large correction runs in registerTable through the outbox; a broken upload is corrected there too; the history replays', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'big.csv', 'id,note\n1,"a\nb"\n2,c\n');
    const asked = await registerTable(env.deps, env.salesAdmin, { reference: resource.reference, connection: env.connection, correct: true });
    expect(asked.workflow_id).toBe(`table:${resource.id}`);
    expect(asked.table).toMatchObject({ version: null, correcting: true, corrects: true });
    expect((await env.deps.db.query(`SELECT kind FROM resource_jobs WHERE workflow_id = $1`, [`table:${resource.id}`])).rows).toEqual([{ kind: 'table' }]);

    const first = await runTableJob(resource.id);
    expect(first.corrected?.version).toBe(2);
    expect(first.table_changes).toEqual([{ table: 'sales_big', change: 'corrected version 1 (1 row has a line break inside a cell (column note)) into version 2; moved to version 2' }]);
    expect(await env.rows('sales_big', 'id')).toEqual([
      { id: 1, note: 'a b' },
      { id: 2, note: 'c' },
    ]);

    // Idempotent: a retried pass finds the table at the clean head and writes nothing.
    expect(await reconcileTables(env.deps, env.salesAdmin, resource.id, 'upload', { inWorkflow: true })).toEqual({ table_changes: [] });
    expect((await env.service.get(env.salesAdmin, resource.id)).version).toBe(2);

    await env.upload(env.salesAdmin, sales, 'big.csv', 'id,note\n3,"d\ne"\n');
    const news = await afterUpload(env.deps, env.salesAdmin, resource.id);
    expect(news.table_changes[0]?.change).toMatch(/^correcting version 3 in workflow table:\S+ \(1 row has a line break inside a cell \(column note\)\); the table stays at version 2 until it is done$/);
    const second = await runTableJob(resource.id);
    expect(second.corrected?.version).toBe(4);
    expect(await env.rows('sales_big')).toEqual([{ id: 3, note: 'd e' }]);

    const history = await handle.client.workflow.getHandle(tableWorkflowId(resource.id)).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, tableWorkflowId(resource.id))).resolves.toBeUndefined();
  });

  it('a version that cannot be a table is reported, not retried: inline at the upload, and in the workflow when it lands while a correction waits', async () => {
    const hugeHeader = `id,${'x'.repeat(MAX_HEADER_CHARS + 10)}\n1\n`;
    const { resource } = await env.upload(env.salesAdmin, sales, 'refusing.csv', 'id,note\n1,a\n');
    await registerTable(env.deps, env.salesAdmin, { reference: resource.reference, connection: env.connection, correct: true });
    // A broken upload waits for the workflow's correction; then one that is no table at all lands.
    await env.upload(env.salesAdmin, sales, 'refusing.csv', 'id,note\n2,"b\nc"\n');
    expect((await afterUpload(env.deps, env.salesAdmin, resource.id)).table_changes[0]?.change).toMatch(/^correcting version 2 in workflow/);
    await env.upload(env.salesAdmin, sales, 'refusing.csv', hugeHeader);
    const inline = await afterUpload(env.deps, env.salesAdmin, resource.id);
    expect(inline.table_changes).toEqual([{ table: '*', change: expect.stringMatching(/^not moved: the header line is longer than/) }]);
    const outcome = await runTableJob(resource.id);
    expect(outcome.table_changes).toEqual([{ table: '*', change: expect.stringMatching(/^not moved: the header line is longer than/) }]);
    const { rows } = await env.deps.db.query(`SELECT version, correcting FROM resource_tables WHERE resource_id = $1`, [resource.id]);
    expect(rows).toEqual([{ version: 1, correcting: false }]);
    const history = await handle.client.workflow.getHandle(tableWorkflowId(resource.id)).fetchHistory();
    expect(history.events?.filter((e) => e.activityTaskFailedEventAttributes).length).toBe(0);
  });

  it('a follow-up handed to a registerTable run already waiting in upload mode keeps its follow mode: the waiting row takes the wider mode', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'both.csv', 'id,note\n1,a\n');
    await registerTable(env.deps, env.salesAdmin, { reference: resource.reference, connection: env.connection });
    // An upload's hand-off waits in the outbox; then an export's new version is handed over too.
    await handToWorkflow(env.deps, env.salesAdmin, resource.id, 'upload', new Date());
    await env.upload(env.salesAdmin, sales, 'both.csv', 'id,note\n2,b\n');
    await handToWorkflow(env.deps, TABLES_ACTOR, resource.id, 'follow', new Date());
    const { rows } = await env.deps.db.query(`SELECT params->>'mode' AS mode, requests FROM resource_jobs WHERE workflow_id = $1`, [tableWorkflowId(resource.id)]);
    expect(rows).toEqual([{ mode: 'follow', requests: 2 }]);
    const outcome = await runTableJob(resource.id);
    expect(outcome.table_changes).toEqual([{ table: 'sales_both', change: 'moved from version 1 to version 2' }]);
    expect(await env.rows('sales_both')).toEqual([{ id: 2, note: 'b' }]);
  });

  it('a follow-up signalling a registerTable run under way in upload mode is carried by the signal: the run moves followed tables too; the history replays', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'signalled.csv', 'id,note\n1,a\n');
    await registerTable(env.deps, env.salesAdmin, { reference: resource.reference, connection: env.connection });
    await env.upload(env.salesAdmin, sales, 'signalled.csv', 'id,note\n2,b\n');
    // The run was started for an upload; the follow-up's request reaches it as the signal the dispatcher sends.
    const spec = resourceJobKinds.table;
    const upload = { kind: 'table' as const, resourceId: resource.id, params: { actor: env.salesAdmin, mode: 'upload' } };
    const follow = { ...upload, params: { actor: TABLES_ACTOR, mode: 'follow' } };
    await temporalJobStarter(handle.client).start({
      workflowType: spec.workflowType,
      workflowId: spec.workflowId(upload),
      taskQueue: spec.taskQueue(queue),
      args: spec.args(upload),
      signal: spec.signal,
      signalArgs: spec.signalArgs(follow),
    });
    await handle.client.workflow.getHandle(tableWorkflowId(resource.id)).result();
    expect(await env.rows('sales_signalled')).toEqual([{ id: 2, note: 'b' }]);
    const history = await handle.client.workflow.getHandle(tableWorkflowId(resource.id)).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, tableWorkflowId(resource.id))).resolves.toBeUndefined();
  });
});
