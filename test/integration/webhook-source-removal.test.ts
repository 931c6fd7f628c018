/**
 * Deleting a webhook source (spec document 3: "Deleting a source stops its schedules and removes
 * its table, partitions, resources and segments through the same recorded steps") on a real
 * Temporal dev server, the platform worker, Postgres, the filesystem store and DuckDB: the admin
 * DELETE marks the source and starts `webhook-remove:{source}`, which terminates its running
 * compactions and removes its windows, table, segments and row; a mark whose workflow never
 * started is picked up by the next sweep; a pass stopped between steps is finished by the next;
 * no request is acknowledged from the mark on, even by a receiver that still holds the source.
 */
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSource, type RemovingSource, type SourceRemovalDeps } from '../../shared/webhooks/index.js';
import { rawWindowPrefix } from '../../shared/webhooks/layout.js';
import type { TemporalHandle } from '../../shared/temporal/index.js';
import { workflowBundle } from '../../worker/index.js';
import { compactWorkflowId, removalWorkflowId, webhookSweep, type CompactorSettings } from '../../workflows/index.js';
import { START, type Answer, type IngestRig } from './webhook-ingest-fixtures.js';
import { hmacSender, startCompactorRig, until, type CompactorRig } from './webhook-compactor-fixtures.js';

const { auth: hmac, send } = hmacSender(() => rig, 'whsec-removal-S3CR3T');
const MINUTE = 60_000;
const admin = { subject: 'root', personas: ['admin'], adminOfPersonas: ['admin'], platformAdmin: true, writer: { kind: 'person' as const, subject: 'root' } };
let compactorRig: CompactorRig;
let rig: IngestRig;
let handle: TemporalHandle;
let taskQueue: string;
let settings: CompactorSettings;
/** The source routes of an api that starts workflows at once (the rig's own api has no Temporal client). */
let jobsAdmin: (method: string, path: string) => Promise<Answer>;

async function sweep(workflowId = `sweep-${randomBytes(4).toString('hex')}`) {
  return handle.client.workflow.execute(webhookSweep, { workflowId, taskQueue, args: [{ settings }] });
}

async function windowRows(sourceId: string) {
  const { rows } = await rig.db.query('SELECT minute, attempts, resource_id, removal_step FROM webhook_windows WHERE source_id = $1 ORDER BY start_at', [sourceId]);
  return rows;
}

async function sourceRows(name: string): Promise<number> {
  return (await rig.db.query('SELECT count(*)::int AS n FROM webhook_sources WHERE name = $1', [name])).rows[0].n;
}

/** Whether the source's view can still be queried through MCP. */
async function tableExists(name: string): Promise<boolean> {
  try {
    await rig.query(`SELECT count(*) AS n FROM scratch.webhook_${name.replaceAll('-', '_')}`);
    return true;
  } catch {
    return false;
  }
}

/** Past the receiver's one-second source cache on the injected clock. */
const pastSourceCache = () => {
  rig.clock.now += 1_001;
};

beforeAll(async () => {
  compactorRig = await startCompactorRig({ enabled: true, queuePrefix: 'removal' });
  ({ rig, handle, taskQueue, settings } = compactorRig);
  ({ admin: jobsAdmin } = await compactorRig.startJobsApi());
}, 120_000);

afterAll(async () => {
  await compactorRig?.stop();
});

describe('deleting a webhook source', () => {
  it('DELETE answers 202 and webhook-remove:{source} removes its windows (partition, resource, segments), table, leftover segments and row; the name is free again', async () => {
    const source = await rig.createSource('doomed', hmac, { event_id_path: '$.id', compact_every_minutes: 15 });
    rig.clock.now = START; // 10:15
    expect((await send('doomed', { id: 'a' })).status).toBe(202);
    rig.clock.now = START + 15 * MINUTE; // 10:30
    expect((await send('doomed', { id: 'b' })).status).toBe(202);
    // 10:15 is compacted into a resource; 10:30 stays raw.
    const compacted = await sweep();
    expect(compacted.started).toEqual([compactWorkflowId({ source: 'doomed', dt: '2026-03-02', hour: '10', minute: '15' }), compactWorkflowId({ source: 'doomed', dt: '2026-03-02', hour: '10', minute: '30' })]);
    await handle.client.workflow.getHandle(compacted.started[0]!).result();
    await handle.client.workflow.getHandle(compacted.started[1]!).result();
    expect((await send('doomed', { id: 'c' })).status).toBe(202); // a late one: 10:30 owed again, raw
    const [{ resource_id: resourceId }] = await windowRows(source.id);
    expect(resourceId).toMatch(/\S/);
    // A segment no window recorded (a replica that died between its write and its record).
    await rig.storage.connection.store.putObject(rig.storage.bucket, 'webhooks/doomed/raw/dt=2026-03-02/hour=09/minute=00/stray-1-1.jsonl.gz', 'x');

    const deleted = await jobsAdmin('DELETE', '/doomed');
    expect(deleted.status).toBe(202);
    expect(deleted.json).toMatchObject({ name: 'doomed', state: 'removing', removing_since: new Date(rig.clock.now).toISOString() });
    pastSourceCache();
    expect((await send('doomed', { id: 'd' })).status).toBe(404);

    const removal = handle.client.workflow.getHandle(removalWorkflowId('doomed'));
    expect(await removal.result()).toEqual({ windowsRemoved: 2, segmentsDeleted: 4 });
    expect(await rig.segments('doomed')).toEqual([]);
    await expect(compactorRig.resources.get(admin, resourceId)).rejects.toMatchObject({ code: 'not_found' });
    expect(await sourceRows('doomed')).toBe(0);
    expect(await windowRows(source.id)).toEqual([]);
    expect(await tableExists('doomed')).toBe(false);
    expect((await rig.admin('GET', '/doomed')).status).toBe(404);
    expect((await jobsAdmin('DELETE', '/doomed')).status).toBe(404);
    const description = await removal.describe();
    expect(description.typedSearchAttributes.getAll().map((pair) => [pair.key.name, pair.value])).toContainEqual(['WebhookSource', 'doomed']);

    // The name is free: a new source under it starts empty.
    await rig.createSource('doomed', hmac, { event_id_path: '$.id' });
    expect(await rig.query('SELECT count(*) AS n FROM scratch.webhook_doomed')).toEqual([{ n: 0 }]);
    const history = await removal.fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, removalWorkflowId('doomed'))).resolves.toBeUndefined();
  });

  it("terminates the source's running compactions first; a compaction started for a source being removed is refused for good", async () => {
    const source = await rig.createSource('stuck', hmac, { event_id_path: '$.id' });
    rig.clock.now = START;
    expect((await send('stuck', { id: 'x' })).status).toBe(202);
    // A raw segment that is not gzip: the compaction fails and retries until its workflow is stopped.
    await rig.storage.connection.store.putObject(rig.storage.bucket, `${rawWindowPrefix('stuck', { dt: '2026-03-02', hour: '10', minute: '00' })}corrupt.jsonl.gz`, 'not gzip');
    const pass = await sweep();
    const compactionId = compactWorkflowId({ source: 'stuck', dt: '2026-03-02', hour: '10', minute: '00' });
    expect(pass.started).toEqual([compactionId]);
    await until('a failed try', () => windowRows(source.id), (rows) => rows[0]?.attempts >= 1);

    expect((await jobsAdmin('DELETE', '/stuck')).status).toBe(202);
    expect(await handle.client.workflow.getHandle(removalWorkflowId('stuck')).result()).toMatchObject({ windowsRemoved: 1 });
    expect((await handle.client.workflow.getHandle(compactionId).describe()).status.name).toBe('TERMINATED');
    expect(await sourceRows('stuck')).toBe(0);
    expect(await rig.segments('stuck')).toEqual([]);

    // A compaction asked for a window of a source being removed fails at once, without a retry.
    const marked = await rig.createSource('marked', hmac, { event_id_path: '$.id' });
    expect((await send('marked', { id: 'm' })).status).toBe(202);
    await rig.services.sources.markRemoving('marked');
    const [due] = (await rig.db.query('SELECT landed_seq FROM webhook_windows WHERE source_id = $1', [marked.id])).rows;
    const window = { sourceId: marked.id, source: 'marked', connection: 'local', persona: 'admin', dt: '2026-03-02', hour: '10', minute: '00', landedSeq: Number(due.landed_seq), duplicatesDropped: 0 };
    expect(await compactorRig.jobs.compact(window)).toBe('started');
    await expect(handle.client.workflow.getHandle(compactWorkflowId(window)).result()).rejects.toThrow();
    const [refused] = await windowRows(marked.id);
    expect(refused).toMatchObject({ attempts: 0, resource_id: null });
    const failure = await handle.client.workflow.getHandle(compactWorkflowId(window)).fetchHistory();
    expect(JSON.stringify(failure)).toContain('is being removed');
    expect(await compactorRig.jobs.remove({ id: marked.id, name: 'marked', connection: 'local', persona: 'admin' })).toBe('started');
    await handle.client.workflow.getHandle(removalWorkflowId('marked')).result();
    expect(await sourceRows('marked')).toBe(0);
  });

  it('a source marked without its removal started (a crash between the commit and the start) is removed by the next sweep pass; until then it receives nothing, is not compacted or retained, and keeps its name', async () => {
    const source = await rig.createSource('orphaned', hmac, { event_id_path: '$.id' });
    rig.clock.now = START;
    expect((await send('orphaned', { id: 'o' })).status).toBe(202);
    // The rig's own api has no Temporal client: its DELETE only marks the source.
    const first = await rig.admin('DELETE', '/orphaned');
    expect(first.status).toBe(202);
    // Within its source cache second the receiver still takes the request, but the landing is
    // refused from the mark on: not acknowledged (its segment is left to the removal).
    const late = await send('orphaned', { id: 'late' });
    expect(late.status).toBe(503);
    expect(late.json).toEqual({ error: 'write_failed', message: 'segment write failed: the webhook source orphaned is being removed' });
    rig.clock.now += MINUTE;
    const second = await rig.admin('DELETE', '/orphaned');
    expect(second.status).toBe(202);
    expect(second.json.removing_since).toBe(first.json.removing_since);
    expect((await rig.admin('GET', '/orphaned')).json.state).toBe('removing');
    await expect(handle.client.workflow.getHandle(removalWorkflowId('orphaned')).describe()).rejects.toThrow();
    pastSourceCache();
    expect((await send('orphaned', { id: 'p' })).status).toBe(404);
    expect((await rig.admin('POST', '', { name: 'orphaned', connection: 'local', auth: hmac })).status).toBe(409);
    expect((await rig.admin('POST', '/orphaned/windows/2026-03-02T10:00/retry')).status).toBe(409);
    expect((await compactorRig.deps.retentionSources()).map((s) => s.name)).not.toContain('orphaned');
    expect(await compactorRig.deps.due({ nowMs: Date.now(), graceMs: 0, limit: 100 })).not.toContainEqual(expect.objectContaining({ source: 'orphaned' }));

    const sweepId = `sweep-${randomBytes(4).toString('hex')}`;
    const pass = await sweep(sweepId);
    expect(pass.started).toEqual([removalWorkflowId('orphaned')]);
    expect(await handle.client.workflow.getHandle(removalWorkflowId('orphaned')).result()).toEqual({ windowsRemoved: 1, segmentsDeleted: 2 });
    expect(await sourceRows('orphaned')).toBe(0);
    expect(await windowRows(source.id)).toEqual([]);
    expect(await rig.segments('orphaned')).toEqual([]);
    expect((await sweep()).started).toEqual([]);
    const history = await handle.client.workflow.getHandle(sweepId).fetchHistory();
    await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, sweepId)).resolves.toBeUndefined();
  });

  it('a removal stopped between its steps is finished by the next pass, each window step done once', async () => {
    const source = await rig.createSource('halted', hmac, { event_id_path: '$.id', compact_every_minutes: 15 });
    rig.clock.now = START;
    expect((await send('halted', { id: 'h1' })).status).toBe(202);
    rig.clock.now = START + 15 * MINUTE;
    expect((await send('halted', { id: 'h2' })).status).toBe(202);
    const pass = await sweep();
    await Promise.all(pass.started.map((id) => handle.client.workflow.getHandle(id).result()));
    const view = await rig.services.sources.markRemoving('halted');
    const removing: RemovingSource = { id: view.id, name: 'halted', connection: 'local', persona: 'admin' };
    const { services } = rig;
    const deps: SourceRemovalDeps = { windows: services.windows, storage: services.tables.storage, tables: services.tables, resources: compactorRig.resources, sources: services.sources };

    // Stopped right after the first window's first step was recorded.
    const steps: string[] = [];
    let stopAfter = 1;
    const stopping: SourceRemovalDeps = {
      ...deps,
      windows: {
        unremoved: (id) => services.windows.unremoved(id),
        async removalStep(key, step) {
          const done = await services.windows.removalStep(key, step);
          steps.push(`${key.minute} ${step}`);
          if (steps.length === stopAfter) throw new Error('worker stopped');
          return done;
        },
      },
    };
    await expect(removeSource(stopping, removing)).rejects.toThrow('worker stopped');
    expect((await windowRows(source.id)).map((w) => w.removal_step)).toEqual(['unregistered', null]);
    expect(await tableExists('halted')).toBe(true);
    // The view reads the first window from raw again, the second from its file: nothing lost yet.
    expect(await rig.query('SELECT event_id FROM scratch.webhook_halted ORDER BY event_id')).toEqual([{ event_id: 'h1' }, { event_id: 'h2' }]);

    // Stopped again after the first window is done, before the second starts.
    steps.length = 0;
    stopAfter = 2;
    await expect(removeSource(stopping, removing)).rejects.toThrow('worker stopped');
    expect(steps).toEqual(['15 resource_deleted', '15 removed']);

    // Stopped after the tables were dropped, before the row went.
    const failingForget: SourceRemovalDeps = { ...deps, sources: { forget: () => Promise.reject(new Error('database gone')) } };
    await expect(removeSource(failingForget, removing)).rejects.toThrow('database gone');
    expect((await windowRows(source.id)).map((w) => w.removal_step)).toEqual(['removed', 'removed']);
    expect(await tableExists('halted')).toBe(false);
    expect(await sourceRows('halted')).toBe(1);

    // The next pass finishes: nothing left to remove but the row.
    expect(await removeSource(deps, removing)).toEqual({ windowsRemoved: 0, segmentsDeleted: 0 });
    expect(await sourceRows('halted')).toBe(0);
    expect(await rig.segments('halted')).toEqual([]);
  });
});
