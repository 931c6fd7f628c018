/**
 * The public viewer of shared assets (spec document 1: `GET /portal/view/{token}`, "Public viewer
 * behavior"; issue 38):
 *
 *   GET /portal/view/:token                the viewer page (its own small bundle, portal/view.html)
 *   GET /api/v1/portal/view/:token         what the page shows: the asset, the share's notice and expiry, the brand
 *   GET /api/v1/portal/view/:token/content the asset's bytes (markdown, CSV, JSON, text read by the page; SVG and PNG as images)
 *   GET /portal/view/:token/frame          HTML and JSX in a sandboxed frame (asset-frame.ts)
 *   GET /portal/view-brand/logo.svg        the implementor logo, fetched once at start-up (≤ 1 MB) and sanitised
 *
 * No sign-in for a public share; a private share asks the person it names to sign in (the
 * portal's browser session) and opens for them (and the owner) only. Unknown, revoked and expired
 * tokens, and a private share opened by anyone else, all answer the same 404. The page has its
 * own CSP: its own script and style, requests and frames to this origin only, never framed; its
 * address carries the token, so it sends no Referer anywhere.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import { AssetError, downloadName, MAX_LOGO_BYTES, sanitiseSvg, shownNotice, type AssetActor, type AssetService } from '../../shared/assets/index.js';
import { readCappedText } from '../../shared/http/index.js';
import type { Logger } from '../../shared/logging/index.js';
import { readAll } from '../../shared/objstore/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import type { App } from '../http/app.js';
import { publicOperation } from '../http/openapi.js';
import type { RestAuthenticator } from '../http/rest-auth.js';
import { userContentHeaders } from '../http/user-content.js';
import { requestOrigin } from './asset-frame.js';
import { sendFrame } from './assets.js';
import type { SignInKind } from './settings-route.js';

export const VIEWER_LOGO_PATH = '/portal/view-brand/logo.svg';

export interface ViewerRoutesOptions {
  service: AssetService;
  config: Pick<PlatformConfig, 'personas' | 'admin' | 'portal'>;
  authenticate: RestAuthenticator;
  signIn: SignInKind;
  /** The viewer page as built (portal/dist/view.html). */
  viewerPage: string;
  /** The JSX runtime page as built (portal/dist/jsx-frame.html). */
  jsxRuntimePage?: string;
  /** The implementor logo, sanitised (loadImplementorLogo), when one is configured and could be read. */
  logo?: string;
}

/** The viewer page's policy: its own script and style only, requests and frames to this origin, images from itself and data/blob URLs, never framed. */
export const viewerContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const pageHeaders = {
  'content-security-policy': viewerContentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
  'cache-control': 'no-store',
};

const errorSchema = z.object({ error: z.string(), message: z.string() });
const brandSchema = z
  .object({
    name: z.string().describe('portal.implementor.name'),
    url: z.string().describe('portal.implementor.url'),
    logo: z.string().nullable().describe('Where the sanitised implementor logo is served, when one is configured and was read at start-up'),
  })
  .describe('The implementor brand of the viewer header');

const viewSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('open'),
    asset: z.object({
      name: z.string(),
      description: z.string(),
      content_type: z.string(),
      size: z.number().int(),
      version: z.number().int(),
      updated_at: z.string(),
    }),
    share: z.object({
      private: z.boolean(),
      expires_at: z.string().nullable().describe('When the link stops working; null when it never does or hide_expiration hides it'),
      notice: z.string().nullable().describe('The notice to show: the share\'s own, the built-in confidentiality notice, or null for none'),
    }),
    brand: brandSchema,
  }),
  z.object({
    state: z.literal('sign_in').describe('A private share: the person it names signs in to open it'),
    sign_in: z.enum(['provider', 'link', 'none']).describe('How people sign in here (as GET /api/v1/portal/settings says)'),
    sign_in_url: z.string().nullable().describe('provider: the sign-in address that returns here'),
    brand: brandSchema,
  }),
]);

const tokenParams = z.object({ token: z.string().max(200) });

/**
 * The implementor logo (`portal.implementor.logo`): fetched once, at most 1 MB, no redirects, an
 * SVG sanitised (shared/assets/svg.ts). Any failure is logged and the viewer shows the name alone.
 */
export async function loadImplementorLogo(url: string, log: Pick<Logger, 'warn'>, timeoutMs = 10_000): Promise<string | undefined> {
  if (!url) return undefined;
  try {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'image/svg+xml' } });
    if (!response.ok) throw new Error(`the logo URL answered ${response.status}`);
    const text = await readCappedText(response, MAX_LOGO_BYTES, () => new Error(`the logo is larger than ${MAX_LOGO_BYTES} bytes (spec: at most 1 MB)`));
    const clean = sanitiseSvg(text);
    if (!clean) throw new Error('the logo is not an SVG document');
    return clean;
  } catch (error) {
    log.warn({ err: { message: (error as Error).message }, url }, 'portal.implementor.logo could not be read: the viewer shows the implementor name alone');
    return undefined;
  }
}

export async function viewerRoutes(app: App, opts: ViewerRoutesOptions): Promise<void> {
  const { service, config } = opts;
  const implementor = config.portal.implementor;
  const brand = { name: implementor.name, url: implementor.url, logo: opts.logo ? VIEWER_LOGO_PATH : null };

  /** The signed-in person, when there is one; a bad or missing credential is a signed-out visitor. */
  async function viewerOf(request: FastifyRequest): Promise<AssetActor | undefined> {
    const decision = await opts.authenticate({ method: 'GET', headers: request.headers });
    if (!decision.ok || decision.caller.authType === 'anonymous') return undefined;
    return resourceActor(decision.caller, { config, origin: 'person' });
  }

  const notFound = (reply: FastifyReply, error: unknown) => {
    if (error instanceof AssetError && error.code === 'not_found') return reply.code(404).headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).send({ error: 'not_found', message: error.message });
    throw error;
  };

  const schema = { hide: true };
  app.get('/portal/view/:token', { schema }, async (request, reply) => {
    const { token } = request.params as { token: string };
    let status = 200;
    try {
      await service.openShare(token, await viewerOf(request), { countView: false });
    } catch (error) {
      if (!(error instanceof AssetError && error.code === 'not_found')) throw error;
      // The same page, answering 404: it shows the same "does not open" whatever the reason.
      status = 404;
    }
    return reply.code(status).headers(pageHeaders).type('text/html; charset=utf-8').send(opts.viewerPage);
  });

  app.get('/portal/view/:token/frame', { schema }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const theme = (request.query as { theme?: string }).theme;
    try {
      const { version, body } = await service.openSharedContent(token, await viewerOf(request));
      const type = version.content_type;
      if (type !== 'text/html' && type !== 'text/jsx') {
        body.destroy();
        return reply.code(400).type('text/plain; charset=utf-8').send('only HTML and JSX are framed');
      }
      const { bytes } = await readAll(body);
      return sendFrame(reply, type, bytes.toString('utf8'), theme === 'dark' || theme === 'light' ? theme : undefined, requestOrigin(config.portal.public_base_url, request), opts.jsxRuntimePage);
    } catch (error) {
      if (error instanceof AssetError && error.code === 'not_found') return reply.code(404).headers({ 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; sandbox" }).type('text/plain; charset=utf-8').send('not found');
      throw error;
    }
  });

  app.get(VIEWER_LOGO_PATH, { schema }, async (_request, reply) => {
    if (!opts.logo) return reply.code(404).type('text/plain; charset=utf-8').send('no implementor logo');
    return reply
      .headers({ 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=3600' })
      .type('image/svg+xml')
      .send(opts.logo);
  });

  app.get(
    '/api/v1/portal/view/:token',
    {
      schema: {
        operationId: 'viewSharedAsset',
        security: publicOperation,
        tags: ['portal: viewer'],
        summary: 'What a share link shows',
        description:
          'Public (a browser session, when present, is the signed-in person). A public share: the asset, the notice (the share\'s own, the built-in ' +
          'confidentiality notice, or none) and its expiry (null when hidden or none). A private share: `sign_in` for a signed-out visitor, the asset for ' +
          'the person it names (and its owner). Unknown, revoked and expired links, and a private share opened by anyone else, answer the same 404. Counts a view.',
        params: tokenParams,
        response: { 200: viewSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      void reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      try {
        const opening = await service.openShare(request.params.token, await viewerOf(request));
        if (opening.state === 'sign_in') {
          const back = `/portal/view/${request.params.token}`;
          return { state: 'sign_in' as const, sign_in: opts.signIn, sign_in_url: opts.signIn === 'provider' ? `/portal/auth/login?return_to=${encodeURIComponent(back)}` : null, brand };
        }
        const { asset, share } = opening;
        return {
          state: 'open' as const,
          asset: { name: asset.name, description: asset.description, content_type: asset.content_type, size: asset.size, version: asset.version, updated_at: asset.updated_at },
          share: {
            private: !share.public,
            expires_at: share.hide_expiration ? null : share.expires_at,
            notice: shownNotice(share.notice_text),
          },
          brand,
        };
      } catch (error) {
        return notFound(reply, error);
      }
    },
  );

  app.get(
    '/api/v1/portal/view/:token/content',
    {
      schema: {
        operationId: 'downloadSharedAssetContent',
        security: publicOperation,
        tags: ['portal: viewer'],
        summary: 'The shared asset\'s bytes',
        description: 'Under the same rule as the view; with the headers of user content (nosniff, a sandboxing CSP, attachment unless PNG or plain text). Does not count a view.',
        params: tokenParams,
        response: { 200: { description: 'The bytes', content: { 'application/octet-stream': { schema: z.any().meta({ type: 'string', format: 'binary' }) } } }, 404: errorSchema },
      },
    },
    async (request, reply) => {
      try {
        const { asset, version, body } = await service.openSharedContent(request.params.token, await viewerOf(request));
        const type = version.content_type;
        return reply
          .headers({
            'content-type': type === 'image/png' ? type : `${type}; charset=utf-8`,
            'content-length': String(version.size),
            ...userContentHeaders(type, downloadName(asset.name, type)),
            'cache-control': 'private, no-store',
            'referrer-policy': 'no-referrer',
          })
          .send(body);
      } catch (error) {
        return notFound(reply, error);
      }
    },
  );
}
