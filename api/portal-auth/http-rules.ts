/**
 * Pure rules of the portal's sign-in routes: where a sign-in may return to, the callback URL sent
 * to the provider, and the attributes of the two cookies.
 */
import type { SerializeOptions } from '@fastify/cookie';
import { publicBaseOf } from '../http/public-url.js';

export const loginPath = '/portal/auth/login';
export const callbackPath = '/portal/auth/callback';
export const logoutPath = '/portal/auth/logout';
export const sessionPath = '/api/v1/portal/session';

/** Where a sign-in returns when it was given no return path. */
export const defaultReturnPath = '/portal/';

/**
 * A return path that can only lead back to this origin: one leading `/`, not `//` (a
 * protocol-relative URL), no backslash (browsers read `/\host` as `//host`), and it resolves to
 * the same origin. It ends up in a Location header, so it is visible ASCII only: controls, spaces,
 * U+2028/U+2029 and any other non-ASCII character are refused, never written into a header (a
 * browser's own `location.pathname` is already percent-encoded). Anything else is refused
 * (undefined): no open redirect, no header the server cannot write.
 */
export function safeReturnPath(value: string): string | undefined {
  if (value.length > 2048 || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  if (/[^\x21-\x7e]/.test(value)) return undefined;
  const probe = 'https://return.invalid';
  try {
    return new URL(value, probe).origin === probe ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The callback URL the provider sends people back to (register it there): `<base>/portal/auth/
 * callback`, base = `portal.public_base_url`, else `oauth.issuer`, else the request's own origin.
 */
export function callbackUrl(publicBaseUrl: string | undefined, request: { protocol: string; host: string }): string | undefined {
  const base = publicBaseOf(publicBaseUrl, request);
  return base === undefined ? undefined : `${base}${callbackPath}`;
}

export interface SessionCookieSettings {
  name: string;
  secure: boolean;
  domain?: string | undefined;
}

/** The session cookie's attributes; `maxAgeSeconds` 0 clears it (the same attributes, so it matches). */
export function sessionCookieOptions(cookie: SessionCookieSettings, maxAgeSeconds: number): SerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.secure,
    maxAge: maxAgeSeconds,
    ...(cookie.domain ? { domain: cookie.domain } : {}),
  };
}

/** The login-state cookie: only the sign-in routes ever see it, and only for its 10 minutes. */
export function loginCookieName(cookie: SessionCookieSettings): string {
  return `${cookie.name}_login`;
}

export function loginCookieOptions(cookie: SessionCookieSettings, maxAgeSeconds: number): SerializeOptions {
  return { path: '/portal/auth', httpOnly: true, sameSite: 'lax', secure: cookie.secure, maxAge: maxAgeSeconds };
}

/** Browsers drop a cookie whose name, value and attributes exceed 4096 bytes (RFC 6265 §6.1 minimum). */
export const maxCookieBytes = 4096;

/** A provider's error code, echoed only when it is plainly a code (it comes from the query string). */
export function providerErrorCode(value: string): string {
  return /^[\w.-]{1,64}$/.test(value) ? value : 'unknown';
}
