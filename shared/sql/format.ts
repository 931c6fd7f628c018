/**
 * The shape and text of sql_query / sql_execute results (spec toolkits.md 1.2): the structured
 * object `{columns, rows, row_count, stats}` and its rendering as JSON, CSV or Markdown.
 */
import type { TruncatedReason } from './run.js';
import type { ColumnMeta, Row } from './types.js';

export type OutputFormat = 'json' | 'csv' | 'markdown';

export interface QueryOutput {
  [key: string]: unknown;
  columns: ColumnMeta[];
  rows: Array<Record<string, unknown>>;
  row_count: number;
  stats: {
    row_count: number;
    truncated: boolean;
    /** Why, when truncated: the row limit or the byte budget (`max_result_bytes`). */
    truncated_reason?: TruncatedReason;
    limit_applied: number;
    duration_ms: number;
    update_count?: number;
  };
}

/**
 * Row objects keyed by column name. Duplicate names (`SELECT 1 a, 2 a`) would overwrite each other,
 * so later ones get `_2`, `_3`, … — in the column list too, so both stay consistent.
 */
export function uniqueColumnNames(columns: readonly ColumnMeta[]): ColumnMeta[] {
  const seen = new Map<string, number>();
  const taken = new Set(columns.map((c) => c.name));
  return columns.map((c) => {
    const n = (seen.get(c.name) ?? 0) + 1;
    seen.set(c.name, n);
    if (n === 1) return { ...c };
    let name = `${c.name}_${n}`;
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    return { ...c, name };
  });
}

/** What a result's stats say besides its rows. */
export interface OutputFacts {
  truncated: boolean;
  truncatedReason?: TruncatedReason;
  limit: number;
  durationMs: number;
  updateCount?: number;
}

/** A row as an object keyed by the (unique) column names. */
function rowObject(columns: readonly ColumnMeta[], row: Row): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) obj[columns[i]!.name] = row[i] ?? null;
  return obj;
}

function outputOf(columns: ColumnMeta[], rows: Array<Record<string, unknown>>, facts: OutputFacts): QueryOutput {
  return {
    columns,
    rows,
    row_count: rows.length,
    stats: {
      row_count: rows.length,
      truncated: facts.truncated,
      ...(facts.truncated && facts.truncatedReason ? { truncated_reason: facts.truncatedReason } : {}),
      limit_applied: facts.limit,
      duration_ms: facts.durationMs,
      ...(facts.updateCount !== undefined ? { update_count: facts.updateCount } : {}),
    },
  };
}

export function buildOutput(opts: OutputFacts & { columns: readonly ColumnMeta[]; rows: readonly Row[] }): QueryOutput {
  const columns = uniqueColumnNames(opts.columns);
  return outputOf(
    columns,
    opts.rows.map((r) => rowObject(columns, r)),
    opts,
  );
}

/**
 * The `json` answer made page by page while the rest of the result is still being read (the rows'
 * objects and their JSON text), so that little is left to do once the last page is in. `finish`
 * gives what buildOutput gives and its JSON.stringify text, byte for byte.
 */
export class QueryOutputWriter {
  readonly #columns: ColumnMeta[];
  readonly #rows: Array<Record<string, unknown>> = [];
  /** Each page's rows as JSON, without the brackets of their array. */
  readonly #pages: string[] = [];
  /** The same as JSON string contents (escaped as the answer's text block carries them). */
  readonly #quotedPages: string[] = [];

  constructor(columns: readonly ColumnMeta[]) {
    this.#columns = uniqueColumnNames(columns);
  }

  add(rows: readonly Row[]): void {
    if (rows.length === 0) return;
    const objects = rows.map((r) => rowObject(this.#columns, r));
    for (const o of objects) this.#rows.push(o);
    const page = JSON.stringify(objects).slice(1, -1);
    this.#pages.push(page);
    this.#quotedPages.push(JSON.stringify(page).slice(1, -1));
  }

  /**
   * The output, its JSON text, and that text quoted as a JSON string. Escaping works character by
   * character and pages end between rows, so the quoted pages joined are the quoted text.
   */
  finish(facts: OutputFacts): { output: QueryOutput; json: string; quoted: string } {
    const output = outputOf(this.#columns, this.#rows, facts);
    const head = `{"columns":${JSON.stringify(output.columns)},"rows":[`;
    const tail = `],"row_count":${output.row_count},"stats":${JSON.stringify(output.stats)}}`;
    const json = `${head}${this.#pages.join(',')}${tail}`;
    const quoted = `${JSON.stringify(head).slice(0, -1)}${this.#quotedPages.join(',')}${JSON.stringify(tail).slice(1)}`;
    return { output, json, quoted };
  }
}

const jsonTextTypes = /^(varchar|char|json|text|string)(\s*\(\s*\d+\s*\))?$/i;

/**
 * unwrap_json: exactly one column of a text or JSON type and exactly one row holding a string that
 * parses to a JSON object or array → the cell becomes the parsed value and the type `JSON`.
 * Anything else is returned untouched.
 */
export function unwrapJson(output: QueryOutput): QueryOutput {
  if (output.columns.length !== 1 || output.rows.length !== 1) return output;
  const column = output.columns[0]!;
  if (!jsonTextTypes.test(column.type.trim())) return output;
  const cell = output.rows[0]![column.name];
  if (typeof cell !== 'string') return output;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    return output;
  }
  if (parsed === null || typeof parsed !== 'object') return output;
  return { ...output, columns: [{ name: column.name, type: 'JSON' }], rows: [{ [column.name]: parsed }] };
}

function footerFacts(output: QueryOutput): string {
  const s = output.stats;
  const truncated = !s.truncated ? '' : s.truncated_reason === 'byte_budget' ? ' (truncated at the result size budget)' : ` (truncated at limit ${s.limit_applied})`;
  return `${s.row_count} rows returned${truncated}, executed in ${s.duration_ms}ms`;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function csvCell(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(output: QueryOutput): string {
  const lines = [output.columns.map((c) => csvCell(c.name)).join(',')];
  for (const row of output.rows) lines.push(output.columns.map((c) => csvCell(row[c.name])).join(','));
  return `${lines.join('\n')}\n\n# ${footerFacts(output)}`;
}

function mdCell(value: unknown): string {
  return cellText(value).replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
}

export function toMarkdown(output: QueryOutput): string {
  if (output.columns.length === 0) return `No results\n\n_${footerFacts(output)}_`;
  const header = `| ${output.columns.map((c) => mdCell(c.name)).join(' | ')} |`;
  const rule = `| ${output.columns.map(() => '---').join(' | ')} |`;
  const body = output.rows.map((row) => `| ${output.columns.map((c) => mdCell(row[c.name])).join(' | ')} |`);
  return [header, rule, ...body, '', `_${footerFacts(output)}_`].join('\n');
}

export function renderOutput(output: QueryOutput, format: OutputFormat): string {
  if (format === 'csv') return toCsv(output);
  if (format === 'markdown') return toMarkdown(output);
  return JSON.stringify(output);
}
