/**
 * parquetStream (shared/exports/parquet-rows.ts), the Parquet writer of engines that cannot write
 * it themselves: a real engine cursor (DuckDB in memory) streamed into a file of several row
 * groups, read back by DuckDB's Parquet reader; an engine failure fails the stream; the
 * type rules.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARQUET_GROUP_ROWS, parquetColumnType, parquetStream, parquetValue } from '../../shared/exports/parquet-rows.js';
import { DuckDbEngine } from '../../shared/sql/index.js';

let dir: string;
let engine: DuckDbEngine;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parquet-rows-'));
  engine = new DuckDbEngine({ path: ':memory:', allowedDirectories: [dir] });
});

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

const start = (sql: string) => engine.start(sql, { signal: AbortSignal.timeout(60_000), readOnly: true, complete: true, maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER });

describe('parquetStream', () => {
  it('writes a result larger than a row group as several groups that read back whole, typed', async () => {
    const rows = PARQUET_GROUP_ROWS * 2 + 5_000;
    const count = { rows: 0 };
    const file = join(dir, 'big.parquet');
    const sql = `SELECT range AS id, range % 2 = 0 AS even, CAST(range AS INTEGER) AS small, range / 4 AS quarter, CASE WHEN range % 5 = 0 THEN NULL ELSE 'v' || range END AS label FROM range(${rows})`;
    await pipeline(parquetStream(await start(sql), count), createWriteStream(file));
    expect(count.rows).toBe(rows);
    // A group closes at the first page boundary past PARQUET_GROUP_ROWS (DuckDB pages hold 2,048 rows).
    const groups = await engine.query(`SELECT count(DISTINCT row_group_id), max(row_group_num_rows) FROM parquet_metadata('${file}')`, [], AbortSignal.timeout(10_000));
    expect(groups).toEqual([[3, PARQUET_GROUP_ROWS + 352]]);
    const summary = await engine.query(`SELECT count(*), count(label), sum(id), count(*) FILTER (WHERE even) FROM read_parquet('${file}')`, [], AbortSignal.timeout(10_000));
    expect(summary).toEqual([[rows, rows - Math.ceil(rows / 5), ((rows - 1) * rows) / 2, Math.ceil(rows / 2)]]);
    const types = await engine.query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${file}'))`, [], AbortSignal.timeout(10_000));
    expect(types).toEqual([
      ['id', 'BIGINT'],
      ['even', 'BOOLEAN'],
      ['small', 'INTEGER'],
      ['quarter', 'DOUBLE'],
      ['label', 'VARCHAR'],
    ]);
  });

  it('fails with the engine error when the query fails (nothing looks finished)', async () => {
    const sql = `SELECT CASE WHEN range > ${PARQUET_GROUP_ROWS + 10} THEN error('boom midway') ELSE range END AS n FROM range(${PARQUET_GROUP_ROWS * 3})`;
    await expect(
      (async () => {
        for await (const chunk of parquetStream(await start(sql), { rows: 0 })) void chunk;
      })(),
    ).rejects.toThrow(/boom midway/);
  });

  it('types: engine types to Parquet types, and values as those take them', () => {
    expect(['boolean', 'TINYINT', 'smallint', 'integer', 'bigint', 'real', 'double', 'decimal(12,2)', 'varchar(10)', 'date', 'timestamp(3) with time zone', 'array(bigint)', 'json'].map(parquetColumnType)).toEqual([
      'BOOLEAN', 'INT32', 'INT32', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'STRING', 'STRING', 'STRING', 'STRING', 'STRING', 'STRING',
    ]);
    expect(parquetValue('INT64', 9007199254740993n.toString())).toBe(9007199254740993n);
    expect(parquetValue('DOUBLE', 'NaN')).toBeNaN();
    expect(parquetValue('DOUBLE', 'Infinity')).toBe(Infinity);
    expect(parquetValue('STRING', [1, { a: 'b' }])).toBe('[1,{"a":"b"}]');
    expect(parquetValue('STRING', '12.50')).toBe('12.50');
    expect(parquetValue('BOOLEAN', null)).toBeNull();
  });
});
