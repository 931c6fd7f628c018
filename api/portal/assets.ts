/**
 * The portal's REST routes of assets, under /api/v1/portal/assets (issue 38): list (mine, shared
 * with me, every asset for administrators), read, content, the sandboxed preview frame, versions
 * and restore, edit details, delete, and shares (spec document 1, "Share creation body"): create,
 * list, revoke. Requests authenticate as every REST surface does (RouteContext: header credentials,
 * or a browser session with its CSRF token on writes), before any body is read. The rules live in
 * shared/assets: the owner and platform administrators only (a person a live private share names
 * may read); anyone else gets 404, as for an asset that does not exist. Errors are `{error, message, ...details}`.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../../shared/config/index.js';
import {
  ASSET_CONTENT_TYPES,
  AssetError,
  downloadName,
  MAX_DESCRIPTION_CHARS,
  MAX_NAME_CHARS,
  MAX_NOTICE_CHARS,
  MAX_TAGS,
  type AssetErrorCode,
  type AssetService,
} from '../../shared/assets/index.js';
import { readAll } from '../../shared/objstore/index.js';
import type { App } from '../http/app.js';
import { restSecurity } from '../http/openapi.js';
import type { RestAuthenticator } from '../http/rest-auth.js';
import { userContentHeaders } from '../http/user-content.js';
import { frameHeaders, htmlFrameCsp, jsxFrameCsp, jsxFrameDocument, requestOrigin } from './asset-frame.js';
import { personScope } from './person-scope.js';

export interface AssetRoutesOptions {
  service: AssetService;
  config: Pick<PlatformConfig, 'personas' | 'admin' | 'portal'>;
  authenticate: RestAuthenticator;
  /** The built JSX runtime page (portal/dist/jsx-frame.html); without it a JSX preview answers 503. */
  jsxRuntimePage?: string;
}

const tags = ['portal: assets'];

export const statusByAssetCode: Record<AssetErrorCode, number> = {
  not_found: 404,
  forbidden: 403,
  invalid: 400,
  too_large: 413,
  unsupported: 415,
  conflict: 409,
};

export const assetErrorSchema = z
  .object({
    error: z.string().describe('not_found, forbidden, invalid, too_large, unsupported, conflict, unauthorized, csrf_required, …'),
    message: z.string().describe('What went wrong, naming the rule'),
  })
  .loose()
  .describe('Error');

function errors(...statuses: number[]): Record<number, typeof assetErrorSchema> {
  return Object.fromEntries([401, ...statuses].map((s) => [s, assetErrorSchema]));
}

export const assetActionsSchema = z
  .object({
    read: z.boolean().describe('Details, content, versions'),
    change: z.boolean().describe('Edit details, save a version, restore: the owner and platform administrators'),
    delete: z.boolean(),
    share: z.boolean().describe('Create, list and revoke shares: the owner and platform administrators'),
  })
  .describe('What the caller may do, by the rules the routes enforce');

export const assetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    content_type: z.enum(ASSET_CONTENT_TYPES),
    size: z.number().int(),
    content_sha256: z.string(),
    version: z.number().int().describe('The current version'),
    owner: z.object({ subject: z.string(), email: z.string().optional() }),
    created_at: z.string(),
    updated_at: z.string(),
    portal_url: z.string().optional().describe('The asset\'s portal page, when a base URL is known'),
    shares: z.object({ active: z.number().int(), public_link: z.boolean().describe('A live public link exists') }),
    allowed_actions: assetActionsSchema,
  })
  .describe('Asset');

const referenceSchema = z.object({
  resource_id: z.string(),
  reference: z.string().describe('mcp:resource:<id>'),
  missing: z.boolean().describe('The resource was deleted (with force): the asset reports the file as missing'),
  readable: z.boolean().describe('The caller may open the resource (its page: /portal/resources/<id>); name and uri only then'),
  name: z.string().optional(),
  uri: z.string().optional(),
});

const provenanceSchema = z
  .object({
    origin: z.enum(['agent', 'person']),
    author: z.string(),
    session_id: z.string().nullable().describe('The MCP session that saved the version'),
    calls: z.array(z.object({ id: z.string(), tool: z.string(), at: z.string(), outcome: z.string() })).describe('Tool calls of that session on record before the save, oldest first'),
    sources: z.array(z.string()).describe('What the agent said it drew on'),
  })
  .describe('Who and what produced the current version');

const detailSchema = assetSchema.extend({ references: z.array(referenceSchema).describe('Resources the current version points at'), provenance: provenanceSchema });

const versionSchema = z.object({
  version: z.number().int(),
  content_type: z.string(),
  size: z.number().int(),
  content_sha256: z.string(),
  author: z.string(),
  origin: z.enum(['agent', 'person']),
  change_summary: z.string().nullable(),
  restored_from: z.number().int().nullable(),
  session_id: z.string().nullable(),
  calls_recorded: z.number().int(),
  created_at: z.string(),
});

export const shareSchema = z
  .object({
    id: z.string(),
    asset_id: z.string(),
    created_by: z.string(),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    shared_with_user_id: z.string().nullable(),
    shared_with_email: z.string().nullable(),
    public: z.boolean().describe('A public link: anyone holding it may open it, signed in or not'),
    hide_expiration: z.boolean(),
    notice_text: z.string().nullable().describe('null: the built-in confidentiality notice; "": no notice'),
    state: z.enum(['active', 'expired', 'revoked']),
    revoked_at: z.string().nullable(),
    view_count: z.number().int(),
    last_viewed_at: z.string().nullable(),
  })
  .describe('Share (its link is shown only when it is created)');

export const shareBodySchema = z
  .object({
    expires_in: z.string().optional().describe('Duration string (e.g. 24h, 7d, 1h30m); none: until revoked'),
    shared_with_user_id: z.string().optional().describe('Target user id (subject) for a private share'),
    shared_with_email: z.string().optional().describe('Target address for a private share'),
    hide_expiration: z.boolean().optional().describe('Hide the expiration countdown in the public viewer'),
    notice_text: z
      .string()
      .nullable()
      .optional()
      .describe(`Omit or null gives the built-in confidentiality notice; "" hides the notice; at most ${MAX_NOTICE_CHARS} characters`),
  })
  .describe('Share creation body (spec document 1)');

const idParams = z.object({ id: z.string().min(1).max(100).describe('Asset id') });
const versionQuery = z.object({ version: z.coerce.number().int().min(1).optional().describe('A kept version instead of the current one') });

export async function assetRoutes(app: App, opts: AssetRoutesOptions): Promise<void> {
  const { service, config } = opts;
  const actor = personScope(app, { authenticate: opts.authenticate, config, what: 'asset', isDomainError: (error) => error instanceof AssetError, statusByCode: statusByAssetCode });

  app.get(
    '/api/v1/portal/assets',
    {
      schema: {
        operationId: 'listAssets',
        security: restSecurity,
        tags,
        summary: 'List assets',
        description:
          'scope `mine` (default): the caller\'s assets; `shared_with_me`: assets a live private share names the caller in (by subject or email); ' +
          '`all`: every asset (platform administrators only, else 403). `query`: words matched against name, description and tags. Newest first, paged by cursor.',
        querystring: z.object({
          scope: z.enum(['mine', 'shared_with_me', 'all']).optional(),
          query: z.string().max(500).optional(),
          limit: z.coerce.number().int().min(1).max(200).optional().describe('Default 50'),
          cursor: z.string().max(500).optional(),
        }),
        response: { 200: z.object({ items: z.array(assetSchema), next_cursor: z.string().nullable() }), ...errors(400, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      return service.list(actor(request), {
        scope: q.scope ?? 'mine',
        ...(q.query !== undefined ? { query: q.query } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
      });
    },
  );

  app.get(
    '/api/v1/portal/assets/:id',
    {
      schema: {
        operationId: 'getAsset',
        security: restSecurity,
        tags,
        summary: 'Read an asset\'s details',
        description: 'Details, the resources the current version points at (as the caller may see them; deleted ones as missing) and its provenance. 404 unless the caller may read it.',
        params: idParams,
        response: { 200: detailSchema, ...errors(404) },
      },
    },
    async (request) => service.get(actor(request), request.params.id),
  );

  app.get(
    '/api/v1/portal/assets/:id/content',
    {
      schema: {
        operationId: 'downloadAssetContent',
        security: restSecurity,
        tags,
        summary: 'Download the content',
        description:
          'The current version\'s bytes (or `version`\'s), with the headers of user content: nosniff, `Content-Security-Policy: default-src \'none\'; sandbox`, ' +
          'and Content-Disposition (inline only for PNG and plain text). Never rendered as a page of this origin.',
        params: idParams,
        querystring: versionQuery,
        response: { 200: { description: 'The bytes', content: { 'application/octet-stream': { schema: z.any().meta({ type: 'string', format: 'binary' }) } } }, ...errors(404) },
      },
    },
    async (request, reply) => {
      const { asset, version, body } = await service.openContent(actor(request), request.params.id, request.query.version);
      void reply.headers({
        'content-type': version.content_type.startsWith('text/') || version.content_type === 'application/json' || version.content_type === 'image/svg+xml' ? `${version.content_type}; charset=utf-8` : version.content_type,
        'content-length': String(version.size),
        ...userContentHeaders(version.content_type, downloadName(asset.name, version.content_type)),
        'cache-control': 'private, no-cache',
        etag: `"${version.content_sha256}"`,
      });
      return reply.send(body);
    },
  );

  app.get(
    '/api/v1/portal/assets/:id/frame',
    {
      schema: {
        operationId: 'getAssetFrame',
        security: restSecurity,
        tags,
        summary: 'The sandboxed preview of an HTML or JSX asset',
        description:
          'An HTML document for `<iframe sandbox="allow-scripts">`: the HTML asset itself, or a JSX asset compiled and rendered by the portal\'s JSX runtime. ' +
          'Its CSP sandboxes it onto an opaque origin and forbids every request (no fetch, no images but data:, no frames, no forms); only this origin may frame it. ' +
          '400 for other types (the portal shows those itself).',
        params: idParams,
        querystring: versionQuery.extend({ theme: z.enum(['light', 'dark']).optional().describe('The page\'s theme, for a JSX component that follows it') }),
        response: { 200: { description: 'The frame document', content: { 'text/html': { schema: z.string() } } }, ...errors(400, 404) },
      },
    },
    async (request, reply) => {
      const { version, body } = await service.openContent(actor(request), request.params.id, request.query.version);
      const type = version.content_type;
      if (type !== 'text/html' && type !== 'text/jsx') {
        body.destroy();
        throw new AssetError('invalid', `a ${type} asset is shown by the portal itself; only HTML and JSX are framed`);
      }
      const { bytes } = await readAll(body);
      return sendFrame(reply, type, bytes.toString('utf8'), request.query.theme, requestOrigin(config.portal.public_base_url, request), opts.jsxRuntimePage);
    },
  );

  app.get(
    '/api/v1/portal/assets/:id/versions',
    {
      schema: {
        operationId: 'listAssetVersions',
        security: restSecurity,
        tags,
        summary: 'Versions',
        description: 'The kept versions, newest first (each save is a version; the latest 20 are kept).',
        params: idParams,
        response: { 200: z.object({ items: z.array(versionSchema) }), ...errors(404) },
      },
    },
    async (request) => ({ items: await service.versions(actor(request), request.params.id) }),
  );

  app.post(
    '/api/v1/portal/assets/:id/versions/:version/restore',
    {
      schema: {
        operationId: 'restoreAssetVersion',
        security: restSecurity,
        tags,
        summary: 'Restore a version',
        description: 'Saves the content of a kept version as the next version ("restored from version N"). The owner and platform administrators.',
        params: idParams.extend({ version: z.coerce.number().int().min(1) }),
        response: { 200: assetSchema, ...errors(403, 404, 409) },
      },
    },
    async (request) => service.restore(actor(request), request.params.id, request.params.version),
  );

  app.patch(
    '/api/v1/portal/assets/:id',
    {
      schema: {
        operationId: 'updateAsset',
        security: restSecurity,
        tags,
        summary: 'Edit details',
        description: 'Name, description, tags (the list replaces the current one). The owner and platform administrators.',
        params: idParams,
        body: z.object({
          name: z.string().max(MAX_NAME_CHARS).optional(),
          description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
          tags: z.array(z.string()).max(MAX_TAGS).optional(),
        }),
        response: { 200: assetSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => {
      const b = request.body;
      return service.update(actor(request), request.params.id, {
        ...(b.name !== undefined ? { name: b.name } : {}),
        ...(b.description !== undefined ? { description: b.description } : {}),
        ...(b.tags !== undefined ? { tags: b.tags } : {}),
      });
    },
  );

  app.delete(
    '/api/v1/portal/assets/:id',
    {
      schema: {
        operationId: 'deleteAsset',
        security: restSecurity,
        tags,
        summary: 'Delete',
        description: 'Deletes the asset, every version and every share (their links stop working). The owner and platform administrators.',
        params: idParams,
        response: { 204: z.null().describe('Deleted'), ...errors(403, 404) },
      },
    },
    async (request, reply) => {
      await service.delete(actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/portal/assets/:id/shares',
    {
      schema: {
        operationId: 'createAssetShare',
        security: restSecurity,
        tags,
        summary: 'Create a share',
        description:
          'A public link (no target) or a private share (`shared_with_user_id` and/or `shared_with_email`: only that person, signed in, opens it). ' +
          'The answer is the only place the link appears: the platform keeps only its SHA-256. The owner and platform administrators.',
        params: idParams,
        body: shareBodySchema,
        response: {
          201: z.object({
            share: shareSchema,
            token: z.string().describe('The link\'s secret: shown once'),
            path: z.string().describe('/portal/view/<token>'),
            url: z.string().optional().describe('The full link, when a base URL is known (portal.public_base_url)'),
          }),
          ...errors(400, 403, 404),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createShare(actor(request), request.params.id, request.body)),
  );

  app.get(
    '/api/v1/portal/assets/:id/shares',
    {
      schema: {
        operationId: 'listAssetShares',
        security: restSecurity,
        tags,
        summary: 'List shares',
        description: 'Every share of the asset, newest first, with its state (active, expired, revoked); never the links. The owner and platform administrators.',
        params: idParams,
        response: { 200: z.object({ items: z.array(shareSchema) }), ...errors(403, 404) },
      },
    },
    async (request) => ({ items: await service.listShares(actor(request), request.params.id) }),
  );

  app.delete(
    '/api/v1/portal/assets/:id/shares/:shareId',
    {
      schema: {
        operationId: 'revokeAssetShare',
        security: restSecurity,
        tags,
        summary: 'Revoke a share',
        description: 'The link stops working at once (it answers the same 404 as an unknown one). The owner and platform administrators.',
        params: idParams.extend({ shareId: z.string().min(1).max(100) }),
        response: { 200: shareSchema, ...errors(403, 404) },
      },
    },
    async (request) => service.revokeShare(actor(request), request.params.id, request.params.shareId),
  );
}

/** Answers the sandboxed frame of an HTML or JSX source (asset-frame.ts). */
export function sendFrame(
  reply: import('fastify').FastifyReply,
  type: 'text/html' | 'text/jsx',
  source: string,
  theme: 'light' | 'dark' | undefined,
  origin: string,
  jsxRuntimePage: string | undefined,
) {
  void reply.headers(frameHeaders).type('text/html; charset=utf-8');
  if (type === 'text/html') return reply.header('content-security-policy', htmlFrameCsp).send(source);
  if (!jsxRuntimePage) return reply.code(503).header('content-security-policy', "default-src 'none'; sandbox").type('text/plain; charset=utf-8').send('the JSX runtime is not part of this portal build');
  return reply.header('content-security-policy', jsxFrameCsp(origin)).send(jsxFrameDocument(jsxRuntimePage, source, theme));
}
