/**
 * Pure rules of the managed-resources REST surface: library text, the `<library>/<folder>` path
 * form, the status each ResourceError code answers with, and download headers (the protective ones
 * come from api/http/user-content.ts).
 */
import {
  LibraryTextError,
  ResourceError,
  formatLibrary,
  mediaTypeProblem,
  parseLibrary,
  parseLibraryPath,
  type Library,
  type ResourceActor,
  type ResourceErrorCode,
} from '../../shared/resources/index.js';
import type { TableError, TableErrorCode } from '../../shared/tables/index.js';

/** ResourceError code → HTTP status (the binding table of issue 6). */
export const statusByResourceCode: Record<ResourceErrorCode, number> = {
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  invalid: 400,
  too_large: 413,
  unsupported: 415,
  upstream: 502,
};

/**
 * TableError code (shared/tables, manage_table's refusals) → HTTP status: `refused` (the file
 * fails the checks) is 422, the file's own answer; `unavailable` (no scratch catalog, an engine
 * that cannot take it) 503.
 */
export const statusByTableCode: Record<TableErrorCode, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  refused: 422,
  unavailable: 503,
};

/** The REST error body of a TableError, in the same shape as a ResourceError's. */
export function tableErrorBody(err: TableError): { status: number; body: Record<string, unknown> } {
  return { status: statusByTableCode[err.code] ?? 500, body: { ...(err.details ?? {}), error: err.code, message: err.message } };
}

/** The REST error body of a ResourceError: `{error: code, message, ...details}`. */
export function resourceErrorBody(err: ResourceError): { status: number; body: Record<string, unknown> } {
  return {
    status: statusByResourceCode[err.code] ?? 500,
    // details first: they may never overwrite the stable error and message fields.
    body: { ...(err.details ?? {}), error: err.code, message: err.message },
  };
}

function invalidLibrary<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof LibraryTextError) throw new ResourceError('invalid', err.message);
    throw err;
  }
}

/**
 * Library text as routes take it: `personal` (the caller's own), `person:<subject>`,
 * `persona:<name>` or `global`. Whether the caller may use that library is the service's call.
 */
export function parseLibraryText(text: string, actor: Pick<ResourceActor, 'subject'>): Library {
  return invalidLibrary(() => parseLibrary(text, actor.subject));
}

/** The canonical text of a library (never `personal`). */
export const libraryText = formatLibrary;

/**
 * A folder named by the folder routes. With `library` given, `path` is the folder path inside it;
 * without, `path` is the listing form `<library text>/<folder path>` (the library is the first
 * segment, percent-decoded, as facets write it). Leading and trailing slashes are ignored.
 */
export function folderTarget(input: { library?: string | undefined; path: string }, actor: Pick<ResourceActor, 'subject'>): { library: Library; path: string } {
  if (input.library !== undefined && input.library.trim() !== '') {
    return { library: parseLibraryText(input.library, actor), path: input.path.replace(/^\/+|\/+$/g, '') };
  }
  if (input.path.replace(/^\/+/, '') === '') {
    throw new ResourceError('invalid', 'name the folder: give library and path, or path as <library>/<folder path>');
  }
  const { library, folderPath } = invalidLibrary(() => parseLibraryPath(input.path, actor.subject));
  return { library, path: folderPath };
}

/**
 * The Content-Type a download is served with: the recorded type, or `application/octet-stream`
 * for a legacy row whose type is no clean media type (writes refuse those now), so a header is
 * never built from bad text and never claims something a browser would render.
 */
export function servedContentType(recorded: string): string {
  return mediaTypeProblem(recorded) ? 'application/octet-stream' : recorded;
}

/** Why a request's Content-Type header is no media type (see mediaTypeProblem), or undefined. */
export function requestTypeProblem(request: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const header = request.headers['content-type'];
  return typeof header === 'string' ? mediaTypeProblem(header) : undefined;
}

/** A strong ETag from the content hash (none for a legacy resource without a recorded hash). */
export function etagOf(sha256: string | null): string | undefined {
  return sha256 ? `"${sha256}"` : undefined;
}

/** Whether an If-None-Match header matches the ETag (weak comparison, `*` matches anything). */
export function ifNoneMatchHits(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * A declared content type worth passing to the service: `application/octet-stream` (what clients
 * send when they do not know) is left out so the service can tell the type from the name and bytes.
 */
export function declaredType(value: string | undefined): string | undefined {
  const type = value?.trim();
  if (!type) return undefined;
  return type.split(';')[0]!.trim().toLowerCase() === 'application/octet-stream' ? undefined : type;
}

/** What a download answers for a Range header (RFC 9110 §14): the whole file, one range of it, or 416. */
export type RangeAnswer = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * A download's answer to `Range` (and `If-Range`) over a file of `size` bytes whose strong ETag is
 * `etag`: one `bytes=` range (`a-b`, `a-`, or a suffix `-n`) is served as 206; no Range, another
 * unit, several ranges, a malformed header, an empty file, or an `If-Range` other than the
 * current ETag (a date included) answer the whole file (200), as the RFC allows; a range starting
 * past the end is 416. An end past the last byte is cut to it.
 */
export function byteRangeOf(range: string | undefined, ifRange: string | undefined, size: number, etag: string | undefined): RangeAnswer {
  if (range === undefined || size === 0) return { kind: 'full' };
  if (ifRange !== undefined && (etag === undefined || ifRange.trim() !== etag)) return { kind: 'full' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(range);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  if (end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}
