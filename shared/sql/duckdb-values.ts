/** DuckDB values as JSON-ready values, close to what Trino's protocol sends (used by the engine process). */
import {
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  arrayFromArrayValue,
  arrayFromListValue,
  objectFromStructValue,
  type DuckDBDataChunk,
  type DuckDBType,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';
import type { Row } from './types.js';

const isSafe = (n: bigint) => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);

/** Integers as numbers while exact (else strings), decimals as strings, blobs as base64, intervals as text. */
export const jsonValue: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return typeof value === 'bigint' && isSafe(value) ? Number(value) : String(value);
    case DuckDBTypeId.BLOB: {
      const bytes = (value as { bytes?: Uint8Array }).bytes;
      return bytes ? Buffer.from(bytes).toString('base64') : String(value);
    }
    case DuckDBTypeId.INTERVAL:
      return String(value);
    case DuckDBTypeId.MAP: {
      const entries = (value as { entries?: Array<{ key: unknown; value: unknown }> }).entries ?? [];
      const mapType = type as DuckDBType & { keyType: DuckDBType; valueType: DuckDBType };
      const out: Record<string, Json> = {};
      for (const e of entries) {
        const k = converter(e.key as never, mapType.keyType, converter);
        out[typeof k === 'string' ? k : JSON.stringify(k)] = converter(e.value as never, mapType.valueType, converter);
      }
      return out;
    }
    case DuckDBTypeId.LIST:
      return arrayFromListValue(value, type, converter);
    case DuckDBTypeId.ARRAY:
      return arrayFromArrayValue(value, type, converter);
    case DuckDBTypeId.STRUCT:
      return objectFromStructValue(value, type, converter);
    default:
      return JsonDuckDBValueConverter(value, type, converter);
  }
};

/** A column type's name as DuckDB writes it (JSON stays `JSON`). */
export function typeName(type: DuckDBType): string {
  return type.alias ?? type.toString();
}

/**
 * Reads a chunk's rows one at a time as JSON-ready arrays, so a byte budget can stop between rows.
 * Vectors and types are looked up once per chunk (DuckDBDataChunk.convertRowValues does it for every
 * value, which costs more than the conversion itself).
 */
export function chunkRows(chunk: DuckDBDataChunk): (row: number) => Row {
  const vectors = Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c));
  const types = vectors.map((v) => v.type);
  return (r) => {
    const row: Row = new Array(vectors.length);
    for (let c = 0; c < vectors.length; c++) row[c] = jsonValue(vectors[c]!.getItem(r), types[c]!, jsonValue);
    return row;
  };
}
