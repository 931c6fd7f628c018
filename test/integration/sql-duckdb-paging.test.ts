/**
 * Issue 20 item 5 (sql_export streams, never buffers): the DuckDB engine process sends the pages
 * of a statement at most PAGE_WINDOW ahead of what the reader took, so a reader slower than the
 * engine holds a few pages, never the result. The engine is asked for a million rows and nothing
 * is read; however long other work on the same engine takes meanwhile, no more than the window
 * arrives, and reading on gets every row.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_WINDOW } from '../../shared/sql/duckdb-protocol.js';
import { EngineProcess } from '../../shared/sql/duckdb-supervisor.js';
import type { Row } from '../../shared/sql/index.js';

describe('DuckDB pages are paced by the reader', () => {
  const engine = new EngineProcess({
    file: ':memory:',
    tempDirectory: '',
    exportDirectory: `${process.env.TMPDIR ?? '/tmp'}/duckdb-paging-${process.pid}`,
    allowedDirectories: [],
    platformDirectories: [],
    platformSchemas: [],
    memoryLimit: 1024 ** 3,
    maxTempDirectorySize: 1024 ** 3,
    threads: 2,
  });
  afterAll(async () => {
    await engine.close();
  });

  it('sends at most PAGE_WINDOW pages before the reader takes one, then every row as it reads', async () => {
    const pages: Row[][] = [];
    let ended = false;
    let wake: (() => void) | undefined;
    const { id, result } = engine.request(
      { op: 'start', sql: 'SELECT range AS n FROM range(1000000)', readOnly: true, maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER, complete: true },
      {
        onPage: (rows) => {
          pages.push(rows);
          wake?.();
        },
        onEnd: () => {
          ended = true;
          wake?.();
        },
        onError: (error) => {
          throw error;
        },
      },
    );
    await result;
    // Other work on the same engine process, long enough for the whole result to have arrived
    // were it pushed unpaced (about 490 pages).
    for (let i = 0; i < 5; i++) await engine.request({ op: 'query', sql: 'SELECT count(*) FROM range(20000000) WHERE range % 7 = 0', params: [] }).result;
    expect(pages.length).toBeLessThanOrEqual(PAGE_WINDOW);
    let rows = 0;
    while (!ended || pages.length) {
      const page = pages.shift();
      if (!page) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      rows += page.length;
      engine.more(id);
      expect(pages.length).toBeLessThanOrEqual(PAGE_WINDOW);
    }
    expect(rows).toBe(1_000_000);
  }, 60_000);
});
