/**
 * What a handler answers (spec document 3, "Handler response"), checked before anything is sent.
 * Pure. A valid answer is an object with only these keys:
 *
 * - `status`: an integer from 200 to 599 (default 200);
 * - `headers`: an object of header names to strings;
 * - exactly one of `json` (any JSON value, sent as `application/json`) and `body` (a string, sent
 *   as UTF-8 text, or bytes: a Uint8Array, ArrayBuffer or other view of one, which the sandbox
 *   prelude sends back as `{base64: '…'}` — a handler may answer that wire form itself).
 *
 * Anything else is a non-response (the request answers 500). Header names must be HTTP tokens and
 * values printable (no CR, LF or other control characters), or the answer is refused, never sent
 * half-checked. Forbidden headers (Set-Cookie, Content-Length, Transfer-Encoding, Connection,
 * Content-Security-Policy, X-Content-Type-Options, X-Frame-Options, Access-Control-*) are
 * stripped: the answer is sent without them. Every answer, refusals included, carries the
 * protective headers.
 */

const FORBIDDEN = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection', 'content-security-policy', 'x-content-type-options', 'x-frame-options']);

export function isForbiddenResponseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN.has(lower) || lower.startsWith('access-control-');
}

/** The headers every answer of /endpoints/ carries (Cache-Control only when the handler set none). */
export function protectiveHeaders(headers: Record<string, string>): Record<string, string> {
  // Built key by key: spreading into a literal is a slow path of the engine, on every answer.
  const out: Record<string, string> = {};
  if (!('cache-control' in headers)) out['cache-control'] = 'no-store';
  for (const name of Object.keys(headers)) out[name] = headers[name]!;
  out['content-security-policy'] = "default-src 'none'; sandbox";
  out['x-content-type-options'] = 'nosniff';
  return out;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node writes as a header value: tab, visible ASCII and Latin-1; never CR, LF or NUL. */
const VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const KEYS = new Set(['status', 'headers', 'json', 'body']);

export interface HandlerAnswer {
  status: number;
  /** Lower-cased names; forbidden ones stripped; Content-Type filled in. */
  headers: Record<string, string>;
  body: Buffer;
}

export type HandlerAnswerResult = { ok: true; answer: HandlerAnswer } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function headersOf(value: unknown): Record<string, string> | string {
  if (value === undefined) return {};
  if (!isRecord(value)) return 'headers must be an object of names to strings';
  const headers = new Map<string, string>();
  for (const [name, v] of Object.entries(value)) {
    if (!TOKEN.test(name)) return `the header name ${JSON.stringify(name)} is not a valid name`;
    if (typeof v !== 'string') return `the header ${name} must be a string`;
    if (!VALUE.test(v)) return `the header ${name} holds a character a header may not (a line break or control character)`;
    const lower = name.toLowerCase();
    if (headers.has(lower)) return `the header ${name} is given twice`;
    if (!isForbiddenResponseHeader(lower)) headers.set(lower, v);
  }
  return Object.fromEntries(headers);
}

function bodyOf(result: Record<string, unknown>): { bytes: Buffer; type: string } | string {
  const hasJson = 'json' in result;
  const hasBody = 'body' in result;
  if (hasJson === hasBody) return 'the answer must have exactly one of json and body';
  if (hasJson) return { bytes: Buffer.from(JSON.stringify(result.json) ?? 'null', 'utf8'), type: 'application/json; charset=utf-8' };
  const body = result.body;
  if (typeof body === 'string') return { bytes: Buffer.from(body, 'utf8'), type: 'text/plain; charset=utf-8' };
  if (isRecord(body) && Object.keys(body).length === 1 && typeof body.base64 === 'string') {
    if (!BASE64.test(body.base64)) return 'body.base64 is not base64';
    return { bytes: Buffer.from(body.base64, 'base64'), type: 'application/octet-stream' };
  }
  return 'body must be a string, a Uint8Array or ArrayBuffer, or {base64: string}';
}

/** The handler's result as an answer to send, or why it is a non-response. */
export function handlerAnswer(result: unknown): HandlerAnswerResult {
  if (!isRecord(result)) return { ok: false, reason: 'the handler did not return an object' };
  const unknown = Object.keys(result).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) return { ok: false, reason: `the answer has unknown keys: ${unknown.join(', ')}` };
  const status = result.status ?? 200;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) return { ok: false, reason: 'status must be an integer from 200 to 599' };
  const headers = headersOf(result.headers);
  if (typeof headers === 'string') return { ok: false, reason: headers };
  const body = bodyOf(result);
  if (typeof body === 'string') return { ok: false, reason: body };
  return { ok: true, answer: { status, headers: { 'content-type': body.type, ...headers }, body: body.bytes } };
}
