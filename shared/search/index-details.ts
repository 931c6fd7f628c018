/**
 * The details of a table of values that search indexes beside its metadata ("Details only"): its
 * column names, from the CSV/TSV header line or the keys of the first NDJSON record. Pure.
 */
import { bareMediaType, extensionOf } from '../resources/index.js';

/** Bytes read for the header: a header longer than this is cut (columns from the part read). */
export const TABLE_HEADER_BYTES = 64 * 1024;

const maxColumns = 500;

export function tableColumns(bytes: Uint8Array, contentType: string, fileName: string): string[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.trim() === '') return [];
  const type = bareMediaType(contentType);
  const ext = extensionOf(fileName);
  if (type.includes('json') || ext === 'ndjson' || ext === 'jsonl') return jsonKeys(firstLine);
  const tab = type === 'text/tab-separated-values' || ext === 'tsv';
  return firstLine
    .split(tab ? '\t' : ',')
    .map((c) => c.trim().replace(/^"(.*)"$/, '$1').trim())
    .filter((c) => c !== '')
    .slice(0, maxColumns);
}

function jsonKeys(line: string): string[] {
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value).slice(0, maxColumns) : [];
  } catch {
    // A first record cut by the byte bound, or not JSON: no columns to offer.
    return [];
  }
}
