/**
 * Acceptance (issue 18): a crash between commit and workflow start still indexes the resource.
 * `platform serve` runs as a child process whose Temporal address is a TCP relay to the test's dev
 * server; once it is up the relay is closed, so the address is really unreachable. An upload
 * through REST commits (201) while the child's dispatcher cannot start the workflow; the child is
 * killed with SIGKILL. The job waits in the outbox, and another process's sweeper (this test's,
 * the production dispatcher and Temporal starter, its clock past any lease and backoff the child
 * left) starts `index:{resourceId}`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { RESOURCE_JOB_DEFAULTS, ResourceJobDispatcher } from '../../shared/resources/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { temporalJobStarter } from '../../worker/index.js';
import { adminApiYaml } from '../support/api.js';
import { spawnPlatform, type PlatformChild } from '../support/platform-child.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/run-servers.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

const ADMIN_KEY = `crash-${randomBytes(12).toString('hex')}`;
const QUEUE = 'resource-jobs-crash';

/** A TCP relay to `target`; close() stops listening and cuts every relayed connection. */
async function startRelay(target: string): Promise<{ address: string; close(): Promise<void> }> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(port, host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe('a crash between commit and workflow start', () => {
  let dir: string;
  let database: { dsn: string; drop(): Promise<void> };
  let temporal: TestTemporal;
  let handle: TemporalHandle;
  let db: Db;
  const children: PlatformChild[] = [];

  beforeAll(async () => {
    [database, temporal] = await Promise.all([createTestDatabase(), startTestTemporal()]);
    dir = await mkdtemp(join(tmpdir(), 'resource-jobs-crash-'));
    handle = await connectTemporal({ address: temporal.address, namespace: temporal.namespace, tls: { enabled: false } });
    db = createPool({ dsn: database.dsn, maxOpenConns: 2 });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(children.map((c) => c.kill()));
    await db?.end();
    await handle?.close();
    await temporal?.stop();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('still indexes the resource: the sweeper of another process starts index:{resourceId}', async () => {
    const relay = await startRelay(temporal.address);
    const apiUrl = `http://127.0.0.1:${await freePort()}`;
    const configFile = join(dir, 'platform.yaml');
    await writeFile(
      configFile,
      adminApiYaml({
        adminKey: ADMIN_KEY,
        address: new URL(apiUrl).host,
        extra: `data_dir: ${JSON.stringify(join(dir, 'data'))}
database:
  dsn: ${JSON.stringify(database.dsn)}
temporal:
  address: ${JSON.stringify(relay.address)}
  task_queue: ${QUEUE}
toolkits:
  objstore:
    local: { driver: filesystem }
`,
      }),
    );
    const child = spawnPlatform(['serve', '--config', configFile], { LOG_LEVEL: 'info' });
    children.push(child);
    await child.waitFor('api listening', 60_000);
    // From now on the child's Temporal address answers nothing.
    await relay.close();

    const form = new FormData();
    form.append('path', 'reports');
    form.append('file', new Blob(['quarterly figures']), 'q3.txt');
    const response = await fetch(`${apiUrl}/api/v1/resources`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_KEY}` }, body: form });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await child.kill();
    expect(child.process.signalCode).toBe('SIGKILL');

    const workflowId = `index:${id}`;
    const waiting = await db.query<{ kind: string; resource_id: string }>(`SELECT kind, resource_id FROM resource_jobs WHERE workflow_id = $1`, [workflowId]);
    expect(waiting.rows).toEqual([{ kind: 'index', resource_id: id }]);
    await expect(handle.client.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    // Whatever the child did before it died (claimed the row, or failed and backed off), it is due by then.
    const later = new Date(Date.now() + RESOURCE_JOB_DEFAULTS.leaseMs + RESOURCE_JOB_DEFAULTS.backoff.maxMs);
    const sweeper = new ResourceJobDispatcher({ db, starter: temporalJobStarter(handle.client), platformQueue: QUEUE, log: silentLogger(), clock: () => later });
    try {
      expect(await sweeper.sweep()).toEqual({ started: 1, failed: 0 });
    } finally {
      await sweeper.close();
    }
    const described = await handle.client.workflow.getHandle(workflowId).describe();
    expect(described).toMatchObject({ type: 'indexResource', taskQueue: QUEUE, status: { name: 'RUNNING' } });
    expect((await db.query(`SELECT 1 FROM resource_jobs WHERE workflow_id = $1`, [workflowId])).rowCount).toBe(0);
  }, 120_000);
});
