/**
 * The file `platform.publish_data` writes from a script's rows (pure). Columns are every key of
 * the rows in first-seen order; a row without a key has null there. NDJSON keeps values as JSON
 * (lossless: the default). CSV has a header row, a nested value as its JSON text, null as an
 * empty cell, and a text cell that a spreadsheet would run as a formula (starting with =, +, -,
 * @, tab or carriage return) prefixed with ' — as the export tools write CSV.
 */
import { csvCell } from '../../sql/index.js';

export const publishFormats = ['ndjson', 'csv'] as const;
export type PublishFormat = (typeof publishFormats)[number];

export interface PublishedFile {
  columns: string[];
  extension: PublishFormat;
  contentType: string;
  /** The file's text, a line at a time (each ends in \n). */
  lines(): Iterable<string>;
}

export function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** A text cell that a spreadsheet would evaluate, made inert. */
export function inertCell(value: unknown): unknown {
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function publishedFile(rows: readonly Record<string, unknown>[], format: PublishFormat): PublishedFile {
  const columns = columnsOf(rows);
  if (format === 'csv') {
    return {
      columns,
      extension: 'csv',
      contentType: 'text/csv',
      *lines() {
        yield `${columns.map((c) => csvCell(inertCell(c))).join(',')}\n`;
        for (const row of rows) yield `${columns.map((c) => csvCell(inertCell(row[c]))).join(',')}\n`;
      },
    };
  }
  return {
    columns,
    extension: 'ndjson',
    contentType: 'application/x-ndjson',
    *lines() {
      for (const row of rows) yield `${JSON.stringify(Object.fromEntries(columns.map((c) => [c, row[c] ?? null])))}\n`;
    },
  };
}
