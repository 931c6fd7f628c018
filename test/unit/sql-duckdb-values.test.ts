/**
 * Issue 41, item 3: the engine process converts DuckDB values column by column (one converter per
 * column, chosen once) and scrubs only the columns that may hold text. Every type must still come
 * out exactly as the per-value converter (jsonValue through DuckDB's own convertRows) gives it.
 */
import { DuckDBDateValue, DuckDBDecimalValue, DuckDBInstance, type DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkRows, dateText, decimalText, jsonValue, textColumns } from '../../shared/sql/duckdb-values.js';

const everyType = `
  SELECT
    CASE WHEN i = 2 THEN NULL ELSE true END AS b,
    (i - 2)::TINYINT AS ti, (i * 300)::SMALLINT AS si, (i * 70000)::INTEGER AS int, (i::BIGINT * 9007199254740993::BIGINT) AS big,
    (i * 80)::UTINYINT AS uti, (i * 20000)::USMALLINT AS usi, (i * 1000000000)::UINTEGER AS ui, (i::UBIGINT * 6000000000000000000::UBIGINT) AS ubig_x, (i::UBIGINT * 6000000000000000000::UBIGINT)::UBIGINT AS ubig,
    (i::HUGEINT * 10000000000000000000000000000000000000::HUGEINT) AS huge, 1e30::UHUGEINT AS uhuge,
    CASE WHEN i = 1 THEN 'NaN'::DOUBLE ELSE i / 3 END AS dbl, (i / 7)::FLOAT AS flt, (i * 1.25)::DECIMAL(10, 2) AS dec, 12345678901234567.891::DECIMAL(38, 3) AS wide,
    CASE WHEN i = 2 THEN NULL ELSE (i * -1.5)::DECIMAL(4, 1) END AS dec16, (i * 21474.8365)::DECIMAL(9, 4) AS dec32, CASE WHEN i = 3 THEN NULL ELSE (i * 9.99)::DECIMAL(18, 2) END AS dec64,
    CASE WHEN i = 2 THEN NULL ELSE i::BIGINT * -3 END AS big_null, (i::HUGEINT * 3) AS huge_small,
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
    const names = ['b', 'ti', 'si', 'int', 'big', 'uti', 'usi', 'ui', 'ubig_x', 'ubig', 'huge', 'uhuge', 'dbl', 'flt', 'dec', 'wide', 'dec16', 'dec32', 'dec64', 'big_null', 'huge_small', 'd', 't', 'ts', 'tstz', 'ts_s', 'ts_ms', 'ts_ns', 'ttz', 'iv', 'v', 'j', 'e', 'uv', 'u_text', 'u', 'bl', 'bits', 'l', 'ls', 'st', 'm', 'mi', 'arr', 'un', 'nothing'];
    expect(types.length).toBe(names.length);
    const scrubbed = textColumns(types).map((c) => names[c]);
    expect(scrubbed).toStrictEqual(['v', 'j', 'e', 'u_text', 'bl', 'bits', 'l', 'ls', 'st', 'm', 'mi', 'arr', 'un']);
  });

  it('decimals are written as DuckDB writes them, in and past the exact float range, every scale', () => {
    // A deterministic spread of scaled values: small, around powers of ten, around 2^53, past it.
    const edges = [0n, 1n, 5n, 9n, 10n, 99n, 100n, 101n, 999_999n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 10n ** 17n - 1n, 10n ** 30n + 7n];
    let seed = 41n;
    const random = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    const values = [...edges, ...Array.from({ length: 4000 }, () => random() % 10n ** BigInt(Number(random() % 19n)))];
    for (let scale = 0; scale <= 18; scale++) {
      // Just below multiples of the unit near 2^53, where a float quotient is closest to rounding up.
      const unit = 10n ** BigInt(scale);
      const top = ((2n ** 53n - 1n) / unit) * unit;
      const nearTop = Array.from({ length: 40 }, (_, i) => [top - BigInt(i), top - unit + BigInt(i), 2n ** 53n - 1n - BigInt(i)]).flat().filter((v) => v >= 0n);
      for (const v of [...values, ...nearTop]) {
        for (const scaled of [v, -v]) {
          const value = new DuckDBDecimalValue(scaled, 38, scale);
          expect(decimalText(scaled, 38, scale)).toBe(String(value));
          // Decimals of up to 9 digits are read as numbers (DuckDBDecimal16/32Vector.getScaledValue).
          if (scaled < 10n ** 9n && scaled > -(10n ** 9n) && scale <= 9) expect(decimalText(Number(scaled), 9, scale)).toBe(String(value));
        }
      }
    }
  });

  it('dates are written as DuckDB writes them, the same when remembered, BC and infinities included', () => {
    const days = [0, 1, -1, 59, 60, 365, 11_016, 19_782, -719_162, -719_163, -800_000, 2_932_896, 2 ** 31 - 1, -(2 ** 31 - 1)];
    for (let d = -3000; d <= 3000; d += 7) days.push(d * 97);
    for (const d of days) {
      const value = new DuckDBDateValue(d);
      expect(dateText(value)).toBe(String(value));
      expect(dateText(new DuckDBDateValue(d))).toBe(String(value));
    }
  });
});
