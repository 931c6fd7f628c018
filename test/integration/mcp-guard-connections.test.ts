/**
 * Issue 41 (the MCP request path): the MCP guard asks the authentication chain once per
 * connection and credential while the verdict holds — over real keep-alive connections — and
 * never lets another connection, another credential or an ended verdict ride on it.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mcpGuard } from '../../api/mcp/guard.js';
import type { AuthDecision, Credential } from '../../shared/identity/index.js';

const goodKey = 'guard-key-0123456789abcdef';
let now = Date.UTC(2030, 0, 1);
const asked: Credential[][] = [];
/** Accepts goodKey (as either header) for 1 s, the way a verified-cache hit answers. */
async function authenticate(credentials: Credential[]): Promise<AuthDecision> {
  asked.push(credentials);
  const presented = credentials.map((c) => (c.kind === 'bearer' ? c.token : c.key));
  if (presented.length === 1 && presented[0] === goodKey) {
    return { ok: true, caller: { subject: 'apikey:guard', name: 'guard', roles: ['analyst'], authType: 'apikey' }, remainingMs: 1000 };
  }
  return { ok: false, error: 'invalid_token', description: 'unknown API key' };
}

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = Fastify();
  const guard = mcpGuard({ authenticate, allowedOrigins: [], loopbackOnly: true, realm: 'mcp', clock: () => now });
  app.post('/mcp', { onRequest: guard.onRequest }, async (request) => {
    const caller = guard.callerOf(request);
    // No request can change the caller its connection's next requests get.
    expect(() => caller.roles.push('changed by this request')).toThrow(TypeError);
    expect(caller.roles).toEqual(['analyst']);
    return { subject: caller.subject };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
});
beforeEach(() => {
  asked.length = 0;
});

/** One keep-alive connection: every request through it reuses the same socket. */
function connection() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const send = (headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('socket', (socket) => sockets.add(socket)).on('error', reject).end('{}');
    });
  return { send, sockets, close: () => agent.destroy() };
}

describe('the guard remembers a connection\'s accepted credentials', () => {
  it('asks once per connection while the verdict holds, and again once it ends', async () => {
    const one = connection();
    for (let i = 0; i < 3; i++) expect(await one.send({ authorization: `Bearer ${goodKey}` })).toEqual({ status: 200, body: '{"subject":"apikey:guard"}' });
    expect(one.sockets.size).toBe(1);
    expect(asked).toHaveLength(1);
    now += 999;
    await one.send({ authorization: `Bearer ${goodKey}` });
    expect(asked).toHaveLength(1);
    now += 1;
    expect((await one.send({ authorization: `Bearer ${goodKey}` })).status).toBe(200);
    expect(asked).toHaveLength(2);
    one.close();
  });

  it('another credential after an accepted one is asked about, and refused when bad', async () => {
    const one = connection();
    await one.send({ authorization: `Bearer ${goodKey}` });
    // The first near miss goes over the accepted request's own socket (a 401 then closes it).
    expect((await one.send({ authorization: `Bearer ${goodKey.toUpperCase()}` })).status).toBe(401);
    expect(one.sockets.size).toBe(1);
    const nearMisses: Record<string, string>[] = [{ authorization: `Bearer ${goodKey}x` }, { authorization: `Bearer ${goodKey.slice(0, -1)}` }, { authorization: `Bearer ${goodKey}`, 'x-api-key': goodKey }];
    for (const headers of nearMisses) {
      const answer = await one.send(headers);
      expect(answer.status).toBe(401);
    }
    expect(asked).toHaveLength(5);
    one.close();
  });

  it('another connection is asked about even for the same credential', async () => {
    const one = connection();
    const two = connection();
    await one.send({ 'x-api-key': goodKey });
    await two.send({ 'x-api-key': goodKey });
    expect(asked).toHaveLength(2);
    one.close();
    two.close();
  });
});
