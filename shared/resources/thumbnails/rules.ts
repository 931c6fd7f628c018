/**
 * Thumbnail drawing rules (spec document 2, "Thumbnail drawing rules"), pure: which family a file
 * falls in from its content type and name, the family's size bound, and the variants it is drawn
 * in. Media types are matched whole with parameters removed, or by their `+json` / `+xml` suffix;
 * a generic type (octet-stream) falls back to the file name's extension.
 */
import { contentTypeFromName, FALLBACK_CONTENT_TYPE } from '../content-type.js';

/** Drawn as a page of text: light and dark. */
export type DocumentFamily = 'markdown' | 'csv' | 'tsv' | 'json' | 'ndjson' | 'text' | 'html' | 'jsx' | 'yaml' | 'xml' | 'sql' | 'python' | 'javascript' | 'css';
/** Drawn as one image. */
export type ImageFamily = 'svg' | 'raster' | 'pdf';
export type DrawableFamily = DocumentFamily | ImageFamily;
export type ThumbnailVariant = 'light' | 'dark' | 'image';

/** A file's thumbnail plan: drawn (family, variants) or an icon (why). */
export type ThumbnailPlan =
  | { drawn: true; family: DrawableFamily; variants: readonly ThumbnailVariant[]; boundBytes: number }
  | { drawn: false; reason: 'family' | 'too_large'; boundBytes?: number };

export const THUMBNAIL_WIDTH = 800;
export const THUMBNAIL_HEIGHT = 600;
const MB = 1024 * 1024;
/** Spec: 32 MB for PDF, CSV and TSV; 1 MB for the other families. */
export const LARGE_BOUND_BYTES = 32 * MB;
export const SMALL_BOUND_BYTES = 1 * MB;
/** CSV and TSV: the header row plus this many records. */
export const TABLE_ROWS = 10;

const documentTypes: Record<string, DocumentFamily> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/jsx': 'jsx',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/sql': 'sql',
  'text/x-sql': 'sql',
  'text/x-python': 'python',
  'application/x-python-code': 'python',
  'text/x-python-script': 'python',
  'application/javascript': 'javascript',
  'text/javascript': 'javascript',
  'application/x-javascript': 'javascript',
  'text/css': 'css',
};

/** Raster images scaled to cover; TIFF, HEIC and PSD are deliberately absent (never drawn). */
const rasterTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-ms-bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);

/** Extensions the mime table does not know (or maps elsewhere) that name a document family. */
const documentExtensions: Record<string, DocumentFamily> = {
  md: 'markdown',
  markdown: 'markdown',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  jsx: 'jsx',
  tsx: 'jsx',
  yml: 'yaml',
  yaml: 'yaml',
  sql: 'sql',
  py: 'python',
  mjs: 'javascript',
  cjs: 'javascript',
};

/** `Text/CSV; charset=utf-8` → `text/csv`. */
export function essence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

function familyOfType(type: string): DrawableFamily | undefined {
  if (type === 'image/svg+xml') return 'svg';
  if (type === 'application/pdf') return 'pdf';
  if (rasterTypes.has(type)) return 'raster';
  const known = documentTypes[type];
  if (known) return known;
  if (type.endsWith('+json')) return 'json';
  if (type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return 'text';
  return undefined;
}

/** The drawable family of a file, or undefined for the icon families. */
export function thumbnailFamily(contentType: string, fileName: string): DrawableFamily | undefined {
  const type = essence(contentType);
  const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  const byExtension = documentExtensions[extension];
  // A generic or extension-derived text type says less than a known extension (.py is text/x-python, .md text/markdown).
  if (byExtension && (type === FALLBACK_CONTENT_TYPE || type === 'text/plain')) return byExtension;
  const family = familyOfType(type);
  if (family) return family;
  if (type !== FALLBACK_CONTENT_TYPE) return undefined;
  const named = contentTypeFromName(fileName);
  return named ? familyOfType(essence(named)) : undefined;
}

export function boundBytes(family: DrawableFamily): number {
  return family === 'pdf' || family === 'csv' || family === 'tsv' ? LARGE_BOUND_BYTES : SMALL_BOUND_BYTES;
}

export function isDocumentFamily(family: DrawableFamily): family is DocumentFamily {
  return family !== 'svg' && family !== 'raster' && family !== 'pdf';
}

export function variantsOf(family: DrawableFamily): readonly ThumbnailVariant[] {
  return isDocumentFamily(family) ? ['light', 'dark'] : ['image'];
}

/** Whether (and how) a file is drawn: its family, then its bound. */
export function thumbnailPlan(file: { contentType: string; fileName: string; size: number }): ThumbnailPlan {
  const family = thumbnailFamily(file.contentType, file.fileName);
  if (!family) return { drawn: false, reason: 'family' };
  const bound = boundBytes(family);
  if (file.size > bound) return { drawn: false, reason: 'too_large', boundBytes: bound };
  return { drawn: true, family, variants: variantsOf(family), boundBytes: bound };
}
