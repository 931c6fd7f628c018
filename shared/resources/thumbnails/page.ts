/**
 * Documents drawn as a page (pure): the text a tile shows — the first lines of a document, or a
 * CSV/TSV header plus ten records cut at a record boundary (quotes respected) laid out in columns
 * — and the SVG of that page in a light or a dark variant. The SVG is built here from escaped
 * text only: no script, no link, no external reference, nothing of the file's own markup.
 */
import { TABLE_ROWS, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH, type DocumentFamily } from './rules.js';

export type PageVariant = 'light' | 'dark';

const FONT_SIZE = 15;
const LINE_HEIGHT = 20;
const MARGIN = 24;
/** What fits the page: lines and (monospace, ~0.6em per character) columns. */
export const PAGE_LINES = Math.floor((THUMBNAIL_HEIGHT - 2 * MARGIN) / LINE_HEIGHT);
export const PAGE_COLUMNS = Math.floor((THUMBNAIL_WIDTH - 2 * MARGIN) / (FONT_SIZE * 0.6));
/** A CSV cell shown at most this wide. */
const CELL_COLUMNS = 18;

const palettes: Record<PageVariant, { background: string; text: string; header: string; rule: string }> = {
  light: { background: '#ffffff', text: '#1f2328', header: '#0550ae', rule: '#d0d7de' },
  dark: { background: '#0d1117', text: '#e6edf3', header: '#79c0ff', rule: '#30363d' },
};

/** A page of text: its lines, and whether the first is a table header. */
export interface PageText {
  lines: string[];
  header: boolean;
}

/** Tabs as spaces, control characters (and lone surrogates' replacement) dropped, cut to the page width. */
function visibleLine(line: string): string {
  const clean = line.replace(/\t/g, '  ').replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '');
  return clean.length > PAGE_COLUMNS ? `${clean.slice(0, PAGE_COLUMNS - 1)}…` : clean;
}

/**
 * The first `limit` records of delimited text and whether the text held more (cut at a record
 * boundary: a newline inside quotes belongs to its field). RFC 4180 quoting: `""` is a quote.
 */
export function firstRecords(text: string, delimiter: string, limit: number): { records: string[][]; more: boolean } {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = '';
  };
  for (; i < text.length && records.length < limit; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n') endRecord();
    else if (c !== '\r') field += c;
  }
  // A last record without its newline counts only when the text ended (never half a record).
  if (records.length < limit && i >= text.length && (field !== '' || record.length > 0) && !quoted) endRecord();
  return { records, more: text.slice(i).trim() !== '' };
}

function cell(value: string, width: number): string {
  const v = visibleLine(value.replace(/\s+/g, ' '));
  return v.length > width ? `${v.slice(0, width - 1)}…` : v.padEnd(width);
}

/** Records laid out in columns as wide as their widest cell (capped), header first. */
function tableLines(records: string[][]): string[] {
  const widths: number[] = [];
  for (const r of records) r.forEach((v, i) => (widths[i] = Math.min(CELL_COLUMNS, Math.max(widths[i] ?? 1, v.length))));
  return records.map((r) => r.map((v, i) => cell(v, widths[i]!)).join('  ').trimEnd());
}

/** The text of a document's page: CSV/TSV as a table, every other family its first lines. */
export function pageText(family: DocumentFamily, text: string): PageText {
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  if (family === 'csv' || family === 'tsv') {
    const { records } = firstRecords(body, family === 'csv' ? ',' : '\t', TABLE_ROWS + 1);
    return { lines: tableLines(records).slice(0, PAGE_LINES).map(visibleLine), header: records.length > 0 };
  }
  const lines = body.split(/\r?\n/, PAGE_LINES + 1).slice(0, PAGE_LINES);
  return { lines: lines.map(visibleLine), header: false };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The page as SVG: the given lines in a monospace font on the variant's background. */
export function pageSvg(page: PageText, variant: PageVariant): string {
  const p = palettes[variant];
  const rows = page.lines.map((line, i) => {
    const y = MARGIN + FONT_SIZE + i * LINE_HEIGHT;
    const weight = page.header && i === 0 ? ' font-weight="bold"' : '';
    const fill = page.header && i === 0 ? p.header : p.text;
    return `<text x="${MARGIN}" y="${y}" fill="${fill}"${weight} xml:space="preserve">${escapeXml(line)}</text>`;
  });
  const rule = page.header && page.lines.length > 0 ? `<rect x="${MARGIN}" y="${MARGIN + LINE_HEIGHT + 2}" width="${THUMBNAIL_WIDTH - 2 * MARGIN}" height="1" fill="${p.rule}"/>` : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL_WIDTH}" height="${THUMBNAIL_HEIGHT}" viewBox="0 0 ${THUMBNAIL_WIDTH} ${THUMBNAIL_HEIGHT}">`,
    `<rect width="100%" height="100%" fill="${p.background}"/>`,
    rule,
    `<g font-family="DejaVu Sans Mono, monospace" font-size="${FONT_SIZE}">`,
    ...rows,
    '</g></svg>',
  ].join('');
}
