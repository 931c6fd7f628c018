/**
 * Issue 41, item 3: the engine process converts DuckDB values column by column (one converter per
 * column, chosen once) and scrubs only the columns that may hold text. Every type must still come
 * out exactly as the per-value converter (jsonValue through DuckDB's own convertRows) gives it.
 */
import { DuckDBInstance, type DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkRows, jsonValue, textColumns } from '../../shared/sql/duckdb-values.js';

const everyType = `
  SELECT
    CASE WHEN i = 2 THEN NULL ELSE true END AS b,
    (i - 2)::TINYINT AS ti, (i * 300)::SMALLINT AS si, (i * 70000)::INTEGER AS int, (i::BIGINT * 9007199254740993::BIGINT) AS big,
    (i * 80)::UTINYINT AS uti, (i * 20000)::USMALLINT AS usi, (i * 1000000000)::UINTEGER AS ui, (i::UBIGINT * 6000000000000000000::UBIGINT) AS ubig_x, (i::UBIGINT * 6000000000000000000::UBIGINT)::UBIGINT AS ubig,
    (i::HUGEINT * 10000000000000000000000000000000000000::HUGEINT) AS huge, 1e30::UHUGEINT AS uhuge,
    CASE WHEN i = 1 THEN 'NaN'::DOUBLE ELSE i / 3 END AS dbl, (i / 7)::FLOAT AS flt, (i * 1.25)::DECIMAL(10, 2) AS dec, 12345678901234567.891::DECIMAL(38, 3) AS wide,
    DATE '2024-02-29' + i::INTEGER AS d, TIME '12:34:56.789' AS t, TIMESTAMP '2024-01-01 10:00:00.123456' + INTERVAL (i) HOUR AS ts,
    TIMESTAMPTZ '2024-01-01 10:00:00+00' AS tstz, TIMESTAMP_S '2024-01-01 10:00:00' AS ts_s, TIMESTAMP_MS '2024-01-01 10:00:00.5' AS ts_ms,
    TIMESTAMP_NS '2024-01-01 10:00:00.123456789' AS ts_ns, TIMETZ '12:00:00+02' AS ttz, INTERVAL (i) DAY + INTERVAL 3 MINUTE AS iv,
    'text ' || i AS v, '{"a": 1}'::JSON AS j, 'b'::ENUM_T AS e, uuid_extract_version('00000000-0000-4000-8000-000000000000'::UUID)::INTEGER AS uv,
    '00000000-0000-4000-8000-00000000000' || i AS u_text, ('00000000-0000-4000-8000-00000000000' || i)::UUID AS u,
    ('\\x00\\xFF' || i)::BLOB AS bl, '101'::BITSTRING AS bits,
    [i, NULL, 3] AS l, ['a', NULL] AS ls, {'k': i, 's': 'x'} AS st, MAP {'a': i, 'b': 2} AS m, MAP {1: 'one'} AS mi,
    [1, 2]::INTEGER[2] AS arr, union_value(num := i) AS un, NULL AS nothing
  FROM range(1, 4) r(i)`;

describe('issue 41: DuckDB values converted per column', () => {
  let instance: DuckDBInstance;
  let chunk: DuckDBDataChunk;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run("CREATE TYPE ENUM_T AS ENUM ('a', 'b')");
    const result = await connection.run(everyType);
    chunk = (await result.fetchChunk())!;
  });
  afterAll(() => instance.closeSync());

  it('every DuckDB type (and NULL) comes out as the per-value converter gives it', () => {
    const expected = chunk.convertRows(jsonValue);
    const read = chunkRows(chunk);
    expect(read.count).toBe(3);
    const actual = Array.from({ length: read.count }, (_, r) => read.row(r));
    expect(actual).toStrictEqual(expected);
    // Spot checks of the rules docs/sql.md states, so a change in DuckDB's converter shows here too.
    const row = Object.fromEntries(Array.from({ length: chunk.columnCount }, (_, c) => [c, actual[0]![c]]));
    expect(Object.values(row)).toContain('9007199254740993');
    expect(actual[1]![0]).toBeNull();
  });

  it('only columns that may hold text are scrubbed: strings, enums, blobs, bits, JSON and nested values', () => {
    const types = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c).type);
    const names = ['b', 'ti', 'si', 'int', 'big', 'uti', 'usi', 'ui', 'ubig_x', 'ubig', 'huge', 'uhuge', 'dbl', 'flt', 'dec', 'wide', 'd', 't', 'ts', 'tstz', 'ts_s', 'ts_ms', 'ts_ns', 'ttz', 'iv', 'v', 'j', 'e', 'uv', 'u_text', 'u', 'bl', 'bits', 'l', 'ls', 'st', 'm', 'mi', 'arr', 'un', 'nothing'];
    expect(types.length).toBe(names.length);
    const scrubbed = textColumns(types).map((c) => names[c]);
    expect(scrubbed).toStrictEqual(['v', 'j', 'e', 'u_text', 'bl', 'bits', 'l', 'ls', 'st', 'm', 'mi', 'arr', 'un']);
  });
});
