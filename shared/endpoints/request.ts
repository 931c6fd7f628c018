/**
 * The handler's `req` (spec document 3, "Handler request"): built from what arrived, before the
 * script runs. Pure. `req` crosses into the sandbox as JSON and arrives there deep-frozen.
 *
 * - `headers`: names lower-cased, a repeated header's values joined with ', ', and the credential
 *   headers (Authorization, Cookie, X-API-Key, Proxy-Authorization) left out.
 * - `body`: the bytes, in their wire form `{base64}` (req crosses as JSON): the sandbox prelude
 *   hands the handler a Uint8Array of them.
 * - `json`: the parsed body when the media type is `application/json` or `…+json`; a body that
 *   claims JSON and is not (or is not UTF-8, or nests deeper than shared/inbound's limit) is a 400
 *   before the script runs. An empty body is `null`: it claims nothing.
 * - `form`: each field's first value for `application/x-www-form-urlencoded`, else null.
 * - `caller`: from the request's authentication only, never from the body.
 */
import type { CallerContext } from '../identity/index.js';
import { parseCallerJson } from '../inbound/index.js';

/** Request headers a handler never sees. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);

export interface HandlerCaller {
  user_id: string;
  email: string | null;
  auth_type: string;
}

export interface HandlerRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The wire form of the bytes (shared/scripts/sandbox/bytes.ts): the handler gets a Uint8Array. */
  body: { base64: string };
  json: unknown;
  form: Record<string, string> | null;
  caller: HandlerCaller | null;
}

export interface ArrivedRequest {
  method: string;
  /** The request path as sent (no query). */
  path: string;
  /** The template's values (template.ts). */
  params: Record<string, string>;
  /** The query string without '?'. */
  rawQuery: string;
  /** Node's rawHeaders: name, value, name, value, … as received. */
  rawHeaders: readonly string[];
  body: Uint8Array;
  /** The signed-in caller (signed_in endpoints); null on public ones. */
  caller: CallerContext | null;
}

export type HandlerRequestResult = { ok: true; req: HandlerRequest } | { ok: false; reason: string };

/** Names lower-cased, repeated values joined with ', ', credential headers left out. */
export function handlerHeaders(rawHeaders: readonly string[]): Record<string, string> {
  const joined = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (CREDENTIAL_HEADERS.has(name)) continue;
    const seen = joined.get(name);
    joined.set(name, seen === undefined ? rawHeaders[i + 1]! : `${seen}, ${rawHeaders[i + 1]!}`);
  }
  return Object.fromEntries(joined);
}

/** The media type without parameters, lower-cased ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Each name's first value (own properties, whatever the names). */
function firstValues(params: URLSearchParams): Record<string, string> {
  const first = new Map<string, string>();
  for (const [name, value] of params) if (!first.has(name)) first.set(name, value);
  return Object.fromEntries(first);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8');

function utf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

export function callerView(caller: CallerContext): HandlerCaller {
  return { user_id: caller.subject, email: caller.email ?? null, auth_type: caller.authType };
}

/** The handler's `req`, or why the request is answered 400 (a body claiming JSON that is not). */
export function handlerRequest(arrived: ArrivedRequest): HandlerRequestResult {
  const headers = handlerHeaders(arrived.rawHeaders);
  const mediaType = mediaTypeOf(headers['content-type']);
  // Text only for the media types parsed here: the handler gets the bytes either way.
  const text = isJsonMediaType(mediaType) || mediaType === FORM_TYPE ? utf8(arrived.body) : undefined;
  let json: unknown = null;
  if (isJsonMediaType(mediaType) && arrived.body.length > 0) {
    if (text === undefined) return { ok: false, reason: 'the body claims JSON but is not UTF-8' };
    // A byte order mark is kept in `body` but is not part of the JSON text.
    const parsed = parseCallerJson(text.startsWith('\uFEFF') ? text.slice(1) : text, 'the JSON body');
    if (!parsed.ok) return { ok: false, reason: parsed.error === 'too_deep' ? parsed.reason : 'the body claims JSON but is not JSON' };
    json = parsed.value;
  }
  const form = mediaType === FORM_TYPE ? firstValues(new URLSearchParams(text ?? lenientUtf8.decode(arrived.body))) : null;
  return {
    ok: true,
    req: {
      method: arrived.method,
      path: arrived.path,
      params: arrived.params,
      query: arrived.rawQuery === '' ? {} : firstValues(new URLSearchParams(arrived.rawQuery)),
      headers,
      // A view of the bytes, not a copy of them.
      body: { base64: arrived.body.length === 0 ? '' : Buffer.from(arrived.body.buffer, arrived.body.byteOffset, arrived.body.byteLength).toString('base64') },
      json,
      form,
      caller: arrived.caller ? callerView(arrived.caller) : null,
    },
  };
}
