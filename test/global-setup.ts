/**
 * Once per test run: a run directory shared by every test process (PLATFORM_TEST_RUN_DIR), where
 * servers started once per run (test/support/run-servers.ts: Trino, MinIO) record themselves; at
 * the end, they are stopped and the directory removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDirVariable, stopSharedServers } from './support/run-servers.js';

export default function setup(): () => void {
  const runDir = mkdtempSync(join(tmpdir(), 'platform-test-run-'));
  process.env[runDirVariable] = runDir;
  return () => {
    stopSharedServers(runDir);
    rmSync(runDir, { recursive: true, force: true });
  };
}
