/**
 * `GET /api/v1/resources/search?q=` for the portal: the lexical search of shared/search (the same
 * ranking and scoping as the MCP `search` tool: the caller's own library, member personas and
 * global, administrators included), paged by offset. Registered by resourceRoutes inside its scope
 * (its authentication hook and error handler).
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import type { Db } from '../../shared/db/index.js';
import { readableLibraries, type ResourceActor } from '../../shared/resources/index.js';
import { DEFAULT_SEARCH_LIMIT, hitUrl, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, searchResources, type Embedder } from '../../shared/search/index.js';
import { errorResponses } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

export interface SearchRouteOptions {
  db: Db;
  /** `portal.public_base_url`: hits link to the portal's pages under it. */
  publicBaseUrl?: string;
  /** With an embedder, hits are ranked by meaning too (the same ranking as the search tool). */
  embedder?: Embedder;
}

const querySchema = z.object({
  q: z.string().min(1).max(MAX_QUERY_CHARS).describe('The words to look for'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT).describe(`Hits per page (at most ${MAX_SEARCH_LIMIT})`),
  offset: z.coerce.number().int().min(0).max(10_000).default(0).describe('Hits to skip: the previous page’s next_offset'),
});

const hitSchema = z.object({
  kind: z.enum(['resource', 'folder']).describe('A file, or one entry for a folder whose files are not indexed one by one'),
  id: z.string().describe('The resource id, or folder:<library>/<path>'),
  library: z.string(),
  path: z.string(),
  title: z.string(),
  description: z.string(),
  snippet: z.string().describe('A passage of the matching text'),
  score: z.number(),
  url: z.string().describe('The portal page (portal.public_base_url), else the canonical URI or <library>/<path>'),
  reference: z.string().optional(),
  uri: z.string().optional(),
  file_name: z.string().optional(),
  content_type: z.string().optional(),
  size: z.number().optional(),
  updated_at: z.string().optional(),
  file_count: z.number().optional(),
  types: z.array(z.string()).optional(),
  names: z.array(z.string()).optional(),
});

export function registerSearchRoute(app: App, opts: SearchRouteOptions, actor: (request: FastifyRequest) => ResourceActor): void {
  app.get(
    '/api/v1/resources/search',
    {
      schema: {
        operationId: 'searchResources', security: restSecurity,
        tags: ['resources'],
        summary: 'Search resources',
        description:
          'Files (and folder entries) matching `q` by name, tags, description, folder and contents, best first; membership-scoped for ' +
          'everyone, administrators included (own library, member personas, global). Paged by `offset`; `next_offset` is null on the last page.',
        querystring: querySchema,
        response: { 200: z.object({ items: z.array(hitSchema), next_offset: z.number().nullable() }), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { q, limit, offset } = request.query as z.output<typeof querySchema>;
      const deps = { db: opts.db, log: request.log, ...(opts.embedder ? { embedder: opts.embedder } : {}) };
      const page = await searchResources(deps, readableLibraries(actor(request)), q, { limit, offset });
      return { items: page.hits.map((hit) => ({ ...hit, url: hitUrl(hit, opts.publicBaseUrl) })), next_offset: page.more ? offset + limit : null };
    },
  );
}
