/** Pure rules of the SQL toolkit: limits, timeouts, output formats, estimates, tags, connections. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import {
  effectiveLimit,
  effectiveTimeoutMs,
  embeddedSqlInstance,
  isSensitiveTag,
  sqlDescriptionOverrides,
  trinoServerUrl,
} from '../../shared/sql/index.js';
import { buildOutput, QueryOutputWriter, renderOutput, unwrapJson, uniqueColumnNames } from '../../shared/sql/format.js';
import { duckdbPlanEstimate, trinoPlanEstimate } from '../../shared/sql/explain.js';
import { costMessage, qualifyTables } from '../../shared/sql/elicitation.js';
import { defaultConnectionName } from '../../shared/sql/connections.js';
import { duckdbTablesFromAst } from '../../shared/sql/duckdb-engine.js';
import { trinoReferencedTables } from '../../shared/sql/readonly.js';

describe('limits and timeouts', () => {
  it('applies default_limit for none or ≤ 0 and clamps to max_limit', () => {
    expect(effectiveLimit(undefined, 1000, 10000)).toBe(1000);
    expect(effectiveLimit(0, 1000, 10000)).toBe(1000);
    expect(effectiveLimit(-5, 1000, 10000)).toBe(1000);
    expect(effectiveLimit(50, 1000, 10000)).toBe(50);
    expect(effectiveLimit(50_000, 1000, 10000)).toBe(10000);
  });

  it('uses the connection timeout for none or ≤ 0 and clamps at 300 s', () => {
    expect(effectiveTimeoutMs(undefined, 120_000)).toBe(120_000);
    expect(effectiveTimeoutMs(0, 120_000)).toBe(120_000);
    expect(effectiveTimeoutMs(5, 120_000)).toBe(5_000);
    expect(effectiveTimeoutMs(900, 120_000)).toBe(300_000);
    expect(effectiveTimeoutMs(undefined, 600_000)).toBe(300_000);
  });
});

describe('output shapes', () => {
  const out = buildOutput({
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'note', type: 'varchar' },
      { name: 'tags', type: 'array(varchar)' },
    ],
    rows: [
      [1, 'plain', ['a']],
      [2, 'has, comma and "quote"', null],
      [3, 'pipe | and\nnewline', []],
    ],
    truncated: true,
    limit: 3,
    durationMs: 12,
  });

  it('builds {columns, rows, row_count, stats}', () => {
    expect(out.row_count).toBe(3);
    expect(out.stats).toEqual({ row_count: 3, truncated: true, limit_applied: 3, duration_ms: 12 });
    expect(out.rows[1]).toEqual({ id: 2, note: 'has, comma and "quote"', tags: null });
  });

  it('renders CSV with quoting and the footer', () => {
    expect(renderOutput(out, 'csv')).toBe(
      'id,note,tags\n1,plain,"[""a""]"\n2,"has, comma and ""quote""",\n3,"pipe | and\nnewline",[]\n\n# 3 rows returned (truncated at limit 3), executed in 12ms',
    );
  });

  it('renders Markdown with escaped pipes, empty nulls and an italic footer', () => {
    const md = renderOutput(out, 'markdown').split('\n');
    expect(md[0]).toBe('| id | note | tags |');
    expect(md[1]).toBe('| --- | --- | --- |');
    expect(md[3]).toBe('| 2 | has, comma and "quote" |  |');
    expect(md[4]).toBe('| 3 | pipe \\| and newline | [] |');
    expect(md.at(-1)).toBe('_3 rows returned (truncated at limit 3), executed in 12ms_');
    expect(renderOutput(buildOutput({ columns: [], rows: [], truncated: false, limit: 5, durationMs: 1 }), 'markdown')).toMatch(/^No results/);
  });

  it('unwraps a single JSON text cell, and nothing else', () => {
    const one = (type: string, value: unknown) => buildOutput({ columns: [{ name: 'j', type }], rows: [[value]], truncated: false, limit: 1, durationMs: 0 });
    expect(unwrapJson(one('varchar', '{"a":[1]}'))).toMatchObject({ columns: [{ name: 'j', type: 'JSON' }], rows: [{ j: { a: [1] } }] });
    expect(unwrapJson(one('varchar(20)', '[1,2]')).rows[0]).toEqual({ j: [1, 2] });
    expect(unwrapJson(one('json', '{"b":1}')).rows[0]).toEqual({ j: { b: 1 } });
    expect(unwrapJson(one('varchar', '"just a string"')).columns[0]!.type).toBe('varchar');
    expect(unwrapJson(one('varchar', 'not json')).rows[0]).toEqual({ j: 'not json' });
    expect(unwrapJson(one('integer', 1)).rows[0]).toEqual({ j: 1 });
  });

  it('renames duplicate column names so row objects keep every value', () => {
    expect(uniqueColumnNames([{ name: 'a', type: 'x' }, { name: 'a', type: 'y' }, { name: 'a_2', type: 'z' }]).map((c) => c.name)).toEqual(['a', 'a_2_', 'a_2']);
  });
});

describe('the json answer written page by page (QueryOutputWriter)', () => {
  const columns = [
    { name: 'id', type: 'BIGINT' },
    { name: 'id', type: 'VARCHAR' },
    { name: 'note', type: 'VARCHAR' },
    { name: 'tags', type: 'VARCHAR[]' },
  ];
  const rows = [
    [1, 'a', 'quote " and \\ and \n newline', ['x', null]],
    [2, null, 'ünïcødé ✓ \u2028', []],
    [Number.NaN, 'c', null, null],
    [4, 'd', '', [{ nested: { deep: true } }]],
  ];

  it('gives buildOutput\'s object and exactly its JSON.stringify text, whatever the pages', () => {
    const facts = { truncated: true, truncatedReason: 'row_limit' as const, limit: 4, durationMs: 12, updateCount: 3 };
    for (const split of [[4], [1, 3], [2, 0, 2], [1, 1, 1, 1], [0]]) {
      const writer = new QueryOutputWriter(columns);
      let at = 0;
      for (const size of split) {
        writer.add(rows.slice(at, at + size));
        at += size;
      }
      const used = rows.slice(0, at);
      const { output, json, quoted } = writer.finish(facts);
      const expected = buildOutput({ ...facts, columns, rows: used });
      expect(output).toStrictEqual(expected);
      expect(json).toBe(JSON.stringify(expected));
      expect(quoted).toBe(JSON.stringify(json));
    }
  });

  it('an empty result, and one without truncation', () => {
    const writer = new QueryOutputWriter([]);
    const { output, json, quoted } = writer.finish({ truncated: false, limit: 10, durationMs: 0 });
    expect(json).toBe(JSON.stringify(buildOutput({ columns: [], rows: [], truncated: false, limit: 10, durationMs: 0 })));
    expect(quoted).toBe(JSON.stringify(json));
    expect(output.stats).not.toHaveProperty('truncated_reason');
  });
});

describe('row estimates from plans', () => {
  it('Trino: the largest rows: value of a text plan, or outputRowCount of a JSON plan', () => {
    expect(trinoPlanEstimate('Estimates: {rows: 10 (1kB)}\n Estimates: {rows: 1,500,000 (20MB)}\n Estimates: {rows: ? (?)}')).toBe(1_500_000);
    expect(trinoPlanEstimate('{"estimate" : {"outputRowCount" : 150000.0, "outputSizeInBytes" : 1.0}}')).toBe(150000);
    expect(trinoPlanEstimate('Estimates: {rows: ? (?)}')).toBeUndefined();
  });

  it('DuckDB: the largest Estimated Cardinality in the JSON plan', () => {
    const plan = JSON.stringify([{ name: 'P', extra_info: { 'Estimated Cardinality': '95238095' }, children: [{ name: 'S', extra_info: { 'Estimated Cardinality': '100000' } }] }]);
    expect(duckdbPlanEstimate(plan)).toBe(95238095);
    expect(duckdbPlanEstimate('not json')).toBeUndefined();
  });
});

describe('elicitation rules', () => {
  it('recognises PII and sensitive tags by word', () => {
    for (const t of ['PII', 'pii-email', 'urn:li:tag:Sensitive', 'Confidential', 'restricted_data', 'PHI', 'pci']) expect(isSensitiveTag(t)).toBe(true);
    for (const t of ['graphic', 'public', 'pipeline', 'precise']) expect(isSensitiveTag(t)).toBe(false);
  });

  it('formats the cost message with thousands separators', () => {
    expect(costMessage(2_500_000, 1_000_000)).toBe(
      'This query will scan approximately 2,500,000 rows, above the confirmation threshold of 1,000,000 rows. Do you want to run it?',
    );
  });

  it('qualifies tables with the connection defaults and drops what stays partial', () => {
    expect(qualifyTables([{ table: 'a' }, { schema: 's', table: 'b' }, { catalog: 'c', schema: 's', table: 'A' }, { catalog: 'c', schema: 's', table: 'a' }], { catalog: 'c', schema: 'd' })).toEqual([
      { catalog: 'c', schema: 'd', table: 'a' },
      { catalog: 'c', schema: 's', table: 'b' },
      { catalog: 'c', schema: 's', table: 'a' },
    ]);
    expect(qualifyTables([{ table: 'a' }], {})).toEqual([]);
  });

  it('extracts base tables, not CTE names', () => {
    const tables = trinoReferencedTables('WITH x AS (SELECT * FROM hive.s.t1) SELECT * FROM x JOIN s2.t2 ON 1 = 1 JOIN t3 ON 1 = 1');
    expect([...tables].sort((a, b) => a.table.localeCompare(b.table))).toEqual([
      { catalog: 'hive', schema: 's', table: 't1' },
      { schema: 's2', table: 't2' },
      { table: 't3' },
    ]);
    expect(trinoReferencedTables('SHOW SCHEMAS FROM hive')).toEqual([]);
    const ast = { statements: [{ node: { cte_map: { map: [{ key: 'x' }] }, from_table: { type: 'JOIN', left: { type: 'BASE_TABLE', table_name: 'x', schema_name: '', catalog_name: '' }, right: { type: 'BASE_TABLE', table_name: 'orders', schema_name: 'sample', catalog_name: '' } } } }] };
    expect(duckdbTablesFromAst(ast)).toEqual([{ schema: 'sample', table: 'orders' }]);
  });
});

describe('connections', () => {
  it('builds the Trino URL: 8080, or 443 with ssl', () => {
    expect(trinoServerUrl({ host: 'trino', ssl: false })).toBe('http://trino:8080');
    expect(trinoServerUrl({ host: 'trino', ssl: true })).toBe('https://trino:443');
    expect(trinoServerUrl({ host: 'trino', port: 8443, ssl: true })).toBe('https://trino:8443');
    expect(trinoServerUrl({ host: '::1', port: 1, ssl: false })).toBe('http://[::1]:1');
  });

  it('picks the alphabetically first connection as default', () => {
    expect(defaultConnectionName(['warehouse', 'archive', 'local'])).toBe('archive');
    expect(defaultConnectionName([])).toBeUndefined();
  });

  it('merges per-instance descriptions; the default connection wins', () => {
    const config = parseConfig(
      `
toolkits:
  sql:
    b:
      engine: duckdb
      descriptions: { sql_query: "from b", sql_explain: "explain from b" }
    a:
      engine: duckdb
      descriptions: { sql_query: "from a" }
`,
      {},
    ).config;
    expect(sqlDescriptionOverrides(config)).toEqual({ sql_query: 'from a', sql_explain: 'explain from b' });
  });

  it('describes the embedded DuckDB connection with spec defaults', () => {
    const instance = embeddedSqlInstance('/var/lib/platform');
    expect(instance).toMatchObject({
      engine: 'duckdb',
      path: '/var/lib/platform/sql/local.duckdb',
      timeout: 120_000,
      default_limit: 1000,
      max_limit: 10000,
      read_only: false,
      descriptions: {},
    });
  });
});
