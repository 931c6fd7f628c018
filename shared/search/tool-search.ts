/**
 * The MCP tool `search` (spec document 2, "Reading"): the shape AI clients use for connectors —
 * `search(query)` answers `{results: [{id, title, text, url}]}` — over the managed resources the
 * caller may read (membership-scoped, administrators included). Each resource result also carries
 * its `mcp:resource:<id>` reference (what `fetch` takes) and a `resource_link` content block; a
 * folder whose files are not indexed one by one answers as one result (id `folder:<library>/<path>`).
 * A file queried through SQL tables carries them (`tables`: attached-tables.ts).
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import type { Db } from '../db/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import { readableLibraries, type ResourceActor } from '../resources/index.js';
import type { AttachedTable, AttachedTables } from './attached-tables.js';
import type { Embedder } from './embeddings/index.js';
import { searchResources } from './hybrid.js';
import { DEFAULT_SEARCH_LIMIT, hitUrl, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, type SearchHit } from './lexical.js';

export interface SearchToolOptions {
  config: Pick<PlatformConfig, 'portal'>;
  db: Db;
  /** The caller as a resource actor (its libraries and personas). */
  actorOf(caller: CallerContext, sessionId?: string): ResourceActor;
  /** With an embedder, hits are ranked by meaning too (hybrid.ts); without, lexically. */
  embedder?: Embedder;
  /** The tables attached to the files found (registered tables, compacted webhook windows). */
  attachedTables?: AttachedTables;
}

const input = z.object({
  query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to look for: words of a file’s name, tags, description, folder or contents.'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Results to return (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).`),
  offset: z.number().int().min(0).optional().describe('Results to skip, for the next page.'),
});

const description = `Search the managed resources you can read (your own library, your personas' libraries, the global one): files people keep for agents — templates, brand files, data dictionaries, samples, references.

Matches names and tags first, then descriptions, folders and file contents (text, PDF, office documents). Result: {results: [{id, title, text, url, reference, kind}], more}. text is a passage of the match. For a file, pass reference (mcp:resource:<id>) to \`fetch\` to read it; each file also comes as a resource link. A file queried through SQL tables lists them as tables: [{connection, table}] (query it with sql_query on that connection). kind "folder" is one entry for a folder whose files are not indexed one by one (its id is folder:<library>/<path>).`;

interface SearchResult {
  id: string;
  title: string;
  text: string;
  url: string;
  kind: SearchHit['kind'];
  reference?: string;
  tables?: AttachedTable[];
}

export function searchTool(opts: SearchToolOptions): ToolDefinition {
  const baseUrl = opts.config.portal.public_base_url || undefined;
  return defineTool({
    name: 'search',
    toolkit: 'platform',
    title: 'Search resources',
    description,
    input,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx): Promise<CallToolResult> {
      const actor = opts.actorOf(ctx.caller, ctx.sessionId);
      const deps = { db: opts.db, log: ctx.log, ...(opts.embedder ? { embedder: opts.embedder } : {}) };
      const page = await searchResources(deps, readableLibraries(actor), args.query, { limit: args.limit ?? DEFAULT_SEARCH_LIMIT, offset: args.offset ?? 0 });
      const fileIds = page.hits.flatMap((hit) => (hit.kind === 'resource' ? [hit.id] : []));
      const attached = opts.attachedTables ? await opts.attachedTables(fileIds) : new Map<string, AttachedTable[]>();
      const results = page.hits.map((hit): SearchResult => {
        const tables = attached.get(hit.id);
        return {
          id: hit.id,
          title: hit.kind === 'resource' ? hit.title : `Folder ${hit.library}/${hit.path}`,
          text: hit.snippet,
          url: hitUrl(hit, baseUrl),
          kind: hit.kind,
          ...(hit.kind === 'resource' ? { reference: hit.reference } : {}),
          ...(tables ? { tables } : {}),
        };
      });
      const structured = { results, more: page.more };
      return {
        content: [
          { type: 'text', text: JSON.stringify(structured) },
          ...page.hits.flatMap((hit) =>
            hit.kind === 'resource'
              ? [{ type: 'resource_link' as const, uri: hit.uri, name: hit.file_name, title: hit.title, mimeType: hit.content_type, ...(hit.description ? { description: hit.description } : {}) }]
              : [],
          ),
        ],
        structuredContent: structured,
      };
    },
  });
}
