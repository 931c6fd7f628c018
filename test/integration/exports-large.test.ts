/**
 * Issue 20 acceptance: sql_export of 1,000,000 rows with bounded memory. The rows stream from the
 * DuckDB engine process into storage a few pages at a time (the engine waits for the reader), so
 * the api process's resident memory grows by far less than the result: buffered, the rows alone
 * would take several hundred MB here. RSS is sampled while the export runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startExportRig, type ExportRig } from './exports-fixtures.js';

const ROWS = 1_000_000;
const MB = 1024 * 1024;
/**
 * Generous: the result is ~220 MB of CSV, and more than twice that as rows in memory; streamed,
 * the growth is what garbage collection lets accumulate between collections (~150 MB here).
 */
const RSS_GROWTH_BOUND = 256 * MB;

describe('sql_export of a million rows', () => {
  let rig: ExportRig;
  beforeAll(async () => {
    rig = await startExportRig('filesystem', { extraYaml: 'resources:\n  managed:\n    max_upload_bytes: 1073741824' });
    // Warm up: the engine process, the encoders and the store's code paths are loaded first.
    ok(await rig.call('sql_export', { sql: 'SELECT range AS id FROM range(100000)', resource: { path: 'large', filename: 'warm.csv' } }));
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it('streams 1,000,000 rows into the file with bounded RSS growth', async () => {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let out;
    try {
      out = ok(
        await rig.call('sql_export', {
          sql: `SELECT range AS id, 'row-' || range AS name, repeat('x', 200) AS pad, range * 0.5 AS v FROM range(${ROWS})`,
          timeout_seconds: 300,
          resource: { path: 'large', filename: 'million.csv' },
        }),
      );
    } finally {
      clearInterval(sampler);
    }
    expect(out.rows).toBe(ROWS);
    expect(out.resource.size).toBeGreaterThan(200 * MB);
    const growth = peak - baseline;
    console.log(`sql_export ${ROWS} rows, ${(out.resource.size / MB).toFixed(0)} MB: RSS growth ${(growth / MB).toFixed(0)} MB (bound ${RSS_GROWTH_BOUND / MB} MB)`);
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND);
    // Every row arrived: the file has the header and one line per row.
    const { body } = await rig.env.service.openContent(rig.alice, out.resource.id, 'resources_read', 'dereference');
    let lines = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) for (const byte of chunk) if (byte === 10) lines++;
    expect(lines).toBe(ROWS + 1);
  }, 300_000);
});
