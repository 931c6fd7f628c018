/**
 * `platform dev`'s sign-in (no identity provider on the embedded default): the banner prints a
 * one-time link for the generated administrator, and opening it signs that browser in.
 *
 *   GET /portal/auth/link?token=…   the link: session cookie set, 302 to /portal/
 *
 * A link is single use (the first request consumes it, whatever follows), short-lived
 * (`linkTtlSeconds`), and accepted only from a loopback peer with a loopback Host: it is printed on
 * the terminal of the machine the platform runs on, for that machine's browser. Only its SHA-256 is
 * kept. The sessions it starts are the ordinary browser sessions (cookie, CSRF token), signed with
 * a key made at start-up, so a restart ends them. Nothing of this exists outside `platform dev`:
 * only cli/dev.ts creates one.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { BrowserSessions, randomToken, type SessionUser } from '../../shared/identity/index.js';
import type { App } from '../http/app.js';
import type { RestAuthenticator } from '../http/rest-auth.js';
import { isLoopbackHost } from '../mcp/http-rules.js';
import type { BrowserSignIn } from './index.js';
import { defaultReturnPath, maxCookieBytes, sessionCookieOptions } from './http-rules.js';
import { sessionCookieOf } from './routes.js';
import { sessionRoutes } from './session-routes.js';

export const signInLinkPath = '/portal/auth/link';
/** The provider name sessions of this sign-in carry: subjects are `oidc:platform-dev#<user>`. */
export const devIdentityIssuer = 'platform-dev';
export const linkTtlSeconds = 15 * 60;

interface PendingLink {
  user: SessionUser;
  expiresAt: number;
}

export interface DevSignInOptions {
  /** `auth.browser_session.*` as configured: cookie name and flags, session lifetime. */
  cookie: { name: string; secure: boolean; domain?: string | undefined };
  ttlSeconds: number;
  clock?: () => number;
}

const digest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** True for a peer address on this machine (IPv4 127/8, IPv6 ::1, and IPv4-mapped loopback). */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

export class DevSignIn implements BrowserSignIn {
  private readonly sessions: BrowserSessions;
  private readonly pending = new Map<string, PendingLink>();
  private readonly clock: () => number;
  readonly sessionOf: BrowserSignIn['sessionOf'];

  constructor(private readonly opts: DevSignInOptions) {
    this.clock = opts.clock ?? Date.now;
    this.sessions = new BrowserSessions({ signingKey: randomBytes(32), ttlSeconds: opts.ttlSeconds, idpIssuer: devIdentityIssuer, clock: this.clock });
    this.sessionOf = { sessions: this.sessions, cookieOf: sessionCookieOf(opts.cookie.name) };
  }

  /** A new one-time link (path and query) that signs `user` in. */
  link(user: SessionUser): string {
    const now = this.clock();
    for (const [key, entry] of this.pending) if (entry.expiresAt <= now) this.pending.delete(key);
    const token = randomToken();
    this.pending.set(digest(token), { user, expiresAt: now + linkTtlSeconds * 1000 });
    return `${signInLinkPath}?token=${token}`;
  }

  /** Consumes a link's token: its user when the token is pending and unexpired. */
  private take(token: string): SessionUser | undefined {
    const key = digest(token);
    const entry = this.pending.get(key);
    this.pending.delete(key);
    return entry && entry.expiresAt > this.clock() ? entry.user : undefined;
  }

  async register(app: App, authenticate: RestAuthenticator): Promise<void> {
    const { cookie } = this.opts;
    const sessions = this.sessions;
    const refuse = (reply: FastifyReply, status: number, message: string) =>
      reply.code(status).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(`${message}\n`);

    app.get(signInLinkPath, { schema: { hide: true } }, async (request, reply) => {
      if (!isLoopbackPeer(request.socket.remoteAddress) || !isLoopbackHost(request.headers.host)) {
        return refuse(reply, 403, 'This sign-in link works only in a browser on the machine running the platform (http://127.0.0.1 or http://localhost).');
      }
      const token = (request.query as Record<string, unknown>).token;
      const user = typeof token === 'string' && token.length <= 200 ? this.take(token) : undefined;
      if (!user) {
        return refuse(reply, 400, 'This sign-in link was already used or has expired (links last 15 minutes and work once). Restart `npm start` for a new one.');
      }
      const { token: cookieValue } = await sessions.issue(user);
      const attributes = sessionCookieOptions(cookie, sessions.ttlSeconds);
      if (app.serializeCookie(cookie.name, cookieValue, attributes).length > maxCookieBytes) return refuse(reply, 500, 'the session does not fit in a cookie');
      void reply.setCookie(cookie.name, cookieValue, attributes).header('cache-control', 'no-store');
      return reply.redirect(defaultReturnPath, 302);
    });
    await app.register(sessionRoutes, { sessions, cookie, authenticate, signedOutLocation: async () => defaultReturnPath });
  }
}
