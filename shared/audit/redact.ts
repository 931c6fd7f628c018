/**
 * What an audit row may keep of a tool call's arguments: secrets replaced, content reduced to its
 * size and hash, huge strings cut, and everything made storable in a Postgres jsonb column. Pure
 * functions, no I/O.
 */
import { createHash } from 'node:crypto';
import { redactUrlSecrets } from '../logging/index.js';

export const REDACTED = '[redacted]';
/** Strings longer than this (in UTF-16 code units) are cut: a big SQL text or base64 body must not bloat the table. */
export const MAX_STRING_CHARS = 4096;
/** Arrays keep at most this many items (plus a marker saying how many were left out). */
export const MAX_ARRAY_ITEMS = 1000;
/** Deeper nesting is replaced by a marker; also bounds the work on hostile input. */
export const MAX_DEPTH = 32;

/** Words that make a key secret wherever they appear in it (`db_password`, `authToken`, `Set-Cookie`). */
const secretWords = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'apikey',
  'authorization',
  'bearer',
  'credential',
  'credentials',
  'cookie',
  'cookies',
  'accesskey',
  'secretkey',
  'privatekey',
  'clientsecret',
  'sessiontoken',
]);

/**
 * Two adjacent words that together name a secret (`api_key`, `accessKey`, `private-key`). A bare
 * `key` is not secret: objstore tools call an object's path its `key`, and sort/partition keys are data.
 */
const secretPairs = new Set(['apikey', 'accesskey', 'secretkey', 'privatekey', 'signingkey', 'encryptionkey', 'masterkey', 'sessiontoken', 'clientsecret']);

/** `secretAccessKey` → [secret, access, key]; `X-API-Key` → [x, api, key]; `APIKey` → [api, key]. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** Keys decided lately: audited parameters repeat the same few keys on every call. Bounded, oldest out; long keys are not kept. */
const decidedKeys = new Map<string, boolean>();
const decidedKeysMax = 4096;
const decidedKeyChars = 128;

/**
 * Whether values under this key are secret. Matching is on whole words so that `max_tokens` or
 * `tokenizer` stay readable while `token`, `auth_token` and `session_token` are hidden.
 */
export function isSecretKey(key: string): boolean {
  let secret = decidedKeys.get(key);
  if (secret !== undefined) return secret;
  secret = false;
  const words = keyWords(key);
  for (let i = 0; i < words.length && !secret; i++) secret = secretWords.has(words[i]!) || (i > 0 && secretPairs.has(words[i - 1]! + words[i]!));
  if (key.length > decidedKeyChars) return secret;
  if (decidedKeys.size >= decidedKeysMax) decidedKeys.delete(decidedKeys.keys().next().value!);
  decidedKeys.set(key, secret);
  return secret;
}

// Postgres rejects NUL in text and jsonb; unpaired surrogates make invalid jsonb escapes.
const nul = /\u0000/g;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const nulOrSurrogate = /[\u0000\uD800-\uDFFF]/;

/** Makes a string storable: no NUL, no unpaired surrogate halves. */
export function storableString(s: string): string {
  if (!nulOrSurrogate.test(s)) return s;
  return s.replace(nul, '\uFFFD').replace(loneSurrogate, '\uFFFD');
}

/** Cuts `s` to `max` characters with a marker saying how much was dropped; never splits a surrogate pair. */
export function truncateString(s: string, max = MAX_STRING_CHARS): string {
  if (s.length <= max) return s;
  let end = max;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…[truncated ${s.length - end} chars]`;
}

function cleanString(s: string): string {
  return truncateString(storableString(redactUrlSecrets(s)));
}

/** What an audit row keeps of a content argument: its size in bytes and SHA-256 (hex), never the bytes. */
export interface ContentDigest {
  size: number;
  sha256: string;
}

/**
 * The digest of a content argument as the caller sent it: a string's UTF-8 bytes (base64 text
 * stays base64: the hash is of what was sent), raw bytes as they are, anything else as its JSON.
 */
export function contentDigest(value: unknown): ContentDigest {
  const hash = createHash('sha256');
  let size: number;
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    hash.update(bytes);
    size = bytes.byteLength;
  } else {
    let text: string;
    try {
      text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    } catch {
      text = String(value); // circular or bigint: cannot come over JSON-RPC, but never throw here
    }
    hash.update(text, 'utf8');
    size = Buffer.byteLength(text, 'utf8');
  }
  return { size, sha256: hash.digest('hex') };
}

/** `parameters` with its top-level content arguments replaced by their digests. */
function digestContent(parameters: unknown, contentArguments: readonly string[]): unknown {
  if (contentArguments.length === 0 || parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) return parameters;
  const out: Record<string, unknown> = { ...(parameters as Record<string, unknown>) };
  for (const name of contentArguments) {
    if (Object.hasOwn(out, name) && out[name] !== undefined) out[name] = contentDigest(out[name]);
  }
  return out;
}

function walk(value: unknown, depth: number, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
      return cleanString(value);
    case 'number':
      // JSON has no NaN/Infinity; keep what the caller sent rather than silently turning it into null.
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (ancestors.has(obj)) return '[circular]';
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  if (ArrayBuffer.isView(obj)) return `[${obj.byteLength} bytes]`;
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      const out = obj.slice(0, MAX_ARRAY_ITEMS).map((item) => walk(item, depth + 1, ancestors) ?? null);
      if (obj.length > MAX_ARRAY_ITEMS) out.push(`…[${obj.length - MAX_ARRAY_ITEMS} more items]`);
      return out;
    }
    if (obj instanceof Set) return walk([...obj], depth, ancestors);
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return walk(toJSON.call(obj), depth + 1, ancestors);
    const entries: [string, unknown][] = obj instanceof Map ? [...obj.entries()].map(([k, v]) => [String(k), v]) : Object.entries(obj);
    const out: Record<string, unknown> = {};
    for (const [key, v] of entries) {
      const cleanKey = truncateString(storableString(key), 256);
      if (isSecretKey(key)) {
        out[cleanKey] = REDACTED;
        continue;
      }
      const cleaned = walk(v, depth + 1, ancestors);
      if (cleaned !== undefined) out[cleanKey] = cleaned;
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}

/**
 * A copy of `value` fit for the audit table: values under secret-looking keys (password, passwd,
 * secret, token, api_key/apikey, access_key/secret_key/private_key, authorization, credential(s),
 * cookie, session_token, client_secret — any case or separator, at any depth, in objects and arrays)
 * become `"[redacted]"`; the top-level `contentArguments` (the tool's declared content) become
 * `{size, sha256}`; URL passwords and secret query parameters in strings are hidden (as in log
 * lines); strings over 4096 characters are truncated; the result is plain JSON that Postgres jsonb
 * accepts.
 */
export function redactParameters(value: unknown, opts: { contentArguments?: readonly string[] } = {}): unknown {
  return walk(digestContent(value, opts.contentArguments ?? []), 0, new Set());
}
