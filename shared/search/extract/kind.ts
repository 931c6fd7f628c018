/**
 * Which reader turns a file's bytes into text, from its content type and, when the type is the
 * generic octet-stream or missing, its file name. Pure.
 */
import { chooseContentType } from '../../resources/index.js';

/** The office formats read from the XML parts of their zip (OOXML and OpenDocument). */
export type OfficeFormat = 'docx' | 'xlsx' | 'pptx' | 'odt' | 'ods' | 'odp';
export type ExtractKind = 'text' | 'pdf' | OfficeFormat | 'other';

const officeTypes: Record<string, OfficeFormat> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};

/** Textual media types beyond text/*: the ones the objstore tools also answer as text, plus NDJSON and SQL. */
const textualTypes = ['application/json', 'application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml', 'application/toml', 'application/x-sh', 'application/x-ndjson', 'application/sql'];

/** `Text/CSV; charset=utf-8` → `text/csv`. */
export function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

export function extractKind(contentType: string, filename: string): ExtractKind {
  const type = mediaType(chooseContentType(filename, contentType));
  const office = officeTypes[type];
  if (office) return office;
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || type.endsWith('+json') || type.endsWith('+xml') || textualTypes.includes(type)) return 'text';
  return 'other';
}

export function isOfficeFormat(kind: ExtractKind): kind is OfficeFormat {
  return kind !== 'text' && kind !== 'pdf' && kind !== 'other';
}
