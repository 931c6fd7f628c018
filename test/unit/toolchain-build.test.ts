/**
 * ensureBinary's build path, with a stand-in `go` script on PATH (Go itself is not ours to test):
 * concurrent callers must share one build through the lock file and get the same binary.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBinary } from '../../shared/toolchain/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolchain-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A `go` that records each call, takes a moment, and "installs" a binary into $GOBIN. */
async function fakeGo(exitCode = 0): Promise<string> {
  const bin = join(dir, 'gobin');
  const script = `#!/bin/sh
PATH="$PATH:/usr/bin:/bin"
echo "$@" >> "${dir}/calls"
sleep 0.3
[ ${exitCode} -ne 0 ] && { echo "module lookup disabled" >&2; exit ${exitCode}; }
printf '#!/bin/sh\\necho built\\n' > "$GOBIN/temporal"
chmod +x "$GOBIN/temporal"
`;
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'go'), script);
  await chmod(join(bin, 'go'), 0o755);
  return bin;
}

describe('ensureBinary', () => {
  it('builds once into the tool cache when two callers race, then reuses it', async () => {
    const env = { PATH: await fakeGo(), PLATFORM_TOOLS_DIR: join(dir, 'tools') };
    const [a, b] = await Promise.all([ensureBinary('temporal', { env }), ensureBinary('temporal', { env })]);
    const expected = join(dir, 'tools', 'bin', 'temporal');
    expect(a).toBe(expected);
    expect(b).toBe(expected);
    const calls = (await readFile(join(dir, 'calls'), 'utf8')).trim().split('\n');
    expect(calls).toEqual(['install github.com/temporalio/cli/cmd/temporal@v1.5.1']);
    // Found in the cache now: no further build.
    expect(await ensureBinary('temporal', { env })).toBe(expected);
    expect((await readFile(join(dir, 'calls'), 'utf8')).trim().split('\n')).toHaveLength(1);
  });

  it('explains how to install when the build fails, and leaves no lock behind', async () => {
    const env = { PATH: await fakeGo(1), PLATFORM_TOOLS_DIR: join(dir, 'tools') };
    await expect(ensureBinary('temporal', { env })).rejects.toThrow(/module lookup disabled[\s\S]*TEMPORAL_CLI_PATH/);
    await expect(readFile(join(dir, 'tools', 'bin', '.temporal.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to build when building is disabled, and rejects a bad explicit path', async () => {
    const env = { PATH: join(dir, 'empty'), PLATFORM_TOOLS_DIR: join(dir, 'tools') };
    await expect(ensureBinary('minio', { env, allowBuild: false })).rejects.toThrow(/MINIO_PATH/);
    await expect(ensureBinary('temporal', { env: { ...env, TEMPORAL_CLI_PATH: join(dir, 'nope') } })).rejects.toThrow(
      /TEMPORAL_CLI_PATH is set to/,
    );
  });

  it('takes over a stale lock left by a dead process', async () => {
    const env = { PATH: await fakeGo(), PLATFORM_TOOLS_DIR: join(dir, 'tools') };
    await mkdir(join(dir, 'tools', 'bin'), { recursive: true });
    // PID 2^22+1 is above Linux's pid_max ceiling, so no live process owns it.
    await writeFile(join(dir, 'tools', 'bin', '.temporal.lock'), `${2 ** 22 + 1}\n`);
    expect(await ensureBinary('temporal', { env })).toBe(join(dir, 'tools', 'bin', 'temporal'));
  });
});
