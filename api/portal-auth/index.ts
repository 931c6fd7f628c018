/**
 * The portal's browser sign-in, when `auth.browser_session.enabled`: the session verifier the
 * REST authentication uses (api/http/rest-auth.ts) and the sign-in routes (routes.ts).
 */
import { decodeBase64Key, type PlatformConfig } from '../../shared/config/index.js';
import { BrowserSessions, OidcRelyingParty } from '../../shared/identity/index.js';
import type { Logger } from '../../shared/logging/index.js';
import type { App } from '../http/app.js';
import type { RestAuthOptions, RestAuthenticator } from '../http/rest-auth.js';
import { portalAuthRoutes, sessionCookieOf, signInSettings } from './routes.js';

export { portalAuthRoutes, type PortalAuthOptions } from './routes.js';

export interface BrowserSignIn {
  /** What the REST authentication needs to accept the session cookie. */
  sessionOf: NonNullable<RestAuthOptions['browser']>;
  /** Registers the sign-in routes; before any request is authenticated (they load the cookie parser). */
  register(app: App, authenticate: RestAuthenticator): Promise<void>;
}

export function browserSignIn(config: PlatformConfig, log: Logger): BrowserSignIn | undefined {
  const settings = config.auth.browser_session;
  if (!settings.enabled) return undefined;
  // The config rules refuse a start without a key of 32 bytes or more; this only narrows the type.
  const signingKey = settings.signing_key === undefined ? undefined : decodeBase64Key(settings.signing_key);
  if (!signingKey || !config.auth.oidc.issuer) throw new Error('browser sessions need auth.browser_session.signing_key and auth.oidc.issuer');
  const sessions = new BrowserSessions({ signingKey, ttlSeconds: Math.ceil(settings.ttl / 1000), idpIssuer: config.auth.oidc.issuer });
  const cookie = { name: settings.cookie_name, secure: settings.secure, domain: settings.domain };
  const relyingParty = new OidcRelyingParty(signInSettings(config), { log: log.child({ component: 'browser-sign-in' }) });
  const publicBaseUrl = config.portal.public_base_url || config.oauth.issuer;
  return {
    sessionOf: { sessions, cookieOf: sessionCookieOf(cookie.name) },
    async register(app, authenticate) {
      await app.register(portalAuthRoutes, { sessions, cookie, relyingParty, publicBaseUrl, authenticate, log });
    },
  };
}

export { DevSignIn, devIdentityIssuer, isLoopbackPeer, linkTtlSeconds, signInLinkPath, type DevSignInOptions } from './dev-sign-in.js';
