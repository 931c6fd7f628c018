/**
 * GET /api/v1/portal/settings: what the portal shows before anyone signs in — its brand
 * (`portal.title`, `portal.logo`, `logo_light`, `logo_dark`), how people sign in here, and the
 * bounds its pages apply as the api does (the inline preview bound: the bytes `fetch` answers
 * inline; the upload ceiling per file, which the upload dialog checks before sending; spec
 * document 2 "Limits"). Public: nothing in it is a secret, and the page needs it to
 * send a signed-out visitor the right way.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { App } from '../http/app.js';
import { publicOperation } from '../http/openapi.js';
import { FETCH_INLINE_BYTES } from '../../shared/search/index.js';

export type SignInKind = 'provider' | 'link' | 'none';

const settingsSchema = z.object({
  title: z.string().describe('portal.title: the sidebar and window title'),
  logo: z.string().describe('portal.logo: logo URL for both themes; empty for none'),
  logo_light: z.string().describe('portal.logo_light: overrides logo in the light theme'),
  logo_dark: z.string().describe('portal.logo_dark: overrides logo in the dark theme'),
  sign_in: z
    .enum(['provider', 'link', 'none'])
    .describe(
      'provider: /portal/auth/login signs in through the identity provider (auth.oidc with auth.browser_session); link: `platform dev` ' +
        'prints a one-time sign-in link on its terminal; none: browser sign-in is not configured (auth.browser_session.enabled)',
    ),
  admin_path_prefix: z
    .string()
    .describe('admin.path_prefix when admin.enabled (where the administrators\' pages call the admin API), else empty; whether the caller may use it is GET {prefix}/access'),
  inline_preview_bytes: z
    .number()
    .int()
    .describe(
      'The inline preview bound (spec document 2, Limits: fetch returns bytes inline up to 1 MB): a text file up to this size is ' +
        'shown in the preview pane and opens in the source editor; a larger one is offered as a download',
    ),
  max_upload_bytes: z
    .number()
    .int()
    .describe(
      'resources.managed.max_upload_bytes: the upload ceiling per file (spec document 2, Limits). The upload dialog refuses a larger ' +
        'file before sending it; POST /api/v1/resources refuses it (413) all the same',
    ),
});

export async function portalSettingsRoute(app: App, opts: { config: PlatformConfig; signIn: SignInKind }): Promise<void> {
  const { portal } = opts.config;
  const { admin } = opts.config;
  const settings = {
    title: portal.title,
    logo: portal.logo,
    logo_light: portal.logo_light,
    logo_dark: portal.logo_dark,
    sign_in: opts.signIn,
    admin_path_prefix: admin.enabled ? admin.path_prefix : '',
    inline_preview_bytes: FETCH_INLINE_BYTES,
    max_upload_bytes: opts.config.resources.managed.max_upload_bytes,
  };
  app.get(
    '/api/v1/portal/settings',
    {
      schema: {
        operationId: 'getPortalSettings',
        security: publicOperation,
        tags: ['portal'],
        summary: 'The portal’s brand and how people sign in',
        response: { 200: settingsSchema },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(settings),
  );
}
