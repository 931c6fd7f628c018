/**
 * Once per test run: a run directory shared by every test process (PLATFORM_TEST_RUN_DIR), where
 * servers started once per run (test/support/run-servers.ts: Trino, MinIO) record themselves; at
 * the end, they are stopped and the directory removed. The portal is built first when its sources
 * changed (shared/toolchain/portal-build.ts): the api serves portal/dist wherever `portal.enabled`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePortalBuilt } from '../shared/toolchain/index.js';
import { runDirVariable, stopSharedServers } from './support/run-servers.js';

export default async function setup(): Promise<() => void> {
  await ensurePortalBuilt({ quiet: true });
  const runDir = mkdtempSync(join(tmpdir(), 'platform-test-run-'));
  process.env[runDirVariable] = runDir;
  return () => {
    stopSharedServers(runDir);
    rmSync(runDir, { recursive: true, force: true });
  };
}
