/**
 * CPU time of a process and its descendants (a platform started with server.workers > 1 serves
 * from cluster children), read from /proc so it can be sampled from outside the process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second, the unit of utime/stime in /proc/<pid>/stat. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, in seconds. */
  cpuSeconds: number;
}

/** Fields of /proc/<pid>/stat after the command name, which is in parentheses and may hold spaces. */
function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // exited meanwhile
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(0) ppid(1) … utime(11) stime(12).
  return { pid, ppid: Number(fields[1]), cpuSeconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond };
}

/** CPU seconds used so far by `rootPid` and every live descendant. */
export function processTreeCpuSeconds(rootPid: number): number {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
  const children = new Map<number, ProcStat[]>();
  for (const stat of all) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  let total = 0;
  const pending = all.filter((stat) => stat.pid === rootPid);
  for (let stat = pending.pop(); stat; stat = pending.pop()) {
    total += stat.cpuSeconds;
    pending.push(...(children.get(stat.pid) ?? []));
  }
  return total;
}

/**
 * The pid of the Postgres server behind `dsn` when it runs on this machine (the parent of the
 * backend serving this connection, found in /proc), else undefined: its process tree's CPU is what
 * the database does for a variant whose sessions live there.
 */
export async function localPostgresPid(dsn: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: dsn });
  try {
    await client.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const backend = readStat(rows[0]!.pid);
    if (!backend || !readFileSync(`/proc/${backend.pid}/cmdline`, 'utf8').startsWith('postgres')) return undefined;
    return backend.ppid;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
