/**
 * Pure rules of the scratch catalog: what names, values and locations it accepts, the SQL of a
 * DuckDB scratch table, the object names Hive reads, and the Trino rule that keeps a caller's SQL
 * from setting a storage location.
 */
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/sql/lexer.js';
import { classifyTrino } from '../../shared/sql/readonly.js';
import { partitionsViewSelect, tableViewSelect } from '../../shared/sql/scratch/duckdb-views.js';
import { checkLocation, checkName, checkPartitionValues, checkTable, isReadableName } from '../../shared/sql/scratch/rules.js';
import type { ExternalTable } from '../../shared/sql/scratch/index.js';
import { trinoStorageRefusal } from '../../shared/sql/trino-policy.js';

const events: ExternalTable = {
  name: 'webhook_orders_raw',
  columns: [
    { name: 'event_id', type: 'varchar' },
    { name: 'received_at', type: 'timestamp' },
  ],
  partitionColumns: ['dt', 'hour'],
  format: 'json_gz',
  location: { bucket: 'resources', prefix: 'webhooks/orders/raw/' },
};

describe('scratch names, values and locations', () => {
  it.each(['webhook_orders', 'a', 'x1_2'])('accepts the name %s', (name) => {
    expect(checkName(name)).toBe(name);
  });
  it.each(['', '1a', 'A', 'a-b', 'a b', 'a"b', 'a$partitions', 'x'.repeat(129)])('refuses the name %j', (name) => {
    expect(() => checkName(name)).toThrow(/is not allowed/);
  });
  it.each(['2026-11-22', '00', 'id:1', 'v1.2'])('accepts the partition value %s', (v) => {
    expect(checkPartitionValues({ ...events, partitionColumns: ['dt'] }, [v])).toEqual([v]);
  });
  it.each(['', '.hidden', "x'y", 'a/b', 'a b', '%2E', 'x'.repeat(129)])('refuses the partition value %j', (v) => {
    expect(() => checkPartitionValues({ ...events, partitionColumns: ['dt'] }, [v])).toThrow(/is not allowed/);
  });
  it.each([
    ['webhooks/orders/raw/dt=2026-11-22/hour=10/', true],
    ['a/', true],
    ['a', false],
    ['', false],
    ['/a/', false],
    ['a//b/', false],
    ['a/../b/', false],
    ['a/./b/', false],
    ['a/_tmp/', false],
    ["a/b'c/", false],
  ])('location prefix %j accepted: %s', (prefix, ok) => {
    const check = () => checkLocation({ bucket: 'resources', prefix });
    if (ok) expect(check()).toEqual({ bucket: 'resources', prefix });
    else expect(check).toThrow();
  });
  it('a table needs data and partition columns, each named once, of the allowed types and formats', () => {
    expect(checkTable(events)).toBe(events);
    expect(() => checkTable({ ...events, columns: [] })).toThrow(/at least one data column/);
    expect(() => checkTable({ ...events, partitionColumns: [] })).toThrow(/at least one partition column/);
    expect(() => checkTable({ ...events, partitionColumns: ['event_id'] })).toThrow(/names column event_id twice/);
    expect(() => checkTable({ ...events, columns: [{ name: 'x', type: 'json' as 'varchar' }] })).toThrow(/has type json/);
    expect(() => checkTable({ ...events, format: 'csv' as 'parquet' })).toThrow(/has format csv/);
  });
  it.each([
    ['a.jsonl.gz', true],
    ['_tmp.jsonl.gz', false],
    ['.partial', false],
    ['deeper/a.jsonl.gz', false],
    ['', false],
  ])('Hive reads the object name %j: %s', (name, readable) => {
    expect(isReadableName(name)).toBe(readable);
  });
});

describe('the SQL of a DuckDB scratch table', () => {
  it('before its first partition: no rows, the declared columns', () => {
    expect(tableViewSelect(events, [])).toBe(
      'SELECT CAST(NULL AS VARCHAR) AS "event_id", CAST(NULL AS TIMESTAMP) AS "received_at", CAST(NULL AS VARCHAR) AS "dt", CAST(NULL AS VARCHAR) AS "hour" WHERE false',
    );
    expect(partitionsViewSelect(events, [])).toBe('SELECT CAST(NULL AS VARCHAR) AS "dt", CAST(NULL AS VARCHAR) AS "hour" WHERE false');
  });
  it('gzipped JSON lines: one glob per partition directory, values by directory, hidden objects skipped', () => {
    const partitions = [
      { values: ['2026-11-22', '10'], directory: "/data/o'bj/resources/d_a" },
      { values: ['2026-11-22', '11'], directory: '/data/obj/resources/d_b' },
    ];
    expect(tableViewSelect(events, partitions)).toBe(
      'SELECT CAST(f."event_id" AS VARCHAR) AS "event_id", CAST(f."received_at" AS TIMESTAMP) AS "received_at", p."dt", p."hour" ' +
        "FROM read_json(['/data/o''bj/resources/d_a/o_*', '/data/obj/resources/d_b/o_*'], format = 'newline_delimited', compression = 'gzip', " +
        "columns = {'event_id': 'VARCHAR', 'received_at': 'TIMESTAMP'}, filename = '__scratch_file') AS f " +
        `JOIN (VALUES ('/data/o''bj/resources/d_a', '2026-11-22', '10'), ('/data/obj/resources/d_b', '2026-11-22', '11')) AS p("__scratch_directory", "dt", "hour") ` +
        'ON parse_dirpath(f."__scratch_file") = p."__scratch_directory" ' +
        `WHERE NOT regexp_matches(parse_filename(f."__scratch_file"), '^o_(_|%2E)')`,
    );
    expect(partitionsViewSelect(events, partitions)).toBe(`SELECT * FROM (VALUES ('2026-11-22', '10'), ('2026-11-22', '11')) AS p("dt", "hour")`);
  });
  it('Parquet: read by column name', () => {
    expect(tableViewSelect({ ...events, format: 'parquet' }, [{ values: ['a', 'b'], directory: '/d' }])).toContain(
      "FROM read_parquet(['/d/o_*'], union_by_name = true, filename = '__scratch_file') AS f",
    );
  });
});

describe('Trino: a caller may not set a storage location', () => {
  it.each([
    ["CREATE TABLE t (x varchar) WITH (external_location = 's3://resources/')", 'setting a storage location (external_location) is not available: tables over storage are registered by the platform'],
    ["create schema s with (LOCATION='s3://b/')", 'setting a storage location (location) is not available: tables over storage are registered by the platform'],
    ["CREATE TABLE t WITH (\"external_location\" = 's3://' || 'b/') AS SELECT 1 x", 'setting a storage location (external_location) is not available: tables over storage are registered by the platform'],
    ["CALL hive.system.register_partition('s', 't', ARRAY['dt'], ARRAY['x'], 's3://b/')", 'register_partition() is not available: partitions over storage are registered by the platform'],
    ["CALL system.unregister_partition('s', 't', ARRAY['dt'], ARRAY['x'])", 'unregister_partition() is not available: partitions over storage are registered by the platform'],
    ["ALTER TABLE t SET PROPERTIES format = 'ORC', location = 's3://b/'", 'setting a storage location (location) is not available: tables over storage are registered by the platform'],
    ["SELECT 1; CALL hive.system.create_empty_partition('s', 't', ARRAY['dt'], ARRAY['x'])", 'create_empty_partition() is not available: partitions over storage are registered by the platform'],
  ])('refuses %s', (sql, why) => {
    expect(trinoStorageRefusal(tokenize(sql, 'trino'))).toBe(why);
    expect(classifyTrino(sql).refusal).toBe(why);
  });
  it.each([
    'SELECT location FROM places WHERE location = \'x\'',
    "SELECT * FROM t WHERE external_location = 'a'",
    "WITH x AS (SELECT 1 AS location) SELECT * FROM x WHERE (location = 1)",
    "SELECT * FROM t WHERE (location = 'a', 1) IN (VALUES ('a', 1))",
    "UPDATE t SET location = 'x'",
    "SELECT 'register_partition(' AS s -- external_location = 'x'",
    "CREATE TABLE t (x varchar) WITH (format = 'PARQUET')",
  ])('allows %s', (sql) => {
    expect(trinoStorageRefusal(tokenize(sql, 'trino'))).toBeUndefined();
  });
});

describe('Trino: writes naming the scratch schema are refused, and what shows its files (security pass 3, items 7 and 13)', () => {
  const scratch = { catalog: 'scratch', schema: 'webhooks' };
  const elsewhere = { scratch, defaults: { catalog: 'hive', schema: 'analytics' } };
  const named = 'webhooks holds the tables the platform registers: a statement that changes data may not name it (read them with sql_query)';
  it.each(['DROP VIEW scratch.webhooks.webhook_x', 'CREATE OR REPLACE VIEW "WebHooks".webhook_x AS SELECT 1 x', 'ALTER TABLE webhooks.t RENAME TO u', 'INSERT INTO t SELECT * FROM scratch.webhooks.x'])(
    'refuses %s',
    (sql) => expect(classifyTrino(sql, elsewhere).refusal).toBe(named),
  );
  it('allows reads of it and writes elsewhere', () => {
    expect(classifyTrino('SELECT * FROM scratch.webhooks.webhook_x', elsewhere).refusal).toBeUndefined();
    expect(classifyTrino('CREATE TABLE analytics.t (x varchar)', elsewhere).refusal).toBeUndefined();
  });
  it('refuses what shows where its files lie (SHOW CREATE, Hive\'s file columns), only about the scratch schema', () => {
    const where = "it shows where the platform's storage holds the files of webhooks";
    expect(classifyTrino('SHOW CREATE TABLE scratch.webhooks.webhook_x_raw', elsewhere).refusal).toBe(`SHOW CREATE is not available here: ${where}`);
    expect(classifyTrino('SELECT "$path", event_id FROM scratch.webhooks.webhook_x_raw', elsewhere).refusal).toBe(`$path is not available here: ${where}`);
    expect(classifyTrino('SELECT "$FILE_SIZE" FROM webhook_x_raw', { scratch, defaults: { catalog: 'scratch', schema: 'webhooks' } }).refusal).toBe(`$file_size is not available here: ${where}`);
    expect(classifyTrino('SHOW CREATE TABLE hive.analytics.t', elsewhere).refusal).toBeUndefined();
    expect(classifyTrino('SELECT "$path" FROM hive.analytics.t', elsewhere).refusal).toBeUndefined();
  });
  it('refuses every write where the connection defaults to the scratch schema, and no read', () => {
    const inside = { scratch, defaults: { catalog: 'scratch', schema: 'WEBHOOKS' } };
    expect(classifyTrino('DROP VIEW webhook_x', inside).refusal).toBe(
      "this connection's default schema scratch.webhooks is where the platform registers tables: statements that change data are not available on it",
    );
    expect(classifyTrino('SELECT * FROM webhook_x', inside).refusal).toBeUndefined();
  });
});
