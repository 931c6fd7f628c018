/**
 * The field builders of the platform.yaml schema (schema.ts): scalars, durations, listen
 * addresses, URLs, keys and names every section schema is made of. They carry the
 * conventions listed in schema.ts's header (numbers and booleans also as strings,
 * durations with a unit, '' as unset for "none" keys, strict objects).
 */

import { z } from 'zod';
import { DURATION_HINT, parseDuration } from './duration.js';

// ---------------------------------------------------------------------------
// Scalar builders

/** Schema-level messages: "required" for a missing key, else what was expected. */
const expected = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : what);

const numericString = /^\s*-?\d+(\.\d+)?\s*$/;
const toNumberIfNumeric = (v: unknown): unknown =>
  typeof v === 'string' && numericString.test(v) ? Number(v) : v;
const toBoolIfWord = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const w = v.trim().toLowerCase();
  return w === 'true' ? true : w === 'false' ? false : v;
};
export const emptyToUndefined = (v: unknown): unknown => (v === '' ? undefined : v);

export function int(opts: { min?: number; max?: number } = {}) {
  let n = z.number({ error: expected('expected an integer') }).int({ error: 'expected an integer' });
  if (opts.min !== undefined) n = n.min(opts.min, { error: `must be at least ${opts.min}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `must be at most ${opts.max}` });
  return z.preprocess(toNumberIfNumeric, n);
}
/** int64 values (byte sizes): a JavaScript number that must stay a safe integer. */
export const int64 = () => int({ min: 0 });
export const float = (opts: { min?: number; max?: number } = {}) => {
  let n = z.number({ error: expected('expected a number') });
  if (opts.min !== undefined) n = n.min(opts.min, { error: `must be at least ${opts.min}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `must be at most ${opts.max}` });
  return z.preprocess(toNumberIfNumeric, n);
};
export const bool = () => z.preprocess(toBoolIfWord, z.boolean({ error: expected('expected true or false') }));
export const str = () => z.string({ error: expected('expected a string (quote numbers meant as text)') });
/** An optional "none"-default string; '' counts as unset. */
export const optStr = () => z.preprocess(emptyToUndefined, str().optional());
export const strArray = () => z.array(str(), { error: expected('expected a list of strings') });
export const strMap = () => z.record(str(), str(), { error: expected('expected a map of strings') });
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: expected(`expected one of: ${values.join(', ')}`) });

export function duration(opts: { positive?: boolean } = {}) {
  return z.unknown().transform((v, ctx): number => {
    if (typeof v === 'number') {
      ctx.addIssue({ code: 'custom', message: `${v} has no unit: ${DURATION_HINT}` });
      return z.NEVER;
    }
    if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', message: DURATION_HINT });
      return z.NEVER;
    }
    try {
      const ms = parseDuration(v);
      if (opts.positive && ms === 0) {
        ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
        return z.NEVER;
      }
      return ms;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
}
export const dur = (text: string, opts: { positive?: boolean } = { positive: true }) =>
  duration(opts).default(parseDuration(text));

/** `host:port`, `:port` or `[v6]:port`. */
export const ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]*):(\d{1,5})$/;
export const address = () =>
  str().refine((v) => {
    const m = ADDRESS.exec(v);
    return m !== null && Number(m[2]) <= 65535;
  }, 'expected a listen address like :8080, 127.0.0.1:9090 or [::1]:8080');

export const httpUrl = () =>
  str().refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'expected an http(s) URL');
export const optHttpUrl = () => z.preprocess(emptyToUndefined, httpUrl().optional());
/** Portal-style "empty" URLs: '' or an http(s) URL. */
export const emptyOrHttpUrl = () => z.union([z.literal(''), httpUrl()], { error: 'expected an http(s) URL' }).default('');

/** Decodes standard or URL-safe base64; undefined when the text is not base64. */
export function decodeBase64Key(text: string): Buffer | undefined {
  const t = text.trim();
  if (t === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return undefined;
  return Buffer.from(t, 'base64');
}
/**
 * An HMAC key written as base64 or as a raw string (`oauth.signing_key`): base64 when it decodes
 * to at least `min` bytes, otherwise the raw string's UTF-8 bytes.
 */
export function decodeHmacKey(text: string, min: number): Buffer {
  const decoded = decodeBase64Key(text);
  return decoded && decoded.length >= min ? decoded : Buffer.from(text, 'utf8');
}

/** An HMAC key (base64 or raw, see decodeHmacKey) of at least `min` bytes. */
export const hmacKey = (min: number) =>
  z.preprocess(emptyToUndefined, str().refine((v) => decodeHmacKey(v, min).length >= min, `expected at least ${min} bytes (base64 or raw)`).optional());

export const base64Key = (rule: { exact?: number; min?: number }) =>
  z.preprocess(
    emptyToUndefined,
    str()
      .refine((v) => {
        const buf = decodeBase64Key(v);
        if (!buf) return false;
        return rule.exact !== undefined ? buf.length === rule.exact : buf.length >= (rule.min ?? 0);
      }, rule.exact !== undefined ? `expected base64 of exactly ${rule.exact} bytes` : `expected base64 of at least ${rule.min} bytes`)
      .optional(),
  );

export const regexString = () =>
  str().refine((v) => {
    try {
      new RegExp(v);
      return true;
    } catch {
      return false;
    }
  }, 'expected a valid regular expression');

export const origin = () =>
  str().refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
    } catch {
      return false;
    }
  }, 'expected an origin like https://app.example.com (scheme, host and optional port, no path)');

/** Names of toolkit instances and MCP apps: they appear in tool arguments and ui:// URIs. */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const nameKey = () => str().regex(NAME_RE, 'names use letters, digits, "_" and "-", starting with a letter or digit');
export const namedMap = <T extends z.ZodType>(value: T) =>
  z.record(nameKey(), value, {
    error: (iss) =>
      iss.code === 'invalid_key'
        ? 'invalid name: use letters, digits, "_" and "-", starting with a letter or digit'
        : expected('expected a map of named entries')(iss),
  });

export const obj = z.strictObject;
