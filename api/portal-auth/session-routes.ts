/**
 * The routes every browser sign-in shares, whichever way people signed in (the identity provider,
 * routes.ts, or `platform dev`'s one-time link, dev-sign-in.ts):
 *
 *   GET /api/v1/portal/session   who the caller is, and a session's CSRF token
 *   GET /portal/auth/logout      session cookie cleared, 302 to where signing out ends
 */
import { z } from 'zod';
import type { BrowserSessions } from '../../shared/identity/index.js';
import type { App } from '../http/app.js';
import { publicOperation, restSecurity } from '../http/openapi.js';
import { sendRestRefusal, unauthenticated, type RestAuthenticator } from '../http/rest-auth.js';
import { logoutPath, sessionCookieOptions, sessionPath, type SessionCookieSettings } from './http-rules.js';

export interface SessionRoutesOptions {
  sessions: BrowserSessions;
  cookie: SessionCookieSettings;
  authenticate: RestAuthenticator;
  /** Where a signed-out browser goes (the provider's end_session_endpoint); undefined: `/`. */
  signedOutLocation(): Promise<string | undefined>;
}

const errorSchema = z.object({ error: z.string(), message: z.string() });
const tags = ['portal'];

const sessionSchema = z.object({
  subject: z.string().describe('Namespaced subject: oidc:<issuer>#<sub> for a browser session, the same identity as the person’s OIDC bearer token'),
  name: z.string().optional(),
  email: z.string().optional(),
  roles: z.array(z.string()),
  auth_type: z.string().describe('browser_session, or how else the caller authenticated (apikey, oidc, …)'),
  csrf_token: z.string().optional().describe('Browser sessions only: send it as X-CSRF-Token on every POST, PUT, PATCH and DELETE'),
  expires_at: z.string().optional().describe('Browser sessions only: when the session ends (RFC 3339); sign in again then'),
});

export async function sessionRoutes(app: App, opts: SessionRoutesOptions): Promise<void> {
  const { sessions, cookie } = opts;

  // A session's CSRF token is per person: no cache may keep it.
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });

  app.get(
    logoutPath,
    {
      schema: {
        operationId: 'signOut', security: publicOperation,
        tags,
        summary: 'Sign out',
        description: 'Clears the session cookie and redirects (302) to the identity provider’s end_session_endpoint, or to / when it has none.',
      },
    },
    async (_request, reply) => {
      void reply.clearCookie(cookie.name, sessionCookieOptions(cookie, 0));
      return reply.redirect((await opts.signedOutLocation()) ?? '/', 302);
    },
  );

  app.get(
    sessionPath,
    {
      schema: {
        operationId: 'getPortalSession', security: restSecurity,
        tags,
        summary: 'The signed-in caller',
        description:
          'Who the caller is. For a browser session also its CSRF token (send it as X-CSRF-Token on every write) and when it ' +
          'ends. 401 when not signed in.',
        response: { 200: sessionSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      const decision = await opts.authenticate(request);
      if (!decision.ok) return sendRestRefusal(reply, decision);
      const { caller, session } = decision;
      if (caller.authType === 'anonymous') return sendRestRefusal(reply, unauthenticated('not signed in'));
      return {
        subject: caller.subject,
        ...(caller.name !== undefined ? { name: caller.name } : {}),
        ...(caller.email !== undefined ? { email: caller.email } : {}),
        roles: caller.roles,
        auth_type: caller.authType,
        ...(session ? { csrf_token: sessions.csrfToken(session), expires_at: session.expiresAt.toISOString() } : {}),
      };
    },
  );
}
