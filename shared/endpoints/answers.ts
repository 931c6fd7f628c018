/**
 * The platform's own answers at /endpoints/ (spec document 3, "Scripted endpoint answers"): a JSON
 * body `{error, message}` per refusal, the same whatever the script did — the caller learns which
 * status it got and why in general terms, never the script's error. Pure.
 */
import { MAX_JSON_DEPTH, type BodyRefusal } from '../inbound/index.js';

/** What goes back to the caller (the route writes it). */
export interface EndpointAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Close the connection after answering (a body left unread). */
  close?: boolean;
}

export const REFUSALS = {
  invalid_json: { status: 400, message: `the body claims JSON (its Content-Type) but is not JSON, or nests deeper than ${MAX_JSON_DEPTH} levels` },
  unauthorized: { status: 401, message: 'this endpoint needs a signed-in caller: sign in, or present an API key (Authorization: Bearer or X-API-Key)' },
  csrf_required: { status: 403, message: 'a write with a browser session must carry its CSRF token in X-CSRF-Token' },
  csrf_invalid: { status: 403, message: 'the X-CSRF-Token header is not the CSRF token of this browser session' },
  cross_origin_session: { status: 403, message: 'a browser session is not accepted from another origin: a cross-origin caller must present an API key' },
  bot_check_required: { status: 403, message: 'this endpoint needs a bot-check answer in the X-Bot-Check header' },
  bot_check_refused: { status: 403, message: 'the bot-check answer was refused: get a new challenge' },
  origin_not_allowed: { status: 403, message: 'this origin may not call the endpoint' },
  not_found: { status: 404, message: 'no endpoint answers here' },
  method_not_allowed: { status: 405, message: 'the endpoint does not answer this method (Allow lists those it does)' },
  payload_too_large: { status: 413, message: 'the body is larger than this endpoint accepts' },
  rate_limited: { status: 429, message: 'too many requests: retry after the time Retry-After gives' },
  unavailable: { status: 503, message: 'the endpoint is not available now' },
  busy: { status: 503, message: 'the endpoint is busy: retry after the time Retry-After gives' },
  bot_check_unavailable: { status: 503, message: 'the bot check could not be made: retry later' },
  timeout: { status: 504, message: 'the endpoint did not answer in time' },
  handler_failed: { status: 500, message: 'the endpoint failed to answer' },
} as const satisfies Record<string, { status: number; message: string }>;

export type RefusalCode = keyof typeof REFUSALS;

export function refusal(code: RefusalCode, headers: Record<string, string> = {}): EndpointAnswer {
  const { status, message } = REFUSALS[code];
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(JSON.stringify({ error: code, message })) };
}

/** A body the server stopped reading (too slow, the replica's unauthenticated bytes full), answered as such; the rest is left unread. */
export function bodyRefused(refused: BodyRefusal): EndpointAnswer {
  return {
    status: refused.statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', ...refused.headers },
    body: Buffer.from(JSON.stringify({ error: refused.code, message: refused.message })),
    close: true,
  };
}
