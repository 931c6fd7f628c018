/**
 * The DataHub client: GraphQL over HTTP POST to `<url>/api/graphql` (GMS; a url that already ends
 * in `/api/graphql` or `/api/v2/graphql` is used as is), the token as a Bearer header, every request
 * under `timeout` (and the caller's signal). Failures are CatalogErrors whose messages never carry
 * the token: HTTP status (401/403 → unauthenticated), GraphQL `errors`, timeout, unreachable.
 * With `debug`, each operation is logged with its name and variables (secrets redacted).
 */
import { fetchFollowing, readCappedText } from '../http/index.js';
import { redactUrlSecrets, isSecretParamName, type Logger } from '../logging/index.js';
import { raceSignal } from '../sql/index.js';
import { CatalogError, CatalogGraphQLError, CatalogHttpError, CatalogTimeoutError } from './errors.js';
import * as map from './mapping.js';
import type { Gql } from './mapping.js';
import * as ops from './operations/index.js';
import type { Operation } from './operations/index.js';
import type {
  CatalogEntity,
  ColumnLineage,
  DataProduct,
  DatasetSchema,
  Domain,
  EditableState,
  GlossaryTerm,
  LineageDirection,
  LineageGraph,
  QueryList,
  SearchResult,
  Tag,
} from './types.js';

export interface CatalogClientOptions {
  /** The instance name (`toolkits.catalog.<name>`), used in messages and logs. */
  name: string;
  url: string;
  token?: string;
  timeoutMs: number;
  debug?: boolean;
  log: Logger;
  /** Milliseconds since the epoch (tests inject one). */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export type BrowseWhat = 'tags' | 'domains' | 'data_products';
export type BrowseResult = { tags: Tag[] } | { domains: Domain[] } | { data_products: DataProduct[] };

/**
 * How long a server that refused introspection is taken at its word before it is asked again:
 * meanwhile whether it has semantic search is unknown, and a semantic search itself tells.
 */
export const introspectionRefusalMs = 5 * 60_000;

/** How many lineage results one searchAcrossLineage asks for. */
const lineageResultCount = 1000;

/** `dataProduct`, `data_product`, `glossaryTerm` → DataHub's EntityType enum name. */
export function entityTypeEnum(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s-]+/g, '_')
    .toUpperCase();
}

export function graphqlEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  return /\/api\/(v2\/)?graphql$/.test(trimmed) ? trimmed : `${trimmed}/api/graphql`;
}

/** Variables as a debug line shows them: values under secret-looking keys hidden, URL secrets hidden. */
export function redactVariables(value: unknown, key = ''): unknown {
  if (key && isSecretParamName(key)) return '[redacted]';
  if (typeof value === 'string') return redactUrlSecrets(value);
  if (Array.isArray(value)) return value.map((v) => redactVariables(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactVariables(v, k)]));
  return value;
}

/** The largest answer read from the catalog; beyond it the request fails rather than exhausting memory. */
export const maxResponseBytes = 32 * 1024 * 1024;

/**
 * A GraphQL answer's `data` and error messages (pure), or what is wrong with it. `errors` absent or
 * null means none (servers send `"errors": null`); one that is not a list is a malformed answer, as
 * is a body that is not an object. An error without a string message is shown as its JSON.
 */
function graphqlAnswer(body: unknown): { data: unknown; errors: string[] } | string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'something that is not a GraphQL answer (not a JSON object)';
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  if (errors === undefined || errors === null) return { data, errors: [] };
  if (!Array.isArray(errors)) return `a malformed GraphQL answer: "errors" is ${typeof errors}, not a list`;
  return { data, errors: errors.map(graphqlErrorText) };
}

/** A GraphQL error as words: its message, else its JSON; at most 500 characters (an answer may be megabytes). */
export function graphqlErrorText(error: unknown): string {
  const text = error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : (JSON.stringify(error) ?? 'unknown error');
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** The degree facet values DataHub's lineage search takes for hops 1..depth (`3+` covers the rest). */
function degreeValues(depth: number): string[] {
  return depth >= 3 ? ['1', '2', '3+'] : depth === 2 ? ['1', '2'] : ['1'];
}

export class CatalogClient {
  readonly name: string;
  readonly endpoint: string;
  private readonly token: string | undefined;
  private readonly timeoutMs: number;
  private readonly debug: boolean;
  private readonly log: Logger;
  private readonly now: () => number;
  /** The Query field names once learned; undefined (unknown) while introspection is refused, until `refusedUntil`. */
  private queryFields: { fields: Promise<Set<string> | undefined>; refusedUntil?: number } | undefined;

  constructor(opts: CatalogClientOptions) {
    this.name = opts.name;
    this.endpoint = graphqlEndpoint(opts.url);
    this.token = opts.token || undefined;
    this.timeoutMs = opts.timeoutMs;
    this.debug = opts.debug ?? false;
    this.log = opts.log;
    this.now = opts.now ?? Date.now;
  }

  /** Hides the token wherever a server might have echoed it into text we pass on. */
  private scrub(text: string): string {
    return this.token ? text.replaceAll(this.token, '[redacted]') : text;
  }

  /** Sends one operation and returns its `data`; every failure is a CatalogError. */
  async request<T = Gql>(op: Operation, variables: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<T> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    const started = performance.now();
    if (this.debug) this.log.info({ catalog: this.name, operation: op.name, variables: redactVariables(variables) }, 'catalog request');
    const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json' });
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    let status: number;
    let text: string;
    try {
      // A redirect is answered as an error, never followed (no rule): the token must not travel to another address.
      const body = JSON.stringify({ query: op.document, variables, operationName: op.name });
      const { response } = await fetchFollowing({ url: new URL(this.endpoint), method: 'POST', headers, body, signal });
      status = response.status;
      text = await readCappedText(response, maxResponseBytes, () => new CatalogError('http', `the catalog's answer exceeds ${maxResponseBytes} bytes`));
    } catch (error) {
      if (error instanceof CatalogError) throw error;
      if (timeout.aborted) throw new CatalogTimeoutError(op.name, this.timeoutMs);
      if (opts.signal?.aborted) throw new CatalogError('cancelled', `catalog operation ${op.name} was cancelled`);
      const cause = error instanceof Error ? ((error.cause as { code?: string } | undefined)?.code ?? error.message) : String(error);
      throw new CatalogError('connection', this.scrub(`cannot reach catalog "${this.name}" at ${redactUrlSecrets(this.endpoint)}: ${cause}`));
    }
    if (this.debug) this.log.info({ catalog: this.name, operation: op.name, status, ms: Math.round(performance.now() - started) }, 'catalog response');
    if (status === 401 || status === 403) {
      throw new CatalogHttpError(status, `catalog "${this.name}" refused the credentials (HTTP ${status}): check toolkits.catalog.${this.name}.token`);
    }
    if (status < 200 || status >= 300) {
      throw new CatalogHttpError(status, this.scrub(`catalog "${this.name}" answered HTTP ${status} to ${op.name}${this.detail(text)}`));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CatalogError('http', `catalog "${this.name}" answered ${op.name} with something that is not JSON`);
    }
    const answer = graphqlAnswer(body);
    if (typeof answer === 'string') throw new CatalogError('http', `catalog "${this.name}" answered ${op.name} with ${answer}`);
    const errors = answer.errors.map((e) => this.scrub(e));
    // No data, or every top-level field null (the one a mutation asks for failed): the operation failed.
    const answered = answer.data && typeof answer.data === 'object' && Object.values(answer.data).some((v) => v !== null);
    if (errors.length > 0 && !answered) throw new CatalogGraphQLError(op.name, errors);
    if (errors.length > 0) this.log.warn({ catalog: this.name, operation: op.name, errors }, 'catalog answered with partial data');
    return (answer.data ?? {}) as T;
  }

  private detail(text: string): string {
    let message = text;
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // not JSON: the text itself
    }
    const short = message.trim().slice(0, 200);
    return short ? `: ${short}` : '';
  }

  /**
   * The server's Query field names, learned once; undefined when the server refuses introspection
   * (believed for introspectionRefusalMs). Other failures are not kept: the next call asks again.
   * Concurrent callers share one probe, which runs under the client's timeout and no caller's
   * signal; each caller waits under its own, so one caller's cancel fails only that caller.
   */
  private async supportedQueryFields(opts: CallOptions): Promise<Set<string> | undefined> {
    const known = this.queryFields;
    if (!known || (known.refusedUntil !== undefined && known.refusedUntil <= this.now())) {
      const probe: NonNullable<typeof this.queryFields> = {
        fields: this.request<{ __type?: { fields?: Array<{ name: string }> } }>(ops.queryFieldsOperation).then(
          (d) => new Set((d.__type?.fields ?? []).map((f) => f.name)),
          (error: unknown) => {
            if (error instanceof CatalogGraphQLError) {
              probe.refusedUntil = this.now() + introspectionRefusalMs;
              return undefined;
            }
            if (this.queryFields === probe) this.queryFields = undefined;
            throw error;
          },
        ),
      };
      // A caller that stopped waiting leaves nobody to read the probe's failure.
      probe.fields.catch(() => undefined);
      this.queryFields = probe;
    }
    const { fields } = this.queryFields!;
    if (!opts.signal) return fields;
    try {
      return await raceSignal(fields, opts.signal);
    } catch (error) {
      if (opts.signal.aborted) throw new CatalogError('cancelled', `catalog operation ${ops.queryFieldsOperation.name} was cancelled`);
      throw error;
    }
  }

  /** Whether the server offers semantic search; undefined when it cannot say (introspection refused). */
  async supportsSemanticSearch(opts: CallOptions = {}): Promise<boolean | undefined> {
    return (await this.supportedQueryFields(opts))?.has('semanticSearchAcrossEntities');
  }

  async search(params: { query: string; entityType?: string; limit: number; offset: number; mode?: 'keyword' | 'semantic' }, opts: CallOptions = {}): Promise<SearchResult> {
    const type = entityTypeEnum(params.entityType ?? 'DATASET');
    let results: Gql | undefined;
    if (params.mode === 'semantic') {
      const unsupported = new CatalogError(
        'unsupported',
        `semantic search is not available on catalog "${this.name}": it needs DataHub 1.4 or later with semantic search enabled (no semanticSearchAcrossEntities); use mode "keyword"`,
      );
      // A server that refuses introspection cannot say; then the search itself tells.
      const supported = await this.supportsSemanticSearch(opts);
      if (supported === false) throw unsupported;
      try {
        const data = await this.request<Gql>(ops.semanticSearchOperation, { input: { types: [type], query: params.query, start: params.offset, count: params.limit } }, opts);
        results = data.semanticSearchAcrossEntities as Gql | undefined;
      } catch (error) {
        if (supported === undefined && error instanceof CatalogGraphQLError && error.message.includes('semanticSearchAcrossEntities')) throw unsupported;
        throw error;
      }
    } else {
      const data = await this.request<Gql>(ops.searchOperation, { input: { type, query: params.query, start: params.offset, count: params.limit } }, opts);
      results = data.search as Gql | undefined;
    }
    const list = Array.isArray(results?.searchResults) ? (results.searchResults as Gql[]) : [];
    return { entities: list.map(map.searchEntity), total: typeof results?.total === 'number' ? results.total : list.length, offset: params.offset, limit: params.limit };
  }

  private notFound(what: string, urn: string): CatalogError {
    return new CatalogError('not_found', `${what} not found: ${urn}`);
  }

  async getEntity(urn: string, opts: CallOptions = {}): Promise<CatalogEntity> {
    const data = await this.request<{ entity?: Gql | null }>(ops.getEntityOperation, { urn }, opts);
    if (!data.entity) throw this.notFound('entity', urn);
    return map.entity(data.entity);
  }

  /** A dataset's schema and context (owners, tags, terms, domain, deprecation, health). */
  async getSchema(urn: string, opts: CallOptions = {}): Promise<DatasetSchema> {
    const data = await this.request<{ dataset?: Gql | null }>(ops.getSchemaOperation, { urn }, opts);
    if (!data.dataset) throw this.notFound('dataset', urn);
    return map.datasetSchema(data.dataset);
  }

  /** getSchema for many datasets in one request; datasets the catalog does not have are absent. */
  async getSchemas(urns: readonly string[], opts: CallOptions = {}): Promise<Map<string, DatasetSchema>> {
    if (urns.length === 0) return new Map();
    const data = await this.request<{ entities?: Array<Gql | null> }>(ops.getSchemasOperation, { urns: [...urns] }, opts);
    const found = (data.entities ?? []).filter((e): e is Gql => !!e && e.schemaMetadata !== undefined);
    return new Map(found.map((e) => [String(e.urn), map.datasetSchema(e)]));
  }

  /** Entities up to `depth` hops up- or downstream, with the edges between them (depth is clamped by the caller). */
  async getLineage(urn: string, params: { direction: LineageDirection; depth: number }, opts: CallOptions = {}): Promise<LineageGraph> {
    const input = { urn, direction: params.direction, start: 0, count: lineageResultCount, orFilters: [{ and: [{ field: 'degree', values: degreeValues(params.depth) }] }] };
    const data = await this.request<{ searchAcrossLineage?: { searchResults?: Gql[] } | null }>(ops.searchAcrossLineageOperation, { input }, opts);
    return map.lineageGraph(urn, params.direction, params.depth, data.searchAcrossLineage?.searchResults ?? []);
  }

  /** Fine-grained lineage into the dataset's columns (each column's direct upstream columns). */
  async getColumnLineage(urn: string, opts: CallOptions = {}): Promise<ColumnLineage> {
    const data = await this.request<{ dataset?: Gql | null }>(ops.columnLineageOperation, { urn }, opts);
    if (!data.dataset) throw this.notFound('dataset', urn);
    return map.columnLineage(data.dataset);
  }

  /** getColumnLineage for many datasets in one request (for walking several hops); unknown datasets are absent. */
  async getColumnLineages(urns: readonly string[], opts: CallOptions = {}): Promise<Map<string, ColumnLineage>> {
    if (urns.length === 0) return new Map();
    const data = await this.request<{ entities?: Array<Gql | null> }>(ops.columnLineagesOperation, { urns: [...urns] }, opts);
    const found = (data.entities ?? []).filter((e): e is Gql => !!e && e.fineGrainedLineages !== undefined);
    return new Map(found.map((e) => [String(e.urn), map.columnLineage(e)]));
  }

  /**
   * Saved queries about a dataset (listQueries); where the server has no listQueries (GraphQL
   * error), the usage statistics' top queries instead. Transport failures are not masked.
   */
  async getQueries(urn: string, params: { limit: number }, opts: CallOptions = {}): Promise<QueryList> {
    try {
      const data = await this.request<{ listQueries?: { total?: number; queries?: Gql[] } | null }>(
        ops.listQueriesOperation,
        { input: { datasetUrn: urn, start: 0, count: params.limit } },
        opts,
      );
      const queries = (data.listQueries?.queries ?? []).map(map.savedQuery);
      return { queries, total: data.listQueries?.total ?? queries.length };
    } catch (error) {
      if (!(error instanceof CatalogGraphQLError)) throw error;
    }
    const data = await this.request<{ dataset?: Gql | null }>(ops.topQueriesOperation, { urn }, opts);
    const buckets = ((data.dataset?.usageStats as Gql | undefined)?.buckets as Gql[] | undefined) ?? [];
    const statements = [...new Set(buckets.flatMap((b) => ((b?.metrics as Gql | undefined)?.topSqlQueries as string[] | undefined) ?? []))].filter(Boolean);
    const queries = statements.slice(0, params.limit).map((statement) => ({ statement, source: 'USAGE' }));
    return { queries, total: statements.length };
  }

  async getGlossaryTerm(urn: string, opts: CallOptions = {}): Promise<GlossaryTerm> {
    const data = await this.request<{ glossaryTerm?: Gql | null }>(ops.getGlossaryTermOperation, { urn, relationTypes: [...ops.glossaryRelationTypes] }, opts);
    if (!data.glossaryTerm) throw this.notFound('glossary term', urn);
    return map.glossaryTerm(data.glossaryTerm);
  }

  /** Tags (optionally matching `filter`), domains, or data products; at most `limit` of them. */
  async browse(what: BrowseWhat, params: { limit: number; filter?: string }, opts: CallOptions = {}): Promise<BrowseResult> {
    if (what === 'tags') {
      const input = { type: 'TAG', query: params.filter?.trim() || '*', start: 0, count: params.limit };
      const data = await this.request<{ search?: { searchResults?: Gql[] } }>(ops.listTagsOperation, { input }, opts);
      const tags = (data.search?.searchResults ?? []).map((r) => {
        const e = (r.entity ?? {}) as Gql;
        const p = (e.properties ?? {}) as Gql;
        const urn = String(e.urn);
        return { urn, name: typeof p.name === 'string' ? p.name : map.urnName(urn), ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}) };
      });
      return { tags };
    }
    if (what === 'domains') {
      const data = await this.request<{ listDomains?: { domains?: Gql[] } }>(ops.listDomainsOperation, { input: { start: 0, count: params.limit } }, opts);
      return { domains: (data.listDomains?.domains ?? []).map(map.domainEntry) };
    }
    const input = { type: 'DATA_PRODUCT', query: '*', start: 0, count: params.limit };
    const data = await this.request<{ search?: { searchResults?: Gql[] } }>(ops.listDataProductsOperation, { input }, opts);
    return { data_products: (data.search?.searchResults ?? []).map((r) => map.dataProduct((r.entity ?? {}) as Gql)) };
  }

  async getDataProduct(urn: string, params: { assetLimit: number }, opts: CallOptions = {}): Promise<DataProduct> {
    const data = await this.request<{ dataProduct?: Gql | null }>(ops.getDataProductOperation, { urn, assetCount: params.assetLimit }, opts);
    if (!data.dataProduct) throw this.notFound('data product', urn);
    return map.dataProduct(data.dataProduct);
  }

  /**
   * The catalog's own edits on a dataset, or on its column `fieldPath`: what a write would replace
   * (knowledge changes record it so a rollback restores it). Only datasets: other entities are refused.
   */
  async getEditableState(urn: string, fieldPath?: string, opts: CallOptions = {}): Promise<EditableState> {
    const data = await this.request<{ entity?: Gql | null }>(ops.getEditableStateOperation, { urn }, opts);
    if (!data.entity) throw this.notFound('entity', urn);
    if (data.entity.type !== 'DATASET') throw new CatalogError('unsupported', `only datasets' metadata can be changed this way; ${urn} is a ${String(data.entity.type)}`);
    return map.editableState(data.entity, fieldPath);
  }

  /** Sends one of the write operations (operations/mutations.ts) and returns its `data`. */
  async mutate(op: Operation, variables: Record<string, unknown>, opts: CallOptions = {}): Promise<Gql> {
    return this.request<Gql>(op, variables, opts);
  }
}
