/**
 * Trino engine over Trino's HTTP client protocol, with the `trino-client` package.
 *
 * The package builds the connection (server URL, X-Trino-* headers, basic auth, the TLS agent) and
 * sends the requests (its generic `Client.request`). The paging loop is ours, because the
 * package's iterator drops the first response, hides pages without data (so the query id and next
 * URI are unknown while a query is queued or running) and cannot abort a request in flight. With
 * our loop every request carries an AbortSignal and a running query is cancelled the documented
 * way: DELETE on its current nextUri.
 *
 * Protocol (trino.io/docs/current/develop/client-protocol.html): POST /v1/statement with the SQL,
 * then GET each nextUri until there is none; `columns` arrive with or before the first `data`;
 * `error` ends the query; 502/503/504 (and 429) mean "retry the same URI shortly".
 */
import type { AxiosRequestConfig } from 'axios';
import { BasicAuth, Trino, type QueryResult } from 'trino-client';
import { trinoPlanEstimate } from './explain.js';
import type { PlatformSchema } from './platform-objects.js';
import { classifyTrino, trinoReferencedTables } from './readonly.js';
import {
  SqlConnectionError,
  SqlEngineError,
  type Classification,
  type ColumnInfo,
  type ColumnMeta,
  type ExplainResult,
  type ExplainType,
  type QueryCursor,
  type Row,
  type SqlEngine,
  type StartOptions,
  type TableRef,
} from './types.js';

export interface TrinoEngineOptions {
  host: string;
  /** Default 8080, or 443 with ssl. */
  port?: number;
  user: string;
  /** Sent as HTTP basic auth, which Trino accepts only over TLS: a password requires `ssl`. */
  password?: string;
  ssl: boolean;
  /** Verify the server certificate (default true). */
  sslVerify?: boolean;
  /** Extra trusted CA certificates (PEM), besides Node's bundle and NODE_EXTRA_CA_CERTS. */
  ca?: string;
  catalog?: string;
  schema?: string;
  /** Where the platform registers tables (the scratch catalog's schema): callers' writes may not touch it. */
  platformSchema?: PlatformSchema;
  /** X-Trino-Source. */
  source?: string;
  /** Retries of a 429/502/503/504 answer before giving up; the deadline bounds them too. */
  maxRetries?: number;
  /** Delay before the first retry; doubles up to 1 s. */
  retryDelayMs?: number;
}

interface Requester {
  request<T>(cfg: AxiosRequestConfig<unknown>): Promise<T>;
}

const retryStatuses = new Set([429, 502, 503, 504]);

/** The server URL the options point at. */
export function trinoServerUrl(o: Pick<TrinoEngineOptions, 'host' | 'port' | 'ssl'>): string {
  const port = o.port ?? (o.ssl ? 443 : 8080);
  const host = o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host;
  return `${o.ssl ? 'https' : 'http'}://${host}:${port}`;
}

const quoteIdent = (s: string) => `"${s.replaceAll('"', '""')}"`;

export class TrinoEngine implements SqlEngine {
  readonly kind = 'trino' as const;
  readonly defaults: { catalog?: string; schema?: string };
  readonly #options: TrinoEngineOptions;

  constructor(options: TrinoEngineOptions) {
    if (options.password !== undefined && !options.ssl) {
      // Fail closed: never put a password on a plain-HTTP wire (Trino itself refuses it there).
      throw new SqlConnectionError('a password requires ssl: true (Trino accepts passwords only over TLS)');
    }
    this.#options = options;
    this.defaults = {
      ...(options.catalog ? { catalog: options.catalog } : {}),
      ...(options.schema ? { schema: options.schema } : {}),
    };
  }

  /** A fresh protocol client per statement: the package keeps session headers per client. */
  #client(): Requester {
    const o = this.#options;
    const trino = Trino.create({
      server: trinoServerUrl(o),
      source: o.source ?? 'agent-data-platform',
      ...(o.catalog ? { catalog: o.catalog } : {}),
      ...(o.schema ? { schema: o.schema } : {}),
      ...(o.password !== undefined ? { auth: new BasicAuth(o.user, o.password) } : {}),
      ...(o.ssl ? { ssl: { rejectUnauthorized: o.sslVerify ?? true, ...(o.ca ? { ca: o.ca } : {}) } } : {}),
      // Without a password the user travels in X-Trino-User only.
      extraHeaders: { 'X-Trino-User': o.user },
    });
    const client = (trino as unknown as { client?: Partial<Requester> }).client;
    if (!client || typeof client.request !== 'function') {
      throw new SqlConnectionError('unsupported trino-client version: Client.request is missing');
    }
    return client as Requester;
  }

  async start(sql: string, options: StartOptions): Promise<QueryCursor> {
    const client = this.#client();
    const { signal } = options;
    const http = new AbortController();
    let nextUri: string | undefined;
    let finished = false;
    let cancelled: Promise<void> | undefined;
    let columns: ColumnMeta[] | undefined;
    let updateCount: number | undefined;
    const pages: Row[][] = [];

    const cancel = (): Promise<void> => {
      if (finished) return Promise.resolve();
      cancelled ??= (async () => {
        finished = true;
        http.abort();
        const uri = nextUri;
        if (!uri) return;
        // The documented cancel: DELETE the next URI. Not tied to the aborted signal.
        await client.request({ method: 'DELETE', url: uri, signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
      })();
      return cancelled;
    };
    const onAbort = () => void cancel();
    signal.addEventListener('abort', onAbort, { once: true });

    const absorb = (r: QueryResult & { updateCount?: number }) => {
      if (r.columns) columns = r.columns.map((c) => ({ name: c.name, type: c.type }));
      if (r.data?.length) pages.push(r.data as Row[]);
      if (typeof r.updateCount === 'number') updateCount = r.updateCount;
      nextUri = r.nextUri;
      if (r.error) {
        finished = true;
        throw new SqlEngineError(`${r.error.message}${r.error.errorName ? ` (${r.error.errorName})` : ''}`, {
          errorName: r.error.errorName,
          errorType: r.error.errorType,
          errorCode: r.error.errorCode,
        });
      }
      if (!nextUri) {
        finished = true;
        signal.removeEventListener('abort', onAbort);
      }
    };
    const advance = async () => absorb(await this.#send(client, { method: 'GET', url: nextUri! }, http.signal, signal));

    try {
      if (signal.aborted) throw signal.reason as Error;
      absorb(
        await this.#send(
          client,
          { method: 'POST', url: '/v1/statement', data: sql, headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
          http.signal,
          signal,
        ),
      );
      // Columns come with (or before) the first data; a statement without rows has them at the end.
      while (!columns && !finished) await advance();
    } catch (error) {
      await cancel();
      signal.removeEventListener('abort', onAbort);
      throw error;
    }

    return {
      columns: columns ?? [],
      get updateCount() {
        return updateCount;
      },
      async nextPage() {
        for (;;) {
          const page = pages.shift();
          if (page) return page;
          if (finished) return null;
          try {
            await advance();
          } catch (error) {
            await cancel();
            throw error;
          }
        }
      },
      cancel,
    };
  }

  /** One protocol request with the retries the protocol asks for; errors become Sql*Errors. */
  async #send(client: Requester, cfg: AxiosRequestConfig, http: AbortSignal, caller: AbortSignal): Promise<QueryResult & { updateCount?: number }> {
    const maxRetries = this.#options.maxRetries ?? 10;
    let delay = this.#options.retryDelayMs ?? 100;
    for (let attempt = 0; ; attempt++) {
      try {
        return await client.request<QueryResult & { updateCount?: number }>({ ...cfg, signal: http });
      } catch (error) {
        if (caller.aborted) throw caller.reason as Error;
        const status = httpStatus(error);
        if (status !== undefined && retryStatuses.has(status) && attempt < maxRetries) {
          await sleep(retryAfterMs(error) ?? delay, caller);
          delay = Math.min(delay * 2, 1_000);
          continue;
        }
        throw transportError(error);
      }
    }
  }

  /** All rows of a statement the platform wrote (metadata), at most `cap`. */
  async #collect(sql: string, signal: AbortSignal, cap = 100_000): Promise<{ columns: readonly ColumnMeta[]; rows: Row[] }> {
    const cursor = await this.start(sql, { signal });
    const rows: Row[] = [];
    try {
      for (let page = await cursor.nextPage(); page && rows.length < cap; page = await cursor.nextPage()) rows.push(...page);
    } finally {
      await cursor.cancel();
    }
    return { columns: cursor.columns, rows };
  }

  async classify(sql: string): Promise<Classification> {
    const scratch = this.#options.platformSchema;
    return classifyTrino(sql, scratch ? { scratch, defaults: this.defaults } : undefined);
  }

  async explain(sql: string, type: ExplainType, signal: AbortSignal): Promise<ExplainResult> {
    const { rows } = await this.#collect(`EXPLAIN (TYPE ${type.toUpperCase()}) ${sql}`, signal);
    return { plan: rows.map((r) => String(r[0] ?? '')).join('\n'), type };
  }

  async estimateRows(sql: string, signal: AbortSignal): Promise<number | undefined> {
    const { rows } = await this.#collect(`EXPLAIN ${sql}`, signal);
    return trinoPlanEstimate(rows.map((r) => String(r[0] ?? '')).join('\n'));
  }

  async referencedTables(sql: string): Promise<TableRef[]> {
    return trinoReferencedTables(sql);
  }

  async listCatalogs(signal: AbortSignal): Promise<string[]> {
    return (await this.#collect('SHOW CATALOGS', signal)).rows.map((r) => String(r[0]));
  }

  async listSchemas(catalog: string, signal: AbortSignal): Promise<string[]> {
    return (await this.#collect(`SHOW SCHEMAS FROM ${quoteIdent(catalog)}`, signal)).rows.map((r) => String(r[0]));
  }

  async listTables(catalog: string, schema: string, signal: AbortSignal): Promise<string[]> {
    return (await this.#collect(`SHOW TABLES FROM ${quoteIdent(catalog)}.${quoteIdent(schema)}`, signal)).rows.map((r) => String(r[0]));
  }

  async describeTable(ref: Required<TableRef>, signal: AbortSignal): Promise<ColumnInfo[]> {
    const name = [ref.catalog, ref.schema, ref.table].map(quoteIdent).join('.');
    const { columns, rows } = await this.#collect(`DESCRIBE ${name}`, signal);
    // DESCRIBE answers Column, Type, Extra, Comment.
    const at = (n: string) => columns.findIndex((c) => c.name.toLowerCase() === n);
    const [iName, iType, iComment] = [at('column'), at('type'), at('comment')];
    return rows.map((r) => {
      const comment = iComment >= 0 ? r[iComment] : undefined;
      return {
        name: String(r[iName >= 0 ? iName : 0]),
        type: String(r[iType >= 0 ? iType : 1]),
        ...(typeof comment === 'string' && comment !== '' ? { comment } : {}),
      };
    });
  }

  async close(): Promise<void> {
    // Nothing held between statements.
  }
}

function httpStatus(error: unknown): number | undefined {
  const status = (error as { response?: { status?: unknown } }).response?.status;
  return typeof status === 'number' ? status : undefined;
}

function retryAfterMs(error: unknown): number | undefined {
  const header = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers?.['retry-after'];
  const seconds = Number(header);
  return header !== undefined && Number.isFinite(seconds) ? Math.min(seconds * 1000, 5_000) : undefined;
}

/** HTTP-level failures: status and a short body excerpt, or the network/TLS error; never the URL's credentials. */
function transportError(error: unknown): Error {
  if (error instanceof SqlEngineError || error instanceof SqlConnectionError) return error;
  const status = httpStatus(error);
  if (status !== undefined) {
    if (status === 401) return new SqlConnectionError('authentication failed (HTTP 401): check user and password');
    if (status === 403) return new SqlConnectionError('access denied (HTTP 403)');
    const data = (error as { response?: { data?: unknown } }).response?.data;
    const body = typeof data === 'string' ? data : data === undefined ? '' : JSON.stringify(data);
    const excerpt = body.replace(/\s+/g, ' ').trim().slice(0, 300);
    return new SqlConnectionError(`Trino answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`);
  }
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return new SqlConnectionError(typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
