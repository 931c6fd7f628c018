/**
 * Security pass 3, items 7 and 13, on DuckDB through the sql tools: the objects the platform
 * manages in the engine (the scratch schema's views — registered tables, webhook tables — and the
 * json_extract_scalar macro) cannot be created, replaced, renamed or dropped by a caller's
 * statement, in any spelling; and no answer shows the SQL of those views or any other server path.
 * Item 7 on a real Trino too: its scratch schema (a Hive catalog) is the platform's alike.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExternalTable } from '../../shared/sql/scratch/index.js';
import { at, duckdbPlatformYaml, duckdbRig, putJsonLines, rigFrom, trinoRig, type ScratchRig } from '../support/scratch-rigs.js';
import { callTool, toolText } from '../support/sql-tools.js';

const schemaRefusal = 'Query rejected: scratch holds the tables the platform registers: a statement that changes data may not name it (read them with sql_query)';
const macroRefusal = 'Query rejected: json_extract_scalar is defined by the platform: a statement may not create, replace or drop it';
const definitionRefusal = /^Query rejected: [\w.]+ is not available: it shows the SQL of views, which holds the server's paths: list views with sql_browse or information_schema\.tables$/;

describe('DuckDB: the platform-managed objects and their definitions are out of callers\' reach', () => {
  let rig: ScratchRig;
  let root: string;
  const events: ExternalTable = {
    name: 'events',
    columns: [{ name: 'event_id', type: 'varchar' }],
    partitionColumns: ['dt'],
    format: 'json_gz',
    location: { bucket: 'x', prefix: 'objects/events/' },
  };

  beforeAll(async () => {
    rig = await duckdbRig();
    root = rig.storage.connection.root!;
    events.location.bucket = rig.storage.bucket;
    await rig.scratch.createExternalTable(events);
    const where = { bucket: rig.storage.bucket, prefix: 'objects/events/dt=a/' };
    await putJsonLines(rig, where, 'seg.jsonl.gz', [{ event_id: 'real', received_at: at(22, 1) }]);
    await rig.scratch.registerPartition(events, ['a'], where);
    await rig.scratch.createOrReplaceView('webhook_demo', `SELECT event_id FROM ${rig.scratch.relation('events')}`);
    const made = await rig.call('sql_execute', 'CREATE TABLE main.t (x VARCHAR)');
    expect(made.isError, toolText(made)).toBeFalsy();
  });
  afterAll(async () => {
    await rig?.close();
  });

  describe('item 7: writes naming a platform object are refused', () => {
    it.each([
      "CREATE OR REPLACE VIEW scratch.events AS SELECT 'attacker' AS event_id, 'a' AS dt",
      'CREATE OR REPLACE VIEW "Scratch"."EVENTS" AS SELECT 1 AS event_id',
      'CREATE OR REPLACE VIEW local.scratch.webhook_demo AS SELECT 1 AS event_id',
      'CREATE OR REPLACE VIEW local."SCRATCH".webhook_demo AS SELECT 1 AS event_id',
      'DROP VIEW scratch.webhook_demo',
      'DROP VIEW IF EXISTS "scratch"."webhook_demo"',
      'ALTER VIEW scratch.events RENAME TO gone',
      'ALTER VIEW ScRaTcH."events$partitions" RENAME TO gone',
      'DROP SCHEMA scratch CASCADE',
      'CREATE SCHEMA IF NOT EXISTS scratch',
      'CREATE TABLE scratch.webhook_next (x INTEGER)',
      "COMMENT ON VIEW scratch.events IS 'mine'",
      'INSERT INTO main.t SELECT event_id FROM scratch.events',
      'EXPLAIN ANALYZE DROP VIEW scratch.events',
      '/* c */ drop /* c */ view scratch . webhook_demo',
    ])('sql_execute refuses %s', async (sql) => {
      const r = await rig.call('sql_execute', sql);
      expect(toolText(r)).toBe(schemaRefusal);
    });

    it.each([
      "CREATE OR REPLACE MACRO json_extract_scalar(json, path) AS 'attacker'",
      "CREATE OR REPLACE FUNCTION main.json_extract_scalar(json, path) AS 'attacker'",
      "CREATE OR REPLACE MACRO local.main.\"JSON_EXTRACT_SCALAR\"(json, path) AS 'attacker'",
      "CREATE TEMP MACRO json_extract_scalar(json, path) AS 'attacker'",
      'DROP MACRO json_extract_scalar',
      'DROP MACRO IF EXISTS "Json_Extract_Scalar"',
      'DROP FUNCTION main.json_extract_scalar',
    ])('sql_execute refuses %s', async (sql) => {
      const r = await rig.call('sql_execute', sql);
      expect(toolText(r)).toBe(macroRefusal);
    });

    it('the objects are intact, and reads and the caller\'s own writes still work', async () => {
      expect(await rig.query('SELECT event_id, dt FROM scratch.events')).toEqual([{ event_id: 'real', dt: 'a' }]);
      expect(await rig.query('SELECT event_id FROM local.scratch.webhook_demo')).toEqual([{ event_id: 'real' }]);
      expect(await rig.query(`SELECT json_extract_scalar('{"a": {"b": 2}}', '$.a.b') AS v`)).toEqual([{ v: '2' }]);
      for (const sql of [`INSERT INTO main.t SELECT json_extract_scalar('{"a": 1}', '$.a')`, 'CREATE VIEW main.mine AS SELECT * FROM main.t', "CREATE MACRO main.mine_macro(x) AS x || '!'"]) {
        const r = await rig.call('sql_execute', sql);
        expect(r.isError, `${sql} → ${toolText(r)}`).toBeFalsy();
      }
      expect(await rig.query('SELECT mine_macro(x) AS v FROM main.mine')).toEqual([{ v: '1!' }]);
    });
  });

  describe('item 13: no answer shows view definitions or server paths', () => {
    const noServerPaths = (sql: string, r: Awaited<ReturnType<ScratchRig['call']>>) => {
      const all = JSON.stringify(r);
      expect(all, sql).not.toContain(root);
      expect(all, sql).not.toMatch(/o_\*|d_[0-9a-f]{6}/);
    };

    it.each([
      'SELECT * FROM duckdb_views()',
      'SELECT sql FROM duckdb_views',
      'SELECT * FROM main.duckdb_views',
      'SELECT view_definition FROM information_schema.views',
      'SELECT * FROM "INFORMATION_SCHEMA"."VIEWS"',
      'SELECT * FROM local.information_schema.views',
      'SELECT * FROM pg_views',
      'SELECT definition FROM pg_catalog.pg_views',
      'SELECT * FROM sqlite_master',
      'SELECT * FROM sqlite_schema',
      'SELECT * FROM sqlite_temp_master',
      'SELECT * FROM sqlite_temp_schema',
      'SELECT * FROM (SELECT sql FROM duckdb_views() WHERE NOT internal)',
    ])('%s is refused on every tool', async (sql) => {
      for (const tool of ['sql_query', 'sql_execute'] as const) {
        const r = await rig.call(tool, sql);
        expect(toolText(r)).toMatch(definitionRefusal);
        noServerPaths(sql, r);
      }
    });

    it.each([
      'SELECT * FROM duckdb_databases()',
      'SELECT * FROM duckdb_settings()',
      "SELECT current_setting('temp_directory')",
      'PRAGMA database_list',
      'SELECT * FROM pragma_database_list',
    ])('%s (paths, settings) is refused', async (sql) => {
      const r = await rig.call('sql_query', sql);
      expect(r.isError, sql).toBe(true);
      expect(toolText(r)).toMatch(/^Query rejected: /);
      noServerPaths(sql, r);
    });

    it.each([
      'SELECT * FROM duckdb_tables()',
      'SELECT * FROM information_schema.tables',
      'SELECT * FROM information_schema.schemata',
      'SELECT * FROM information_schema.columns',
      'SELECT * FROM duckdb_columns()',
      'SELECT * FROM duckdb_schemas()',
      'SELECT * FROM duckdb_dependencies()',
      "SELECT * FROM duckdb_functions() WHERE function_name = 'json_extract_scalar'",
      'SELECT * FROM pg_indexes',
      'SELECT * FROM pg_class',
      'SHOW ALL TABLES',
      'DESCRIBE scratch.events',
      'SUMMARIZE scratch.events',
      'PRAGMA show_tables_expanded',
      'EXPLAIN SELECT * FROM scratch.events',
    ])('%s answers without server paths', async (sql) => {
      const r = await rig.call('sql_query', sql);
      expect(r.isError, `${sql} → ${toolText(r)}`).toBeFalsy();
      noServerPaths(sql, r);
    });

    it('sql_explain and sql_describe_table of a platform view answer without server paths', async () => {
      for (const [tool, args] of [
        ['sql_explain', { sql: 'SELECT * FROM scratch.events' }],
        ['sql_explain', { sql: 'SELECT * FROM scratch.events', type: 'io' }],
        ['sql_describe_table', { catalog: 'local', schema: 'scratch', table: 'events', include_sample: true }],
      ] as const) {
        const r = await callTool(rig.sql.tools, tool, { connection: 'local', ...args });
        expect(r.isError, toolText(r)).toBeFalsy();
        noServerPaths(tool, r);
      }
    });

    it('a path a caller builds from harmless pieces comes back scrubbed', async () => {
      const dir = `${root}/${rig.storage.bucket}`;
      const half = Math.floor(dir.length / 2);
      const [a, b] = [dir.slice(0, half), dir.slice(half)];
      const r = await rig.call('sql_query', `SELECT 'at ' || '${a}' || '${b}/d_x/o_y' AS p, ['${a}' || '${b}'] AS l`);
      expect(r.isError, toolText(r)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ rows: [{ p: 'at <path>', l: ['<path>'] }] });
    });
  });
});

describe('item 7: a DuckDB scratch schema cannot be main, where callers\' unqualified names land', () => {
  it('the scratch catalog refuses the configuration', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sec-scratch-main-'));
    const yaml = duckdbPlatformYaml(dataDir).replace('      engine: duckdb', '      engine: duckdb\n      scratch:\n        catalog: local\n        schema: MAIN');
    const rig = await rigFrom(yaml, 'local', () => rm(dataDir, { recursive: true, force: true })).catch((error: unknown) => error);
    expect(rig).toBeInstanceOf(Error);
    expect((rig as Error).message).toBe("SQL connection local: the scratch schema cannot be main, the schema callers' unqualified names land in: pick another schema");
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('items 7 and 13 on Trino: writes naming the scratch schema, and what shows its files, are refused', () => {
  let rig: ScratchRig;
  beforeAll(async () => {
    rig = await trinoRig();
    await rig.scratch.createExternalTable({
      name: 'events',
      columns: [{ name: 'event_id', type: 'varchar' }],
      partitionColumns: ['dt'],
      format: 'json_gz',
      location: { bucket: rig.storage.bucket, prefix: 'objects/events/' },
    });
    await rig.scratch.createOrReplaceView('webhook_demo', `SELECT event_id FROM ${rig.scratch.relation('events')}`);
  });
  afterAll(async () => {
    await rig?.close();
  });

  it.each([
    "CREATE OR REPLACE VIEW scratch.{s}.webhook_demo AS SELECT 'attacker' AS event_id",
    'CREATE OR REPLACE VIEW "SCRATCH"."{S}"."WEBHOOK_DEMO" AS SELECT 1 AS event_id',
    'DROP VIEW scratch.{s}.webhook_demo',
    'DROP TABLE IF EXISTS scratch.{s}.events',
    'ALTER TABLE scratch.{s}.events RENAME TO gone',
    'ALTER VIEW scratch.{s}.webhook_demo RENAME TO gone',
    'DROP SCHEMA scratch.{s} CASCADE',
    'CREATE TABLE scratch.{s}.webhook_next (x varchar)',
    "COMMENT ON TABLE scratch.{s}.events IS 'mine'",
  ])('sql_execute refuses %s', async (template) => {
    const sql = template.replaceAll('{s}', rig.scratch.schema).replaceAll('{S}', rig.scratch.schema.toUpperCase());
    const r = await rig.call('sql_execute', sql);
    expect(toolText(r)).toBe(`Query rejected: ${rig.scratch.schema} holds the tables the platform registers: a statement that changes data may not name it (read them with sql_query)`);
  });

  it.each([
    ['SHOW CREATE TABLE scratch.{s}.events', 'SHOW CREATE'],
    ['SHOW CREATE TABLE "Scratch"."{S}"."EVENTS"', 'SHOW CREATE'],
    ['SHOW CREATE SCHEMA scratch.{s}', 'SHOW CREATE'],
    ['SHOW CREATE VIEW scratch.{s}.webhook_demo', 'SHOW CREATE'],
    ['SELECT "$path" FROM scratch.{s}.events', '$path'],
    ['SELECT event_id, "$FILE_MODIFIED_TIME" FROM scratch.{s}.events', '$file_modified_time'],
  ])('item 13: %s (the storage locations of its files) is refused', async (template, what) => {
    const sql = template.replaceAll('{s}', rig.scratch.schema).replaceAll('{S}', rig.scratch.schema.toUpperCase());
    const r = await rig.call('sql_query', sql);
    expect(toolText(r)).toBe(`Query rejected: ${what} is not available here: it shows where the platform's storage holds the files of ${rig.scratch.schema}`);
    expect(JSON.stringify(r)).not.toContain('s3://');
  });

  it('item 13: what stays open about it answers without storage locations', async () => {
    for (const sql of [
      `EXPLAIN SELECT * FROM scratch.${rig.scratch.schema}.events`,
      `SELECT * FROM scratch.information_schema.views WHERE table_schema = '${rig.scratch.schema}'`,
      `SELECT * FROM scratch.${rig.scratch.schema}."events$partitions"`,
    ]) {
      const r = await rig.call('sql_query', sql);
      expect(r.isError, `${sql} → ${toolText(r)}`).toBeFalsy();
      expect(JSON.stringify(r), sql).not.toContain('s3://');
    }
  });

  it('the objects are intact and reads still work', async () => {
    expect(await rig.query(`SELECT count(*) AS n FROM scratch.${rig.scratch.schema}.webhook_demo`)).toEqual([{ n: 0 }]);
    expect(await rig.query(`SELECT count(*) AS n FROM scratch.${rig.scratch.schema}.events`)).toEqual([{ n: 0 }]);
  });
});
