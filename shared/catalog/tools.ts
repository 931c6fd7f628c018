/**
 * The catalog_* read tools (toolkits.md 2.2, with our names) and catalog_list_connections. Each
 * accepts `connection` (the instance key or connection_name; none: the default instance), clamps
 * sizes to the instance's default_limit / max_limit and lineage depth to max_lineage_depth, and
 * answers JSON text plus structuredContent.
 */
import { z } from 'zod';
import { redactUrlSecrets } from '../logging/index.js';
import { defineTool, type ToolDefinition } from '../mcp-tools/index.js';
// A requested size: none or ≤ 0 means the default; above the maximum is clamped, not refused.
import { effectiveLimit as clampLimit } from '../sql/index.js';
import type { BrowseWhat } from './client.js';
import type { CatalogConnection, CatalogConnections } from './connections.js';
import { walkColumnLineage } from './lineage-walk.js';
import { answer } from './tool-results.js';
import type { LineageDirection } from './types.js';

/** A SQL or object-store connection the platform offers, as catalog_list_connections shows it. */
export interface PlatformConnectionSummary {
  kind: 'sql' | 'objstore';
  name: string;
  display_name?: string;
  /** `duckdb`/`trino` for SQL, `s3`/`filesystem` for object storage. */
  engine: string;
  is_default: boolean;
  read_only: boolean;
}

export interface CatalogToolsContext {
  catalog: CatalogConnections;
  /** Descriptions by tool name (per-instance `descriptions`), replacing the built-in text. */
  descriptions: Readonly<Record<string, string>>;
  /** The platform's other connections, for catalog_list_connections. */
  platformConnections: () => PlatformConnectionSummary[];
}

export { catalogDataReadTools } from '../mcp-tools/index.js';

export const connectionArg = z.string().optional().describe('Catalog connection; the default catalog when omitted. catalog_list_connections lists them.');
const urnArg = z.string().min(1).describe('Entity URN, e.g. urn:li:dataset:(urn:li:dataPlatform:trino,hive.sales.orders,PROD)');
export const readAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

/** Lineage depth: default 1, at least 1, at most max_lineage_depth. */
export function clampDepth(requested: number | undefined, maxDepth: number): number {
  return Math.max(1, Math.min(Math.floor(requested ?? 1), maxDepth));
}

const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v);

export function catalogReadTools(context: CatalogToolsContext): ToolDefinition[] {
  const describe = (name: string, builtIn: string) => context.descriptions[name] ?? builtIn;
  /** Resolves the connection inside the answer, so an unknown name is an ordinary tool error. */
  const on = (name: string | undefined) => async (): Promise<CatalogConnection> => context.catalog.connection(name);

  const search = defineTool({
    name: 'catalog_search',
    toolkit: 'catalog',
    title: 'Search the catalog',
    description: describe(
      'catalog_search',
      'Search the metadata catalog for datasets (or another entity type) by keyword; mode "semantic" searches by meaning where the catalog supports it. ' +
        'Returns entities with name, description, platform, owners, tags and domain. Start here before querying data.',
    ),
    input: z.object({
      query: z.string().min(1).describe('Search text; "*" lists everything of the type'),
      entity_type: z.string().optional().describe('Entity type (default DATASET), e.g. dataset, dashboard, glossaryTerm, dataProduct'),
      limit: z.number().int().optional().describe('Results per page (default 10; at most the connection max_limit, 100)'),
      offset: z.number().int().min(0).optional().describe('Results to skip (default 0)'),
      mode: z.enum(['keyword', 'semantic']).optional().describe('keyword (default) or semantic (DataHub 1.4+ with semantic search)'),
      connection: connectionArg,
    }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const c = await on(args.connection)();
        const limit = clampLimit(args.limit, c.config.default_limit, c.config.max_limit);
        return c.client.search(
          { query: args.query, limit, offset: args.offset ?? 0, mode: args.mode ?? 'keyword', ...(args.entity_type ? { entityType: args.entity_type } : {}) },
          { signal: ctx.signal },
        );
      }),
  });

  const getEntity = defineTool({
    name: 'catalog_get_entity',
    toolkit: 'catalog',
    title: 'Get a catalog entity',
    description: describe(
      'catalog_get_entity',
      'Full metadata of one catalog entity by URN: description, owners, tags, glossary terms, domain, deprecation, properties and health.',
    ),
    input: z.object({ urn: urnArg, connection: connectionArg }),
    annotations: readAnnotations,
    handler: (args, ctx) => answer(ctx.log, async () => (await on(args.connection)()).client.getEntity(args.urn, { signal: ctx.signal })),
  });

  const getSchema = defineTool({
    name: 'catalog_get_schema',
    toolkit: 'catalog',
    title: 'Get a dataset schema',
    description: describe(
      'catalog_get_schema',
      "A dataset's schema: every field with type, description, tags and glossary terms, primary and foreign keys, and the dataset's owners, tags, terms, domain, deprecation and health.",
    ),
    input: z.object({ urn: urnArg, connection: connectionArg }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const { schema, dataset } = await (await on(args.connection)()).client.getSchema(args.urn, { signal: ctx.signal });
        return { ...(schema ?? { fields: [] }), dataset };
      }),
  });

  const getLineage = defineTool({
    name: 'catalog_get_lineage',
    toolkit: 'catalog',
    title: 'Get lineage',
    description: describe(
      'catalog_get_lineage',
      'Lineage of a dataset. level "dataset" (default): the entities up- or downstream (default DOWNSTREAM) within depth hops, with the edges between them. ' +
        'level "column": column-to-column mappings from fine-grained lineage (default UPSTREAM, where each column comes from). depth defaults to 1 and is clamped to the connection max_lineage_depth (5).',
    ),
    input: z.object({
      urn: urnArg,
      level: z.enum(['dataset', 'column']).optional().describe('dataset (default) or column'),
      direction: z.preprocess(upper, z.enum(['UPSTREAM', 'DOWNSTREAM'])).optional().describe('UPSTREAM or DOWNSTREAM (case-insensitive)'),
      depth: z.number().int().optional().describe('Hops to follow (default 1; clamped to max_lineage_depth)'),
      connection: connectionArg,
    }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const c = await on(args.connection)();
        const depth = clampDepth(args.depth, c.config.max_lineage_depth);
        if (args.level === 'column') {
          const direction: LineageDirection = args.direction ?? 'UPSTREAM';
          const mappings = await walkColumnLineage(c.client, args.urn, { direction, depth }, { signal: ctx.signal });
          return { dataset_urn: args.urn, direction, depth, mappings };
        }
        return c.client.getLineage(args.urn, { direction: args.direction ?? 'DOWNSTREAM', depth }, { signal: ctx.signal });
      }),
  });

  const getQueries = defineTool({
    name: 'catalog_get_queries',
    toolkit: 'catalog',
    title: 'Get saved queries of a dataset',
    description: describe('catalog_get_queries', 'SQL queries saved in the catalog for a dataset (or its most frequent queries from usage statistics): statement, name, description, author.'),
    input: z.object({
      urn: urnArg,
      limit: z.number().int().optional().describe('Queries to return (default 10; at most the connection max_limit)'),
      connection: connectionArg,
    }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const c = await on(args.connection)();
        return c.client.getQueries(args.urn, { limit: clampLimit(args.limit, c.config.default_limit, c.config.max_limit) }, { signal: ctx.signal });
      }),
  });

  const getGlossaryTerm = defineTool({
    name: 'catalog_get_glossary_term',
    toolkit: 'catalog',
    title: 'Get a glossary term',
    description: describe('catalog_get_glossary_term', 'One business glossary term: definition, parent node, owners, related terms and properties.'),
    input: z.object({ urn: z.string().min(1).describe('Glossary term URN, e.g. urn:li:glossaryTerm:Commerce.Revenue'), connection: connectionArg }),
    annotations: readAnnotations,
    handler: (args, ctx) => answer(ctx.log, async () => (await on(args.connection)()).client.getGlossaryTerm(args.urn, { signal: ctx.signal })),
  });

  const browse = defineTool({
    name: 'catalog_browse',
    toolkit: 'catalog',
    title: 'Browse tags, domains or data products',
    description: describe('catalog_browse', 'List the catalog\'s tags (optionally matching filter), domains (with entity counts) or data products.'),
    input: z.object({
      what: z.enum(['tags', 'domains', 'data_products']).describe('What to list'),
      filter: z.string().optional().describe('Text the tag names must match (tags only)'),
      limit: z.number().int().optional().describe('Entries to return (default and maximum: the connection max_limit)'),
      connection: connectionArg,
    }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const c = await on(args.connection)();
        const limit = clampLimit(args.limit, c.config.max_limit, c.config.max_limit);
        return c.client.browse(args.what as BrowseWhat, { limit, ...(args.what === 'tags' && args.filter ? { filter: args.filter } : {}) }, { signal: ctx.signal });
      }),
  });

  const getDataProduct = defineTool({
    name: 'catalog_get_data_product',
    toolkit: 'catalog',
    title: 'Get a data product',
    description: describe('catalog_get_data_product', 'One data product: description, domain, owners, properties and the URNs of its assets (at most the connection max_limit).'),
    input: z.object({ urn: z.string().min(1).describe('Data product URN'), connection: connectionArg }),
    annotations: readAnnotations,
    handler: (args, ctx) =>
      answer(ctx.log, async () => {
        const c = await on(args.connection)();
        return c.client.getDataProduct(args.urn, { assetLimit: c.config.max_limit }, { signal: ctx.signal });
      }),
  });

  const listConnections = defineTool({
    name: 'catalog_list_connections',
    toolkit: 'catalog',
    title: 'List catalog and data connections',
    description: describe(
      'catalog_list_connections',
      'List the catalog connections (name, URL, default, read-only) and the SQL and object-store connections the platform offers, so catalog entities can be matched to where their data is queried or stored.',
    ),
    input: z.object({}),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    handler: (_args, ctx) =>
      answer(ctx.log, async () => {
        const catalogs = [...context.catalog.connections.values()]
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((c) => ({
            kind: 'catalog' as const,
            name: c.name,
            ...(c.displayName !== c.name ? { display_name: c.displayName } : {}),
            url: redactUrlSecrets(c.config.url),
            is_default: c.name === context.catalog.defaultConnection,
            read_only: c.config.read_only,
          }));
        const connections = [...catalogs, ...context.platformConnections()];
        return { connections, count: connections.length };
      }),
  });

  return [search, getEntity, getSchema, getLineage, getQueries, getGlossaryTerm, browse, getDataProduct, listConnections];
}
