/** Pure rules of the object-storage layer: names, keys, limits, content detection, formats. */
import { ObjstoreError } from './errors.js';

/**
 * S3 bucket naming rules (general purpose buckets): 3-63 characters; lowercase letters, digits,
 * dots and hyphens; starts and ends with a letter or digit; no `..`; not an IPv4 address; none
 * of the reserved prefixes/suffixes. Both drivers apply it, so a name good on one is good on both.
 */
export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return 'must be 3 to 63 characters long';
  if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(name)) {
    return 'may hold only lowercase letters, digits, dots and hyphens, and must start and end with a letter or digit';
  }
  if (name.includes('..')) return 'must not contain two adjacent dots';
  if (name.includes('.-') || name.includes('-.')) return 'must not have a dot next to a hyphen';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'must not be formatted as an IP address';
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(name)) return 'must not start with a reserved prefix';
  if (/(-s3alias|--ol-s3|--x-s3|--table-s3)$/.test(name)) return 'must not end with a reserved suffix';
  return undefined;
}

export function assertBucketName(name: string): void {
  const problem = bucketNameProblem(name);
  if (problem) throw new ObjstoreError('InvalidBucketName', `invalid bucket name "${name}": ${problem}`);
}

/** S3 keys are 1..1024 bytes of UTF-8. */
export const maxKeyBytes = 1024;

export function assertKey(key: string): void {
  if (key.length === 0) throw new ObjstoreError('InvalidArgument', 'the object key must not be empty', { hint: 'Give the full key, e.g. "folder/file.csv".' });
  if (Buffer.byteLength(key, 'utf8') > maxKeyBytes) {
    throw new ObjstoreError('KeyTooLong', `the object key is longer than ${maxKeyBytes} bytes`);
  }
  // A lone surrogate cannot be written as UTF-8 (it would silently become U+FFFD).
  if (Buffer.from(key, 'utf8').toString('utf8') !== key) {
    throw new ObjstoreError('InvalidArgument', 'the object key is not valid Unicode');
  }
}

// ---------------------------------------------------------------------------
// What a write may store as a content type and user metadata. Both come back as HTTP header
// values (on S3, and on the filesystem driver's presigned GETs), so both drivers refuse what a
// header must not carry at write time, before a byte is stored.

/** C0 controls (NUL, TAB, CR and LF included), DEL, and the C1 controls U+0080-U+009F. */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** A content type is sent verbatim as a header: printable ASCII only. */
export function isPrintableAscii(value: string): boolean {
  return /^[\x20-\x7e]*$/.test(value);
}

/** InvalidArgument for a content type with a control character (or anything but printable ASCII). */
export function assertContentType(contentType: string | undefined): void {
  if (contentType === undefined || isPrintableAscii(contentType)) return;
  throw new ObjstoreError('InvalidArgument', 'content_type must be printable ASCII: control characters and other bytes are refused', {
    hint: 'Give a plain MIME type such as "text/csv" or "application/json; charset=utf-8".',
  });
}

/**
 * User-metadata keys travel as HTTP header names (`x-amz-meta-<key>`), so S3 lower-cases them;
 * values may be any text without control characters (non-ASCII is sent RFC 2047-encoded).
 */
export function normalizeMetadata(metadata: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) {
    const key = k.trim().toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
      throw new ObjstoreError('InvalidArgument', `metadata key "${k}" is not a valid HTTP header token`, {
        hint: 'Use letters, digits, "-" and "_" in metadata keys.',
      });
    }
    if (hasControlCharacter(v)) {
      throw new ObjstoreError('InvalidArgument', `metadata value of "${key}" must not contain control characters`, {
        hint: 'Remove line breaks, tabs, NUL and other control characters from metadata values.',
      });
    }
    out[key] = v;
  }
  return out;
}

/**
 * Metadata values travel as HTTP header values, which must be printable ASCII; others are sent
 * RFC 2047-encoded (`=?UTF-8?B?…?=`, what S3 itself does) and decoded on the way back.
 */
export function encodeMetadataValue(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

export function decodeMetadataValue(value: string): string {
  const m = /^=\?UTF-8\?B\?([A-Za-z0-9+/]*={0,2})\?=$/i.exec(value);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : value;
}

export function mapMetadataValues(metadata: Record<string, string> | undefined, fn: (v: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) out[k] = fn(v);
  return out;
}

/** S3 limits user metadata to 2 KB (keys plus values). */
export function assertMetadataSize(metadata: Record<string, string>): void {
  let bytes = 0;
  for (const [k, v] of Object.entries(metadata)) bytes += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (bytes > 2048) throw new ObjstoreError('InvalidArgument', `user metadata is ${bytes} bytes; at most 2048 are allowed`);
}

/** `"abc"` for `abc` or `"abc"`; weak tags kept as they are. */
export function quoteEtag(etag: string): string {
  if (etag.startsWith('"') || etag.startsWith('W/')) return etag;
  return `"${etag}"`;
}

export function etagMatches(condition: string, etag: string): boolean {
  if (condition.trim() === '*') return true;
  const want = condition.split(',').map((t) => quoteEtag(t.trim()));
  return want.includes(quoteEtag(etag));
}

/** `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds): the tools' timestamp format. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---------------------------------------------------------------------------
// Tool argument rules

export const defaultMaxKeys = 1000;
export const defaultPresignSeconds = 3600;
export const maxPresignSeconds = 604_800;

/** max_keys ≤ 0 or above 1000 becomes 1000 (S3's own page cap). */
export function clampMaxKeys(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0 || value > defaultMaxKeys) return defaultMaxKeys;
  return Math.floor(value);
}

/** expires_in below 1 becomes 3600; above seven days becomes seven days (S3 SigV4's maximum). */
export function clampExpiresIn(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value) || value < 1) return defaultPresignSeconds;
  return Math.min(Math.floor(value), maxPresignSeconds);
}

// ---------------------------------------------------------------------------
// Content detection (text returned as-is, binary as base64)

const textualTypes = [
  'text/',
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/x-csh',
  '+json',
  '+xml',
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Length of `bytes` without a trailing incomplete UTF-8 sequence: a read cut at a byte limit may
 * stop inside a character, which must not turn a text object into "binary".
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

/**
 * Text when the content type is textual, the body is empty, or it has no NUL byte and is valid
 * UTF-8; otherwise binary. A textual content type whose bytes are not UTF-8 is still sent as
 * base64, so the agent never receives mangled replacement characters.
 */
export function isTextContent(contentType: string | undefined, bytes: Uint8Array, cut = false): boolean {
  if (bytes.length === 0) return true;
  const usable = cut ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
  const type = (contentType ?? '').toLowerCase();
  if (textualTypes.some((t) => type.includes(t))) return isValidUtf8(usable);
  return !usable.includes(0) && isValidUtf8(usable);
}

/** The tool's `content` field: text as-is (a cut read ends at a whole character), else base64. */
export function encodeContent(contentType: string | undefined, bytes: Buffer, cut = false): { content: string; isBase64: boolean } {
  if (isTextContent(contentType, bytes, cut)) {
    const usable = cut ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes;
    return { content: usable.toString('utf8'), isBase64: false };
  }
  return { content: bytes.toString('base64'), isBase64: true };
}

// ---------------------------------------------------------------------------
// Content type of a put when the caller gives none

const typesByExtension: Record<string, string> = {
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'application/javascript',
  mjs: 'application/javascript',
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  ndjson: 'application/x-ndjson',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  sh: 'application/x-sh',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  parquet: 'application/vnd.apache.parquet',
};

/**
 * Content type for a put without one: from the key's extension, else text/plain for a text body
 * and application/octet-stream for a base64 one.
 */
export function guessContentType(key: string, isBase64: boolean): string {
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase();
  const byExt = ext ? typesByExtension[ext] : undefined;
  if (byExt) return byExt;
  return isBase64 ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

// ---------------------------------------------------------------------------
// Environment overrides (spec document 3, "Content rules"). Read here and nowhere else, once, when
// the connections are built; a value this does not accept stops the platform naming the variable.

export interface ObjstoreEnvOverrides {
  /** MCP_OBJSTORE_EXT_READONLY: every connection read-only. */
  readOnly: boolean;
  /** MCP_OBJSTORE_MAX_GET_SIZE: reads of larger objects are refused. */
  maxGetSize?: number;
  /** MCP_OBJSTORE_MAX_PUT_SIZE: larger writes are refused. */
  maxPutSize?: number;
}

const switchWords: Record<string, boolean> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };

/** How a refused value is quoted in the startup error: short, one line. */
function quoted(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/** true, 1, yes, on / false, 0, no, off (any case); unset or empty is off; anything else is refused. */
function parseSwitch(name: string, raw: string | undefined): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return false;
  const on = switchWords[value];
  if (on === undefined) throw new Error(`${name} must be true, 1, yes or on (or false, 0, no, off), got ${quoted(raw!)}`);
  return on;
}

/**
 * A byte limit: unset or empty is none; otherwise a whole number of bytes above zero. Zero,
 * negative or unparsable values are refused: a variable that can only tighten a limit must never
 * be read as "no limit".
 */
function parseByteLimit(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  const bytes = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new Error(`${name} must be a whole number of bytes above 0, got ${quoted(raw)} (it can only lower the configured limits)`);
  }
  return bytes;
}

/** Reads the three variables; throws naming the variable for a value it does not accept (fail closed). */
export function readObjstoreEnv(env: Record<string, string | undefined>): ObjstoreEnvOverrides {
  const readOnly = parseSwitch('MCP_OBJSTORE_EXT_READONLY', env.MCP_OBJSTORE_EXT_READONLY);
  const maxGetSize = parseByteLimit('MCP_OBJSTORE_MAX_GET_SIZE', env.MCP_OBJSTORE_MAX_GET_SIZE);
  const maxPutSize = parseByteLimit('MCP_OBJSTORE_MAX_PUT_SIZE', env.MCP_OBJSTORE_MAX_PUT_SIZE);
  return {
    readOnly,
    ...(maxGetSize !== undefined ? { maxGetSize } : {}),
    ...(maxPutSize !== undefined ? { maxPutSize } : {}),
  };
}

/** The smaller of two limits where 0 or undefined means "no limit". */
export function tighterLimit(a: number | undefined, b: number | undefined): number | undefined {
  const as = a && a > 0 ? a : undefined;
  const bs = b && b > 0 ? b : undefined;
  if (as === undefined) return bs;
  if (bs === undefined) return as;
  return Math.min(as, bs);
}
