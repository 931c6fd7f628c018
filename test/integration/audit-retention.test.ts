/**
 * Audit retention end to end: a real Temporal dev server, the platform worker with the housekeeping
 * Schedule built from config, and a scratch database with every migration applied. Old audit rows
 * must go, recent ones stay; the workflow reports what it removed and replays deterministically.
 */
import { randomBytes } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { createPlatformWorker, housekeepingScheduleId, housekeepingTasks, workflowBundle, type PlatformWorker } from '../../worker/index.js';
import { housekeeping } from '../../workflows/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

let temporal: TestTemporal;
let handle: TemporalHandle;
let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let worker: PlatformWorker | undefined;
let running: Promise<void> | undefined;
let taskQueue: string;

/** Inserts one audit row per age (days before now); `tool` names it for the assertions. */
async function seed(rows: { tool: string; ageDays: number }[]): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, duration_ms, outcome)
     SELECT gen_random_uuid(), now() - make_interval(days => r.age), 'ci-pipeline', 'apikey', r.tool, 3, 'ok'
       FROM unnest($1::text[], $2::int[]) AS r(tool, age)`,
    [rows.map((r) => r.tool), rows.map((r) => r.ageDays)],
  );
}

async function tools(): Promise<string[]> {
  return (await db.query<{ tool: string }>('SELECT tool FROM audit_log ORDER BY occurred_at')).rows.map((r) => r.tool);
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
  await migrate(db, { log: silentLogger() });
  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
  taskQueue = `audit-${randomBytes(4).toString('hex')}`;
});

afterAll(async () => {
  await worker?.shutdown();
  await running?.catch(() => undefined);
  await handle?.close();
  await temporal?.stop();
  await db?.end();
  await database?.drop();
});

describe('audit retention on the housekeeping Schedule', () => {
  it('prunes rows older than audit.retention_days and keeps the rest', async () => {
    await seed([
      { tool: 'old-400d', ageDays: 400 },
      { tool: 'old-31d', ageDays: 31 },
      { tool: 'kept-29d', ageDays: 29 },
      { tool: 'kept-today', ageDays: 0 },
    ]);
    // The full platform config, as the CLI passes it: retention switches on with audit.enabled + a database.
    const { config } = parseConfig(
      [
        `database:\n  dsn: ${database.dsn}`,
        `audit:\n  enabled: true\n  log_tool_calls: true\n  retention_days: 30`,
        `sessions:\n  cleanup_interval: 1s`,
        `temporal:\n  address: ${temporal.address}\n  namespace: ${temporal.namespace}\n  task_queue: ${taskQueue}`,
      ].join('\n'),
      {},
    );
    expect(housekeepingTasks(config)).toContainEqual({ name: 'purgeAuditLog', retentionDays: 30 });

    worker = await createPlatformWorker({ config, db, temporal: handle, log: silentLogger() });
    running = worker.run();

    await expect.poll(tools, { timeout: 30_000, interval: 100 }).toEqual(['kept-29d', 'kept-today']);
    const desc = await handle.client.schedule.getHandle(housekeepingScheduleId).describe();
    expect(desc.action.args).toEqual([{ tasks: housekeepingTasks(config) }]);
  });

  it('a run reports the rows removed over several batches, and its history replays', async () => {
    // Younger than the schedule's 30-day window, older than this run's 5 days: only this run can
    // remove them, so the count is exact although the schedule keeps firing every second.
    await seed(Array.from({ length: 7 }, (_, i) => ({ tool: `batch-${i}`, ageDays: 10 + i })));
    const workflowId = `audit-purge-${randomBytes(4).toString('hex')}`;
    const result = await handle.client.workflow.execute(housekeeping, {
      workflowId,
      taskQueue,
      args: [{ tasks: [{ name: 'purgeAuditLog', retentionDays: 5, batchSize: 2 }] }],
    });
    // Seven seeded rows plus kept-29d, in batches of two.
    expect(result.results).toEqual([{ name: 'purgeAuditLog', removed: 8 }]);
    expect(await tools()).toEqual(['kept-today']);

    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  });

  it('a zero retention window fails the run without retrying and deletes nothing', async () => {
    const run = handle.client.workflow.execute(housekeeping, {
      workflowId: `audit-bad-${randomBytes(4).toString('hex')}`,
      taskQueue,
      args: [{ tasks: [{ name: 'purgeAuditLog', retentionDays: 0 }] }],
    });
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/purgeAuditLog: audit.retention_days must be a positive integer/);
    expect(await tools()).toEqual(['kept-today']);
  });
});
