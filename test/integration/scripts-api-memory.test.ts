/**
 * Issue 16 acceptance, sandbox containment: "1,000 runs do not grow the api's RSS by more than
 * 50 MiB" — measured on the api itself. `platform serve` runs as a child process (Postgres, the
 * embedded DuckDB, audit of tool calls) and a saved script is draft-run through the api's own
 * surfaces, REST and the MCP tool manage_script, a few runs at a time. Every run opens its
 * in-memory MCP session, calls sql_query through it (audited under script:<name>), logs to its
 * console and is recorded (script_runs + its script_run audit row). The child's RSS is read from
 * /proc/<pid>/status after a warm-up and after the 1,000 runs; the api is not asked to collect
 * garbage: it must stay within the bound as it runs in production. A second test holds each run's
 * state to its run: runs that each log 2 MiB, one after the other on one sandbox thread.
 *
 * What the growth is made of (docs/scripts.md, "Sandbox"): the api's V8 old generation fills with
 * the garbage of finished requests until its next mark-compact (some 25 MiB per 1,000 runs here,
 * released then: the live heap stays near 60 MiB), and each sandbox thread's heap grows to its
 * working size in its first few hundred runs — which the warm-up covers.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedApiYaml, callToolJson, connectMcp, restJson, type Json } from '../support/api.js';
import { spawnPlatform, type PlatformChild } from '../support/platform-child.js';
import { createTestDatabase } from '../support/postgres.js';

const KEY = 'memory-key-0123456789';
/** Enough for each sandbox thread's heap (and the JIT) to reach its working size before measuring. */
const WARM_UP_RUNS = 300;
const RUNS = 1_000;
/** Runs in flight at once: the replica's cap (scripts.max_concurrent_runs, none kept for handlers), so none is answered busy. */
const LANES = 4;
const MAX_GROWTH_BYTES = 50 * 1024 * 1024;
const MiB = 1024 * 1024;

const source = `export async function main() {
  const answer = await platform.sql('select 1 as one', { connection: 'local' });
  console.log('rows', answer.rows.length);
  return { rows: answer.rows.length };
}`;

/** Console output of one run of the loud script; scripts.console_limit_bytes lets it all through. */
const LOUD_BYTES = 2 * 1024 * 1024;
/** Runs one after the other, so one sandbox thread takes them all: their console, were it kept, passes the thread's 128 MiB heap. */
const LOUD_RUNS = 100;
const loudSource = `export function main() { console.log('x'.repeat(${LOUD_BYTES})); return 'said' }`;

let dir: string;
let database: { dsn: string; drop(): Promise<void> } | undefined;
let child: PlatformChild | undefined;
let apiUrl: string;
let mcp: Client | undefined;
let scriptId: string;
let loudId: string;

/** The child's resident set, from the kernel (VmRSS, in kB). */
async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

/** The child's V8 heap as its own Prometheus series report it (for the numbers printed, not asserted). */
async function heapUsedBytes(): Promise<number | undefined> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  const value = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** One draft run of the saved script: lane 0 through the MCP tool, the others through REST. */
async function runOnce(lane: number): Promise<Json> {
  if (lane === 0) {
    const answer = await callToolJson(mcp!, 'manage_script', { action: 'run', script: scriptId });
    expect(answer.isError, answer.text).toBe(false);
    return answer.body;
  }
  const answer = await restJson(`${apiUrl}/api/v1/portal/scripts/${scriptId}/run`, KEY, 'POST');
  expect(answer.status).toBe(200);
  return answer.body;
}

/** `count` runs, LANES at a time; each must succeed with the script's result and console. */
async function runMany(count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: LANES }, async (_, lane) => {
      while (next < count) {
        next++;
        const run = await runOnce(lane);
        expect(run).toMatchObject({ status: 'ok', result: { rows: 1 }, console: 'rows 1' });
      }
    }),
  );
}

const mib = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / MiB).toFixed(1)} MiB`);
const signedMib = (bytes: number) => `${bytes < 0 ? '-' : '+'}${mib(Math.abs(bytes))}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scripts-api-memory-'));
  database = await createTestDatabase();
  const configFile = join(dir, 'platform.yaml');
  await writeFile(
    configFile,
    `${auditedApiYaml({ dsn: database.dsn, dataDir: join(dir, 'data'), keys: [{ key: KEY, name: 'runner', roles: ['staff'] }] })}personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_script", "sql_*"] } }
toolkits:
  sql:
    local:
      engine: duckdb
scripts:
  max_concurrent_runs: ${LANES}
  handler_reserved_runs: 0
  console_limit_bytes: ${2 * LOUD_BYTES}
`,
  );
  // LOG_LEVEL info: the "api listening" line names the url of the random port.
  child = spawnPlatform(['serve', '--config', configFile], { LOG_LEVEL: 'info' });
  await child.waitFor('api listening', 90_000);
  const url = /"url":"(http:\/\/[^"]+)\/mcp"/.exec(child.output())?.[1];
  if (!url) throw new Error(`no api url in the output:\n${child.output()}`);
  apiUrl = url;
  mcp = await connectMcp(apiUrl, KEY);
  const create = async (name: string, text: string) => {
    const created = await restJson(`${apiUrl}/api/v1/portal/scripts`, KEY, 'POST', { name, source: text });
    expect(created.status).toBe(201);
    return created.body.script.id as string;
  };
  scriptId = await create('memory-probe', source);
  loudId = await create('loud', loudSource);
}, 120_000);

afterAll(async () => {
  await mcp?.close().catch(() => undefined);
  await child?.kill();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the api's memory over many script runs", () => {
  it(`${RUNS} draft runs through REST and manage_script (sql, console, record, audit) grow the api's RSS by less than 50 MiB`, async () => {
    const pid = child!.process.pid!;
    await runMany(WARM_UP_RUNS);
    const before = { rss: await rssBytes(pid), heapUsed: await heapUsedBytes() };
    const started = performance.now();
    await runMany(RUNS);
    const seconds = (performance.now() - started) / 1_000;
    const after = { rss: await rssBytes(pid), heapUsed: await heapUsedBytes() };
    const growth = after.rss - before.rss;
    console.info(
      `api RSS ${mib(before.rss)} -> ${mib(after.rss)} (${signedMib(growth)}); heapUsed ${mib(before.heapUsed)} -> ${mib(after.heapUsed)}; ` +
        `${RUNS} runs in ${seconds.toFixed(1)} s (${LANES} at a time)`,
    );
    expect(growth, `the api's RSS grew by ${mib(growth)} over ${RUNS} runs`).toBeLessThan(MAX_GROWTH_BYTES);
  }, 180_000);

  // After the measurement above, which it would disturb. A run's state (its QuickJS runtime and
  // context, its console) must go when the run ends, not when its deadline (30 s) would have come.
  it(`keeps nothing of a run once it ended: ${LOUD_RUNS} runs in a row, each logging 2 MiB, all succeed`, async () => {
    for (let i = 0; i < LOUD_RUNS; i++) {
      const run = await restJson(`${apiUrl}/api/v1/portal/scripts/${loudId}/run`, KEY, 'POST');
      expect(run.status).toBe(200);
      expect({ run: i, status: run.body.status, error: run.body.error }).toEqual({ run: i, status: 'ok', error: undefined });
      expect(run.body.console.length).toBe(LOUD_BYTES);
    }
  }, 120_000);
});
