/**
 * Issue 9, item 2: no SQL input can terminate, stall or exhaust the api process. Through a real MCP
 * client against the api role with the embedded DuckDB connection: a fatal engine fault costs only
 * the engine process; the memory bomb is answered while the api's RSS stays small and /healthz
 * keeps answering; the timeout covers classification and is honoured within 1 s; results stop at
 * the byte budget.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, DuckDbEngine, runWithLimit, SqlTimeoutError, type SqlToolkit } from '../../shared/sql/index.js';
import { apiConfigYaml, connectMcp, startTestApi, testConfig } from '../support/api.js';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (r: CallResult) => (r.content as Array<{ text: string }>)[0]!.text;
const stats = (r: CallResult) => (r.structuredContent as { stats: Record<string, unknown> }).stats;

/** Peak resident set size of a process, in bytes (Linux: VmHWM). */
function peakRss(pid: number | 'self'): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once `pid` is gone (checked every 20 ms, for at most 5 s). */
async function exited(pid: number): Promise<boolean> {
  for (let i = 0; i < 250 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return !alive(pid);
}

describe('item 2: the api survives whatever SQL does to the engine', () => {
  let dir: string;
  let toolkit: SqlToolkit;
  let api: RunningApi;
  let client: Client;
  const engine = () => toolkit.connection('local').engine as DuckDbEngine;
  const query = (args: Record<string, unknown>) => client.callTool({ name: 'sql_query', arguments: { connection: 'local', ...args } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sec-sql-engine-'));
    const config = testConfig(
      apiConfigYaml({
        extra: `data_dir: ${dir}
toolkits:
  sql:
    local:
      engine: duckdb
    small:
      engine: duckdb
      max_result_bytes: 100000
`,
      }),
    );
    toolkit = createSqlToolkit(config, { log: silentLogger() });
    api = await startTestApi({ config, tools: toolkit.tools });
    client = await connectMcp(api.url);
  });
  afterAll(async () => {
    await client?.close();
    await api?.stop();
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the crash sequence (enable_logging to a file, then any query) is refused, and the next query runs', async () => {
    const crash = await query({ sql: "SELECT * FROM enable_logging(storage='file', storage_path='/nonexistent')" });
    expect(crash.isError).toBe(true);
    expect(text(crash)).toBe('Query rejected: enable_logging() is not available: it reads or changes engine-wide state');
    const next = await query({ sql: 'SELECT 42 AS answer' });
    expect(next.structuredContent).toMatchObject({ rows: [{ answer: 42 }] });
  });

  it('a fatal fault inside DuckDB (a C++ abort) costs only the engine process: the caller gets an error, the api stays up, the next query works', async () => {
    expect((await query({ sql: 'SELECT 1 AS one' })).isError).toBeFalsy();
    const before = engine().enginePid!;
    // The same fault, reached past the policy (platform SQL is not classified): the next statement
    // makes DuckDB throw a C++ exception out of its logger, which aborts its process.
    await engine().exec("CALL enable_logging(storage='file', storage_path='/nonexistent')");
    const failed = await query({ sql: 'SELECT 2 AS two' });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/^Query failed: the DuckDB engine stopped unexpectedly \(SIGABRT\) while running this statement; it is restarted for the next one$/);
    expect(alive(before)).toBe(false);

    const health = await fetch(`${api.url}/healthz`);
    expect(health.status).toBe(200);
    const next = await query({ sql: 'SELECT 3 AS three' });
    expect(next.structuredContent).toMatchObject({ rows: [{ three: 3 }] });
    expect(engine().enginePid).not.toBe(before);
  });

  it('the memory bomb is answered (refused or truncated) while the api stays under 1 GiB and /healthz keeps answering while the engine is busy', async () => {
    const latencies: number[] = [];
    let running = true;
    let bomb: CallResult | undefined;
    const probe = (async () => {
      while (running) {
        const t0 = performance.now();
        const r = await fetch(`${api.url}/healthz`);
        await r.arrayBuffer();
        latencies.push(performance.now() - t0);
        expect(r.status).toBe(200);
      }
    })();
    try {
      // A CPU-bound statement keeps the engine busy the whole time; the bomb allocates 4.6 GB.
      let busy: CallResult;
      [busy, bomb] = await Promise.all([
        query({ sql: 'SELECT count(*) FROM range(100000) a, range(100000) b WHERE (a.range * 31 + b.range) % 7 = 0', timeout_seconds: 2 }),
        query({ sql: "SELECT repeat('x', 10000000) || range FROM range(460)" }),
      ]);
      expect(text(busy)).toBe('Query failed: query exceeded the timeout of 2s and was cancelled');
      if (bomb.isError) expect(text(bomb)).toMatch(/^Query failed: Out of Memory Error/);
      else expect(stats(bomb)).toMatchObject({ truncated: true, truncated_reason: 'byte_budget' });
    } finally {
      running = false;
      await probe;
    }
    expect(latencies.length).toBeGreaterThan(10);
    // An api waiting on the engine would answer once its 2 s statement ends; a loaded machine may
    // slow a probe, never to half of that (a bound on blocking, not a speed goal).
    expect(Math.max(...latencies)).toBeLessThan(1_000);
    expect(peakRss('self')).toBeLessThan(1024 ** 3);
    // The engine process is bounded by its memory_limit (1 GiB by default) plus the runtime.
    const engineRss = peakRss(engine().enginePid!);
    expect(engineRss).toBeLessThan(2 * 1024 ** 3);
    console.log(
      `memory bomb: ${bomb?.isError ? 'refused' : 'truncated'}; /healthz worst ${Math.max(...latencies).toFixed(1)} ms over ${latencies.length} calls; ` +
        `api peak RSS ${Math.round(peakRss('self') / 2 ** 20)} MiB, engine peak RSS ${Math.round(engineRss / 2 ** 20)} MiB`,
    );
  });

  it('a row larger than the byte budget stops the result there: truncated, reason byte_budget, nothing shipped', async () => {
    const r = await query({ sql: "SELECT repeat('x', 9000000) AS big FROM range(2)" });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ row_count: 0, stats: { truncated: true, truncated_reason: 'byte_budget' } });
  });

  it('max_result_bytes bounds a result of many rows; the row limit keeps its own reason', async () => {
    const r = await client.callTool({ name: 'sql_query', arguments: { connection: 'small', sql: "SELECT range AS i, repeat('y', 1000) AS pad FROM range(5000)", format: 'csv' } });
    const s = stats(r);
    expect(s).toMatchObject({ truncated: true, truncated_reason: 'byte_budget' });
    expect(s.row_count as number).toBeGreaterThan(90);
    expect(s.row_count as number).toBeLessThan(100);
    expect(text(r)).toMatch(/\n# \d+ rows returned \(truncated at the result size budget\), executed in \d+ms$/);
    const limited = await query({ sql: 'SELECT * FROM range(50)', limit: 10 });
    expect(stats(limited)).toMatchObject({ row_count: 10, truncated: true, truncated_reason: 'row_limit' });
    const whole = await query({ sql: 'SELECT * FROM range(10)', limit: 10 });
    expect(stats(whole)).toEqual(expect.objectContaining({ truncated: false }));
    expect(stats(whole)).not.toHaveProperty('truncated_reason');
  });

  it('the timeout is honoured within 1 s of its value, and the engine stops the statement', async () => {
    const t0 = performance.now();
    const r = await query({ sql: 'SELECT count(*) FROM range(1000000000000)', timeout_seconds: 1 });
    const elapsed = performance.now() - t0;
    expect(text(r)).toBe('Query failed: query exceeded the timeout of 1s and was cancelled');
    expect(elapsed).toBeGreaterThanOrEqual(1000);
    expect(elapsed).toBeLessThan(2000);
    const after = performance.now();
    expect((await query({ sql: 'SELECT 1 AS ok' })).isError).toBeFalsy();
    expect(performance.now() - after).toBeLessThan(1000);
  });

  it('classification is bounded and under the timeout: 100,000 statements are refused within 1 s of a 1 s timeout', async () => {
    const t0 = performance.now();
    const r = await query({ sql: 'SELECT 1;'.repeat(100_000), timeout_seconds: 1 });
    const elapsed = performance.now() - t0;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Query rejected: one statement per call, got 100000$|^Query failed: query exceeded the timeout of 1s/);
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('item 2: an engine process that ignores its interrupt is killed and replaced', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sec-sql-stuck-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stopped (SIGSTOP) engine: the call times out on time, the watchdog kills it, the next statement gets a new one', async () => {
    const engine = new DuckDbEngine({ path: join(dir, 'stuck.duckdb'), stuckKillMs: 200 });
    try {
      await runWithLimit(engine, 'SELECT 1', { limit: 1, timeoutMs: 10_000 });
      const pid = engine.enginePid!;
      process.kill(pid, 'SIGSTOP');
      const t0 = performance.now();
      await expect(runWithLimit(engine, 'SELECT 2', { limit: 1, timeoutMs: 500 })).rejects.toBeInstanceOf(SqlTimeoutError);
      expect(performance.now() - t0).toBeLessThan(1500);
      // The interrupt cannot reach a stopped process: 200 ms later the watchdog kills it.
      expect(await exited(pid)).toBe(true);
      const next = await runWithLimit(engine, 'SELECT 3 AS x', { limit: 1, timeoutMs: 10_000 });
      expect(next.rows).toEqual([[3]]);
      expect(engine.enginePid).not.toBe(pid);
    } finally {
      await engine.close();
    }
  });
});
