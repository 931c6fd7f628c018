/**
 * graphql_export: a GraphQL query (with variables) to a configured endpoint — a
 * `toolkits.graphql.<name>`, or a catalog instance `catalog:<name>` (its GraphQL API at
 * `<url>/api/graphql` with its token) — and the JSON answer stored as a resource. Only queries
 * are sent (a mutation or subscription is refused before anything is sent: an export reads).
 * An error status, and an answer whose `errors` list is not empty, are refused like any upstream
 * error: nothing is stored and the file keeps its last version.
 *
 * A catalog is queried with the platform's catalog token, so `catalog:<name>` is a way around the
 * catalog tools' persona rules unless it is held to them: it is open only to a caller whose
 * persona may use every catalog data read tool (catalogDataReadTools; the local operator may).
 * Anyone else is refused before anything is sent — fail closed, as the persona rules are.
 */
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'graphql';
import { z } from 'zod';
import { catalogDataReadTools, catalogQueryFields, graphqlEndpoint, rootFieldNames } from '../catalog/index.js';
import type { PlatformConfig } from '../config/index.js';
import type { CallerContext } from '../identity/index.js';
import { defineTool, type ToolAccess, type ToolDefinition } from '../mcp-tools/index.js';
import { personaToolAccess } from '../personas/index.js';
import { exportIntoResource, exportResourceInput, exportTargetOf, resourceRefusal, ResourceError } from '../resources/index.js';
import { GraphqlAnswerScanner, graphqlErrorMessages } from './graphql-answer.js';
import { exportOutcome, type ExportToolsDeps } from './results.js';
import { openUpstream, upstreamFailure, type HttpUpstream } from './upstream-http.js';

const CATALOG_PREFIX = 'catalog:';

const input = z.object({
  endpoint: z.string().optional().describe('A toolkits.graphql name, or catalog:<name> for a catalog instance; empty means the first configured one'),
  query: z.string().min(1).describe('The GraphQL query document (queries only)'),
  variables: z.record(z.string(), z.unknown()).optional(),
  operation_name: z.string().optional().describe('Which operation of the document to run, when it holds several'),
  resource: exportResourceInput.describe('Where the file is: the first export creates it, later ones record its next version'),
});

/** The endpoints graphql_export offers: graphql names alphabetically, then catalog:<name>. */
export function graphqlEndpointNames(config: PlatformConfig): string[] {
  return [...Object.keys(config.toolkits.graphql).sort(), ...Object.keys(config.toolkits.catalog).sort().map((n) => `${CATALOG_PREFIX}${n}`)];
}

/** The endpoint a name resolves to, or undefined when none is configured by that name. */
function endpointOf(config: PlatformConfig, maxUpload: number, name: string): { upstream: HttpUpstream; url: URL } | undefined {
  if (name.startsWith(CATALOG_PREFIX)) {
    const key = name.slice(CATALOG_PREFIX.length);
    const catalog = config.toolkits.catalog[key];
    if (!catalog) return undefined;
    return {
      url: new URL(graphqlEndpoint(catalog.url)),
      upstream: {
        name: `catalog "${key}"`,
        headers: {},
        ...(catalog.token ? { auth: { type: 'bearer', token: catalog.token } } : {}),
        timeoutMs: catalog.timeout,
        maxBytes: maxUpload,
      },
    };
  }
  const instance = config.toolkits.graphql[name];
  if (!instance) return undefined;
  return {
    url: new URL(instance.url),
    upstream: {
      name: `graphql "${name}"`,
      headers: instance.headers,
      ...(instance.auth ? { auth: instance.auth } : {}),
      timeoutMs: instance.timeout,
      maxBytes: instance.max_bytes,
    },
  };
}

/** Whether the caller may read a catalog through graphql_export: every catalog data read tool is theirs. */
function mayReadCatalog(access: ToolAccess, caller: CallerContext): boolean {
  // The persona rules read only a tool's name.
  return catalogDataReadTools.every((name) => access.mayUse({ name } as ToolDefinition, caller));
}

/**
 * Why the document may not be sent: unparsable, an operation other than a query, or — to a
 * catalog — a top-level field no catalog tool reads (catalogQueryFields: the platform's catalog
 * token must not fetch secrets, access tokens or users, nor the schema itself).
 */
function documentProblem(query: string, toCatalog: boolean): string | undefined {
  let document;
  try {
    document = parse(query);
  } catch (error) {
    return `the query does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
  const operations = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  if (operations.some((d) => d.operation !== 'query')) return 'graphql_export sends queries only (no mutation or subscription)';
  if (!toCatalog) return undefined;
  const asked = operations.flatMap((d) => rootFieldNames(d.selectionSet, document.definitions));
  const unread = [...new Set(asked)].filter((field) => field !== '__typename' && !catalogQueryFields.has(field));
  return unread.length ? `a catalog export may read only what the catalog tools read (${[...catalogQueryFields].sort().join(', ')}); not ${unread.join(', ')}` : undefined;
}

/** The answer's bytes, unchanged, failing at their end when the answer reported GraphQL errors. */
function checkedAnswer(body: Readable, name: string): Readable {
  async function* checked(): AsyncGenerator<Buffer> {
    const scanner = new GraphqlAnswerScanner();
    const decoder = new StringDecoder('utf8');
    for await (const chunk of body as AsyncIterable<Buffer>) {
      scanner.push(decoder.write(chunk));
      yield chunk;
    }
    scanner.push(decoder.end());
    const errors = scanner.errors();
    if (errors !== undefined) {
      throw new ResourceError('upstream', `${name} answered with GraphQL errors: ${graphqlErrorMessages(errors)}; nothing was exported`);
    }
  }
  return Readable.from(checked());
}

export function graphqlExportTool(deps: ExportToolsDeps): ToolDefinition {
  const names = graphqlEndpointNames(deps.config);
  const personas = personaToolAccess(deps.config.personas);
  return defineTool({
    name: 'graphql_export',
    toolkit: 'graphql',
    title: "Export a GraphQL query's answer into a resource",
    description:
      `Sends one GraphQL query (with variables) to a configured endpoint (${names.join(', ')}) and stores its JSON answer as the resource at resource.library/path/filename. ` +
      'The first export creates the file, each later one to the same path records its next version; an error status or a GraphQL errors answer stores nothing and the file keeps its last version. ' +
      'A catalog:<name> endpoint is open only to callers whose persona may use every catalog read tool (catalog_search, catalog_get_*, catalog_browse), and only for the top-level fields those tools read. ' +
      'The result carries resource.reference and table_changes.',
    input,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async handler(args, ctx) {
      try {
        const name = args.endpoint?.trim() || names[0]!;
        const endpoint = endpointOf(deps.config, deps.config.resources.managed.max_upload_bytes, name);
        if (!endpoint) throw new ResourceError('invalid', `unknown GraphQL endpoint "${name}"; configured: ${names.join(', ')}`);
        if (name.startsWith(CATALOG_PREFIX) && !mayReadCatalog(personas, ctx.caller)) {
          throw new ResourceError('forbidden', `graphql_export to ${name} needs a persona that may use the catalog read tools (${catalogDataReadTools.join(', ')}); nothing was sent`);
        }
        const problem = documentProblem(args.query, name.startsWith(CATALOG_PREFIX));
        if (problem) throw new ResourceError('invalid', `graphql_export refused: ${problem}; nothing was sent`);
        const actor = deps.actorOf(ctx.caller, ctx.sessionId);
        const target = exportTargetOf(args.resource, actor);
        const json = { query: args.query, ...(args.variables ? { variables: args.variables } : {}), ...(args.operation_name ? { operationName: args.operation_name } : {}) };
        const { upstream } = endpoint;
        const opened = await openUpstream(upstream, { method: 'POST', url: endpoint.url, json, accept: 'application/json' }, ctx.signal);
        const answer = { ...opened.answer, contentType: 'application/json', body: checkedAnswer(opened.answer.body as Readable, upstream.name) };
        let created;
        try {
          created = await exportIntoResource(deps.resources, actor, { change_summary: `export from ${upstream.name}`, ...target }, answer, 'export');
        } catch (error) {
          throw upstreamFailure(upstream, opened.url, error, opened.deadline, ctx.signal);
        }
        return await exportOutcome(deps, created, { endpoint: name, upstream_status: opened.answer.status });
      } catch (error) {
        const refusal = resourceRefusal(error);
        if (refusal) return refusal;
        throw error;
      }
    },
  });
}
