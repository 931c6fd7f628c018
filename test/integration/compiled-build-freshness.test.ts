/**
 * `platform` runs the compiled build (dist/) only while it was compiled from the sources as they
 * are now (bin/source-stamp.js): a build left behind by an older checkout or an edit since is
 * never served. Exercised on a copy of bin/ in a scratch package whose "sources" and "build" say
 * which of them ran. Also: the package root is found the same way from the sources and from dist/.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBuildIsFresh, sourceStamp, stampFile } from '../../bin/source-stamp.js';
import { packageRoot } from '../../shared/toolchain/index.js';

const run = promisify(execFile);
const repo = join(import.meta.dirname, '..', '..');
let root: string;

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function platform(env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  const { PLATFORM_FROM_SOURCE: _ignored, ...rest } = process.env;
  return run(process.execPath, [join(root, 'bin', 'platform.js')], { env: { ...rest, ...env } });
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'platform-build-'));
  mkdirSync(join(root, 'bin'));
  for (const file of ['platform.js', 'source-stamp.js']) copyFileSync(join(repo, 'bin', file), join(root, 'bin', file));
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  write('package.json', '{"name":"scratch","type":"module"}');
  write('tsconfig.json', '{}');
  write('cli/main.ts', "process.stdout.write('sources');\n");
  write('shared/rule.ts', 'export const rule = 1;\n');
  write('shared/notes.md', 'not compiled\n');
  write('dist/cli/main.js', "process.stdout.write('compiled');\n");
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the compiled build runs only while it matches the sources', () => {
  it('without a stamp the sources run, saying why', async () => {
    expect(compiledBuildIsFresh(root)).toBe(false);
    const { stdout, stderr } = await platform();
    expect(stdout).toBe('sources');
    expect(stderr).toMatch(/dist\/ was not compiled from the sources as they are now/);
  });

  it('with a fresh stamp the build runs; PLATFORM_FROM_SOURCE=1 still runs the sources', async () => {
    write(stampFile, `${sourceStamp(root)}\n`);
    expect((await platform()).stdout).toBe('compiled');
    expect(await platform({ PLATFORM_FROM_SOURCE: '1' })).toEqual({ stdout: 'sources', stderr: '' });
  });

  it('a file that is not compiled changes nothing', () => {
    write('shared/notes.md', 'edited\n');
    expect(compiledBuildIsFresh(root)).toBe(true);
  });

  it('an edited, touched, added or removed source makes the build stale', async () => {
    const fresh = () => write(stampFile, `${sourceStamp(root)}\n`);
    write('shared/rule.ts', 'export const rule = 22;\n');
    expect(compiledBuildIsFresh(root)).toBe(false);
    expect((await platform()).stdout).toBe('sources');

    fresh();
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, 'shared', 'rule.ts'), later, later);
    expect(compiledBuildIsFresh(root)).toBe(false);

    fresh();
    write('api/new.ts', 'export {};\n');
    expect(compiledBuildIsFresh(root)).toBe(false);

    fresh();
    rmSync(join(root, 'api', 'new.ts'));
    expect(compiledBuildIsFresh(root)).toBe(false);

    fresh();
    write('tsconfig.json', '{"compilerOptions":{}}');
    expect(compiledBuildIsFresh(root)).toBe(false);
  });
});

describe('packageRoot', () => {
  it('is the directory holding package.json, from the sources and from dist/', () => {
    write('dist/shared/toolchain/portal-build.js', '');
    write('shared/toolchain/portal-build.ts', '');
    expect(packageRoot(pathToFileURL(join(root, 'dist', 'shared', 'toolchain', 'portal-build.js')).href)).toBe(root);
    expect(packageRoot(pathToFileURL(join(root, 'shared', 'toolchain', 'portal-build.ts')).href)).toBe(root);
    expect(packageRoot(import.meta.url)).toBe(repo);
  });
});
