/** DuckDB values as JSON-ready values, close to what Trino's protocol sends (used by the engine process). */
import {
  DuckDBDecimal16Vector,
  DuckDBDecimal32Vector,
  DuckDBDecimal64Vector,
  DuckDBDecimalValue,
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  arrayFromArrayValue,
  arrayFromListValue,
  objectFromStructValue,
  type DuckDBDataChunk,
  type DuckDBDateValue,
  type DuckDBType,
  type DuckDBValueConverter,
  type DuckDBVector,
  type Json,
} from '@duckdb/node-api';
import type { Row } from './types.js';

/** A 64-bit or wider integer as a number while that is exact, else its digits (JSON numbers past 2^53 lose digits). */
function integerValue(value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'bigint') return String(value);
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : String(value);
}

/** Integers as numbers while exact (else strings), decimals as strings, blobs as base64, intervals as text. */
export const jsonValue: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value === null || value === undefined) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
    case DuckDBTypeId.BIGNUM:
      return integerValue(value);
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
 * Types whose JSON-ready values are plain JS values already (numbers, booleans, strings) or null:
 * what JsonDuckDBValueConverter does to them (Number, Boolean, String) changes nothing.
 */
const asIs = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.VARCHAR,
]);

/** Types DuckDB's JSON converter writes with String(value): dates, times, decimals, enums, uuids. */
const asText = new Set<DuckDBTypeId>([
  DuckDBTypeId.DATE,
  DuckDBTypeId.TIME,
  DuckDBTypeId.TIME_NS,
  DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
  DuckDBTypeId.DECIMAL,
  DuckDBTypeId.ENUM,
  DuckDBTypeId.UUID,
]);

/** Date texts by day number: a result's dates repeat, and DuckDB formats each through a JS Date. */
const dateTexts = new Map<number, string>();
const DATE_TEXTS_KEPT = 8192;

/** A DATE as DuckDB writes it (String(value)), remembered per day. */
export function dateText(value: DuckDBDateValue): string {
  let text = dateTexts.get(value.days);
  if (text === undefined) {
    text = String(value);
    if (dateTexts.size >= DATE_TEXTS_KEPT) dateTexts.clear();
    dateTexts.set(value.days, text);
  }
  return text;
}

const powersOfTen = Array.from({ length: 16 }, (_, i) => 10 ** i);
const maxExact = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A DECIMAL(width, scale) of the scaled integer `scaled` as DuckDB writes it (String(value): the
 * digits, a point and `scale` fraction digits): in float arithmetic while the scaled value is an
 * exact integer there, instead of DuckDB's BigInt division and power per value; in DuckDB's own
 * way otherwise.
 */
export function decimalText(scaled: bigint | number, width: number, scale: number): string {
  if (scale === 0 || scale >= powersOfTen.length || scaled > maxExact || scaled < -maxExact) return String(new DuckDBDecimalValue(BigInt(scaled), width, scale));
  const n = Number(scaled);
  const abs = n < 0 ? -n : n;
  const unit = powersOfTen[scale]!;
  // Exact: below 2^53 the quotient's rounding error (under half a unit in its last place, less than
  // 1/unit) never carries it across an integer, and whole * unit and the difference are exact.
  const whole = Math.floor(abs / unit);
  const fraction = abs - whole * unit;
  return `${n < 0 ? '-' : ''}${whole}.${String(fraction).padStart(scale, '0')}`;
}

/**
 * The converter of one column, chosen once: jsonValue's result for every value of that type, without
 * its dispatch (and DuckDB's converter's) per value.
 */
function columnConverter(type: DuckDBType): (value: unknown) => unknown {
  if (asIs.has(type.typeId)) return (value) => value ?? null;
  if (wideIntegers.has(type.typeId)) return integerValue;
  if (type.typeId === DuckDBTypeId.DATE) return orNull((value) => dateText(value as DuckDBDateValue));
  // Decimals past 18 digits (narrower ones are read from their scaled integers, columnReader).
  if (type.typeId === DuckDBTypeId.DECIMAL) {
    return orNull((value) => {
      const { value: scaled, width, scale } = value as DuckDBDecimalValue;
      return decimalText(scaled, width, scale);
    });
  }
  if (asText.has(type.typeId)) return orNull(String);
  return (value) => jsonValue(value as never, type, jsonValue);
}

/** Integer types whose values DuckDB reads as BigInt. */
const wideIntegers = new Set<DuckDBTypeId>([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);

/**
 * How one column's values are read: decimals up to 18 digits from their scaled integers (no
 * DuckDBDecimalValue per value), the rest through the column's converter.
 */
function columnReader(vector: DuckDBVector): (index: number) => unknown {
  if (vector instanceof DuckDBDecimal64Vector || vector instanceof DuckDBDecimal32Vector || vector instanceof DuckDBDecimal16Vector) {
    const { width, scale } = vector.type;
    return (index) => {
      const scaled = vector.getScaledValue(index);
      return scaled === null ? null : decimalText(scaled, width, scale);
    };
  }
  const convert = columnConverter(vector.type);
  return (index) => convert(vector.getItem(index));
}

/** `write` for a value, null for a missing one. */
function orNull(write: (value: unknown) => string): (value: unknown) => string | null {
  return (value) => (value === null || value === undefined ? null : write(value));
}

/**
 * Types whose values never hold text a caller's data could put there (numbers, booleans, dates,
 * times, decimals, uuids, intervals): the path scrubber can skip their columns.
 */
const withoutText = new Set<DuckDBTypeId>([
  ...[...asIs].filter((id) => id !== DuckDBTypeId.VARCHAR),
  ...[...asText].filter((id) => id !== DuckDBTypeId.ENUM),
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.BIGNUM,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.INTERVAL,
  DuckDBTypeId.SQLNULL,
]);

/** Indexes of the columns whose values may hold text (strings, blobs, lists, structs, maps, …). */
export function textColumns(types: readonly DuckDBType[]): number[] {
  return types.flatMap((type, i) => (withoutText.has(type.typeId) ? [] : [i]));
}

/**
 * Reads a chunk's rows one at a time as JSON-ready arrays, so a byte budget can stop between rows.
 * Vectors, types and converters are looked up once per chunk (DuckDBDataChunk.convertRowValues does
 * it for every value, which costs more than the conversion itself).
 */
export function chunkRows(chunk: DuckDBDataChunk): { count: number; row: (index: number) => Row } {
  const readers = Array.from({ length: chunk.columnCount }, (_, c) => columnReader(chunk.getColumnVector(c)));
  const width = readers.length;
  return {
    // rowCount asks the binding each time it is read.
    count: chunk.rowCount,
    row(r) {
      const row: Row = new Array(width);
      for (let c = 0; c < width; c++) row[c] = readers[c]!(r);
      return row;
    },
  };
}
