/**
 * Resource jobs' durable hand-off (issue 18, Build 1): a write records its index job in its own
 * transaction (a rolled-back write leaves none, a job that cannot be recorded rolls the write
 * back); the dispatcher of the process that wrote starts `index:{resourceId}` at once by
 * signal-with-start (checked with the Temporal client's describe and history: a burst of edits is
 * one run told `reindex` again, a finished run is followed by a new one); a failed start waits in
 * the outbox with its backoff and the sweeper starts it later; the backlog metric counts it. Real
 * Postgres, the filesystem object store and a real Temporal dev server; no worker polls the test
 * queue, so the workflows stay where the hand-off left them.
 */
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { ResourceJobDispatcher, resourceJobMetrics, type ResourceService } from '../../shared/resources/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { temporalJobStarter } from '../../worker/index.js';
import { freePort } from '../support/run-servers.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';
import { body, person, personLib, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';

const QUEUE = 'resource-jobs-test';

interface JobRow {
  workflow_id: string;
  kind: string;
  resource_id: string;
  requests: number;
  attempts: number;
  last_error: string | null;
  due_at: Date;
  claimed_until: Date | null;
}

describe('resource jobs: the outbox, the dispatcher and the sweeper', () => {
  let env: ResourceEnv;
  let temporal: TestTemporal;
  let handle: TemporalHandle;
  let now = new Date('2030-01-01T00:00:00Z');
  const clock = () => now;
  const log = silentLogger();
  const dispatchers: ResourceJobDispatcher[] = [];

  function dispatcher(over: Partial<ConstructorParameters<typeof ResourceJobDispatcher>[0]> = {}): ResourceJobDispatcher {
    const made = new ResourceJobDispatcher({ db: env.db, starter: temporalJobStarter(handle.client), platformQueue: QUEUE, log, clock, ...over });
    dispatchers.push(made);
    return made;
  }

  async function jobs(): Promise<JobRow[]> {
    return (await env.db.query<JobRow>(`SELECT * FROM resource_jobs ORDER BY workflow_id`)).rows;
  }

  async function upload(service: ResourceService, name: string, text = 'hello') {
    const made = await service.create(person(env, 'alice'), { library: personLib('alice'), path: 'jobs', file_name: name, if_exists: 'fail', origin: 'portal', body: body(text) });
    return made.resource;
  }

  /** Signals the workflow received, from its history. */
  async function signals(workflowId: string): Promise<string[]> {
    const history = await handle.client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).flatMap((e) => (e.workflowExecutionSignaledEventAttributes ? [e.workflowExecutionSignaledEventAttributes.signalName ?? ''] : []));
  }

  beforeAll(async () => {
    [env, temporal] = await Promise.all([startResourceEnv('filesystem', { clock }), startTestTemporal()]);
    handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
  }, 120_000);

  afterAll(async () => {
    for (const d of dispatchers) await d.close();
    await handle?.close();
    await temporal?.stop();
    await env?.stop();
  });

  it('a write records its index job in its own transaction: every kind of write asks, a delete does not', async () => {
    const alice = person(env, 'alice');
    const file = await upload(env.service, 'kinds.txt');
    const id = `index:${file.id}`;
    const requests = async () => (await jobs()).find((j) => j.workflow_id === id)?.requests;
    expect(await requests()).toBe(1);
    await env.service.update(alice, file.id, { description: 'edited' });
    expect(await requests()).toBe(2);
    await env.service.update(alice, file.id, { path: 'jobs/moved' });
    expect(await requests()).toBe(3);
    await env.service.replaceContent(alice, file.id, { body: body('two'), origin: 'portal' });
    expect(await requests()).toBe(4);
    await env.service.restore(alice, file.id, 1);
    expect(await requests()).toBe(5);
    // Unchanged bytes write nothing, so ask for nothing.
    const same = await env.service.create(alice, { library: personLib('alice'), path: 'jobs/moved', file_name: 'kinds.txt', if_exists: 'skip_unchanged', origin: 'portal', body: body('hello') });
    expect(same.outcome).toBe('unchanged');
    expect(await requests()).toBe(5);
    const other = await upload(env.service, 'deleted.txt');
    await env.db.query(`DELETE FROM resource_jobs WHERE resource_id = $1`, [other.id]);
    await env.service.delete(alice, other.id, { force: false });
    expect((await jobs()).filter((j) => j.resource_id === other.id)).toEqual([]);
    const row = (await jobs()).find((j) => j.workflow_id === id)!;
    expect(row).toMatchObject({ kind: 'index', resource_id: file.id, attempts: 0, last_error: null, claimed_until: null });
  });

  it('a write whose transaction rolls back leaves no job; a job that cannot be recorded rolls its write back', async () => {
    const before = await jobs();
    // Fails at COMMIT, after every statement of the write (its job's included) succeeded.
    await env.db.query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await env.db.query(`CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON resource_versions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse()`);
    try {
      await expect(upload(env.service, 'rolled-back.txt')).rejects.toThrow('refused by the test');
    } finally {
      await env.db.query(`DROP TRIGGER refuse_at_commit ON resource_versions`);
    }
    expect(await jobs()).toEqual(before);
    expect((await env.db.query(`SELECT 1 FROM resources WHERE file_name = 'rolled-back.txt'`)).rowCount).toBe(0);

    await env.db.query(`CREATE TRIGGER refuse_job BEFORE INSERT ON resource_jobs FOR EACH ROW EXECUTE FUNCTION refuse()`);
    try {
      await expect(upload(env.service, 'no-job.txt')).rejects.toThrow('refused by the test');
    } finally {
      await env.db.query(`DROP TRIGGER refuse_job ON resource_jobs`);
      await env.db.query(`DROP FUNCTION refuse()`);
    }
    expect((await env.db.query(`SELECT 1 FROM resources WHERE file_name = 'no-job.txt'`)).rowCount).toBe(0);
    expect(await jobs()).toEqual(before);
  });

  it('the dispatcher starts index:{resourceId} (indexResource on the queue, resourceId as its input) right after the commit and clears the row', async () => {
    const jobsOut = dispatcher();
    const service = env.replica({ jobs: jobsOut });
    const file = await upload(service, 'dispatched.txt');
    await jobsOut.idle();
    const described = await handle.client.workflow.getHandle(`index:${file.id}`).describe();
    expect(described).toMatchObject({ type: 'indexResource', taskQueue: QUEUE, status: { name: 'RUNNING' } });
    const history = await handle.client.workflow.getHandle(`index:${file.id}`).fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString())).toEqual({ resourceId: file.id });
    expect(await signals(`index:${file.id}`)).toEqual(['reindex']);
    expect((await jobs()).filter((j) => j.resource_id === file.id)).toEqual([]);
  });

  it('a burst of edits coalesces into one run told reindex again; a finished run is followed by a new one', async () => {
    const jobsOut = dispatcher();
    const service = env.replica({ jobs: jobsOut });
    const alice = person(env, 'alice');
    const file = await upload(service, 'burst.txt');
    await jobsOut.idle();
    const workflowId = `index:${file.id}`;
    const first = await handle.client.workflow.getHandle(workflowId).describe();

    // One after another: each committed edit is one signal to the same run.
    for (let n = 1; n <= 4; n++) {
      await service.update(alice, file.id, { description: `edit ${n}` });
      await jobsOut.idle();
    }
    expect(await signals(workflowId)).toEqual(Array(5).fill('reindex'));
    // All at once: dispatches meet each other's claims, so some edits share a signal, but the last
    // one always reaches the run after its commit, and nothing is left behind.
    await Promise.all(Array.from({ length: 10 }, (_, n) => service.update(alice, file.id, { description: `burst ${n}` })));
    await jobsOut.idle();
    const told = (await signals(workflowId)).length;
    expect(told).toBeGreaterThan(5);
    expect(told).toBeLessThanOrEqual(15);
    expect((await handle.client.workflow.getHandle(workflowId).describe()).runId).toBe(first.runId);
    expect((await jobs()).filter((j) => j.resource_id === file.id)).toEqual([]);

    // The run ended (here: terminated): the next edit starts a new run under the same id.
    await handle.client.workflow.getHandle(workflowId).terminate('the test ends this run');
    await service.update(alice, file.id, { description: 'after the run' });
    await jobsOut.idle();
    const next = await handle.client.workflow.getHandle(workflowId).describe();
    expect(next.runId).not.toBe(first.runId);
    expect(next.status.name).toBe('RUNNING');
  });

  it('a start Temporal does not answer leaves the job in the outbox with its backoff; the sweeper starts it once it is due, and the backlog metric counts it', async () => {
    // What earlier tests left waiting (no dispatcher wrote them) would be swept too.
    await env.db.query(`DELETE FROM resource_jobs`);
    // A real unreachable address: a port nobody listens on.
    const unreachable = new Client({ connection: Connection.lazy({ address: `127.0.0.1:${await freePort()}` }), namespace: 'default' });
    const away = dispatcher({ starter: temporalJobStarter(unreachable, { deadlineMs: 2_000 }), backoff: { initialMs: 5_000, maxMs: 60_000 } });
    const service = env.replica({ jobs: away });
    const file = await upload(service, 'away.txt');
    await away.idle();
    const workflowId = `index:${file.id}`;
    const waiting = (await jobs()).find((j) => j.workflow_id === workflowId)!;
    expect(waiting).toMatchObject({ attempts: 1, claimed_until: null });
    expect(waiting.last_error).toBeTruthy();
    expect(waiting.due_at.getTime()).toBe(now.getTime() + 5_000);
    await expect(handle.client.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const metrics = createMetrics({ defaultMetrics: false });
    const sweeper = dispatcher({ metrics: resourceJobMetrics(metrics.registry) });
    // Not due yet: the sweeper leaves it (and counts it).
    expect(await sweeper.sweep()).toEqual({ started: 0, failed: 0 });
    expect(await metrics.registry.getSingleMetricAsString('platform_resource_jobs_backlog')).toContain('platform_resource_jobs_backlog{kind="index"} 1');
    now = new Date(now.getTime() + 5_000);
    // The file's index job and its thumbnail job (issue 19).
    expect(await sweeper.sweep()).toEqual({ started: 2, failed: 0 });
    expect((await handle.client.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING');
    expect(await jobs()).not.toContainEqual(expect.objectContaining({ workflow_id: workflowId }));
    expect(await metrics.registry.getSingleMetricAsString('platform_resource_jobs_backlog')).toContain('platform_resource_jobs_backlog{kind="index"} 0');
    expect(await metrics.registry.getSingleMetricAsString('platform_resource_job_dispatches_total')).toContain('platform_resource_job_dispatches_total{kind="index",result="started"} 1');
    await unreachable.connection.close();
  }, 30_000);

  it('the index and thumbnail workflows, started from the outbox, carry the library, folder and file name: listed by a visibility query, named in the memo', async () => {
    await env.db.query(`DELETE FROM resource_jobs`);
    const alice = person(env, 'alice');
    // Recorded by the write, started by the sweeper: the durable hand-off's every path claims the same way.
    const file = (await env.service.create(alice, { library: personLib('alice'), path: 'reports/2024', file_name: 'q1 results.txt', if_exists: 'fail', origin: 'portal', body: body('q1') })).resource;
    await env.service.create(alice, { library: personLib('alice'), path: 'reports/2023', file_name: 'q1 results.txt', if_exists: 'fail', origin: 'portal', body: body('q1 of 2023') });
    expect(await dispatcher().sweep()).toEqual({ started: 4, failed: 0 });

    const ids = [`index:${file.id}`, `thumb:${file.id}:v1`];
    const query = `ResourceLibrary = "person:alice" AND ResourcePath = "reports/2024" AND ResourceName = "q1 results.txt"`;
    const listed = async (query: string) => {
      const found: string[] = [];
      for await (const execution of handle.client.workflow.list({ query })) found.push(execution.workflowId);
      return found.sort();
    };
    await vi.waitFor(async () => expect(await listed(query)).toEqual(ids), { timeout: 10_000, interval: 200 });
    // A folder and everything beneath it.
    expect(await listed(`ResourceLibrary = "person:alice" AND ResourcePath STARTS_WITH "reports/"`)).toHaveLength(4);
    for (const id of ids) {
      const described = await handle.client.workflow.getHandle(id).describe();
      expect(described.memo).toEqual({ fileName: 'q1 results.txt', uri: 'mcp://user/alice/reports/2024/q1%20results.txt' });
      expect(described.typedSearchAttributes.getAll().map((pair) => [pair.key.name, pair.value])).toEqual(
        expect.arrayContaining([
          ['ResourceLibrary', 'person:alice'],
          ['ResourcePath', 'reports/2024'],
          ['ResourceName', 'q1 results.txt'],
        ]),
      );
    }
  });
});
