/**
 * Housekeeping end to end: a real Temporal dev server, the platform worker, and a scratch database
 * on the machine's PostgreSQL. The schedule must purge expired sessions and keep live ones;
 * re-registering schedules must update in place; the OAuth task must purge expired OAuth records;
 * the workflow must replay deterministically.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection, ScheduleOverlapPolicy, WorkflowFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { databaseOAuthStore, oauthRetention } from '../../shared/oauth/index.js';
import { closeTemporalConnection, connectTemporal, freePort, temporalReachable, type TemporalHandle } from '../../shared/temporal/index.js';
import {
  createPlatformWorker,
  housekeepingScheduleId,
  housekeepingTasks,
  platformSchedules,
  registerSchedules,
  workflowBundle,
  type PlatformWorker,
  type WorkerConfig,
} from '../../worker/index.js';
import { housekeeping } from '../../workflows/index.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { issuedCode, pendingAuthorization, refreshGrant, registeredClient } from '../support/oauth-records.js';

const adminDsn = 'postgresql://postgres@127.0.0.1:5432/postgres';
const dbName = `hk_${randomBytes(6).toString('hex')}`;
const minute = 60_000;

let temporal: TestTemporal;
let handle: TemporalHandle;
let pool: pg.Pool;
let worker: PlatformWorker | undefined;
let running: Promise<void> | undefined;
let config: WorkerConfig;

/** Polls `check` until it returns true; fails with `what` at the deadline. No fixed sleeps. */
async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function sessionIds(): Promise<string[]> {
  const res = await pool.query<{ id: string }>('SELECT id FROM mcp_sessions ORDER BY id');
  return res.rows.map((r) => r.id);
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminDsn });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  pool = new pg.Pool({ connectionString: adminDsn.replace(/\/postgres$/, `/${dbName}`), max: 4 });
  await migrate(pool);

  temporal = await startTestTemporal();
  handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
  config = {
    temporal: {
      address: temporal.address,
      namespace: temporal.namespace,
      task_queue: `hk-${randomBytes(4).toString('hex')}`,
      tls: { enabled: false },
    },
    sessions: { store: 'database', ttl: 10 * minute, idle_timeout: 2 * minute, cleanup_interval: 1000 },
  };
});

afterAll(async () => {
  await worker?.shutdown();
  await running?.catch(() => undefined);
  await handle?.close();
  await temporal?.stop();
  await pool?.end();
  const admin = new pg.Client({ connectionString: adminDsn });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
});

describe('temporalReachable', () => {
  it('is true for the running server and false, within the timeout, for a closed port', async () => {
    expect(await temporalReachable(handle.client, 2_000)).toBe(true);
    const nowhere = Connection.lazy({ address: `127.0.0.1:${await freePort()}` });
    const started = Date.now();
    expect(await temporalReachable(new Client({ connection: nowhere }), 500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    await closeTemporalConnection(nowhere);
  });
});

describe('housekeepingTasks', () => {
  it('passes the session windows from config to the purge task', () => {
    expect(housekeepingTasks(config)).toEqual([{ name: 'purgeExpiredSessions', ttlMs: 10 * minute, idleTimeoutMs: 2 * minute }]);
  });
});

describe('housekeeping schedule', () => {
  it('purges sessions past ttl or idle timeout and keeps live ones', async () => {
    await pool.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, created_at, last_seen_at) VALUES
         ('a-too-old',   'u', '2025-06-18', now() - interval '1 hour',    now()),
         ('b-idle',      'u', '2025-06-18', now() - interval '5 minutes', now() - interval '3 minutes'),
         ('c-fresh',     'u', '2025-06-18', now(),                        now()),
         ('d-long-busy', 'u', '2025-06-18', now() - interval '9 minutes', now() - interval '1 minute')`,
    );
    worker = await createPlatformWorker({ config, db: pool, temporal: handle, log: silentLogger() });
    running = worker.run();

    // One DELETE removes both expired kinds, so once they are gone the pass has run.
    await waitFor('expired sessions to be purged', async () => !(await sessionIds()).includes('a-too-old'));
    expect(await sessionIds()).toEqual(['c-fresh', 'd-long-busy']);

    const desc = await handle.client.schedule.getHandle(housekeepingScheduleId).describe();
    expect(desc.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(desc.spec.intervals?.map((i) => i.every)).toEqual([1000]);
    expect(desc.action).toMatchObject({ workflowType: 'housekeeping', taskQueue: config.temporal.task_queue });
  });

  it('re-registering updates the one schedule in place', async () => {
    const changed = { ...config, sessions: { ...config.sessions, ttl: 20 * minute, cleanup_interval: 5000 } };
    await registerSchedules(handle.client, platformSchedules(changed));
    await registerSchedules(handle.client, platformSchedules(changed));

    const desc = await handle.client.schedule.getHandle(housekeepingScheduleId).describe();
    expect(desc.spec.intervals?.map((i) => i.every)).toEqual([5000]);
    expect(desc.action.args).toEqual([{ tasks: housekeepingTasks(changed) }]);
    expect(desc.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);

    // Listing is eventually consistent: wait until it shows our schedule, then count.
    const ids = async () => {
      const out: string[] = [];
      for await (const s of handle.client.schedule.list()) out.push(s.scheduleId);
      return out;
    };
    await waitFor('schedule to be listed', async () => (await ids()).includes(housekeepingScheduleId));
    expect((await ids()).filter((id) => id === housekeepingScheduleId)).toHaveLength(1);
  });

  it('rejects an interval below one second', async () => {
    const bad = { ...config, sessions: { ...config.sessions, cleanup_interval: 0 } };
    await expect(registerSchedules(handle.client, platformSchedules(bad))).rejects.toThrow(/at least 1000 ms/);
  });
});

describe('housekeeping workflow', () => {
  it('reports what each task removed and replays deterministically', async () => {
    await pool.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, created_at) VALUES ('e-replay-old', 'u', '2025-06-18', now() - interval '2 hours')`,
    );
    const workflowId = `hk-replay-${randomBytes(4).toString('hex')}`;
    const result = await handle.client.workflow.execute(housekeeping, {
      workflowId,
      taskQueue: config.temporal.task_queue,
      // ttl 90 min: only the 2-hour-old row goes (unless a scheduled pass got it first).
      args: [{ tasks: [{ name: 'purgeExpiredSessions', ttlMs: 90 * minute, idleTimeoutMs: 24 * 60 * minute }] }],
    });
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ name: 'purgeExpiredSessions' });
    expect(result.results[0]!.removed).toBeLessThanOrEqual(1);
    expect(await sessionIds()).not.toContain('e-replay-old');

    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  });

  it('fails the run, naming the task, when a task is invalid — and that history replays too', async () => {
    const workflowId = `hk-bad-${randomBytes(4).toString('hex')}`;
    const run = handle.client.workflow.execute(housekeeping, {
      workflowId,
      taskQueue: config.temporal.task_queue,
      // A zero window would delete every session: the activity refuses it without retrying.
      args: [{ tasks: [{ name: 'purgeExpiredSessions', ttlMs: 0, idleTimeoutMs: minute }] }],
    });
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/purgeExpiredSessions: sessions.ttl must be a positive/);
    expect(await sessionIds()).toEqual(['c-fresh', 'd-long-busy']);

    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  });
});

describe('OAuth records housekeeping', () => {
  it('purgeOAuthRecords removes expired OAuth records and stale registrations, keeps live ones, and replays', async () => {
    const store = databaseOAuthStore(pool);
    const now = Date.now();
    await store.savePendingAuthorization(pendingAuthorization({ id: 'state-expired', expiresAt: now - minute }));
    await store.savePendingAuthorization(pendingAuthorization({ id: 'state-live', expiresAt: now + 10 * minute }));
    await store.saveCode(issuedCode({ digest: 'code-expired', expiresAt: now - minute }));
    await store.saveCode(issuedCode({ digest: 'code-live', expiresAt: now + minute }));
    await store.saveRefreshGrant(refreshGrant({ digest: 'refresh-expired', familyId: 'family-expired', expiresAt: now - minute }));
    await store.saveRefreshGrant(refreshGrant({ digest: 'refresh-live', familyId: 'family-live', expiresAt: now + 24 * 60 * minute }));
    await store.registerClient(registeredClient({ id: 'dcr-never-used', createdAt: now - 2 * oauthRetention.unusedClientMs }));
    await store.registerClient(registeredClient({ id: 'dcr-new', createdAt: now }));

    const workflowId = `hk-oauth-${randomBytes(4).toString('hex')}`;
    const result = await handle.client.workflow.execute(housekeeping, {
      workflowId,
      taskQueue: config.temporal.task_queue,
      args: [{ tasks: [{ name: 'purgeOAuthRecords', ...oauthRetention }] }],
    });
    // A state, a code, a refresh token with its family, a registration.
    expect(result.results).toEqual([{ name: 'purgeOAuthRecords', removed: 5 }]);

    const left = await pool.query<{ id: string }>(
      `SELECT id FROM oauth_pending_authorizations UNION ALL SELECT digest FROM oauth_codes
       UNION ALL SELECT digest FROM oauth_refresh_grants UNION ALL SELECT family_id FROM oauth_refresh_families
       UNION ALL SELECT id FROM oauth_registered_clients ORDER BY 1`,
    );
    expect(left.rows.map((r) => r.id)).toEqual(['code-live', 'dcr-new', 'family-live', 'refresh-live', 'state-live']);

    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)).resolves.toBeUndefined();
  });

  it('fails the run without deleting anything when a retention window is zero', async () => {
    await pool.query(`UPDATE oauth_registered_clients SET created_at = now() - interval '2 days'`);
    const run = handle.client.workflow.execute(housekeeping, {
      workflowId: `hk-oauth-bad-${randomBytes(4).toString('hex')}`,
      taskQueue: config.temporal.task_queue,
      args: [{ tasks: [{ name: 'purgeOAuthRecords', ...oauthRetention, unusedClientMs: 0 }] }],
    });
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toMatch(/purgeOAuthRecords: unusedClientMs must be a positive/);
    expect((await pool.query('SELECT id FROM oauth_registered_clients')).rows).toEqual([{ id: 'dcr-new' }]);
  });
});
