/**
 * The checks before registering and the correction, both streaming over a file's bytes (never
 * held): bytes → text (UTF-8, other bytes read as Windows-1252) → line ends outside quoted cells as
 * `\n` → records (csv-parse; NDJSON through ndjson.ts). `scanTable` counts what the checks refuse
 * (CSV and TSV with csv-scanner.ts alone, which reads them the way csv-parse does, several times faster);
 * `correctedStream` writes the same records back with every record on one line, cells on one line
 * (a line break in a cell becomes a space) and UTF-8 text (csv-stringify; NDJSON one object a line).
 */
import { pipeline, Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { parse, type Options as ParseOptions } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { CsvScanner } from './csv-scanner.js';
import { stringify } from 'csv-stringify';
import { MAX_RECORD_CHARS, NdjsonSplitStream, type NdjsonRecord } from './ndjson.js';
import { delimiterOf, MAX_TABLE_COLUMNS, type ScanReport, type TableFormat } from './rules.js';
import { LineEndStream, TextDecodeStream } from './text.js';

/** NDJSON keys kept as columns: a file with more distinct keys is read with these. */
const MAX_COLUMNS = MAX_TABLE_COLUMNS;
const lineBreak = /\r\n|\r|\n/g;

function csvOptions(format: Exclude<TableFormat, 'ndjson'>): ParseOptions {
  // max_record_size: an unterminated quote is refused, not buffered to the end of the file.
  return { delimiter: delimiterOf(format), record_delimiter: '\n', relax_column_count: true, relax_quotes: true, skip_empty_lines: true, max_record_size: MAX_RECORD_CHARS };
}

/** The text stages of every format: decoded, line ends normalised, records (csv-parse, or ndjson.ts). */
function recordsOf(body: Readable, format: TableFormat): { decode: TextDecodeStream; lines: LineEndStream; records: Readable } {
  const decode = new TextDecodeStream();
  const lines = new LineEndStream(format === 'ndjson' ? undefined : delimiterOf(format));
  const records: Readable = format === 'ndjson' ? new NdjsonSplitStream() : parse(csvOptions(format));
  // pipeline destroys every stage with the first error, so the records stream reports it.
  pipeline(body, decode, lines, records as Transform, () => undefined);
  return { decode, lines, records };
}

export async function scanTable(body: Readable, format: TableFormat): Promise<ScanReport> {
  const report: ScanReport = { format, records: 0, columns: [], brokenRecords: 0, brokenColumns: [], crOnlyLines: 0, invalidUtf8Bytes: 0 };
  if (format === 'ndjson') {
    const { decode, lines, records } = recordsOf(body, format);
    const keys = new Set<string>();
    for await (const record of records as AsyncIterable<NdjsonRecord>) {
      report.records++;
      if (record.spread) report.brokenRecords++;
      for (const key of Object.keys(record.value)) if (keys.size < MAX_COLUMNS) keys.add(key);
    }
    report.columns = [...keys];
    report.crOnlyLines = lines.crOnlyLines;
    report.invalidUtf8Bytes = decode.invalidBytes;
    return report;
  }
  // CSV and TSV: the scanner alone (no record is built); only the header is parsed.
  const decode = new TextDecodeStream();
  const scanner = new CsvScanner(delimiterOf(format));
  await pipelineAsync(
    body,
    decode,
    new Writable({
      objectMode: true,
      write(text: string, _enc, done) {
        try {
          scanner.push(text);
          done();
        } catch (error) {
          done(error as Error);
        }
      },
      final(done) {
        scanner.end();
        done();
      },
    }),
  );
  const header = scanner.header === undefined ? [] : ((parseSync(scanner.header, csvOptions(format)) as string[][])[0] ?? []);
  report.records = scanner.records;
  report.columns = header;
  report.brokenRecords = scanner.brokenRecords;
  report.brokenColumns = [...scanner.brokenColumns].sort((a, b) => a - b).map((i) => header[i] || `column ${i + 1}`);
  report.crOnlyLines = scanner.crOnlyLines;
  report.invalidUtf8Bytes = decode.invalidBytes;
  return report;
}

/** Each record on one line, cells on one line. */
class OneLineRecords extends Transform {
  constructor(private readonly format: TableFormat) {
    // NDJSON leaves as text; CSV and TSV records go on to csv-stringify.
    super({ writableObjectMode: true, readableObjectMode: format !== 'ndjson' });
  }

  override _transform(record: string[] | NdjsonRecord, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.format === 'ndjson') return done(null, `${JSON.stringify((record as NdjsonRecord).value)}\n`);
    done(
      null,
      (record as string[]).map((cell) => cell.replace(lineBreak, ' ')),
    );
  }
}

/** The corrected file's bytes (UTF-8); errors of any stage end it with that error. */
export function correctedStream(body: Readable, format: TableFormat): Readable {
  const { records } = recordsOf(body, format);
  const oneLine = new OneLineRecords(format);
  if (format === 'ndjson') return pipeline(records, oneLine, () => undefined);
  return pipeline(records, oneLine, stringify({ delimiter: delimiterOf(format), record_delimiter: '\n' }), () => undefined);
}
