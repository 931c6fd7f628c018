/**
 * A stand-in for a partner's HTTP API and a GraphQL endpoint (services we do not ship), for the
 * export tools' tests: on a random loopback port, recording every request it receives (method,
 * path with query, headers) so tests can prove what was and was never sent.
 *
 * REST, under /v1:
 * - GET  /v1/reports/daily      the current `daily` text as CSV (tests change it between calls)
 * - POST /v1/reports/query      echoes the JSON body it received as JSON
 * - GET  /v1/reports/fail       500
 * - GET  /v1/reports/broken     200, half a body, then the connection is destroyed
 * - GET  /v1/reports/big        200 with `bigBytes` bytes
 * - GET  /v1/reports/slow       200 headers, then a body that never ends (until the server stops)
 * - GET  /v1/reports/declared-huge  200 declaring a gigabyte, then a body that never ends
 * - GET  /v1/reports/redirect-in   302 to /v1/reports/daily
 * - GET  /v1/reports/redirect-out  302 to the `elsewhere` URL
 * - GET  /v1/secret             a page outside the allowed prefix (a test proves it is never hit)
 * GraphQL, POST /graphql and POST /api/graphql (a catalog's path): executed for real by the
 * `graphql` package over a small schema, so a bad field answers `errors` as a server would.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { buildSchema, graphql } from 'graphql';

export interface RecordedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface UpstreamApi {
  url: string;
  requests: RecordedRequest[];
  /** What GET /v1/reports/daily answers. */
  daily: string;
  /** How many bytes GET /v1/reports/big answers. */
  bigBytes: number;
  /** Where /v1/reports/redirect-out points. */
  elsewhere: string;
  stop(): Promise<void>;
}

const schema = buildSchema(`
  type Item { id: Int!, name: String! }
  type Dataset { urn: String!, name: String! }
  type Secret { name: String!, value: String! }
  type Query { items(limit: Int): [Item!]!, fail: String, dataset(urn: String!): Dataset, getSecretValues: [Secret!]! }
  type Mutation { drop: Boolean }
`);

const items = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `item-${i + 1}` }));
const root = {
  items: ({ limit }: { limit?: number }) => items.slice(0, limit ?? items.length),
  // DataHub's names, for a catalog instance's API: one a catalog tool reads, one none does.
  dataset: ({ urn }: { urn: string }) => ({ urn, name: 'orders' }),
  getSecretValues: () => [{ name: 'warehouse', value: 'hunter2' }],
  fail: () => {
    throw new Error('the catalog is on fire');
  },
};

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

export async function startUpstreamApi(): Promise<UpstreamApi> {
  const sockets = new Set<Socket>();
  const state: UpstreamApi = {
    url: '',
    requests: [],
    daily: 'day,n\nmonday,1\n',
    bigBytes: 0,
    elsewhere: 'http://127.0.0.2:9/elsewhere',
    stop: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'POST' && (path === '/graphql' || path === '/api/graphql')) {
        const { query, variables, operationName } = JSON.parse(body) as { query: string; variables?: Record<string, unknown>; operationName?: string };
        void graphql({ schema, source: query, rootValue: root, variableValues: variables ?? null, operationName: operationName ?? null }).then((result) =>
          send(res, 200, 'application/json', JSON.stringify(result)),
        );
        return;
      }
      switch (`${req.method} ${path}`) {
        case 'GET /v1/reports/daily':
          return send(res, 200, 'text/csv', state.daily);
        case 'POST /v1/reports/query':
          return send(res, 200, 'application/json', JSON.stringify({ received: JSON.parse(body || 'null') }));
        case 'GET /v1/reports/fail':
          return send(res, 500, 'text/plain', 'internal error');
        case 'GET /v1/reports/broken':
          res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '1000' });
          res.write('day,n\nbroken,');
          setImmediate(() => res.destroy());
          return;
        case 'GET /v1/reports/big':
          return send(res, 200, 'text/plain', 'x'.repeat(state.bigBytes));
        case 'GET /v1/reports/declared-huge':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(1024 ** 3) });
          res.write('started,');
          return;
        case 'GET /v1/reports/slow':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('started,');
          return;
        case 'GET /v1/reports/redirect-in':
          res.writeHead(302, { location: '/v1/reports/daily' });
          return res.end();
        case 'GET /v1/reports/redirect-out':
          res.writeHead(302, { location: state.elsewhere });
          return res.end();
        case 'GET /v1/secret':
          return send(res, 200, 'text/plain', 'secret page');
        default:
          return send(res, 404, 'text/plain', 'not found');
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
