/**
 * Addresses of a resource. The reference `mcp:resource:<id>` never changes; the canonical URI
 * follows the library and folder:
 *   person   mcp://user/<subject>/<folder path>/<file name>
 *   persona  mcp://persona/<name>/<folder path>/<file name>
 *   global   mcp://global/<folder path>/<file name>
 * with no folder segment at the library root, every segment percent-encoded (encodeURIComponent).
 */
import type { Library } from './types.js';

export const REFERENCE_PREFIX = 'mcp:resource:';
const URI_SCHEME = 'mcp://';

export function referenceOf(id: string): string {
  return `${REFERENCE_PREFIX}${id}`;
}

/** The id of an `mcp:resource:<id>` reference, or undefined for anything else. */
export function parseReference(text: string): string | undefined {
  if (!text.startsWith(REFERENCE_PREFIX)) return undefined;
  const id = text.slice(REFERENCE_PREFIX.length);
  return id === '' || id.includes('/') ? undefined : id;
}

export function canonicalUri(library: Library, folderPath: string, fileName: string): string {
  const head =
    library.kind === 'person'
      ? `user/${encodeURIComponent(library.subject)}`
      : library.kind === 'persona'
        ? `persona/${encodeURIComponent(library.name)}`
        : 'global';
  const folders = folderPath === '' ? [] : folderPath.split('/').map(encodeURIComponent);
  return `${URI_SCHEME}${[head, ...folders, encodeURIComponent(fileName)].join('/')}`;
}

export interface ParsedUri {
  library: Library;
  folderPath: string;
  fileName: string;
}

/** Parses a canonical URI back into its address; undefined when it is not one. */
export function parseCanonicalUri(uri: string): ParsedUri | undefined {
  if (!uri.startsWith(URI_SCHEME)) return undefined;
  let segments: string[];
  try {
    segments = uri.slice(URI_SCHEME.length).split('/').map(decodeURIComponent);
  } catch {
    return undefined;
  }
  const kind = segments.shift();
  let library: Library;
  if (kind === 'user' || kind === 'persona') {
    const key = segments.shift();
    if (!key) return undefined;
    library = kind === 'user' ? { kind: 'person', subject: key } : { kind: 'persona', name: key };
  } else if (kind === 'global') {
    library = { kind: 'global' };
  } else {
    return undefined;
  }
  const fileName = segments.pop();
  if (!fileName || segments.some((s) => s === '')) return undefined;
  return { library, folderPath: segments.join('/'), fileName };
}
