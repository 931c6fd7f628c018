/**
 * A test server that speaks Trino's documented client protocol
 * (trino.io/docs/current/develop/client-protocol.html), for the Trino engine's tests:
 *
 * - POST /v1/statement with the SQL as body; X-Trino-User required (400 without it); optional HTTP
 *   basic auth (401 with `WWW-Authenticate: Basic` when missing or wrong).
 * - Answers are QueryResults JSON: {id, infoUri, nextUri, columns, data, stats{state}, error,
 *   updateType, updateCount}. The client GETs each nextUri (`/v1/statement/queued|executing/<id>/
 *   <slug>/<token>`) until one has none. Columns come with the first data page.
 * - DELETE on a nextUri (or /v1/query/<id>) cancels: 204, state CANCELED, later GETs fail with
 *   USER_CANCELED.
 * - Scripted per statement: rows paged at `pageSize`, `queuedPolls` pages without data first,
 *   `runForever` (running until cancelled), `error` (a Trino error object), `unavailable` (answer
 *   the first N polls with HTTP 503, which the protocol says to retry).
 * - Plain HTTP, or HTTPS with a given key and certificate.
 *
 * Every request and cancellation is recorded for assertions.
 */
import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface TrinoError {
  message: string;
  errorCode?: number;
  errorName?: string;
  errorType?: string;
}

export interface ScriptedQuery {
  columns?: Array<{ name: string; type: string }>;
  rows?: unknown[][];
  /** Rows per data page (default 100). */
  pageSize?: number;
  /** Polls answered without data (QUEUED, then RUNNING) before the first data page. */
  queuedPolls?: number;
  /** Stays RUNNING without data until cancelled. */
  runForever?: boolean;
  /** Fails with this error after the queued polls. */
  error?: TrinoError;
  /** Answer the first N polls (GETs) with HTTP 503. */
  unavailable?: number;
  updateType?: string;
  updateCount?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body?: string;
}

export interface TrinoTestServerOptions {
  /** What a statement does; called once per POST. */
  handle: (sql: string, headers: http.IncomingHttpHeaders) => ScriptedQuery;
  basicAuth?: { user: string; password: string };
  tls?: { key: string; cert: string };
  /** Delay of every poll answer, like Trino's long polling (default 0). */
  pollDelayMs?: number;
}

type State = 'QUEUED' | 'RUNNING' | 'FINISHED' | 'FAILED' | 'CANCELED';

interface QueryState {
  id: string;
  slug: string;
  token: number;
  script: ScriptedQuery;
  state: State;
  polls: number;
  rowOffset: number;
  unavailableLeft: number;
}

export interface TrinoTestServer {
  url: string;
  port: number;
  requests: RecordedRequest[];
  statements: Array<{ sql: string; headers: http.IncomingHttpHeaders; id: string }>;
  /** Query ids a DELETE cancelled, in order. */
  cancelled: string[];
  state(id: string): State | undefined;
  close(): Promise<void>;
}

const USER_CANCELED: TrinoError = { message: 'Query was canceled', errorCode: 3, errorName: 'USER_CANCELED', errorType: 'USER_ERROR' };

export async function startTrinoTestServer(options: TrinoTestServerOptions): Promise<TrinoTestServer> {
  const queries = new Map<string, QueryState>();
  const requests: RecordedRequest[] = [];
  const statements: TrinoTestServer['statements'] = [];
  const cancelled: string[] = [];
  const scheme = options.tls ? 'https' : 'http';
  let base = '';

  const send = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { ...(body !== undefined ? { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' } : {}), ...headers });
    res.end(text);
  };

  const results = (q: QueryState, extra: Record<string, unknown> = {}) => {
    const done = q.state === 'FINISHED' || q.state === 'FAILED' || q.state === 'CANCELED';
    const phase = q.state === 'QUEUED' ? 'queued' : 'executing';
    return {
      id: q.id,
      infoUri: `${base}/ui/query.html?${q.id}`,
      ...(done ? {} : { nextUri: `${base}/v1/statement/${phase}/${q.id}/${q.slug}/${q.token}` }),
      stats: { state: q.state, queued: q.state === 'QUEUED', scheduled: q.state !== 'QUEUED', nodes: 1, processedRows: q.rowOffset },
      warnings: [],
      ...extra,
    };
  };

  const errorBody = (e: TrinoError) => ({
    message: e.message,
    errorCode: e.errorCode ?? 1,
    errorName: e.errorName ?? 'GENERIC_USER_ERROR',
    errorType: e.errorType ?? 'USER_ERROR',
    failureInfo: { type: 'io.trino.spi.TrinoException', message: e.message, suppressed: [], stack: [] },
  });

  /** The next answer of a query: advances its script by one step. */
  const step = (q: QueryState) => {
    q.token++;
    q.polls++;
    const s = q.script;
    if (q.state === 'CANCELED') return results(q, { error: errorBody(USER_CANCELED) });
    if (s.runForever || q.polls <= (s.queuedPolls ?? 0)) {
      q.state = q.polls <= 1 && !s.runForever ? 'QUEUED' : 'RUNNING';
      return results(q);
    }
    if (s.error) {
      q.state = 'FAILED';
      return results(q, { error: errorBody(s.error) });
    }
    q.state = 'RUNNING';
    const rows = s.rows ?? [];
    const pageSize = s.pageSize ?? 100;
    const columns = s.columns ? { columns: s.columns } : {};
    const update = s.updateType ? { updateType: s.updateType } : {};
    if (q.rowOffset < rows.length) {
      const page = rows.slice(q.rowOffset, q.rowOffset + pageSize);
      q.rowOffset += page.length;
      return results(q, { ...columns, data: page, ...update });
    }
    q.state = 'FINISHED';
    return results(q, { ...columns, ...update, ...(s.updateCount !== undefined ? { updateCount: s.updateCount } : {}) });
  };

  const authorised = (req: http.IncomingMessage): boolean => {
    if (!options.basicAuth) return true;
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Basic ')) return false;
    const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return user === options.basicAuth.user && rest.join(':') === options.basicAuth.password;
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', base);
      requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, ...(body ? { body } : {}) });
      if (!authorised(req)) return send(res, 401, 'Unauthorized', { 'www-authenticate': 'Basic realm="Trino"' });

      if (req.method === 'POST' && url.pathname === '/v1/statement') {
        if (!req.headers['x-trino-user']) return send(res, 400, 'User must be set');
        const id = `20260101_000000_${String(queries.size).padStart(5, '0')}_test`;
        const q: QueryState = { id, slug: randomUUID().slice(0, 8), token: 0, script: options.handle(body, req.headers), state: 'QUEUED', polls: 0, rowOffset: 0, unavailableLeft: 0 };
        q.unavailableLeft = q.script.unavailable ?? 0;
        queries.set(id, q);
        statements.push({ sql: body, headers: req.headers, id });
        return send(res, 200, results(q));
      }

      const poll = /^\/v1\/statement\/(queued|executing)\/([^/]+)\/([^/]+)\/(\d+)$/.exec(url.pathname);
      const killById = /^\/v1\/query\/([^/]+)$/.exec(url.pathname);
      const q = poll ? queries.get(poll[2]!) : killById ? queries.get(killById[1]!) : undefined;
      if (!q) return send(res, 404, 'Query not found');

      if (req.method === 'DELETE') {
        if (q.state !== 'FINISHED' && q.state !== 'FAILED') {
          q.state = 'CANCELED';
          cancelled.push(q.id);
        }
        return send(res, 204);
      }
      if (req.method === 'GET' && poll) {
        // The current token, or the previous one again (a retried request), like Trino.
        const token = Number(poll[4]);
        if (poll[3] !== q.slug || (token !== q.token && token !== q.token - 1)) return send(res, 404, 'Query not found');
        if (q.unavailableLeft > 0) {
          q.unavailableLeft--;
          return send(res, 503, 'Service Unavailable');
        }
        const answer = () => send(res, 200, step(q));
        if (options.pollDelayMs) setTimeout(answer, options.pollDelayMs);
        else answer();
        return;
      }
      return send(res, 405, 'Method Not Allowed');
    });
  };

  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `${scheme}://127.0.0.1:${port}`;
  return {
    url: base,
    port,
    requests,
    statements,
    cancelled,
    state: (id) => queries.get(id)?.state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
export async function selfSignedCertificate(dir: string): Promise<{ key: string; cert: string }> {
  const { execFile } = await import('node:child_process');
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  await new Promise<void>((resolve, reject) =>
    execFile(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      (error) => (error ? reject(error) : resolve()),
    ),
  );
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
}
