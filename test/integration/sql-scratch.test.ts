/**
 * The scratch catalog's contract (issue 13, item 4), run on both engines: the run's real Trino with
 * its Hive `scratch` catalog over the run's MinIO, and the embedded DuckDB over the filesystem
 * store. External tables over partitions in the platform's storage, registered and unregistered
 * one by one, read through views by callers of sql_query; checkScratch() says yes on a correct
 * catalog and names what is missing on the others.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { checkScratch, ScratchError, type ExternalTable, type StorageLocation } from '../../shared/sql/scratch/index.js';
import { sharedMinio } from '../support/minio.js';
import { at, duckdbRig, putJsonLines, putParquet, rigFrom, trinoRig, type ScratchRig as Rig } from '../support/scratch-rigs.js';

describe.each([
  ['trino', trinoRig],
  ['duckdb', duckdbRig],
] as const)('scratch catalog on %s', (engine, start) => {
  let rig: Rig;
  const id = randomBytes(3).toString('hex');
  const events = (): ExternalTable => ({
    name: `events_${id}`,
    columns: [
      { name: 'event_id', type: 'varchar' },
      { name: 'received_at', type: 'timestamp' },
      { name: 'amount', type: 'bigint' },
    ],
    partitionColumns: ['dt', 'hour'],
    format: 'json_gz',
    location: { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/events/` },
  });
  const partition = (dt: string, hour: string): StorageLocation => ({ bucket: rig.storage.bucket, prefix: `scratch-test/${id}/events/dt=${dt}/hour=${hour}/` });

  beforeAll(async () => {
    rig = await start();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('an external table over two partitions, a third registered: a view sees exactly the three; one unregistered is gone', async () => {
    const table = events();
    await rig.scratch.createExternalTable(table);
    const days = [20, 21, 22];
    for (const day of days) {
      await putJsonLines(rig, partition(`2026-11-${day}`, '10'), `seg-${day}.jsonl.gz`, [
        { event_id: `e${day}a`, received_at: at(day, 1), amount: day },
        { event_id: `e${day}b`, received_at: at(day, 2), amount: day * 10 },
      ]);
    }
    await rig.scratch.registerPartition(table, ['2026-11-20', '10'], partition('2026-11-20', '10'));
    await rig.scratch.registerPartition(table, ['2026-11-21', '10'], partition('2026-11-21', '10'));
    const view = `recent_${id}`;
    await rig.scratch.createOrReplaceView(
      view,
      `SELECT e.event_id, e.received_at, e.amount, e.dt FROM ${rig.scratch.relation(table.name)} e ` +
        `JOIN ${rig.scratch.partitionsRelation(table.name)} p ON p.dt = e.dt AND p.hour = e.hour`,
    );
    const rows = async () => (await rig.query(`SELECT event_id, CAST(received_at AS VARCHAR) AS received_at, amount, dt FROM ${rig.scratch.relation(view)} ORDER BY event_id`));
    expect((await rows()).map((r) => r.event_id)).toEqual(['e20a', 'e20b', 'e21a', 'e21b']);

    await rig.scratch.registerPartition(table, ['2026-11-22', '10'], partition('2026-11-22', '10'));
    const three = await rows();
    expect(three.map((r) => r.event_id)).toEqual(['e20a', 'e20b', 'e21a', 'e21b', 'e22a', 'e22b']);
    expect(three[5]).toEqual({ event_id: 'e22b', received_at: at(22, 2), amount: 220, dt: '2026-11-22' });
    expect(await rig.scratch.listPartitions(table)).toEqual([
      ['2026-11-20', '10'],
      ['2026-11-21', '10'],
      ['2026-11-22', '10'],
    ]);

    await rig.scratch.unregisterPartition(table, ['2026-11-21', '10']);
    expect((await rows()).map((r) => r.event_id)).toEqual(['e20a', 'e20b', 'e22a', 'e22b']);
    // Unregistering keeps the files; registering again brings the rows back.
    await rig.scratch.registerPartition(table, ['2026-11-21', '10'], partition('2026-11-21', '10'));
    expect(await rows()).toHaveLength(6);
  });

  it('reads a file written into a registered partition at once; hidden and deeper objects are not read', async () => {
    const table = { ...events(), name: `live_${id}`, location: { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/live/` } };
    const where: StorageLocation = { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/live/dt=2026-11-22/hour=11/` };
    await rig.scratch.createExternalTable(table);
    await putJsonLines(rig, where, 'a.jsonl.gz', [{ event_id: 'a', received_at: at(22, 3), amount: 1 }]);
    await rig.scratch.registerPartition(table, ['2026-11-22', '11'], where);
    await putJsonLines(rig, where, 'b.jsonl.gz', [{ event_id: 'b', received_at: at(22, 4), amount: 2 }]);
    await putJsonLines(rig, where, '_in-progress.jsonl.gz', [{ event_id: 'hidden', received_at: at(22, 5), amount: 3 }]);
    await putJsonLines(rig, where, '.partial.jsonl.gz', [{ event_id: 'dot', received_at: at(22, 5), amount: 3 }]);
    await putJsonLines(rig, { ...where, prefix: `${where.prefix}deeper/` }, 'c.jsonl.gz', [{ event_id: 'deeper', received_at: at(22, 6), amount: 4 }]);
    const rows = await rig.query(`SELECT event_id, amount, dt, hour FROM ${rig.scratch.relation(table.name)} ORDER BY event_id`);
    expect(rows).toEqual([
      { event_id: 'a', amount: 1, dt: '2026-11-22', hour: '11' },
      { event_id: 'b', amount: 2, dt: '2026-11-22', hour: '11' },
    ]);
  });

  it('a Parquet table reads its partitions by column name', async () => {
    const table: ExternalTable = {
      name: `compacted_${id}`,
      columns: [
        { name: 'event_id', type: 'varchar' },
        { name: 'received_at', type: 'timestamp' },
        { name: 'score', type: 'double' },
        { name: 'ok', type: 'boolean' },
      ],
      partitionColumns: ['dt'],
      format: 'parquet',
      location: { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/compacted/` },
    };
    const where = (dt: string): StorageLocation => ({ bucket: rig.storage.bucket, prefix: `scratch-test/${id}/compacted/${dt}/` });
    await rig.scratch.createExternalTable(table);
    await rig.scratch.createExternalTable(table); // again: nothing changes
    await putParquet(rig, where('a'), '10-00.parquet', `SELECT 'p' || i AS event_id, TIMESTAMP '2026-11-22 10:00:00.000001' + INTERVAL (i) MINUTE AS received_at, i / 2 AS score, i % 2 = 0 AS ok FROM range(3) t(i)`);
    // Columns in another order, one more the table does not declare: read by name.
    await putParquet(rig, where('b'), '11-00.parquet', `SELECT true AS ok, 'q' AS extra, 1.5::DOUBLE AS score, TIMESTAMP '2026-11-23 00:00:00.250001' AS received_at, 'q0' AS event_id`);
    await rig.scratch.registerPartition(table, ['2026-11-22'], where('a'));
    await rig.scratch.registerPartition(table, ['2026-11-23'], where('b'));
    const rows = await rig.query(`SELECT event_id, CAST(received_at AS VARCHAR) AS at, score, ok, dt FROM ${rig.scratch.relation(table.name)} ORDER BY event_id`);
    expect(rows).toEqual([
      { event_id: 'p0', at: '2026-11-22 10:00:00.000001', score: 0, ok: true, dt: '2026-11-22' },
      { event_id: 'p1', at: '2026-11-22 10:01:00.000001', score: 0.5, ok: false, dt: '2026-11-22' },
      { event_id: 'p2', at: '2026-11-22 10:02:00.000001', score: 1, ok: true, dt: '2026-11-22' },
      { event_id: 'q0', at: '2026-11-23 00:00:00.250001', score: 1.5, ok: true, dt: '2026-11-23' },
    ]);
  });

  it('registering twice or unregistering what is not registered changes nothing; an empty location is refused; partitions are listed by leading values', async () => {
    const table = { ...events(), name: `idem_${id}`, location: { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/idem/` } };
    const where: StorageLocation = { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/idem/dt=x/hour=00/` };
    await rig.scratch.createExternalTable(table);
    await expect(rig.scratch.registerPartition(table, ['x', '00'], where)).rejects.toThrow(/holds no file yet; register it after writing its first file/);
    await putJsonLines(rig, where, '_hidden.jsonl.gz', [{ event_id: 'h' }]);
    await expect(rig.scratch.registerPartition(table, ['x', '00'], where)).rejects.toBeInstanceOf(ScratchError);
    await putJsonLines(rig, where, 'a.jsonl.gz', [{ event_id: 'a', amount: 1 }]);
    await rig.scratch.registerPartition(table, ['x', '00'], where);
    await rig.scratch.registerPartition(table, ['x', '00'], where);
    expect(await rig.scratch.listPartitions(table)).toEqual([['x', '00']]);
    expect(await rig.scratch.listPartitions(table, ['x'])).toEqual([['x', '00']]);
    expect(await rig.scratch.listPartitions(table, ['y'])).toEqual([]);
    await expect(rig.scratch.listPartitions(table, ["x'--"])).rejects.toThrow(/partition value .* is not allowed/);
    await rig.scratch.unregisterPartition(table, ['y', '00']);
    await rig.scratch.unregisterPartition(table, ['x', '00']);
    await rig.scratch.unregisterPartition(table, ['x', '00']);
    expect(await rig.scratch.listPartitions(table)).toEqual([]);
    expect(await rig.query(`SELECT count(*) AS n FROM ${rig.scratch.relation(table.name)}`)).toEqual([{ n: 0 }]);
  });

  it('refuses names, values and locations outside the rules before the engine sees them', async () => {
    const table = events();
    await expect(rig.scratch.createExternalTable({ ...table, name: 'x"; DROP TABLE y; --' })).rejects.toThrow(/table name .* is not allowed/);
    await expect(rig.scratch.createExternalTable({ ...table, columns: [{ name: 'a', type: 'varchar' }, { name: 'a', type: 'bigint' }] })).rejects.toThrow(/names column a twice/);
    await expect(rig.scratch.registerPartition(table, ["2026'--", '10'], partition('x', '10'))).rejects.toThrow(/partition value .* is not allowed/);
    await expect(rig.scratch.registerPartition(table, ['2026-11-20'], partition('x', '10'))).rejects.toThrow(/give 2 values, not 1/);
    await expect(rig.scratch.registerPartition(table, ['a', 'b'], { bucket: rig.storage.bucket, prefix: 'scratch-test/../other/' })).rejects.toThrow(/segment that is empty, hidden/);
    await expect(rig.scratch.registerPartition(table, ['a', 'b'], { bucket: 'someone-elses', prefix: 'x/' })).rejects.toThrow(/read the platform's storage bucket/);
    await expect(rig.scratch.createOrReplaceView('bad name', 'SELECT 1')).rejects.toThrow(/view name/);
  });

  it('dropping a table removes it and its registrations, not its files', async () => {
    const table = { ...events(), name: `dropped_${id}`, location: { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/dropped/` } };
    const where: StorageLocation = { bucket: rig.storage.bucket, prefix: `scratch-test/${id}/dropped/dt=a/hour=01/` };
    await rig.scratch.createExternalTable(table);
    await putJsonLines(rig, where, 'a.jsonl.gz', [{ event_id: 'a', amount: 1 }]);
    await rig.scratch.registerPartition(table, ['a', '01'], where);
    await rig.scratch.dropTable(table.name);
    await rig.scratch.dropTable(table.name);
    await expect(rig.query(`SELECT * FROM ${rig.scratch.relation(table.name)}`)).rejects.toThrow(/does not exist|not exist|Catalog Error/);
    const listed = await rig.storage.connection.store.listObjects(where.bucket, { prefix: where.prefix });
    expect(listed.objects.map((o) => o.key)).toEqual([`${where.prefix}a.jsonl.gz`]);
    expect(await rig.scratch.listPartitions(table)).toEqual([]);
    // Created again over the same location, it starts with no partitions.
    await rig.scratch.createExternalTable(table);
    expect(await rig.scratch.listPartitions(table)).toEqual([]);
  });

  it('checkScratch() answers yes on a correct catalog, and leaves nothing behind', async () => {
    const connection = rig.sql.connection(engine === 'trino' ? 'cluster' : 'local');
    expect(await checkScratch(connection, rig.storage)).toEqual({ ok: true });
    const left = await rig.storage.connection.store.listObjects(rig.storage.bucket, { prefix: 'scratch-probe/' });
    expect(left.objects).toEqual([]);
    const tables = await rig.query(`SELECT table_name FROM ${engine === 'trino' ? `${rig.scratch.catalog}.` : ''}information_schema.tables WHERE table_schema = '${rig.scratch.schema}' AND table_name LIKE 'platform_probe%'`);
    expect(tables).toEqual([]);
  });
});

describe('checkScratch() names what a catalog lacks', () => {
  let trino: Rig;
  let duckdbOnS3: Rig;
  beforeAll(async () => {
    trino = await trinoRig();
    const minio = await sharedMinio();
    const dataDir = await mkdtemp(join(tmpdir(), 'scratch-duckdb-s3-'));
    duckdbOnS3 = await rigFrom(
      [`data_dir: ${dataDir}`, 'toolkits:', '  objstore:', '    platform:', minio.instanceYaml(6, [`bucket_prefix: ds${randomBytes(3).toString('hex')}-`]), '  sql:', '    local:', '      engine: duckdb'].join('\n'),
      'local',
      () => rm(dataDir, { recursive: true, force: true }),
    );
  });
  afterAll(async () => {
    await trino?.close();
    await duckdbOnS3?.close();
  });

  it('a Hive catalog without register_partition: names hive.allow-register-partition-procedure', async () => {
    const answer = await checkScratch(trino.sql.connection('locked'), trino.storage);
    expect(answer).toEqual({
      ok: false,
      reason: 'catalog scratch_locked does not allow register_partition: set hive.allow-register-partition-procedure=true in its catalog properties',
    });
    const left = await trino.storage.connection.store.listObjects(trino.storage.bucket, { prefix: 'scratch-probe/' });
    expect(left.objects).toEqual([]);
  });

  it('a catalog that is not Hive, and a connection without both keys', async () => {
    expect(await checkScratch(trino.sql.connection('tpch'), trino.storage)).toEqual({
      ok: false,
      reason: 'catalog tpch uses connector tpch; the scratch catalog must be a Hive connector catalog (connector.name=hive)',
    });
    expect(await checkScratch(trino.sql.connection('unset'), trino.storage)).toEqual({
      ok: false,
      reason: 'SQL connection unset has no scratch catalog: set toolkits.sql.unset.scratch.schema (both are required)',
    });
  });

  it('DuckDB over S3 storage, and Trino over filesystem storage, say why they cannot read it', async () => {
    const onS3 = await checkScratch(duckdbOnS3.sql.connection('local'), duckdbOnS3.storage);
    expect(onS3).toMatchObject({ ok: false, reason: expect.stringMatching(/^DuckDB reads the platform's storage only from the filesystem driver, and toolkits\.objstore\.platform is on S3/) });
    const dataDir = await mkdtemp(join(tmpdir(), 'scratch-fs-'));
    const fsObjstore = createObjstoreConnections(parseConfig(`data_dir: ${dataDir}\ntoolkits:\n  objstore:\n    local:\n      driver: filesystem\n`, {}).config);
    try {
      const storage = { connection: fsObjstore.get('local'), bucket: 'resources' };
      expect(await checkScratch(trino.sql.connection('cluster'), storage)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^Trino reads the platform's storage only over S3, and toolkits\.objstore\.local uses the filesystem driver/),
      });
    } finally {
      await fsObjstore.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
