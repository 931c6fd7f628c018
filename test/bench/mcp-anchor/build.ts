/**
 * The Go programs bench:mcp-anchor runs, built once into the tool cache (<cache>/bin) and reused
 * while present:
 *   - the anchor: txn2/mcp-data-platform at a pinned commit, its toolkit modules txn2/mcp-trino,
 *     txn2/mcp-datahub and txn2/mcp-s3 at pinned tags wired in with `go mod edit -replace` (the
 *     shared harness README's recipe; the module proxy refuses the toolkit versions newer commits
 *     need). Sources: `ANCHOR_SOURCES`, a directory holding the four repositories (checkouts or
 *     mirrors, by those names), else https://github.com/txn2/<name>. Everything else comes from
 *     the Go module proxy. The binary's name carries the commit.
 *   - the shared harness's load generator and bare net/http route, named by a hash of their sources.
 * Each build holds a lock file (like the tool installs in shared/toolchain) and works in a private
 * directory, so concurrent runs never build twice nor see half a binary.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isExecutableFile, locateGo, runCommand, toolCacheDir, withFileLock, withProgress } from '../../../shared/toolchain/index.js';

/** The anchor the issue's goals are stated against: commit ff6e8858 (2026-03-01) builds from public sources. */
export const anchorPin = {
  repository: 'mcp-data-platform',
  commit: 'ff6e8858f1f7ca28820306546dd83c701f8c99de',
  modules: [
    { repository: 'mcp-trino', tag: 'v1.0.0' },
    { repository: 'mcp-datahub', tag: 'v1.0.3' },
    { repository: 'mcp-s3', tag: 'v1.0.0' },
  ],
} as const;

export const anchorLabel = `txn2/${anchorPin.repository} @ ${anchorPin.commit.slice(0, 8)} (${anchorPin.modules.map((m) => `${m.repository} ${m.tag}`).join(', ')})`;

const cacheBin = () => join(toolCacheDir(process.env, homedir()), 'bin');

function goBinary(): string {
  const go = locateGo({ env: process.env, homedir: homedir(), platform: process.platform, isExecutable: isExecutableFile });
  if (!go) throw new Error('no Go toolchain found (GOROOT, PATH, /usr/local/go): the anchor and the shared harness are Go programs');
  return go;
}

/**
 * Builds `binary` into the tool cache unless it is there: `build(stage)` leaves an executable at
 * the path it returns, inside `stage`, which is removed afterwards.
 */
async function ensureBuilt(binary: string, what: string, build: (stage: string) => Promise<string>): Promise<string> {
  const path = join(cacheBin(), binary);
  await mkdir(cacheBin(), { recursive: true });
  await withFileLock(join(cacheBin(), `.${binary}.lock`), {
    done: () => isExecutableFile(path),
    onWait: () => process.stderr.write(`waiting for another process building ${binary}\n`),
    run: async () => {
      const stage = join(cacheBin(), `.build-${binary}-${process.pid}`);
      await rm(stage, { recursive: true, force: true });
      await mkdir(stage, { recursive: true });
      try {
        const built = await withProgress(`building ${what}`, () => build(stage));
        await rename(built, path);
      } finally {
        await rm(stage, { recursive: true, force: true });
      }
    },
  });
  return path;
}

/** Where a txn2 repository comes from: ANCHOR_SOURCES/<name>, else GitHub. */
function source(repository: string): string {
  const dir = process.env.ANCHOR_SOURCES;
  return dir ? resolve(dir, repository) : `https://github.com/txn2/${repository}`;
}

/** A shallow checkout of `ref` (a full commit id, or refs/tags/<tag>) of `repository` into `dir`; answers the commit. */
async function checkout(repository: string, ref: string, dir: string): Promise<string> {
  const git = (...args: string[]) => runCommand('git', ['-C', dir, ...args], process.env);
  await mkdir(dir, { recursive: true });
  await git('init', '--quiet');
  try {
    await git('fetch', '--quiet', '--depth', '1', source(repository), ref);
  } catch (error) {
    throw new Error(`cannot fetch ${ref} of ${source(repository)} (set ANCHOR_SOURCES to a directory holding the four txn2 repositories): ${(error as Error).message}`);
  }
  await git('checkout', '--quiet', '--detach', 'FETCH_HEAD');
  return (await git('rev-parse', 'HEAD')).trim();
}

/** The anchor's binary (built on first use): `mcp-data-platform-<commit>` in the tool cache. */
export function ensureAnchorBinary(): Promise<string> {
  const go = goBinary();
  return ensureBuilt(`mcp-data-platform-${anchorPin.commit.slice(0, 8)}`, `the anchor, ${anchorLabel}`, async (stage) => {
    const platformDir = join(stage, anchorPin.repository);
    const commit = await checkout(anchorPin.repository, anchorPin.commit, platformDir);
    if (commit !== anchorPin.commit) throw new Error(`${source(anchorPin.repository)} gave ${commit} for ${anchorPin.commit}`);
    for (const dependency of anchorPin.modules) {
      await checkout(dependency.repository, `refs/tags/${dependency.tag}`, join(stage, dependency.repository));
      await runCommand(go, ['mod', 'edit', '-replace', `github.com/txn2/${dependency.repository}=../${dependency.repository}`], process.env, platformDir);
    }
    // Not beside the checkouts' names: `go build -o <existing dir>` writes into that directory.
    const binary = join(stage, 'anchor.bin');
    try {
      await runCommand(go, ['build', '-o', binary, './cmd/mcp-data-platform'], process.env, platformDir);
    } catch (error) {
      // The usual cause: a module the proxy refuses; go names it in the tail.
      throw new Error(`go build of the anchor failed: ${(error as Error).message}`);
    }
    return binary;
  });
}

/** A hash of the files of a Go program's directory, so an edited harness is rebuilt. */
function sourceHash(dir: string): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.go') || n === 'go.mod' || n === 'go.sum').sort()) {
    hash.update(`${name}\0`).update(readFileSync(join(dir, name))).update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** One of the shared harness's programs (`loadgen`, `barego`), built on first use. */
export function ensureHarnessBinary(harnessDir: string, program: 'loadgen' | 'barego'): Promise<string> {
  const go = goBinary();
  const dir = join(harnessDir, program);
  return ensureBuilt(`mcp-bench-${program}-${sourceHash(dir)}`, `the harness's ${program}`, async (stage) => {
    const binary = join(stage, program);
    // The harness folder may be read-only (CI's copy): only the output is written, into the stage.
    await runCommand(go, ['build', '-o', binary, '.'], process.env, dir);
    return binary;
  });
}
