/**
 * Scheduled script runs on a real Temporal dev server and Postgres (docs/scripts.md, "Schedules"):
 * the api role pushes each schedule change to Temporal, the worker role runs the fired runs; every
 * fire is injected with ScheduleHandle.trigger() and awaited through its workflow (no waiting for time).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScheduleNotFoundError, WorkflowFailedError, type Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { openDatabase, startApiRole, startWorkerRole, type WorkerRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { scriptReconcileScheduleId, workflowBundle } from '../../worker/index.js';
import { restJson, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

const ALICE = 'alice-key-0123456789';
const BOB = 'bob-key-0123456789';
const ADMIN = 'admin-key-0123456789';

let temporal: TestTemporal;
let handle: TemporalHandle;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let api: RunningApi;
let worker: WorkerRole;
let dir: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
type Json = any;

const rest = (key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> =>
  restJson(`${api.url}/api/v1/portal/scripts${path}`, key, method, body);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'script-schedules-'));
  temporal = await startTestTemporal();
  database = await createTestDatabase();
  const config = testConfig(`
data_dir: ${JSON.stringify(dir)}
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: ${JSON.stringify(database.dsn)} }
temporal: { address: ${JSON.stringify(temporal.address)}, namespace: default, task_queue: scripts-${randomBytes(4).toString('hex')} }
audit: { enabled: true, log_tool_calls: true }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${ALICE}, name: alice, roles: [staff] }
      - { key: ${BOB}, name: bob, roles: [staff] }
      - { key: ${ADMIN}, name: root, roles: [admin] }
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
    admin: { roles: [admin], priority: 2, tools: { allow: ["manage_*", "platform_info"] } }
toolkits:
  objstore:
    local: { driver: filesystem, root: ${JSON.stringify(join(dir, 'objects'))} }
scripts: { run_deadline: 20s }
`);
  const log = silentLogger();
  db = (await openDatabase(config, log))!;
  handle = await connectTemporal(config.temporal);
  api = await startApiRole({ config, log, db, temporal: handle });
  worker = await startWorkerRole({ config, log, db, temporal: handle });
}, 120_000);

afterAll(async () => {
  await worker?.shutdown();
  await api?.stop();
  await handle?.connection.close();
  await db?.end();
  await database?.drop();
  await temporal?.stop();
  await rm(dir, { recursive: true, force: true });
});

type ScheduleInfo = Awaited<ReturnType<ReturnType<Client['schedule']['getHandle']>['describe']>>['info'];

/** The workflows a Schedule has started lately (running or closed). */
const startedBy = (info: ScheduleInfo) => new Set([...info.recentActions.map((a) => a.action.workflow.workflowId), ...info.runningActions.map((a) => a.workflow.workflowId)]);

/** Fires the Schedule now and answers the workflow it started, once that has closed. */
async function fire(client: Client, scheduleId: string): Promise<{ workflowId: string; result: Promise<Json> }> {
  const schedule = client.schedule.getHandle(scheduleId);
  // A run under way (the worker's own reconcile at its start, slow on a busy machine) would make the
  // trigger a skip under the Schedule's overlap policy, and no new workflow would ever appear.
  let { info } = await schedule.describe();
  while (info.runningActions.length > 0) {
    await client.workflow.getHandle(info.runningActions[0]!.workflow.workflowId).result().catch(() => undefined);
    ({ info } = await schedule.describe());
  }
  const before = startedBy(info);
  await schedule.trigger();
  for (;;) {
    const started = [...startedBy((await schedule.describe()).info)].find((id) => !before.has(id));
    if (started) return { workflowId: started, result: client.workflow.getHandle(started).result() };
  }
}

async function create(name: string, source: string): Promise<string> {
  const created = await rest(ALICE, 'POST', '/', { name, source });
  expect(created.status).toBe(201);
  return created.body.script.id as string;
}

const tick = `export function main() { console.log('tick'); return 42 }`;

describe('script schedules', () => {
  it('a scheduled run fires on an injected schedule, is recorded and audited under script:<name>, and replays', async () => {
    const id = await create('nightly', tick);
    const set = await rest(ALICE, 'PUT', `/${id}/schedule`, { cron: '0 3 * * *', time_zone: 'Europe/Paris' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ cron: '0 3 * * *', time_zone: 'Europe/Paris', paused: false });
    const described = await handle.client.schedule.getHandle(`script-schedule:${id}`).describe();
    expect(described.spec.timezone).toBe('Europe/Paris');

    const { workflowId, result } = await fire(handle.client, `script-schedule:${id}`);
    expect(workflowId.startsWith(`script-run:${id}-`)).toBe(true);
    const outcome = await result;
    expect(outcome).toMatchObject({ status: 'ok' });
    const { rows } = await db.query('SELECT * FROM script_runs WHERE id = $1', [outcome.run_id]);
    expect(rows[0]).toMatchObject({ trigger: 'schedule', status: 'ok', principal: 'script:nightly', caller_subject: 'script:nightly', script_name: 'nightly' });
    expect(rows[0].scheduled_at).toBeInstanceOf(Date);
    const audit = await db.query("SELECT subject, parameters FROM audit_log WHERE tool = 'script_run' AND parameters->>'run_id' = $1", [outcome.run_id]);
    expect(audit.rows[0]).toMatchObject({ subject: 'script:nightly', parameters: { trigger: 'schedule', status: 'ok' } });

    const run = handle.client.workflow.getHandle(workflowId);
    expect((await run.describe()).typedSearchAttributes.getAll().some((p) => p.key.name === 'ScriptName' && p.value === 'nightly')).toBe(true);
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, await run.fetchHistory(), workflowId)).resolves.toBeUndefined();
  });

  it("a disabled script's schedule does not run it: the run is skipped and not recorded", async () => {
    const id = await create('disabled-job', tick);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '1h' })).status).toBe(200);
    expect((await rest(ALICE, 'POST', `/${id}/disable`)).status).toBe(200);
    const { result } = await fire(handle.client, `script-schedule:${id}`);
    expect(await result).toEqual({ status: 'skipped', reason: 'disabled' });
    const { rows } = await db.query('SELECT count(*)::int AS n FROM script_runs WHERE script_id = $1', [id]);
    expect(rows[0].n).toBe(0);
  });

  it('pause and resume reach the Temporal Schedule; unschedule deletes it; only the owner and administrators change it', async () => {
    const id = await create('pausable', tick);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '30m' })).status).toBe(200);
    expect((await rest(BOB, 'POST', `/${id}/schedule/pause`)).status).toBe(403);
    const schedule = handle.client.schedule.getHandle(`script-schedule:${id}`);
    expect((await rest(ALICE, 'POST', `/${id}/schedule/pause`)).body.paused).toBe(true);
    expect((await schedule.describe()).state.paused).toBe(true);
    expect((await rest(ALICE, 'POST', `/${id}/schedule/resume`)).body.paused).toBe(false);
    expect((await schedule.describe()).state.paused).toBe(false);
    expect((await rest(ALICE, 'DELETE', `/${id}/schedule`)).body).toMatchObject({ removed: true });
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await rest(ALICE, 'GET', `/${id}/schedule`)).status).toBe(404);
  });

  it('refuses a malformed schedule with 400 and keeps no row', async () => {
    const id = await create('malformed', tick);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { cron: '0 3 * *' })).status).toBe(400);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '10s' })).status).toBe(400);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '1h', time_zone: 'Mars/Olympus' })).status).toBe(400);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { cron: '99 3 * * *' })).status).toBe(400);
    expect((await rest(ALICE, 'GET', `/${id}/schedule`)).status).toBe(404);
  });

  it('the reconcile pass recreates a Schedule deleted behind our back and deletes one without a row', async () => {
    const id = await create('reconciled', tick);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '2h' })).status).toBe(200);
    await handle.client.schedule.getHandle(`script-schedule:${id}`).delete();
    const orphan = await create('orphan', tick);
    expect((await rest(ALICE, 'PUT', `/${orphan}/schedule`, { every: '2h' })).status).toBe(200);
    await db.query('DELETE FROM script_schedules WHERE script_id = $1', [orphan]);

    const { result } = await fire(handle.client, scriptReconcileScheduleId);
    expect((await result).deleted).toBeGreaterThanOrEqual(1);
    expect((await handle.client.schedule.getHandle(`script-schedule:${id}`).describe()).spec.intervals).toHaveLength(1);
    await expect(handle.client.schedule.getHandle(`script-schedule:${orphan}`).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });

  it('an administrator retries a failed scheduled run: a new run, linked to the failed one (the owner may not)', async () => {
    const id = await create('flaky', `export function main() { throw new Error('upstream down') }`);
    expect((await rest(ALICE, 'PUT', `/${id}/schedule`, { every: '1h' })).status).toBe(200);
    const { workflowId, result } = await fire(handle.client, `script-schedule:${id}`);
    await expect(result).rejects.toBeInstanceOf(WorkflowFailedError);
    expect((await handle.client.workflow.getHandle(workflowId).describe()).status.name).toBe('FAILED');
    const failed = (await db.query("SELECT id, scheduled_at FROM script_runs WHERE script_id = $1 AND status = 'error'", [id])).rows[0];

    expect((await rest(ALICE, 'POST', `/${id}/runs/${failed.id}/retry`)).status).toBe(403);
    expect((await rest(ALICE, 'PUT', `/${id}`, { source: tick })).status).toBe(200);
    const retried = await rest(ADMIN, 'POST', `/${id}/runs/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    expect(retried.body.workflow_id).toBe(`script-run:${id}-retry-${failed.id}`);
    const outcome = await handle.client.workflow.getHandle(retried.body.workflow_id).result();
    const { rows } = await db.query('SELECT trigger, status, retry_of, scheduled_at, version FROM script_runs WHERE id = $1', [outcome.run_id]);
    expect(rows[0]).toMatchObject({ trigger: 'schedule', status: 'ok', retry_of: failed.id, scheduled_at: failed.scheduled_at, version: 2 });
    expect((await rest(ADMIN, 'POST', `/${id}/runs/${outcome.run_id}/retry`)).status).toBe(409);
  });
});
