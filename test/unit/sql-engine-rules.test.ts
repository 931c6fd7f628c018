/**
 * Pure rules of issue 9, item 2: DuckDB's call policy (duckdb-policy.ts), the byte budget of
 * runWithLimit on any engine, bounded classification, and the engine process's restart delays.
 */
import { describe, expect, it } from 'vitest';
import { deriveRefusals, isPrivatePath, policyRefusal, privatePathScrubber, scrubPaths, stringValue, type PrivatePaths } from '../../shared/sql/duckdb-policy.js';
import { restartDelay } from '../../shared/supervision/index.js';
import { tokenize } from '../../shared/sql/lexer.js';
import { classifyTrino, jsonSize, requirePermitted, requireSingleStatement, runWithLimit, SqlEngineError, type QueryCursor, type Row, type SqlEngine, type StartOptions } from '../../shared/sql/index.js';

const catalog = deriveRefusals(
  [
    { name: 'range', type: 'table', sideEffects: false },
    { name: 'read_blob', type: 'table', sideEffects: false },
    { name: 'enable_logging', type: 'table', sideEffects: false },
    { name: 'duckdb_settings', type: 'table', sideEffects: false },
    { name: 'duckdb_tables', type: 'table', sideEffects: false },
    { name: 'brand_new_table_function', type: 'table', sideEffects: false },
    { name: 'upper', type: 'scalar', sideEffects: false },
    { name: 'histogram', type: 'aggregate', sideEffects: false },
    { name: 'histogram', type: 'table_macro', sideEffects: false, definition: 'SELECT * FROM query_table(source)' },
    { name: 'random', type: 'scalar', sideEffects: true },
    { name: 'write_log', type: 'scalar', sideEffects: true },
    { name: 'current_setting', type: 'scalar', sideEffects: false },
    { name: 'block_size_of', type: 'macro', sideEffects: false, definition: '(SELECT 1 FROM duckdb_settings())' },
    { name: 'shout', type: 'macro', sideEffects: false, definition: 'upper(x)' },
    { name: 'table_info', type: 'pragma', sideEffects: false },
    { name: 'enable_profiling', type: 'pragma', sideEffects: false },
  ],
  [
    { name: 'tables', sql: 'CREATE VIEW tables AS SELECT * FROM duckdb_tables()' },
    { name: 'pg_settings', sql: 'CREATE VIEW pg_settings AS SELECT name FROM duckdb_settings()' },
    { name: 'on_settings', sql: 'CREATE VIEW on_settings AS SELECT * FROM pg_settings' },
  ],
);

const paths: PrivatePaths = { prefixes: ['/data/sql/local.duckdb', '/data/objstore/local/resources'], cwd: '/srv/app', home: '/home/app' };
const refusal = (sql: string) => policyRefusal(tokenize(sql, 'duckdb'), catalog, paths);

describe("DuckDB's call policy", () => {
  it('derives refusals from the catalog: unlisted table functions, side effects beyond the statement, setting readers, and macros and views built on them', () => {
    expect([...catalog.calls].sort()).toEqual(['block_size_of', 'brand_new_table_function', 'current_setting', 'duckdb_settings', 'enable_logging', 'write_log']);
    expect([...catalog.tableCalls]).toEqual(['histogram']);
    expect([...catalog.relations].sort()).toEqual(['on_settings', 'pg_settings']);
    expect([...catalog.pragmas]).toEqual(['enable_profiling']);
  });

  it.each([
    ['SELECT * FROM enable_logging()', 'enable_logging() is not available: it reads or changes engine-wide state'],
    ['select * from ENABLE_LOGGING ( )', 'enable_logging() is not available: it reads or changes engine-wide state'],
    ['SELECT * FROM "Enable_Logging"()', 'enable_logging() is not available: it reads or changes engine-wide state'],
    ['SELECT 1; SELECT * FROM main.brand_new_table_function()', 'brand_new_table_function() is not available: it reads or changes engine-wide state'],
    ["SELECT current_setting('threads')", 'current_setting() is not available: it reads or changes engine-wide state'],
    ['SELECT block_size_of()', 'block_size_of() is not available: it reads or changes engine-wide state'],
    ['SELECT * FROM pg_settings', 'pg_settings is not available: it reads or changes engine-wide state'],
    ['SELECT * FROM "on_settings"', 'on_settings is not available: it reads or changes engine-wide state'],
    ['PRAGMA enable_profiling', 'PRAGMA enable_profiling is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM histogram('t', x)", 'histogram() is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM t, main.histogram('t', x)", 'histogram() is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM (histogram('t', x))", 'histogram() is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM t JOIN histogram('t', x) ON true", 'histogram() is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM t WHERE x IN (SELECT 1 FROM histogram('t', x))", 'histogram() is not available: it reads or changes engine-wide state'],
    ["SELECT * FROM read_blob('/in/' || 'x')", 'read_blob() takes its file path as a literal string'],
    ['SELECT * FROM read_blob(?)', 'read_blob() takes its file path as a literal string'],
    ["COPY t TO ('/tmp/' || 'x.csv')", 'COPY takes its file path as a literal string'],
    ["SELECT * FROM read_blob('/data/sql/local.duckdb')", "the engine's own files and the platform's storage cannot be named in SQL"],
    ["SELECT * FROM read_blob(['/in/a', '/data/sql/local.duckdb.wal'])", "the engine's own files and the platform's storage cannot be named in SQL"],
    ["SELECT * FROM '/data/sql/local.duckdb.tmp/x.csv'", "the engine's own files and the platform's storage cannot be named in SQL"],
    ["COPY t FROM '/data/sql/local.duckdb.tmp/duckdb_temp_storage-0.tmp'", "the engine's own files and the platform's storage cannot be named in SQL"],
    ['SELECT * FROM "/data/sql/local.duckdb"', "the engine's own files and the platform's storage cannot be named in SQL"],
    ["SELECT * FROM read_parquet('/data/objstore/local/resources/d_x/o_y.1')", "the engine's own files and the platform's storage cannot be named in SQL"],
    ["SELECT * FROM read_json('/data/objstore/local/*/d_webhooks/*')", "the engine's own files and the platform's storage cannot be named in SQL"],
    ['SELECT * FROM platform_scratch.partitions', "platform_scratch is reserved for the platform's own records"],
    ['INSERT INTO "PLATFORM_SCRATCH"."tables" VALUES (1)', "platform_scratch is reserved for the platform's own records"],
    ['DROP SCHEMA platform_scratch CASCADE', "platform_scratch is reserved for the platform's own records"],
  ])('refuses %s', (sql, why) => {
    expect(refusal(sql)).toBe(why);
  });

  it.each([
    'SELECT upper(s), random() FROM range(3)',
    'SELECT histogram(x), upper(y) FROM t WHERE x IN (SELECT histogram(z) FROM u) GROUP BY 2',
    'SELECT (histogram(x)) FROM t',
    'SELECT shout(name) FROM tables',
    "PRAGMA table_info('t')",
    'SELECT enable_logging FROM t',
    "SELECT 'enable_logging()' AS s -- duckdb_settings()",
    "SELECT * FROM read_blob('/in/a.csv', filename => true)",
    "SELECT * FROM read_blob(['/in/a', '/in/b'])",
    "COPY t TO '/in/out.csv' (FORMAT csv)",
    "COPY (SELECT 1 FROM t) TO '/in/out.csv'",
    "SELECT regexp_matches(s, '[0-9]+') FROM t",
  ])('allows %s', (sql) => {
    expect(refusal(sql)).toBeUndefined();
  });

  it('reads string literals as DuckDB does', () => {
    expect(stringValue("'it''s'")).toBe("it's");
    expect(stringValue("E'a\\x2eb\\056c\\n\\'d'")).toBe("a.b.c\n'd");
    expect(stringValue('$$x$$')).toBe('x');
    expect(stringValue('$tag$a$b$tag$')).toBe('a$b');
  });

  it.each([
    ['/data/sql/local.duckdb', true],
    ['/data/sql/local.duckdb.wal', true],
    ['file:///data/sql/local.duckdb', true],
    ['/data/sql/x/../local.duckdb', true],
    ['//data//sql/./local.duckdb.tmp/a.tmp', true],
    ['../../data/sql/local.duckdb', true],
    ['/data/sql/*', true],
    ['/data/**/x', true],
    ['/dat?/sql/local.duckdb', true],
    ['/data/sql/other.duckdb', false],
    ['/in/*.csv', false],
    ['[0-9]+', false],
    ['local.duckdb', false],
  ])('%s names the engine’s own files: %s', (value, expected) => {
    expect(isPrivatePath(value, paths)).toBe(expected);
  });

  it('resolves ~ against the home directory', () => {
    expect(isPrivatePath('~/db.duckdb', { prefixes: ['/home/app/db.duckdb'], cwd: '/', home: '/home/app' })).toBe(true);
  });

  it('scrubs known and quoted paths from engine messages', () => {
    expect(scrubPaths('IO Error: "/data/sql/local.duckdb" held by /usr/bin/node (PID 7)', ['/usr/bin/node'])).toBe('IO Error: "<path>" held by <path> (PID 7)');
    expect(scrubPaths("LINE 1: SELECT * FROM read_csv('/srv/x.csv')", [])).toBe("LINE 1: SELECT * FROM read_csv('<path>')");
    expect(scrubPaths('Conversion Error: 12 / 3 is not "x"', [])).toBe('Conversion Error: 12 / 3 is not "x"');
  });

  it("scrubs the platform's paths from result values: a value as long as the shortest prefix, inside nested values; shorter ones untouched", () => {
    const scrub = privatePathScrubber(['/data/sql/local.duckdb', '/data/objstore']);
    expect(scrub('/data/objstore')).toBe('<path>');
    expect(scrub('see /data/objstore/resources/x.csv, then')).toBe('see <path>, then');
    expect(scrub('/data/objstor')).toBe('/data/objstor');
    expect(scrub('delivered')).toBe('delivered');
    expect(scrub({ a: ['/data/sql/local.duckdb.wal', 'EUR'], b: { c: 'at /data/objstore' } })).toEqual({ a: ['<path>', 'EUR'], b: { c: 'at <path>' } });
    expect(privatePathScrubber([])('/data/objstore')).toBe('/data/objstore');
  });
});

describe('classification is bounded', () => {
  it('Trino: only the first two statements are classified; the count is still exact', () => {
    const c = classifyTrino('SELECT 1; DELETE FROM t; DROP TABLE t; SELECT 4');
    expect(c.count).toBe(4);
    expect(c.statements.map((s) => s.kind)).toEqual(['SELECT', 'DELETE']);
    expect(requireSingleStatement(c)).toEqual({ ok: false, message: 'one statement per call, got 4' });
  });

  it('a refusal of the engine is reported before anything else', () => {
    expect(requirePermitted({ statements: [], count: 1, refusal: 'x() is not available' })).toEqual({ ok: false, message: 'x() is not available' });
    expect(requirePermitted({ statements: [{ read: true, kind: 'SELECT' }], count: 1 })).toEqual({ ok: true });
  });
});

/** An engine that hands out fixed pages and, if told, reports that it stopped at the byte budget. */
function pagedEngine(pages: Row[][], opts: { stopsAtBudget?: boolean } = {}): SqlEngine & { seen?: StartOptions } {
  const engine = {
    async start(_sql: string, options: StartOptions): Promise<QueryCursor> {
      engine.seen = options;
      const queue = [...pages];
      return {
        columns: [{ name: 'v', type: 'varchar' }],
        budgetReached: opts.stopsAtBudget ?? false,
        nextPage: async () => queue.shift() ?? null,
        cancel: async () => undefined,
      };
    },
  } as unknown as SqlEngine & { seen?: StartOptions };
  return engine;
}

describe('the byte budget (runWithLimit, any engine)', () => {
  const row = (n: number): Row => ['x'.repeat(n)];

  it('counts JSON sizes without serialising', () => {
    expect(jsonSize(['ab', 1, true, null])).toBe(2 + (4 + 1) + (8 + 1) + (5 + 1) + (4 + 1));
    expect(jsonSize({ k: 'v' })).toBe(2 + 1 + 4 + 3);
  });

  it('stops before the row that would pass the budget, and says why', async () => {
    const engine = pagedEngine([[row(40), row(40)], [row(40), row(40)]]);
    const r = await runWithLimit(engine, 'q', { limit: 100, timeoutMs: 1000, maxBytes: 150 });
    expect(r.rows).toHaveLength(3);
    expect(r).toMatchObject({ truncated: true, truncatedReason: 'byte_budget' });
    expect(engine.seen).toMatchObject({ maxRows: 101, maxBytes: 150 });
  });

  it('a first row larger than the budget gives an empty, truncated result', async () => {
    const r = await runWithLimit(pagedEngine([[row(1000)]]), 'q', { limit: 100, timeoutMs: 1000, maxBytes: 100 });
    expect(r).toMatchObject({ rows: [], truncated: true, truncatedReason: 'byte_budget' });
  });

  it('trusts an engine that stopped at the budget itself', async () => {
    const r = await runWithLimit(pagedEngine([[row(10)]], { stopsAtBudget: true }), 'q', { limit: 100, timeoutMs: 1000, maxBytes: 20 });
    expect(r).toMatchObject({ truncated: true, truncatedReason: 'byte_budget' });
    expect(r.rows).toHaveLength(1);
  });

  it('the row limit keeps its reason, also when the budget ends exactly there', async () => {
    const limited = await runWithLimit(pagedEngine([[row(1), row(1), row(1)]]), 'q', { limit: 2, timeoutMs: 1000 });
    expect(limited).toMatchObject({ truncated: true, truncatedReason: 'row_limit' });
    const both = await runWithLimit(pagedEngine([[row(1), row(1)]], { stopsAtBudget: true }), 'q', { limit: 2, timeoutMs: 1000 });
    expect(both).toMatchObject({ truncated: true, truncatedReason: 'row_limit' });
    const whole = await runWithLimit(pagedEngine([[row(1), row(1)]]), 'q', { limit: 2, timeoutMs: 1000 });
    expect(whole.truncated).toBe(false);
    expect(whole).not.toHaveProperty('truncatedReason');
  });
});

describe('rows collected page by page (runWithLimit collect)', () => {
  const row = (n: number): Row => ['x'.repeat(n)];
  /** A collector that records each page it is given. */
  const recorder = () => {
    const pages: Row[][] = [];
    return { pages, add: (rows: readonly Row[]) => void pages.push([...rows]) };
  };

  it('each page as it is accepted: whole pages, then the part within the row limit', async () => {
    const r = await runWithLimit(pagedEngine([[row(1), row(2)], [row(3), row(4), row(5)]]), 'q', { limit: 4, timeoutMs: 1000, collect: recorder });
    expect(r.collected.pages).toEqual([[row(1), row(2)], [row(3), row(4)]]);
    expect(r.collected.pages.flat()).toEqual(r.rows);
    expect(r).toMatchObject({ truncated: true, truncatedReason: 'row_limit' });
  });

  it('the part within the byte budget, and an empty part when the first row is over it', async () => {
    const budget = await runWithLimit(pagedEngine([[row(40), row(40)], [row(40), row(40)]]), 'q', { limit: 100, timeoutMs: 1000, maxBytes: 150, collect: recorder });
    expect(budget.collected.pages).toEqual([[row(40), row(40)], [row(40)]]);
    const none = await runWithLimit(pagedEngine([[row(1000)]]), 'q', { limit: 100, timeoutMs: 1000, maxBytes: 100, collect: recorder });
    expect(none.collected.pages).toEqual([[]]);
    expect(none.rows).toEqual([]);
  });

  it('the columns reach the collector; no collector, nothing collected', async () => {
    let seen: unknown;
    await runWithLimit(pagedEngine([[row(1)]]), 'q', { limit: 10, timeoutMs: 1000, collect: (columns) => ((seen = columns), recorder()) });
    expect(seen).toEqual([{ name: 'v', type: 'varchar' }]);
    expect((await runWithLimit(pagedEngine([[row(1)]]), 'q', { limit: 10, timeoutMs: 1000 })).collected).toBeUndefined();
  });
});

describe('transient engine errors (runWithLimit)', () => {
  /** An engine whose first `failures` runs fail after one page with `errorName`, then answer. */
  function flakyEngine(failures: number, errorName: string): SqlEngine & { runs: number } {
    const engine = {
      runs: 0,
      async start(): Promise<QueryCursor> {
        const run = ++engine.runs;
        const pages: Array<Row[] | Error> = [[['a']], run <= failures ? new SqlEngineError(`boom (${errorName})`, { errorName }) : [['b']]];
        return {
          columns: [{ name: 'v', type: 'varchar' }],
          budgetReached: false,
          nextPage: async () => {
            const next = pages.shift();
            if (next instanceof Error) throw next;
            return next ?? null;
          },
          cancel: async () => undefined,
        };
      },
    } as unknown as SqlEngine & { runs: number };
    return engine;
  }
  const opts = { limit: 10, timeoutMs: 1000, readOnly: true };

  it('a read failing because a partition was unregistered while it ran (Trino) is run again, its rows once', async () => {
    const engine = flakyEngine(2, 'HIVE_PARTITION_DROPPED_DURING_QUERY');
    const collectors: Array<{ pages: Row[][]; add(rows: readonly Row[]): void }> = [];
    const collect = () => {
      const pages: Row[][] = [];
      const collector = { pages, add: (rows: readonly Row[]) => void pages.push([...rows]) };
      collectors.push(collector);
      return collector;
    };
    const r = await runWithLimit(engine, 'q', { ...opts, collect });
    expect(r.rows).toEqual([['a'], ['b']]);
    expect(engine.runs).toBe(3);
    // Each run collects afresh: the answer's collector holds the last run's rows only.
    expect(collectors).toHaveLength(3);
    expect(r.collected).toBe(collectors[2]);
    expect(r.collected.pages).toEqual([[['a']], [['b']]]);
  });

  it('at most twice more; never a write, never another error', async () => {
    const always = flakyEngine(5, 'HIVE_PARTITION_DROPPED_DURING_QUERY');
    await expect(runWithLimit(always, 'q', opts)).rejects.toThrow(/HIVE_PARTITION_DROPPED_DURING_QUERY/);
    expect(always.runs).toBe(3);
    const write = flakyEngine(1, 'HIVE_PARTITION_DROPPED_DURING_QUERY');
    await expect(runWithLimit(write, 'q', { ...opts, readOnly: false })).rejects.toThrow(SqlEngineError);
    expect(write.runs).toBe(1);
    const other = flakyEngine(1, 'SYNTAX_ERROR');
    await expect(runWithLimit(other, 'q', opts)).rejects.toThrow(/SYNTAX_ERROR/);
    expect(other.runs).toBe(1);
  });
});

describe('engine process restarts', () => {
  const policy = { maxRestarts: 3, windowMs: 60_000, baseDelayMs: 250, maxDelayMs: 1_000 };

  it('restarts at once without recent stops, then with a growing delay, then not within the window', () => {
    expect(restartDelay([], 100_000, policy)).toBe(0);
    expect(restartDelay([10_000], 100_000, policy)).toBe(0);
    expect(restartDelay([100_000], 100_000, policy)).toBe(250);
    expect(restartDelay([99_000, 100_000], 100_100, policy)).toBe(400);
    expect(restartDelay([98_000, 99_000, 100_000], 100_000, policy)).toBeUndefined();
    expect(restartDelay([38_000, 99_000, 100_000], 100_000, policy)).toBe(500);
  });
});
