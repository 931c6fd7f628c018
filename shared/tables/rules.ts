/**
 * The pure rules of table registration (docs/resources.md, "Table registration"): which files can
 * be tables, the table's name (a slug of the file name or the caller's name, with the persona as a
 * prefix), the refusal message of the checks, and when a correction runs inline.
 */

export type TableFormat = 'csv' | 'tsv' | 'ndjson';

/** Above this many bytes a correction runs in the registerTable workflow, not in the caller's request. */
export const INLINE_CORRECTION_BYTES = 8 * 1024 * 1024;

/** Most columns a Trino table over a file declares (a header wider than this is refused there). */
export const MAX_TABLE_COLUMNS = 1000;

/** Longest table name a caller queries; the engine object may add `__v<version>` (Trino). */
export const MAX_TABLE_NAME_CHARS = 100;

const byExtension: Record<string, TableFormat> = { csv: 'csv', tsv: 'tsv', tab: 'tsv', ndjson: 'ndjson', jsonl: 'ndjson' };
const byMediaType: Record<string, TableFormat> = {
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
};

/** The format a file is read in, by its extension, else its media type; undefined: not a table. */
export function tableFormat(fileName: string, contentType: string): TableFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  return byExtension[ext] ?? byMediaType[contentType.split(';')[0]!.trim().toLowerCase()];
}

/** The delimiter of a delimited format. */
export function delimiterOf(format: Exclude<TableFormat, 'ndjson'>): string {
  return format === 'tsv' ? '\t' : ',';
}

/**
 * A slug SQL accepts unquoted on both engines: lower-case ASCII letters, digits and `_`, starting
 * with a letter. Accents are dropped to their letter (é → e); anything else becomes `_`.
 */
export function slug(text: string): string {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(plain) ? plain : `t_${plain}`.replace(/_+$/, '');
}

/** The file name without its (table) extension, slugged: `Q3 Orders.csv` → `q3_orders`. */
export function defaultTableName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return slug(dot > 0 ? fileName.slice(0, dot) : fileName);
}

/** Where the file lives, for the prefix rule. */
export type TableLibrary = { kind: 'persona'; name: string } | { kind: 'global' } | { kind: 'person' };

/**
 * The persona prefix: a persona library's file takes its persona (`sales_`); a global file takes
 * `global_`; a personal file takes the registering caller's active persona, or `personal_` when the
 * caller has none. A caller's name that already starts with the prefix keeps it once.
 */
export function tablePrefix(library: TableLibrary, activePersona: string | undefined): string {
  if (library.kind === 'persona') return `${slug(library.name)}_`;
  if (library.kind === 'global') return 'global_';
  return activePersona ? `${slug(activePersona)}_` : 'personal_';
}

export function prefixedTableName(prefix: string, requested: string): string {
  const base = slug(requested);
  const name = base.startsWith(prefix) ? base : `${prefix}${base}`;
  if (name.length > MAX_TABLE_NAME_CHARS) {
    throw new TableError('invalid', `table name ${name} is longer than ${MAX_TABLE_NAME_CHARS} characters: give a shorter table_name`);
  }
  return name;
}

/** The engine object of a Trino registration at `version`: one external table per version, behind the view callers query. */
export function versionRelation(table: string, version: number): string {
  return `${table}__v${version}`;
}

/** What the checks found in a file (scan.ts). */
export interface ScanReport {
  format: TableFormat;
  /** Data records (a header is not one). */
  records: number;
  /** Column names (CSV, TSV: the header; NDJSON: keys in first-seen order). */
  columns: string[];
  /** Records holding a line break inside a cell (CSV, TSV) or spread over several lines (NDJSON). */
  brokenRecords: number;
  /** The columns whose cells hold line breaks (CSV, TSV). */
  brokenColumns: string[];
  /** Lines that end in a carriage return only. */
  crOnlyLines: number;
  /** Bytes that are not valid UTF-8 (read as Windows-1252). */
  invalidUtf8Bytes: number;
}

export function passesChecks(report: ScanReport): boolean {
  return report.brokenRecords === 0 && report.crOnlyLines === 0 && report.invalidUtf8Bytes === 0;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the checks found, in words: the refusal names how many rows and which columns. */
export function problemsOf(report: ScanReport): string[] {
  const problems: string[] = [];
  if (report.brokenRecords > 0) {
    problems.push(
      report.format === 'ndjson'
        ? `${plural(report.brokenRecords, 'record is', 'records are')} spread over several lines`
        : `${plural(report.brokenRecords, 'row has', 'rows have')} a line break inside a cell (${report.brokenColumns.length === 1 ? 'column' : 'columns'} ${report.brokenColumns.join(', ')})`,
    );
  }
  if (report.crOnlyLines > 0) problems.push(`${plural(report.crOnlyLines, 'line ends', 'lines end')} in a carriage return only`);
  if (report.invalidUtf8Bytes > 0) problems.push(`${plural(report.invalidUtf8Bytes, 'byte is', 'bytes are')} not UTF-8 (read as Windows-1252)`);
  return problems;
}

export function refusalMessage(fileName: string, version: number, report: ScanReport): string {
  return (
    `"${fileName}" (version ${version}) cannot be registered as a table: ${problemsOf(report).join('; ')}. ` +
    'Register with correct: true to save a corrected copy (every record on one line, cells on one line, UTF-8) as a new version and register that.'
  );
}

/** The change summary of a corrected version. */
export function correctionSummary(version: number, report: ScanReport): string {
  return `table-registration correction of version ${version}: ${problemsOf(report).join('; ')}; rewritten with every record on one line, cells on one line, UTF-8`;
}

/**
 * Column names an engine that maps columns by name can use (Trino over CSV and NDJSON): slugs,
 * made unique with `_2`, `_3`…; an empty header becomes `column_<n>`.
 */
export function columnNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name, i) => {
    const base = (name.trim() === '' ? `column_${i + 1}` : slug(name)).slice(0, 100);
    let candidate = base;
    for (let n = 2; seen.has(candidate); n++) candidate = `${base}_${n}`;
    seen.add(candidate);
    return candidate;
  });
}

/** Where a list page ends: the last registration's connection and table name (records.ts orders by them). */
export interface ListPosition {
  connection: string;
  table: string;
}

export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify(['tables', position.connection, position.table]), 'utf8').toString('base64url');
}

/** A cursor is client input that reaches a query: one this module did not issue is refused. */
export function decodeListCursor(cursor: string): ListPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3 && parsed[0] === 'tables') {
      const [, connection, table] = parsed as unknown[];
      if (typeof connection === 'string' && typeof table === 'string' && connection.length <= 200 && table.length <= MAX_TABLE_NAME_CHARS) return { connection, table };
    }
  } catch {
    // Not base64url JSON: refused below.
  }
  throw new TableError('invalid', 'cursor is not one a manage_table list answered');
}

export type TableErrorCode = 'invalid' | 'forbidden' | 'conflict' | 'not_found' | 'refused' | 'unavailable';

/**
 * Whether `error` is the file's own answer (it cannot be a table as it is): reading it again gives
 * the same one, so it is reported rather than retried. Anything else (a connection gone, a version
 * moved, an engine down) may pass.
 */
export function isFileRefusal(error: unknown): error is TableError {
  return error instanceof TableError && (error.code === 'invalid' || error.code === 'refused');
}

/** A refusal of manage_table, with its stable code. */
export class TableError extends Error {
  override readonly name = 'TableError';
  constructor(
    readonly code: TableErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}
