/**
 * Security pass 3, item 18: a partial result is never reported as complete. A DuckDB streaming
 * result that fails after its first chunks ends, in the binding, like one that finished; the
 * engine process must tell them apart, so a query failing late answers an error, never the rows
 * it produced before failing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import { callTool, toolText } from '../support/sql-tools.js';

describe('item 18: a DuckDB result that fails late is an error, not a shorter result', () => {
  let dir: string;
  let toolkit: SqlToolkit;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sec-sql-complete-'));
    // Limits high enough that a result outgrows DuckDB's stream buffer before it fails.
    const yaml = `data_dir: ${dir}\ntoolkits:\n  sql:\n    local:\n      engine: duckdb\n      max_limit: 1000000\n      max_result_bytes: 1000000000\n`;
    toolkit = createSqlToolkit(parseConfig(yaml, {}).config, { log: silentLogger() });
  });
  afterAll(async () => {
    await toolkit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lateFailures = [
    // The example (DuckDB fails it before the first chunk) and ones that fail after hundreds of chunks.
    "SELECT CASE WHEN i < 5000 THEN i ELSE error('late') END AS x FROM range(10000) t(i)",
    "SELECT CASE WHEN i < 500000 THEN i ELSE error('late') END AS x FROM range(1000000) t(i)",
    "SELECT i, CASE WHEN i < 700000 THEN 'ok' ELSE CAST('late' AS INTEGER)::VARCHAR END AS s FROM range(1000000) t(i)",
  ];

  it.each(['sql_query', 'sql_execute'])('%s answers an error for a query failing after its first chunks, never its rows so far', async (tool) => {
    for (const sql of lateFailures) {
      const r = await callTool(toolkit.tools, tool, { connection: 'local', sql, limit: 1_000_000, timeout_seconds: 120 });
      expect(r.isError, `${sql} → ${JSON.stringify(r.structuredContent).slice(0, 200)}`).toBe(true);
      expect(toolText(r)).toMatch(/^(Query|Execution) failed: /);
    }
  });

  it('a query that finishes is complete, and one cut by its limit before failing is truncated', async () => {
    const whole = await callTool(toolkit.tools, 'sql_query', { connection: 'local', sql: 'SELECT i FROM range(600000) t(i)', limit: 1_000_000, timeout_seconds: 120 });
    expect(whole.structuredContent).toMatchObject({ row_count: 600000, stats: { truncated: false } });
    const sql = "SELECT CASE WHEN i < 500000 THEN i ELSE error('late') END AS x FROM range(1000000) t(i)";
    const cut = await callTool(toolkit.tools, 'sql_query', { connection: 'local', sql, limit: 3000 });
    expect(cut.structuredContent).toMatchObject({ row_count: 3000, stats: { truncated: true } });
  });
});
