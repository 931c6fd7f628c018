/**
 * The platform's storage behind the scratch catalogs, attacked by a caller of the sql tools: the
 * scratch catalog may read every managed resource, so a caller must never point a table, view,
 * partition or file reader at it — only read the tables the platform registered. DuckDB (its views
 * read the filesystem store's files) and a real Trino (its Hive catalog reads the store over S3).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixDirectory } from '../../shared/objstore/index.js';
import type { ExternalTable } from '../../shared/sql/scratch/index.js';
import { at, duckdbRig, putJsonLines, trinoRig, type ScratchRig } from '../support/scratch-rigs.js';
import { toolText } from '../support/sql-tools.js';

const table = (rig: ScratchRig, name: string): ExternalTable => ({
  name,
  columns: [
    { name: 'event_id', type: 'varchar' },
    { name: 'received_at', type: 'timestamp' },
  ],
  partitionColumns: ['dt'],
  format: 'json_gz',
  location: { bucket: rig.storage.bucket, prefix: `attack/${name}/` },
});

describe('DuckDB: a caller cannot reach the platform storage the scratch views read', () => {
  let rig: ScratchRig;
  let secretDir: string;
  beforeAll(async () => {
    rig = await duckdbRig();
    const events = table(rig, 'events');
    await rig.scratch.createExternalTable(events);
    const where = { bucket: rig.storage.bucket, prefix: 'attack/events/dt=a/' };
    await putJsonLines(rig, where, 'seg.jsonl.gz', [{ event_id: 'visible', received_at: at(22, 1) }]);
    await rig.scratch.registerPartition(events, ['a'], where);
    // Someone else's managed resource in the same bucket.
    await rig.storage.connection.store.putObject(rig.storage.bucket, 'a1b2c3/v1', 'private bytes of another person');
    secretDir = prefixDirectory(rig.storage.connection.root!, rig.storage.bucket, 'a1b2c3/');
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('reads the registered table through its view', async () => {
    expect(await rig.query('SELECT event_id, dt FROM scratch.events')).toEqual([{ event_id: 'visible', dt: 'a' }]);
  });

  it.each([
    (dir: string) => `SELECT * FROM read_blob('${dir}/o_v1.0')`,
    (dir: string) => `SELECT * FROM read_text('${dir}/*')`,
    (dir: string) => `SELECT * FROM read_blob('file://${dir}/*')`,
    (dir: string) => `SELECT * FROM glob('${dir.split('/').slice(0, -2).join('/')}/*/*')`,
    (dir: string) => `SELECT * FROM '${dir}/o_v1.0'`,
    (dir: string) => `CREATE OR REPLACE VIEW scratch.events AS SELECT * FROM read_blob('${dir}/*')`,
    (dir: string) => `COPY (SELECT 1) TO '${dir}/o_evil.1'`,
  ])('refuses a caller naming the storage: %s', async (build) => {
    for (const tool of ['sql_query', 'sql_execute'] as const) {
      const r = await rig.call(tool, build(secretDir));
      expect(r.isError).toBe(true);
      expect(toolText(r)).toBe("Query rejected: the engine's own files and the platform's storage cannot be named in SQL");
    }
  });

  it.each([
    'SELECT * FROM platform_scratch.partitions',
    "INSERT INTO platform_scratch.partitions VALUES ('scratch', 'events', '[\"b\"]', '/')",
    'DROP SCHEMA platform_scratch CASCADE',
    'SELECT * FROM "Platform_Scratch"."tables"',
  ])('refuses a caller naming the metastore: %s', async (sql) => {
    const r = await rig.call('sql_execute', sql);
    expect(toolText(r)).toBe("Query rejected: platform_scratch is reserved for the platform's own records");
    expect(await rig.scratch.listPartitions(table(rig, 'events'))).toEqual([['a']]);
  });

  it('a partition whose file the engine cannot read is not registered, and the table keeps serving', async () => {
    const compacted: ExternalTable = { ...table(rig, 'compacted'), format: 'parquet' };
    await rig.scratch.createExternalTable(compacted);
    const where = { bucket: rig.storage.bucket, prefix: 'attack/compacted/dt=x/' };
    await rig.storage.connection.store.putObject(where.bucket, `${where.prefix}bad.parquet`, 'not a parquet file');
    await expect(rig.scratch.registerPartition(compacted, ['x'], where)).rejects.toThrow();
    expect(await rig.scratch.listPartitions(compacted)).toEqual([]);
    expect(await rig.query('SELECT count(*) AS n FROM scratch.compacted')).toEqual([{ n: 0 }]);
  });

  it('concurrent registrations all land', async () => {
    const busy = table(rig, 'busy');
    await rig.scratch.createExternalTable(busy);
    const days = Array.from({ length: 8 }, (_, i) => `d${i}`);
    for (const d of days) await putJsonLines(rig, { bucket: rig.storage.bucket, prefix: `attack/busy/${d}/` }, 'a.jsonl.gz', [{ event_id: d }]);
    await Promise.all(days.map((d) => rig.scratch.registerPartition(busy, [d], { bucket: rig.storage.bucket, prefix: `attack/busy/${d}/` })));
    expect(await rig.scratch.listPartitions(busy)).toEqual(days.map((d) => [d]));
    expect(await rig.query('SELECT count(*) AS n FROM scratch.busy')).toEqual([{ n: 8 }]);
  });
});

describe('Trino: a caller cannot point a table or partition at a storage location', () => {
  let rig: ScratchRig;
  const schema = () => `scratch.${rig.scratch.schema}`;
  beforeAll(async () => {
    rig = await trinoRig();
    await rig.scratch.createExternalTable(table(rig, 'events'));
  });
  afterAll(async () => {
    await rig?.close();
  });

  it.each([
    [`CREATE TABLE {s}.evil (x varchar) WITH (external_location = 's3://{b}/a1b2c3/', format = 'TEXTFILE')`, 'setting a storage location (external_location)'],
    [`CREATE TABLE {s}.evil (x varchar) WITH (format = 'TEXTFILE', "EXTERNAL_LOCATION" = 's3://' || '{b}/a1b2c3/')`, 'setting a storage location (external_location)'],
    [`CREATE SCHEMA scratch.evil_{r} WITH (location = 's3://{b}/')`, 'setting a storage location (location)'],
    [`CREATE TABLE {s}.evil WITH (external_location = 's3://{b}/x/') AS SELECT 1 AS x`, 'setting a storage location (external_location)'],
    [`CALL scratch.system.register_partition('{sn}', 'events', ARRAY['dt'], ARRAY['x'], 's3://{b}/a1b2c3/')`, 'register_partition() is not available'],
    [`CALL scratch.system.create_empty_partition('{sn}', 'events', ARRAY['dt'], ARRAY['x'])`, 'create_empty_partition() is not available'],
  ])('refuses %s', async (template, why) => {
    const sql = template
      .replaceAll('{s}', schema())
      .replaceAll('{sn}', rig.scratch.schema)
      .replaceAll('{b}', rig.storage.bucket)
      .replaceAll('{r}', randomBytes(2).toString('hex'));
    for (const tool of ['sql_query', 'sql_execute'] as const) {
      const r = await rig.call(tool, sql);
      expect(r.isError).toBe(true);
      expect(toolText(r)).toMatch(new RegExp(`^Query rejected: ${why.replace(/[()]/g, '\\$&')}`));
    }
    expect(await rig.query(`SELECT count(*) AS n FROM scratch.information_schema.tables WHERE table_schema = '${rig.scratch.schema}' AND table_name = 'evil'`)).toEqual([{ n: 0 }]);
  });

  it('a column called location is still a column', async () => {
    expect(await rig.query("SELECT location FROM (VALUES 'here') AS t(location)")).toEqual([{ location: 'here' }]);
  });
});
