/**
 * Crash test (issue 14, acceptance): `platform serve` as a child process on Postgres, the
 * filesystem store and the embedded DuckDB. Senders post continuously with unique ids and record
 * every 202; the process is killed with SIGKILL while requests are in flight and restarted on the
 * same config; every acknowledged id is then in `webhook_<source>` (read through MCP sql_query on
 * the restarted process): zero lost. The restarted replica writes segments under a name of its
 * own, so no segment written before the crash is overwritten.
 *
 * DuckDB rather than Trino: its file is held by one process at a time, which is just what a
 * single child killed and restarted needs (the lock dies with the process); the two-replica test
 * covers Trino.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { platformScratchStorage, type ScratchStorage } from '../../shared/sql/scratch/index.js';
import { adminApiYaml, connectMcp } from '../support/api.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';
import { freePort } from '../support/run-servers.js';
import { ADMIN_KEY, createHmacSource, postEvent, rawSegments, startSenders } from './webhook-durability-fixtures.js';

const SENDERS = 8;
/** Acknowledged events before the kill: enough for many group commits of several requests each. */
const ACKED_BEFORE_KILL = 400;

interface Child {
  process: ChildProcess;
  exited: Promise<void>;
  output(): string;
}

let dir: string;
let configFile: string;
let yaml: string;
let apiUrl: string;
let database: { dsn: string; drop(): Promise<void> };
const children: Child[] = [];

function spawnServe(): Child {
  const child = spawn(process.execPath, [platformBin, 'serve', '--config', configFile], { cwd: repoRoot, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = { process: child, exited, output: () => output };
  children.push(started);
  return started;
}

/** Polls /readyz until the child answers ready; fails when it exits or the deadline passes. */
async function waitReady(child: Child, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`platform serve exited with ${child.process.exitCode}:\n${child.output()}`);
    try {
      const response = await fetch(`${apiUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`platform serve was not ready within ${deadlineMs} ms:\n${child.output()}`);
}

async function kill(child: Child): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  await child.exited;
}

describe('webhook ingest survives SIGKILL of the api process', () => {
  let objstore: ObjstoreConnections;
  let storage: ScratchStorage;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'webhook-crash-'));
    apiUrl = `http://127.0.0.1:${await freePort()}`;
    yaml = adminApiYaml({
      adminKey: ADMIN_KEY,
      address: new URL(apiUrl).host,
      extra: `data_dir: ${JSON.stringify(join(dir, 'data'))}
database:
  dsn: ${JSON.stringify(database.dsn)}
toolkits:
  objstore:
    local: { driver: filesystem }
  sql:
    local: { engine: duckdb }
`,
    });
    configFile = join(dir, 'platform.yaml');
    await writeFile(configFile, yaml);
    // The test reads the same store the child writes (listing only, which the child never disturbs).
    objstore = createObjstoreConnections(parseConfig(yaml, {}).config);
    storage = await platformScratchStorage(parseConfig(yaml, {}).config, objstore);
  });

  afterAll(async () => {
    await Promise.all(children.map(kill));
    await objstore?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every acknowledged event is in the table after a SIGKILL mid-stream and a restart; the new replica overwrites no segment', async () => {
    const first = spawnServe();
    await waitReady(first);
    const name = `crash-${randomBytes(3).toString('hex')}`;
    const source = await createHmacSource(apiUrl, { name, connection: 'local', config: { event_id_path: '$.id', flush_max_interval_ms: 20 } });

    const senders = startSenders({ count: SENDERS, prefix: 'before', target: () => `${apiUrl}/hooks/${name}` });
    await senders.ackedAtLeast(ACKED_BEFORE_KILL);
    // Continuous senders always have requests in flight; killed now, those are never answered.
    expect(senders.inFlight()).toBeGreaterThan(0);
    await kill(first);
    await senders.done;
    expect(first.process.signalCode).toBe('SIGKILL');
    expect(senders.refused).toEqual(new Map());
    expect(senders.unanswered()).toBeGreaterThan(0);
    const acked = new Set(senders.acked);

    const before = await rawSegments(storage.connection.store, storage.bucket, name);
    expect(before.size).toBeGreaterThan(0);
    const writersBefore = new Set([...before.values()].map((s) => s.writer));

    const second = spawnServe();
    await waitReady(second);
    // The restarted replica writes too (a few events after the restart).
    for (let n = 0; n < 5; n++) {
      const id = `after-${n}`;
      expect(await postEvent(`${apiUrl}/hooks/${name}`, { id })).toBe(202);
      acked.add(id);
    }

    const after = await rawSegments(storage.connection.store, storage.bucket, name);
    // Every segment from before the crash is still there, unchanged; the new ones have another writer.
    for (const segment of before.values()) expect(after.get(segment.key)?.etag, `${segment.key} overwritten`).toBe(segment.etag);
    const added = [...after.values()].filter((s) => !before.has(s.key));
    expect(added.length).toBeGreaterThan(0);
    expect(after.size).toBe(before.size + added.length);
    for (const segment of added) expect(writersBefore.has(segment.writer)).toBe(false);

    const mcp = await connectMcp(apiUrl, ADMIN_KEY);
    try {
      const result = await mcp.callTool({
        name: 'sql_query',
        arguments: { sql: `SELECT string_agg(DISTINCT event_id, ',') AS ids, count(*) AS n FROM scratch.${source.table}` },
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const [row] = (result.structuredContent as { rows: Array<{ ids: string; n: number }> }).rows;
      const stored = new Set(row!.ids.split(','));
      const lost = [...acked].filter((id) => !stored.has(id));
      expect(lost).toEqual([]);
      // Delivery is at least once: acknowledged events are there, unacknowledged ones may be too.
      expect(row!.n).toBeGreaterThanOrEqual(acked.size);
    } finally {
      await mcp.close();
    }
  }, 120_000);
});
