/**
 * `platform dev` uses only a Temporal dev server it started (shared/temporal/dev-server.ts): a port
 * taken by another process between choosing it and the child binding it is detected — whatever
 * answers there lacks the data dir's identity namespace, and our child exits — and the start goes
 * on with other ports, ending on a server of its own; with a port the operator fixed, the start
 * fails instead. Another Temporal on the port is the case that matters: before, the launcher took
 * its answer as its child's and the platform upserted its Schedules there.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../shared/temporal/index.js';
import { ensureBinary } from '../../shared/toolchain/index.js';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dev-temporal-own-'));
  dirs.push(dir);
  return dir;
}

/** The namespaces of the server at `address`. */
async function namespaces(address: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const { namespaces: list } = await connection.workflowService.listNamespaces({});
    return list.map((n) => n.namespaceInfo!.name!);
  } finally {
    await connection.close();
  }
}

describe('the dev server is always one this process started', () => {
  let binaryPath: string;
  let other: DevServer;
  let otherPort: number;

  beforeAll(async () => {
    binaryPath = await ensureBinary('temporal');
    // Someone else's Temporal, already on the port ours will try first.
    other = await startDevServer({ dataDir: await dataDir(), binaryPath, headless: true, stopTimeoutMs: 5_000 });
    otherPort = Number(other.address.split(':')[1]);
  }, 120_000);

  afterAll(async () => {
    await other?.stop();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('another Temporal on the port it tries first: detected, and it ends on a server it started', async () => {
    const mine = await startDevServer({ dataDir: await dataDir(), binaryPath, headless: true, stopTimeoutMs: 5_000, preferredPorts: { port: otherPort } });
    try {
      expect(mine.address).not.toBe(other.address);
      const own = (await namespaces(mine.address)).filter((n) => n.startsWith('platform-dev-'));
      expect(own).toHaveLength(1);
      expect(await namespaces(other.address)).not.toContain(own[0]);
    } finally {
      await mine.stop();
    }
    // The other server was left alone.
    expect(await namespaces(other.address)).toContain('default');
  }, 120_000);

  it('another Temporal on a fixed port: the start fails, never using that server', async () => {
    await expect(startDevServer({ dataDir: await dataDir(), binaryPath, headless: true, stopTimeoutMs: 5_000, port: otherPort, readyTimeoutMs: 30_000 })).rejects.toThrow(
      /temporal dev server exited/,
    );
  }, 120_000);

  it('any other listener on the port it tries first: it moves to other ports', async () => {
    // Not a gRPC server: it hangs up on whoever connects.
    const listener: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const taken = (listener.address() as { port: number }).port;
    try {
      const mine = await startDevServer({ dataDir: await dataDir(), binaryPath, headless: true, stopTimeoutMs: 5_000, preferredPorts: { port: taken } });
      await mine.stop();
      expect(mine.address).not.toBe(`127.0.0.1:${taken}`);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  }, 120_000);
});
