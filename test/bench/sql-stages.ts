/**
 * Benchmark (a script, not a test): where one 10,000-row sql_query on DuckDB spends its wall time,
 * stage by stage, next to the same query on DuckDB in-process (issue 41, item 3). The stages are
 * timed by wrapping this script's own objects: the connection's engine (classify, start, each
 * page), the sql_query handler and the HTTP response that carries the answer.
 *
 *   npx tsx test/bench/sql-stages.ts [iterations=40]
 *
 * Prints the median of each stage after 5 warm-ups; the stages add up to about the whole call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { CallToolResult, ToolCallContext } from '../../shared/mcp-tools/index.js';
import { createSqlToolkit, DuckDbEngine, ensureSampleData, type QueryCursor, type SqlEngine, type StartOptions } from '../../shared/sql/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';

const iterations = Number(process.argv[2] ?? 40);
const sql = 'SELECT * FROM sample.orders ORDER BY order_id LIMIT 10000';

const marks = new Map<string, number>();
const mark = (name: string) => marks.set(name, performance.now());
const since = (from: string, to: string) => marks.get(to)! - marks.get(from)!;

/** Marks the engine's steps of a call: classification, the statement's start, its first and last page. */
function watchEngine(engine: SqlEngine): void {
  const classify = engine.classify.bind(engine);
  engine.classify = async (text, signal) => {
    mark('classify');
    const verdict = await classify(text, signal);
    mark('classified');
    return verdict;
  };
  const start = engine.start.bind(engine);
  engine.start = async (text: string, options: StartOptions): Promise<QueryCursor> => {
    mark('start');
    const cursor = await start(text, options);
    mark('columns');
    const nextPage = cursor.nextPage.bind(cursor);
    let first = true;
    return Object.assign(cursor, {
      async nextPage() {
        const page = await nextPage();
        if (first) mark('first page');
        first = false;
        if (page === null) mark('pages end');
        return page;
      },
    });
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sql-stages-'));
  const config = testConfig(apiConfigYaml({ extra: `data_dir: ${dir}\ntoolkits:\n  sql:\n    local:\n      engine: duckdb\n` }));
  const toolkit = createSqlToolkit(config, { log: silentLogger() });
  const engine = toolkit.connection('local').engine;
  await ensureSampleData(engine);
  watchEngine(engine);
  const tool = toolkit.tools.find((t) => t.name === 'sql_query')!;
  const handler = tool.handler.bind(tool);
  tool.handler = async (args: Record<string, unknown>, ctx: ToolCallContext): Promise<CallToolResult> => {
    mark('handler');
    const result = await handler(args, ctx);
    mark('handled');
    return result;
  };
  // The answer is one JSON body (answered JSON-first): its head is written, then its bytes made and sent.
  const writeHead = ServerResponse.prototype.writeHead;
  ServerResponse.prototype.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    mark('answer');
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
  const end = ServerResponse.prototype.end;
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
    mark('body');
    const ended = end.apply(this, args);
    mark('sent');
    return ended;
  } as ServerResponse['end'];
  const api = await startTestApi({ config, tools: toolkit.tools });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }));

  const baselineFile = join(dir, 'baseline.duckdb');
  const seed = new DuckDbEngine({ path: baselineFile });
  await ensureSampleData(seed);
  await seed.close();
  const instance = await DuckDBInstance.create(baselineFile);
  const connection = await instance.connect();

  const stages: Array<[string, (called: number, answered: number) => number]> = [
    ['in-process DuckDB (runAndReadAll + getRowObjectsJson)', () => NaN],
    ['whole sql_query call', (called, answered) => answered - called],
    ['HTTP request, MCP session, middlewares -> the tool', (called) => marks.get('handler')! - called],
    ['classification in the engine process', () => since('classify', 'classified')],
    ['statement until its columns', () => since('start', 'columns')],
    ['first page', () => since('columns', 'first page')],
    ['the other pages', () => since('first page', 'pages end')],
    ['row objects and the text', () => since('pages end', 'handled')],
    ['handler end -> the answer (middlewares, SDK)', () => since('handled', 'answer')],
    ['the answer: serialise', () => since('answer', 'body')],
    ['the answer: write', () => since('body', 'sent')],
    ['MCP client: read, parse, validate', (_called, answered) => answered - marks.get('sent')!],
  ];
  const samples = stages.map(() => [] as number[]);
  try {
    for (let i = 0; i < iterations + 5; i++) {
      marks.clear();
      const called = performance.now();
      const r = await client.callTool({ name: 'sql_query', arguments: { sql, limit: 10000, connection: 'local' } });
      const answered = performance.now();
      if (r.isError) throw new Error(`unexpected MCP result: ${JSON.stringify(r).slice(0, 300)}`);
      const t0 = performance.now();
      const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson();
      const direct = performance.now() - t0;
      if (rows.length !== 10000) throw new Error(`unexpected direct row count ${rows.length}`);
      if (i < 5) continue;
      stages.forEach(([, measure], s) => samples[s]!.push(s === 0 ? direct : measure(called, answered)));
    }
    console.log(`DuckDB sql_query, 10,000 rows: median wall time per stage, ${iterations} calls after 5 warm-ups`);
    stages.forEach(([name], s) => {
      const sorted = samples[s]!.sort((a, b) => a - b);
      console.log(`  ${name.padEnd(56)} ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1).padStart(7)} ms`);
    });
  } finally {
    await client.close();
    await api.stop();
    await toolkit.close();
    connection.closeSync();
    instance.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
