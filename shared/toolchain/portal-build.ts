/**
 * The portal's build (portal/, built by Vite into portal/dist, which git ignores): `npm install`
 * (the `prepare` script), `npm start` and the test run call `ensurePortalBuilt`, which installs the
 * portal's own packages when its lock file changed and rebuilds when any source changed, and does
 * nothing otherwise. The portal is its own npm package because Vite 8 and the test runner's Vite
 * cannot share one node_modules. Stamps: `portal/node_modules/.platform-lock-hash` (what `npm ci`
 * installed) and `portal/dist/.platform-source-hash` (what the build was made from).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { withFileLock } from './file-lock.js';
import { packageRoot } from './package-root.js';

const repoRoot = packageRoot(import.meta.url);
export const portalDir = join(repoRoot, 'portal');
export const portalDistDir = join(portalDir, 'dist');
const lockStamp = join(portalDir, 'node_modules', '.platform-lock-hash');
const sourceStamp = join(portalDistDir, '.platform-source-hash');

/** Everything a build is made from: its package lock, configuration and sources. */
const buildInputs = ['package-lock.json', 'index.html', 'view.html', 'jsx-frame.html', 'vite.config.ts', 'tsconfig.json', 'src'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => filesUnder(join(path, entry.name)));
}

function hashOf(files: string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(portalDir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

async function stampSays(path: string, value: string): Promise<boolean> {
  try {
    return (await readFile(path, 'utf8')).trim() === value;
  } catch {
    return false;
  }
}

function run(command: string, args: string[], cwd: string, quiet: boolean, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'], env });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}) in ${cwd}\n${output.slice(-4000)}`))));
  });
}

export interface PortalBuildOptions {
  /** Keep npm's and Vite's output to the error message (tests, `npm start`); else it streams to the terminal. */
  quiet?: boolean;
  /** Runs each step, announcing a slow one (cli/progress.ts); default: just run it. */
  progress?: <T>(label: string, work: () => Promise<T>) => Promise<T>;
}

/** Installs the portal's packages and builds it when either is out of date; `built` tells whether anything ran. */
export async function ensurePortalBuilt(opts: PortalBuildOptions = {}): Promise<{ built: boolean }> {
  const step = opts.progress ?? (<T>(_label: string, work: () => Promise<T>) => work());
  const quiet = opts.quiet ?? false;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  let built = false;
  await mkdir(portalDir, { recursive: true });
  await withFileLock(join(portalDir, '.build.lock'), {
    done: async () => {
      const lockHash = hashOf([join(portalDir, 'package-lock.json')]);
      return (await stampSays(lockStamp, lockHash)) && stampSays(sourceStamp, hashOf(buildInputs.flatMap((p) => filesUnder(join(portalDir, p)))));
    },
    run: async () => {
      const lockHash = hashOf([join(portalDir, 'package-lock.json')]);
      if (!(await stampSays(lockStamp, lockHash))) {
        await step('installing the portal’s packages', () => run(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], portalDir, quiet));
        await writeFile(lockStamp, `${lockHash}\n`);
      }
      const sourceHash = hashOf(buildInputs.flatMap((p) => filesUnder(join(portalDir, p))));
      if (!(await stampSays(sourceStamp, sourceHash))) {
        // Always the production build, whoever asks: the test runner sets NODE_ENV=test, under which
        // Vite would bundle React's development build (a third larger, and not what people get).
        const vite = join(portalDir, 'node_modules', 'vite', 'bin', 'vite.js');
        await step('building the portal', () => run(process.execPath, [vite, 'build', '--logLevel', 'warn'], portalDir, quiet, { ...process.env, NODE_ENV: 'production' }));
        await writeFile(sourceStamp, `${sourceHash}\n`);
      }
      built = true;
    },
  });
  return { built };
}
