/**
 * The portal's browser sign-in (spec document 1, "Browser session"; docs/browser-sessions.md):
 *
 *   GET /portal/auth/login[?return_to=/path]  start: login-state cookie, 302 to the provider
 *   GET /portal/auth/callback?code&state       finish: session cookie, 302 to return_to
 *   GET /portal/auth/logout                    session cookie cleared, 302 to end_session
 *   GET /api/v1/portal/session                 who the caller is, and a session's CSRF token
 *
 * The provider is `auth.oidc.*` through OidcRelyingParty (authorization code + PKCE S256, the ID
 * token validated as the OIDC authenticator validates bearer tokens). Registered only when
 * `auth.browser_session.enabled`. Nothing logged here holds a code, a state or a token.
 */
import { timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import { z } from 'zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import { OidcRelyingParty, loginStateTtlSeconds, randomToken, type BrowserSessions, type RelyingPartySettings } from '../../shared/identity/index.js';
import type { Logger } from '../../shared/logging/index.js';
import type { App } from '../http/app.js';
import type { RestAuthenticator } from '../http/rest-auth.js';
import { sessionRoutes } from './session-routes.js';
import {
  callbackPath,
  callbackUrl,
  defaultReturnPath,
  loginCookieName,
  loginCookieOptions,
  loginPath,
  maxCookieBytes,
  providerErrorCode,
  safeReturnPath,
  sessionCookieOptions,
  type SessionCookieSettings,
} from './http-rules.js';
import { publicOperation } from '../http/openapi.js';

export interface PortalAuthOptions {
  sessions: BrowserSessions;
  cookie: SessionCookieSettings;
  /** The provider people sign in at (`auth.oidc.*`). */
  relyingParty: OidcRelyingParty;
  /** `portal.public_base_url`, else `oauth.issuer`; absent: each request's own origin. */
  publicBaseUrl?: string | undefined;
  /** The REST authentication every REST surface uses. */
  authenticate: RestAuthenticator;
  log: Logger;
}

/** The relying party settings of the browser sign-in, from `auth.oidc.*` (without the callback URL). */
export function signInSettings(config: PlatformConfig): RelyingPartySettings {
  const oidc = config.auth.oidc;
  if (!oidc.issuer || !oidc.client_id) throw new Error('browser sessions need auth.oidc.issuer and auth.oidc.client_id');
  return {
    issuer: oidc.issuer,
    clientId: oidc.client_id,
    clientSecret: oidc.client_secret,
    scopes: oidc.scopes ?? ['openid', 'profile', 'email'],
    roleClaimPath: oidc.role_claim_path,
    rolePrefix: oidc.role_prefix,
    clockSkewSeconds: oidc.clock_skew_seconds,
    maxTokenAgeSeconds: oidc.max_token_age === undefined ? undefined : oidc.max_token_age / 1000,
  };
}

/** The session cookie's value on a request (`@fastify/cookie`'s parser; the app registers the plugin once, api/http/app.ts). */
export function sessionCookieOf(name: string): (headers: Record<string, string | string[] | undefined>) => string | undefined {
  return (headers) => {
    const header = headers.cookie;
    if (typeof header !== 'string' || header === '') return undefined;
    return fastifyCookie.parse(header)[name];
  };
}

const errorSchema = z.object({ error: z.string(), message: z.string() });
const tags = ['portal'];

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function portalAuthRoutes(app: App, opts: PortalAuthOptions): Promise<void> {
  const { sessions, cookie, log } = opts;
  const loginCookie = loginCookieName(cookie);

  // Sign-in answers and a session's CSRF token are per person: no cache may keep them.
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });

  app.get(
    loginPath,
    {
      schema: {
        operationId: 'startSignIn', security: publicOperation,
        tags,
        summary: 'Start browser sign-in',
        description:
          'Redirects (302) to the identity provider (auth.oidc) with the authorization code flow and PKCE S256; a short-lived ' +
          'login-state cookie binds the callback to this browser. `return_to`: a path on this site to land on once signed in (default /portal/).',
        querystring: z.object({ return_to: z.string().optional() }),
        response: { 400: errorSchema, 502: errorSchema },
      },
    },
    async (request, reply) => {
      const given = request.query.return_to;
      const returnTo = given === undefined || given === '' ? defaultReturnPath : safeReturnPath(given);
      if (!returnTo) {
        return reply.code(400).send({ error: 'invalid_return_to', message: 'return_to must be a path on this site: one leading /, no // or backslash, visible ASCII only (percent-encode the rest)' });
      }
      const redirectUri = callbackUrl(opts.publicBaseUrl, request);
      if (!redirectUri) return reply.code(400).send({ error: 'invalid_request', message: 'the request has no valid Host' });
      const login = { state: randomToken(), nonce: randomToken(), codeVerifier: randomToken(), returnTo, redirectUri };
      let location: string;
      try {
        location = await opts.relyingParty.authorizationUrl(login);
      } catch (error) {
        log.warn({ err: error }, 'browser sign-in: the identity provider could not be discovered');
        return reply.code(502).send({ error: 'provider_unavailable', message: 'the identity provider could not be reached; try again later' });
      }
      void reply.setCookie(loginCookie, await sessions.sealLoginState(login), loginCookieOptions(cookie, loginStateTtlSeconds));
      return reply.redirect(location, 302);
    },
  );

  app.get(
    callbackPath,
    {
      schema: {
        operationId: 'finishSignIn', security: publicOperation,
        tags,
        summary: 'Finish browser sign-in',
        description:
          'The identity provider’s redirect back. The `state` must be the one this browser’s login-state cookie holds; the code ' +
          'is exchanged and the ID token validated; then the session cookie is set and the browser sent (302) to its return path. ' +
          '400 for a missing or foreign state or a sign-in the provider refused; 502 when the code exchange fails.',
        querystring: z.looseObject({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() }),
        response: { 400: errorSchema, 502: errorSchema },
      },
    },
    async (request, reply) => {
      const sealed = request.cookies[loginCookie];
      const login = sealed ? await sessions.openLoginState(sealed) : undefined;
      if (!login) {
        return reply.code(400).send({
          error: 'login_state_missing',
          message: `no sign-in was started in this browser in the last 10 minutes: start again at ${loginPath}`,
        });
      }
      const { code, state, error } = request.query;
      if (state === undefined || !sameText(state, login.state)) {
        return reply.code(400).send({ error: 'state_mismatch', message: `the callback's state is not the one of the sign-in this browser started: start again at ${loginPath}` });
      }
      // This sign-in is used up, whatever happens next.
      void reply.clearCookie(loginCookie, loginCookieOptions(cookie, 0));
      if (error !== undefined) {
        return reply.code(400).send({ error: 'sign_in_refused', message: `the identity provider refused the sign-in (${providerErrorCode(error)})` });
      }
      if (!code) return reply.code(400).send({ error: 'invalid_request', message: 'the callback carries no code' });
      const exchange = await opts.relyingParty.exchangeCode({ code, codeVerifier: login.codeVerifier, nonce: login.nonce, redirectUri: login.redirectUri });
      if (!exchange.ok) {
        log.warn({ reason: exchange.reason }, 'browser sign-in failed');
        return reply.code(502).send({ error: 'token_exchange_failed', message: exchange.reason });
      }
      const { token, session } = await sessions.issue(exchange.user);
      const attributes = sessionCookieOptions(cookie, sessions.ttlSeconds);
      if (app.serializeCookie(cookie.name, token, attributes).length > maxCookieBytes) {
        log.warn({ subject: session.caller.subject, roles: session.caller.roles.length }, 'browser sign-in: the session does not fit in a cookie');
        return reply.code(502).send({
          error: 'session_too_large',
          message: 'the identity provider sent more roles than fit in a cookie: filter them with auth.oidc.role_prefix',
        });
      }
      void reply.setCookie(cookie.name, token, attributes);
      log.info({ subject: session.caller.subject }, 'browser sign-in');
      return reply.redirect(login.returnTo, 302);
    },
  );

  await app.register(sessionRoutes, {
    sessions,
    cookie,
    authenticate: opts.authenticate,
    async signedOutLocation() {
      try {
        return await opts.relyingParty.endSessionUrl({});
      } catch (error) {
        log.warn({ err: error }, 'sign-out: the identity provider could not be discovered');
        return undefined;
      }
    },
  });
}
