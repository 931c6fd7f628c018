/**
 * A query's rows as a Parquet file, written row group by row group as the engine's pages arrive
 * (hyparquet-writer), for engines that cannot write Parquet themselves (Trino; DuckDB connections
 * use the engine's own COPY, sql-export.ts). Memory holds one row group — at most
 * PARQUET_GROUP_ROWS rows or about PARQUET_GROUP_BYTES of values — and the bytes the store has not
 * taken yet; the footer follows the last group.
 *
 * Column types: boolean → BOOLEAN; tinyint, smallint, integer → INT32; bigint → INT64; real →
 * FLOAT; double → DOUBLE; anything else (decimal, date and time types, text, nested values) → a
 * UTF-8 STRING in the engine's text form (a nested value as its JSON text). Every column is
 * nullable; duplicate names get _2, _3 as in NDJSON.
 */
import { Readable } from 'node:stream';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import { uniqueColumnNames, type QueryCursor, type Row } from '../sql/index.js';
import { cancelOnClose, type RowCount } from './sql-rows.js';

export const PARQUET_GROUP_ROWS = 100_000;
export const PARQUET_GROUP_BYTES = 32 * 1024 * 1024;

export type ParquetColumnType = 'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'STRING';

/** The Parquet type a column of the engine's `type` (`integer`, `varchar(10)`, `decimal(12,2)`, …) is written as. */
export function parquetColumnType(engineType: string): ParquetColumnType {
  switch (engineType.trim().toLowerCase().replace(/\s*\(.*$/, '')) {
    case 'boolean':
      return 'BOOLEAN';
    case 'tinyint':
    case 'smallint':
    case 'integer':
      return 'INT32';
    case 'bigint':
      return 'INT64';
    case 'real':
      return 'FLOAT';
    case 'double':
      return 'DOUBLE';
    default:
      return 'STRING';
  }
}

/** One value as its column's Parquet type takes it (null stays null). */
export function parquetValue(type: ParquetColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'BOOLEAN':
      return value === true || value === 'true';
    case 'INT32':
      return Number(value);
    case 'INT64':
      return BigInt(value as number | string);
    case 'FLOAT':
    case 'DOUBLE':
      // Trino writes NaN and the infinities as strings.
      return Number(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** A rough size of a value held in a row group, to bound it. */
function heldBytes(value: unknown): number {
  return typeof value === 'string' ? value.length : 8;
}

/**
 * The cursor's rows as the bytes of a Parquet file. Like rowStream: fails with the engine's error
 * (the store then keeps nothing), cancels the statement when destroyed early, counts into `count`.
 */
export function parquetStream(cursor: QueryCursor, count: RowCount): Readable {
  const columns = uniqueColumnNames(cursor.columns);
  const types = columns.map((c) => parquetColumnType(c.type));
  async function* encode(): AsyncGenerator<Buffer> {
    const out: ByteWriter & { flush?: () => void } = new ByteWriter();
    const ready: Buffer[] = [];
    // Each flush hands the bytes written so far to the stream and starts the buffer over.
    const takeBytes = () => {
      if (out.index === 0) return;
      ready.push(Buffer.from(new Uint8Array(out.buffer, 0, out.index)));
      out.index = 0;
    };
    out.flush = takeBytes;
    out.finish = takeBytes;
    const schema = schemaFromColumnData({ columnData: columns.map((c, i) => ({ name: c.name, data: [], type: types[i]!, nullable: true })) });
    const writer = new ParquetWriter({ writer: out, schema });
    let group: Row[] = [];
    let bytes = 0;
    const writeGroup = async () => {
      const columnData = columns.map((c, i) => ({ name: c.name, type: types[i]!, nullable: true, data: group.map((row) => parquetValue(types[i]!, row[i])) }));
      await writer.write({ columnData, rowGroupSize: group.length });
      group = [];
      bytes = 0;
    };
    for (let page = await cursor.nextPage(); page !== null; page = await cursor.nextPage()) {
      for (const row of page) {
        group.push(row);
        for (const value of row) bytes += heldBytes(value);
      }
      count.rows += page.length;
      if (group.length >= PARQUET_GROUP_ROWS || bytes >= PARQUET_GROUP_BYTES) await writeGroup();
      yield* ready.splice(0);
    }
    if (group.length > 0) await writeGroup();
    await writer.finish();
    yield* ready.splice(0);
  }
  return cancelOnClose(Readable.from(encode(), { objectMode: false }), cursor);
}
