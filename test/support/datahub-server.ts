/**
 * A DataHub stand-in for tests: GraphQL over HTTP at `POST /api/graphql` (GMS's path), built with
 * graphql-js `buildSchema` over DataHub's real schema files (test/fixtures/datahub-graphql/)
 * and resolvers over fixture data (datahub-fixtures.ts). Every request is parsed and validated
 * against that schema first, so an operation or field DataHub does not have fails the test with
 * DataHub's kind of answer (HTTP 200, `errors`).
 *
 * - Auth: with `token`, a request without `Authorization: Bearer <token>` gets HTTP 401.
 * - Recording: every request (operation name, document, variables, authorization header) in
 *   `requests`, in arrival order.
 * - Faults per operation name, set at any time (`setFault`): an HTTP status (with headers), GraphQL errors, a
 *   delay, or `hang` (no answer until the client gives up or the server closes).
 * - `semanticSearch: true` adds DataHub 1.4's `semanticSearchAcrossEntities` Query field, which
 *   the schema snapshot predates (a server with vector search).
 *
 * Writes are answered and recorded; createTag/createDomain/createGlossaryTerm add the entity and
 * delete* remove it, and on datasets updateDescription, addTag/removeTag, addTerm/removeTerm and
 * addLink/removeLink change the catalog's edits (a column's with subResource), so a later read
 * sees the change. As DataHub does, those refuse an entity, tag or term that does not exist.
 * Other state is fixed.
 */
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import {
  GraphQLError,
  buildSchema,
  execute,
  getNamedType,
  isObjectType,
  isScalarType,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { buildDatahubFixtures, type DatahubFixtureStore, type GqlObject } from './datahub-fixtures.js';

/**
 * DataHub's schema files: the unmodified snapshot in test/fixtures/datahub-graphql/ (its README
 * names the upstream commit), or DATAHUB_SCHEMA_DIR to check against another DataHub version.
 */
export function datahubSchemaDir(): string {
  return process.env.DATAHUB_SCHEMA_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'datahub-graphql');
}

/** The extension a DataHub 1.4+ server with vector search has (not in the schema snapshot). */
const semanticSearchExtension = 'extend type Query { semanticSearchAcrossEntities(input: SearchAcrossEntitiesInput!): SearchResults }';

const schemaCache = new Map<boolean, GraphQLSchema>();

/** DataHub's GraphQL schema (all files concatenated), optionally with semantic search. */
export function loadDatahubSchema(opts: { semanticSearch?: boolean } = {}): GraphQLSchema {
  const semantic = opts.semanticSearch ?? false;
  const cached = schemaCache.get(semantic);
  if (cached) return cached;
  const dir = datahubSchemaDir();
  const files = readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort();
  if (files.length === 0) throw new Error(`no DataHub schema files in ${dir}`);
  const sdl = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
  const schema = buildSchema(semantic ? `${sdl}\n${semanticSearchExtension}` : sdl);
  schemaCache.set(semantic, schema);
  return schema;
}

export type DatahubFault = { status: number; body?: string; headers?: Record<string, string> } | { graphqlErrors: string[] } | { delayMs: number } | { hang: true };

export interface RecordedRequest {
  operationName: string | undefined;
  query: string;
  variables: Record<string, unknown>;
  authorization: string | undefined;
}

export interface DatahubServerOptions {
  /** Required bearer token; none: any request is accepted. */
  token?: string;
  semanticSearch?: boolean;
}

export interface DatahubServer {
  /** Base URL (what `toolkits.catalog.<name>.url` holds); GraphQL is at `${url}/api/graphql`. */
  url: string;
  requests: RecordedRequest[];
  /** Requests that carried a mutation, in order. */
  mutations(): RecordedRequest[];
  store: DatahubFixtureStore;
  setFault(operationName: string, fault: DatahubFault | undefined): void;
  close(): Promise<void>;
}

interface RequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

const operationOf = (doc: DocumentNode, name: string | undefined) =>
  doc.definitions.find((d) => d.kind === 'OperationDefinition' && (name === undefined || d.name?.value === name));

export async function startDatahubServer(opts: DatahubServerOptions = {}): Promise<DatahubServer> {
  const schema = loadDatahubSchema({ semanticSearch: opts.semanticSearch ?? false });
  const store = buildDatahubFixtures();
  const requests: RecordedRequest[] = [];
  const faults = new Map<string, DatahubFault>();
  const root = { ...queryResolvers(store), ...mutationResolvers(schema, store) };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, text: string): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/api/graphql') return send(res, 404, { message: 'not found' });
    let body: RequestBody;
    try {
      body = JSON.parse(text) as RequestBody;
    } catch {
      return send(res, 400, { message: 'body is not JSON' });
    }
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = (body.variables && typeof body.variables === 'object' ? body.variables : {}) as Record<string, unknown>;
    const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
    requests.push({ operationName, query, variables, authorization: req.headers.authorization });
    if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) return send(res, 401, { message: 'Unauthorized to perform this action.' });

    const fault = operationName ? faults.get(operationName) : undefined;
    if (fault && 'hang' in fault) return; // answered never; closed by the client's abort or by close()
    if (fault && 'delayMs' in fault) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault && 'status' in fault) return send(res, fault.status, fault.body ?? { message: `HTTP ${fault.status}` }, fault.headers);
    if (fault && 'graphqlErrors' in fault) return send(res, 200, { errors: fault.graphqlErrors.map((message) => ({ message })), data: null });

    let doc: DocumentNode;
    try {
      doc = parse(query);
    } catch (error) {
      return send(res, 200, { errors: [{ message: (error as GraphQLError).message }] });
    }
    const errors = validate(schema, doc);
    if (errors.length > 0) return send(res, 200, { errors: errors.map((e) => ({ message: e.message })) });
    if (!operationOf(doc, operationName)) return send(res, 200, { errors: [{ message: `unknown operation ${operationName ?? ''}` }] });
    const result = await execute({ schema, document: doc, rootValue: root, variableValues: variables, ...(operationName ? { operationName } : {}) });
    send(res, 200, result);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    mutations: () => requests.filter((r) => /^\s*mutation\b/.test(r.query)),
    store,
    setFault(name, fault) {
      if (fault) faults.set(name, fault);
      else faults.delete(name);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

// ---------------------------------------------------------------------------
// Query resolvers

interface SearchArgs {
  input: { type?: string; types?: string[]; query: string; start?: number; count?: number };
}

function matches(entity: GqlObject, query: string): boolean {
  if (query === '*' || query.trim() === '') return true;
  const text = JSON.stringify([entity.urn, entity.name, entity.properties]).toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word.replace(/\*/g, '')));
}

function page<T>(items: T[], start = 0, count = 10) {
  return { start, count: Math.min(count, Math.max(0, items.length - start)), total: items.length, items: items.slice(start, start + count) };
}

function searchResults(store: DatahubFixtureStore, types: string[] | undefined, query: string, start?: number, count?: number) {
  const hits = [...store.entities.values()].filter((e) => (!types || types.includes(e.type as string)) && matches(e, query));
  const p = page(hits, start, count);
  return { start: p.start, count: p.count, total: p.total, searchResults: p.items.map((entity) => ({ entity, matchedFields: [] })) };
}

/** Breadth-first over table lineage: each reachable dataset with its shortest degree and every path to it. */
function lineageResults(store: DatahubFixtureStore, start: string, direction: string) {
  const next = (urn: string): string[] =>
    direction === 'UPSTREAM'
      ? (store.upstreams[urn] ?? [])
      : Object.entries(store.upstreams)
          .filter(([, ups]) => ups.includes(urn))
          .map(([down]) => down);
  const found = new Map<string, { degree: number; paths: string[][] }>();
  let frontier: string[][] = [[start]];
  for (let degree = 1; frontier.length > 0; degree++) {
    const nextFrontier: string[][] = [];
    for (const pathSoFar of frontier) {
      for (const urn of next(pathSoFar.at(-1) as string)) {
        if (pathSoFar.includes(urn)) continue;
        const p = [...pathSoFar, urn];
        const seen = found.get(urn);
        if (seen) seen.paths.push(p);
        else found.set(urn, { degree, paths: [p] });
        nextFrontier.push(p);
      }
    }
    frontier = nextFrontier;
  }
  return [...found.entries()].map(([urn, f]) => ({
    entity: store.entities.get(urn),
    degree: f.degree,
    degrees: [f.degree],
    paths: f.paths.map((p) => ({ path: p.map((u) => store.entities.get(u)) })),
    matchedFields: [],
    explored: true,
    truncatedChildren: false,
    ignoredAsHop: false,
  }));
}

function queryResolvers(store: DatahubFixtureStore) {
  const get = (urn: string) => store.entities.get(urn) ?? null;
  const ofType = (urn: string, typename: string) => {
    const e = get(urn);
    return e && e.__typename === typename ? e : null;
  };
  // Fields that take arguments, resolved over this server's store: set on copies, since the
  // fixture objects are shared by every server in the process.
  for (const original of [...store.entities.values()]) {
    const e: GqlObject = { ...original };
    store.entities.set(e.urn as string, e);
    if (e.__typename === 'Domain') {
      e.entities = () => {
        const n = [...store.entities.values()].filter((x) => (x.domain as { domain?: { urn?: string } } | null)?.domain?.urn === e.urn).length;
        return { start: 0, count: 0, total: n, searchResults: [] };
      };
    }
    if (e.__typename === 'DataProduct') {
      e.entities = (args: { input?: { start?: number; count?: number } }) => {
        const assets = (store.dataProductAssets[e.urn as string] ?? []).map(get).filter((x): x is GqlObject => x !== null);
        const p = page(assets, args.input?.start ?? 0, args.input?.count ?? 10);
        return { start: p.start, count: p.count, total: p.total, searchResults: p.items.map((entity) => ({ entity, matchedFields: [] })) };
      };
    }
  }
  return {
    search: ({ input }: SearchArgs) => searchResults(store, input.type ? [input.type] : undefined, input.query, input.start, input.count),
    searchAcrossEntities: ({ input }: SearchArgs) => searchResults(store, input.types, input.query, input.start, input.count),
    semanticSearchAcrossEntities: ({ input }: SearchArgs) => searchResults(store, input.types, input.query, input.start, input.count),
    entity: ({ urn }: { urn: string }) => get(urn),
    entities: ({ urns }: { urns: string[] }) => urns.map(get).filter((e) => e !== null),
    dataset: ({ urn }: { urn: string }) => ofType(urn, 'Dataset'),
    glossaryTerm: ({ urn }: { urn: string }) => ofType(urn, 'GlossaryTerm'),
    dataProduct: ({ urn }: { urn: string }) => ofType(urn, 'DataProduct'),
    searchAcrossLineage: ({ input }: { input: { urn: string; direction: string; start?: number; count?: number } }) => {
      const all = lineageResults(store, input.urn, input.direction);
      const p = page(all, input.start ?? 0, input.count ?? 10);
      return { start: p.start, count: p.count, total: p.total, searchResults: p.items };
    },
    listQueries: ({ input }: { input: { datasetUrn?: string; start?: number; count?: number } }) => {
      const qs = store.queries.filter((q) => !input.datasetUrn || q.datasetUrn === input.datasetUrn).map((q) => q.entity);
      const p = page(qs, input.start ?? 0, input.count ?? 20);
      return { start: p.start, count: p.count, total: p.total, queries: p.items };
    },
    listDomains: ({ input }: { input: { start?: number; count?: number } }) => {
      const ds = [...store.entities.values()].filter((e) => e.__typename === 'Domain');
      const p = page(ds, input.start ?? 0, input.count ?? 10);
      return { start: p.start, count: p.count, total: p.total, domains: p.items };
    },
  };
}

// ---------------------------------------------------------------------------
// Mutation resolvers

let created = 0;

/**
 * Every Mutation field answers with a value of its return type (true, a new URN, or an object with
 * one); the few that change what reads see are below.
 */
function mutationResolvers(schema: GraphQLSchema, store: DatahubFixtureStore): Record<string, (args: Record<string, unknown>) => unknown> {
  const out: Record<string, (args: Record<string, unknown>) => unknown> = {};
  const mutation = schema.getMutationType();
  for (const [name, field] of Object.entries(mutation?.getFields() ?? {})) {
    const type = getNamedType(field.type);
    out[name] = () => {
      const urn = `urn:li:${name}:${++created}`;
      if (isScalarType(type)) return type.name === 'Boolean' ? true : urn;
      if (isObjectType(type)) return { __typename: type.name, urn, type: 'OTHER', properties: [] };
      return null;
    };
  }
  const add = (e: GqlObject) => {
    store.entities.set(e.urn as string, e);
    return e.urn;
  };
  type NamedInput = { input: { id?: string; name: string; description?: string } };
  out.createTag = (args) => {
    const { id, name, description } = (args as NamedInput).input;
    return add({ __typename: 'Tag', urn: `urn:li:tag:${id ?? name}`, type: 'TAG', name, properties: { name, description: description ?? null } });
  };
  out.createDomain = (args) => {
    const { id, name, description } = (args as NamedInput).input;
    const urn = `urn:li:domain:${id ?? name.toLowerCase()}`;
    return add({ __typename: 'Domain', urn, type: 'DOMAIN', id: id ?? name, properties: { name, description: description ?? null }, parentDomains: { count: 0, domains: [] } });
  };
  out.createGlossaryTerm = (args) => {
    const { id, name, description } = (args as NamedInput).input;
    const urn = `urn:li:glossaryTerm:${id ?? name}`;
    return add({ __typename: 'GlossaryTerm', urn, type: 'GLOSSARY_TERM', hierarchicalName: name, properties: { name, description: description ?? null, termSource: 'INTERNAL' } });
  };
  Object.assign(out, datasetEditResolvers(store));
  for (const name of ['deleteQuery', 'deleteTag', 'deleteDomain', 'deleteGlossaryEntity', 'deleteDataProduct', 'deleteApplication', 'deleteDocument']) {
    out[name] = (args) => store.entities.delete(args.urn as string) || true;
  }
  return out;
}

interface LabelInput {
  resourceUrn: string;
  subResource?: string | null;
}

/**
 * DataHub's edits of a dataset as its mutations make them: the edited description, tags and
 * terms (the dataset's, or a column's in editableSchemaMetadata) and institutional-memory links.
 * The entity objects' nested values are shared by every server, so each edit replaces them.
 */
function datasetEditResolvers(store: DatahubFixtureStore): Record<string, (args: Record<string, unknown>) => unknown> {
  const dataset = (urn: string) => {
    const e = store.entities.get(urn);
    if (!e || e.__typename !== 'Dataset') throw new GraphQLError(`Failed to update resource with urn ${urn}: entity does not exist.`);
    return e;
  };
  const label = (urn: string, typename: 'Tag' | 'GlossaryTerm') => {
    const e = store.entities.get(urn);
    if (!e || e.__typename !== typename) throw new GraphQLError(`Failed to update resource: ${urn} does not exist.`);
    return e;
  };
  type Field = Record<string, unknown> & { fieldPath: string };
  /** Changes the dataset's own edits, or those of the column `subResource`. */
  const edit = (input: LabelInput, change: (target: Record<string, unknown>) => Record<string, unknown>) => {
    const e = dataset(input.resourceUrn);
    if (!input.subResource) {
      Object.assign(e, change(e));
      return true;
    }
    const fields = ((e.editableSchemaMetadata as { editableSchemaFieldInfo?: Field[] } | null)?.editableSchemaFieldInfo ?? []).slice();
    const at = fields.findIndex((f) => f.fieldPath === input.subResource);
    const field: Field = at >= 0 ? fields[at]! : { fieldPath: input.subResource, description: null, tags: null, glossaryTerms: null };
    const changed = { ...field, ...change(field) };
    if (at >= 0) fields[at] = changed;
    else fields.push(changed);
    e.editableSchemaMetadata = { editableSchemaFieldInfo: fields };
    return true;
  };
  const listed = (value: unknown, key: 'tags' | 'terms') => ((value as Record<string, unknown[]> | null)?.[key] ?? []) as Array<Record<string, { urn?: string }>>;
  const withLabel = (target: Record<string, unknown>, field: 'tags' | 'glossaryTerms', key: 'tags' | 'terms', inner: 'tag' | 'term', entity: Record<string, unknown>, add: boolean) => {
    const kept = listed(target[field], key).filter((a) => a[inner]?.urn !== entity.urn);
    return { [field]: { [key]: add ? [...kept, { [inner]: entity, associatedUrn: target.urn ?? null }] : kept } };
  };
  type TagArgs = { input: LabelInput & { tagUrn: string } };
  type TermArgs = { input: LabelInput & { termUrn: string } };
  type LinkArgs = { input: { resourceUrn: string; linkUrl: string; label?: string } };
  const links = (e: Record<string, unknown>) => ((e.institutionalMemory as { elements?: Array<{ url: string }> } | null)?.elements ?? []);
  return {
    updateDescription: (args) => {
      const { input } = args as { input: LabelInput & { description: string } };
      return edit(input, (t) => (input.subResource ? { description: input.description } : { editableProperties: { ...(t.editableProperties as object | null), description: input.description } }));
    },
    addTag: (args) => {
      const { input } = args as TagArgs;
      return edit(input, (t) => withLabel(t, 'tags', 'tags', 'tag', label(input.tagUrn, 'Tag'), true));
    },
    removeTag: (args) => {
      const { input } = args as TagArgs;
      return edit(input, (t) => withLabel(t, 'tags', 'tags', 'tag', { urn: input.tagUrn }, false));
    },
    addTerm: (args) => {
      const { input } = args as TermArgs;
      return edit(input, (t) => withLabel(t, 'glossaryTerms', 'terms', 'term', label(input.termUrn, 'GlossaryTerm'), true));
    },
    removeTerm: (args) => {
      const { input } = args as TermArgs;
      return edit(input, (t) => withLabel(t, 'glossaryTerms', 'terms', 'term', { urn: input.termUrn }, false));
    },
    addLink: (args) => {
      const { input } = args as LinkArgs;
      const e = dataset(input.resourceUrn);
      const kept = links(e).filter((l) => l.url !== input.linkUrl);
      e.institutionalMemory = { elements: [...kept, { url: input.linkUrl, label: input.label ?? input.linkUrl, description: input.label ?? '', associatedUrn: e.urn }] };
      return true;
    },
    removeLink: (args) => {
      const { input } = args as LinkArgs;
      const e = dataset(input.resourceUrn);
      e.institutionalMemory = { elements: links(e).filter((l) => l.url !== input.linkUrl) };
      return true;
    },
  };
}
