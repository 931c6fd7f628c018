/**
 * A real Temporal dev server for integration tests: the same binary and launcher `platform dev`
 * uses, on free loopback ports, with its SQLite state in a temp dir removed on stop.
 * Share one per test file (start in beforeAll, stop in afterAll): it starts in about a second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer } from '../../shared/temporal/index.js';
import { ensureBinary } from '../../shared/toolchain/index.js';

export interface TestTemporal {
  /** host:port of the frontend, for `temporal.address`. */
  address: string;
  namespace: 'default';
  stop(): Promise<void>;
}

export async function startTestTemporal(): Promise<TestTemporal> {
  const binaryPath = await ensureBinary('temporal');
  const dataDir = await mkdtemp(join(tmpdir(), 'test-temporal-'));
  try {
    const server = await startDevServer({ dataDir, binaryPath, headless: true, stopTimeoutMs: 5_000 });
    return {
      address: server.address,
      namespace: 'default',
      async stop() {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}
