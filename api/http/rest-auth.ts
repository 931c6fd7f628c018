/**
 * How every REST surface (portal, admin, resources, `signed_in` endpoints) authenticates a
 * request. Not /mcp, which takes header credentials only, and not the presigned object-store
 * URLs, whose signature is their credential.
 *
 * 1. Credentials in headers (`Authorization: Bearer`, `X-API-Key`) go through the api's
 *    authentication chain, exactly as on /mcp; such requests need no CSRF token, since a browser
 *    never adds those headers on its own.
 * 2. Else the browser-session cookie, when browser sessions are enabled: a valid one is a
 *    `browser_session` caller; a bad, expired or tampered one is 401 (never anonymous). A write
 *    (POST, PUT, PATCH, DELETE) must also carry the session's CSRF token in `X-CSRF-Token`:
 *    403 `csrf_required` without one, 403 `csrf_invalid` with a wrong one.
 * 3. Else nothing was presented: anonymous when `auth.allow_anonymous`, otherwise 401.
 */
import type { FastifyReply } from 'fastify';
import {
  extractCredentials,
  type AuthDecision,
  type BrowserSession,
  type BrowserSessions,
  type CallerContext,
  type Credential,
} from '../../shared/identity/index.js';

type Headers = Record<string, string | string[] | undefined>;

/** What a REST request offers for authentication (a FastifyRequest is one). */
export interface RestRequest {
  method: string;
  headers: Headers;
}

export interface RestRefusal {
  ok: false;
  status: 401 | 403;
  error: 'unauthorized' | 'csrf_required' | 'csrf_invalid';
  message: string;
}

export type RestAuthentication = { ok: true; caller: CallerContext; session?: BrowserSession } | RestRefusal;

export type RestAuthenticator = (request: RestRequest) => Promise<RestAuthentication>;

/** The header a cookie-authenticated write carries its session's CSRF token in. */
export const csrfHeader = 'x-csrf-token';

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function unauthenticated(message = 'authentication required: present an API key or a bearer token, or sign in'): RestRefusal {
  return { ok: false, status: 401, error: 'unauthorized', message };
}

function firstHeader(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface RestAuthOptions {
  /** The api's header-credential chain (the same function /mcp uses). */
  authenticate(credentials: readonly Credential[]): Promise<AuthDecision>;
  /** Present when browser sessions are enabled. */
  browser?: {
    sessions: BrowserSessions;
    /** The session cookie's value on a request, if any. */
    cookieOf(headers: Headers): string | undefined;
  };
}

export function restAuthenticator(opts: RestAuthOptions): RestAuthenticator {
  return async (request) => {
    const credentials = extractCredentials(request.headers);
    const cookie = credentials.length === 0 ? opts.browser?.cookieOf(request.headers) : undefined;
    if (cookie === undefined || !opts.browser) {
      const decision = await opts.authenticate(credentials);
      if (decision.ok) return { ok: true, caller: decision.caller };
      return decision.error === 'missing_credentials' ? unauthenticated() : unauthenticated(`authentication failed: ${decision.description}`);
    }
    const verdict = await opts.browser.sessions.verify(cookie);
    if (!verdict.ok) return unauthenticated(`browser session refused (${verdict.reason}): sign in again`);
    const { session } = verdict;
    if (writeMethods.has(request.method.toUpperCase())) {
      const presented = firstHeader(request.headers, csrfHeader);
      if (!presented) {
        return { ok: false, status: 403, error: 'csrf_required', message: 'a write with a browser session must carry its CSRF token in X-CSRF-Token (GET /api/v1/portal/session gives it)' };
      }
      if (!opts.browser.sessions.csrfTokenValid(session, presented)) {
        return { ok: false, status: 403, error: 'csrf_invalid', message: 'the X-CSRF-Token header is not the CSRF token of this browser session' };
      }
    }
    return { ok: true, caller: session.caller, session };
  };
}

/** Answers a refusal as `{error, message}`; a 401 carries the Bearer challenge. */
export function sendRestRefusal(reply: FastifyReply, refusal: RestRefusal): FastifyReply {
  if (refusal.status === 401) void reply.header('www-authenticate', 'Bearer');
  return reply.code(refusal.status).send({ error: refusal.error, message: refusal.message });
}
