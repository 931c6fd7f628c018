/**
 * A query's rows as the bytes of a CSV or NDJSON file, encoded page by page as the store reads
 * them: the next page is asked of the engine only when the previous one was taken (Trino's next
 * URI, DuckDB's paced pages), so an export of any length holds a few pages at a time.
 *
 * CSV (csv-stringify): a header row, `\n` line ends, a nested value as its JSON text, null as an
 * empty cell, booleans as true/false, and a text cell a spreadsheet would run as a formula
 * (starting with =, +, -, @, tab or carriage return) prefixed with ' (as platform.publish_data
 * writes CSV). NDJSON: one JSON object per row keyed by column name (duplicate names get _2, _3).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { uniqueColumnNames, type QueryCursor, type Row } from '../sql/index.js';

export type RowFormat = 'csv' | 'ndjson';

export const ROW_FORMATS: Record<RowFormat, { contentType: string }> = {
  csv: { contentType: 'text/csv' },
  ndjson: { contentType: 'application/x-ndjson' },
};

/** What an encoding counted once its stream ended. */
export interface RowCount {
  rows: number;
}

/** A text cell that a spreadsheet would evaluate, made inert. */
function inert(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const csvOptions = {
  cast: {
    boolean: (value: boolean) => (value ? 'true' : 'false'),
    object: (value: object) => JSON.stringify(value),
    string: (value: string) => inert(value),
  },
};

/** The file's text for one page of rows (the header first when `header` is given). */
export function encodePage(format: RowFormat, names: readonly string[], rows: readonly Row[], header: boolean): string {
  if (format === 'csv') return stringify(header ? [names.map(inert), ...rows] : (rows as Row[]), csvOptions);
  let text = '';
  for (const row of rows) {
    const record: Record<string, unknown> = {};
    names.forEach((name, i) => (record[name] = row[i] ?? null));
    text += `${JSON.stringify(record)}\n`;
  }
  return text;
}

/**
 * Stops the statement once `stream` closes — when it ended (a no-op then), failed, or was destroyed
 * by a reader that stopped, even before its first read (a generator never started runs no
 * `finally`).
 */
export function cancelOnClose(stream: Readable, cursor: QueryCursor): Readable {
  stream.once('close', () => void cursor.cancel().catch(() => undefined));
  return stream;
}

/**
 * The cursor's rows as a byte stream in `format`. The stream ends with the rows, fails with the
 * engine's error (the store then keeps nothing), and cancels the statement when it is destroyed
 * early. `count.rows` grows as pages are encoded.
 */
export function rowStream(cursor: QueryCursor, format: RowFormat, count: RowCount): Readable {
  const names = uniqueColumnNames(cursor.columns).map((c) => c.name);
  async function* encode(): AsyncGenerator<Buffer> {
    let header = format === 'csv';
    for (let page = await cursor.nextPage(); page !== null; page = await cursor.nextPage()) {
      if (page.length === 0 && !header) continue;
      count.rows += page.length;
      yield Buffer.from(encodePage(format, names, page, header));
      header = false;
    }
    if (header) yield Buffer.from(encodePage(format, names, [], true));
  }
  return cancelOnClose(Readable.from(encode(), { objectMode: false }), cursor);
}
