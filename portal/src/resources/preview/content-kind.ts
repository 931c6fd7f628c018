/**
 * What the preview pane and the source editor make of a file, from its content type (parameters
 * removed, matched whole or by a `+json` / `+xml` suffix) and, for a generic type, its extension:
 *
 *  - text: shown read-only in the editor and editable in the source editor, within the inline
 *    preview bound the api states (GET /api/v1/portal/settings `inline_preview_bytes`), with the
 *    editor language it is highlighted in;
 *  - picture: a raster image the content route serves inline (docs/resources.md, "Downloads":
 *    PNG, JPEG, GIF, WebP, AVIF, BMP), shown as an <img> of the content;
 *  - other: everything else (SVG included: user markup never runs on the portal's origin, so an
 *    SVG is seen through its thumbnail only), shown as its icon with Download.
 *
 * Pure, and free of CodeMirror: the initial route imports it; the editor modules load on demand.
 */

export type EditorLanguage = 'markdown' | 'json' | 'javascript' | 'jsx' | 'typescript' | 'tsx' | 'python' | 'sql' | 'html' | 'css' | 'yaml' | 'xml' | 'plain';

export type ContentKind = { kind: 'text'; language: EditorLanguage } | { kind: 'picture' } | { kind: 'other' };

/** `Text/Markdown; charset=utf-8` → `text/markdown`. */
export function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

const typeLanguages: Record<string, EditorLanguage> = {
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'application/ld+json': 'json',
  'application/x-ndjson': 'json',
  'application/ndjson': 'json',
  'application/jsonl': 'json',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/x-javascript': 'javascript',
  'application/ecmascript': 'javascript',
  'text/jsx': 'jsx',
  'application/typescript': 'typescript',
  'application/x-typescript': 'typescript',
  'text/typescript': 'typescript',
  'text/x-typescript': 'typescript',
  'text/tsx': 'tsx',
  'text/x-python': 'python',
  'text/x-python-script': 'python',
  'application/x-python-code': 'python',
  'application/x-python': 'python',
  'application/sql': 'sql',
  'text/x-sql': 'sql',
  'text/sql': 'sql',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/css': 'css',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'application/xml': 'xml',
  'text/xml': 'xml',
};

const extensionLanguages: Record<string, EditorLanguage> = {
  md: 'markdown',
  markdown: 'markdown',
  json: 'json',
  ndjson: 'json',
  jsonl: 'json',
  geojson: 'json',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  py: 'python',
  sql: 'sql',
  html: 'html',
  htm: 'html',
  css: 'css',
  yaml: 'yaml',
  yml: 'yaml',
  xml: 'xml',
  xsd: 'xml',
  xsl: 'xml',
};

/** Plain text under a type that does not say so. */
const plainTextExtensions = new Set(['txt', 'text', 'log', 'csv', 'tsv', 'ini', 'cfg', 'conf', 'toml', 'env', 'properties', 'rst', 'tex', 'graphql', 'gql']);

/** Other textual application types (highlighted as plain text). */
const plainTextTypes = new Set(['application/toml', 'application/graphql', 'application/x-sh', 'application/x-tex', 'application/csv']);

/** Raster images the content route answers inline (api/http/user-content.ts): never SVG. */
const pictureTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** Types that say nothing of their own, where the extension decides. */
const genericTypes = new Set(['application/octet-stream', 'text/plain', 'binary/octet-stream', '']);

/** The editor language of a text-family file, or undefined when the file is not text. */
export function textLanguage(contentType: string, fileName: string): EditorLanguage | undefined {
  const type = mediaType(contentType);
  const extension = extensionOf(fileName);
  if (genericTypes.has(type)) {
    const byExtension = extensionLanguages[extension];
    if (byExtension) return byExtension;
    if (type === 'text/plain' || plainTextExtensions.has(extension)) return 'plain';
    return undefined;
  }
  if (type === 'image/svg+xml') return undefined;
  const byType = typeLanguages[type];
  if (byType) return byType;
  if (type.endsWith('+json')) return 'json';
  if (type.endsWith('+xml')) return 'xml';
  if (type.startsWith('text/')) return extensionLanguages[extension] ?? 'plain';
  if (plainTextTypes.has(type)) return 'plain';
  return undefined;
}

export function contentKind(resource: { content_type: string; file_name: string }): ContentKind {
  const language = textLanguage(resource.content_type, resource.file_name);
  if (language) return { kind: 'text', language };
  if (pictureTypes.has(mediaType(resource.content_type))) return { kind: 'picture' };
  return { kind: 'other' };
}

/** A text-family file the inline bound allows to show and edit as text. */
export function isInlineText(resource: { content_type: string; file_name: string; size: number }, inlineBytes: number | undefined): boolean {
  return inlineBytes !== undefined && resource.size <= inlineBytes && contentKind(resource).kind === 'text';
}

/** The icon family of a file (the thumbnail's content-type icon and the pane's "other" files). */
export type IconFamily = 'text' | 'code' | 'image' | 'table' | 'slides' | 'archive' | 'audio' | 'video' | 'pdf' | 'file';

const archiveTypes = /^(application\/(zip|x-zip-compressed|gzip|x-gzip|x-tar|x-7z-compressed|x-rar-compressed|vnd\.rar|x-bzip2|x-xz|zstd))$/;
const tableTypes = /(spreadsheet|excel|ms-excel|text\/csv|tab-separated|opendocument\.spreadsheet|parquet)/;
const slideTypes = /(presentation|powerpoint|opendocument\.presentation)/;

export function iconFamily(resource: { content_type: string; file_name: string }): IconFamily {
  const type = mediaType(resource.content_type);
  const extension = extensionOf(resource.file_name);
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  if (type === 'application/pdf') return 'pdf';
  if (archiveTypes.test(type) || ['zip', 'gz', 'tgz', 'tar', '7z', 'rar', 'bz2', 'xz', 'zst'].includes(extension)) return 'archive';
  if (tableTypes.test(type) || ['csv', 'tsv', 'xlsx', 'xls', 'ods', 'parquet'].includes(extension)) return 'table';
  if (slideTypes.test(type) || ['pptx', 'ppt', 'odp', 'key'].includes(extension)) return 'slides';
  const language = textLanguage(resource.content_type, resource.file_name);
  if (language) return language === 'plain' || language === 'markdown' ? 'text' : 'code';
  if (/(word|opendocument\.text|rtf)/.test(type)) return 'text';
  return 'file';
}
