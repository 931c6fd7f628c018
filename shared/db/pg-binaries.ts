import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, readdir, realpath } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A folder holding a matching initdb, pg_ctl and postgres. */
export interface PgBinaries {
  bindir: string;
  initdb: string;
  pgCtl: string;
  postgres: string;
  /** Major version reported by `pg_ctl --version`, e.g. 15. */
  major: number;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `pg_ctl (PostgreSQL) 15.20 (Debian …)` → 15; `… 9.6.24` → 9. */
export function parsePgMajor(versionLine: string): number | null {
  const m = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(versionLine);
  if (!m) return null;
  return Number(m[1]);
}

async function candidateDirs(): Promise<string[]> {
  const dirs: string[] = [];
  // 1. pg_config knows the bindir of the installation it belongs to.
  try {
    const { stdout } = await execFileAsync('pg_config', ['--bindir'], { timeout: 5_000 });
    if (stdout.trim()) dirs.push(stdout.trim());
  } catch {
    // no pg_config on PATH
  }
  // 2. initdb on PATH (often a symlink into the real bindir; resolved below).
  for (const p of (process.env.PATH ?? '').split(delimiter)) {
    if (p && (await isExecutable(join(p, 'initdb')))) dirs.push(p);
  }
  // 3. Debian/Ubuntu layout, newest major first.
  try {
    const versions = (await readdir('/usr/lib/postgresql'))
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) dirs.push(join('/usr/lib/postgresql', v, 'bin'));
  } catch {
    // not a Debian-style install
  }
  return dirs;
}

async function resolveDir(dir: string): Promise<PgBinaries | null> {
  // Resolve symlinked tools to where they really live, so their siblings match in version.
  let initdb: string;
  try {
    initdb = await realpath(join(dir, 'initdb'));
  } catch {
    return null;
  }
  const bindir = initdb.slice(0, initdb.lastIndexOf('/'));
  const pgCtl = join(bindir, 'pg_ctl');
  const postgres = join(bindir, 'postgres');
  if (!(await isExecutable(initdb)) || !(await isExecutable(pgCtl)) || !(await isExecutable(postgres))) return null;
  try {
    const { stdout } = await execFileAsync(pgCtl, ['--version'], { timeout: 5_000 });
    const major = parsePgMajor(stdout);
    if (major === null) return null;
    return { bindir, initdb, pgCtl, postgres, major };
  } catch {
    return null;
  }
}

/**
 * Local PostgreSQL server binaries, in preference order: `pg_config --bindir`, `initdb` on PATH,
 * then `/usr/lib/postgresql/<major>/bin` newest first. Duplicates (symlinks) are removed.
 */
export async function findPgBinaries(): Promise<PgBinaries[]> {
  const found: PgBinaries[] = [];
  const seen = new Set<string>();
  for (const dir of await candidateDirs()) {
    const b = await resolveDir(dir);
    if (!b || seen.has(b.bindir)) continue;
    seen.add(b.bindir);
    found.push(b);
  }
  return found;
}
