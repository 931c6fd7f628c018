/**
 * Endpoint bodies and the replica's rules for bodies (docs/security.md, "Request bodies"): a body
 * read for a caller who signed in is that caller's own business — not held to
 * `server.body_read_timeout` nor counted against the unauthenticated bytes — while a body sent
 * with only a bot-check answer (work, not identity) is, and its refusal is answered as such (408,
 * connection closed) and recorded with that status, never as a failed handler.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, startEndpointRig, type EndpointRig } from '../integration/endpoint-requests-fixtures.js';

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig({ bodyReadTimeout: '300ms' });
  const echo = 'export function handle(req) { return { status: 201, json: { got: req.json.item } } }';
  await rig.endpoint('signed', echo, { methods: ['POST'], auth_mode: 'signed_in' });
  await rig.endpoint('open', echo, { methods: ['POST'] });
});

afterAll(async () => {
  await rig?.stop();
});

/** A POST whose body arrives in two parts `pauseMs` apart; resolves with the status, the body and whether the server closed the connection. */
function slowPost(path: string, headers: Record<string, string>, pauseMs: number): Promise<{ status: number; body: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${rig.api.url}${path}`);
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, closed: response.headers.connection === 'close' }));
    });
    request.on('error', reject);
    request.write('{"item":');
    setTimeout(() => request.end('"tea"}'), pauseMs);
  });
}

describe('endpoint bodies under the replica’s body rules', () => {
  it('a signed-in caller’s body is not held to body_read_timeout', async () => {
    const answer = await slowPost('/endpoints/signed', { authorization: `Bearer ${keys.alice}` }, 900);
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toEqual({ got: 'tea' });
  });

  it('a body sent with only a bot-check answer that does not arrive in time is answered 408 body_timeout, closed, and recorded as 408', async () => {
    const answer = await slowPost('/endpoints/open', { 'x-bot-check': 'pass' }, 900);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'body_timeout' });
    expect(answer.closed).toBe(true);
    const statuses = async () => (await rig.db.query<{ status: string }>("SELECT parameters->>'status' AS status FROM audit_log WHERE tool = 'endpoint:open'")).rows.map((r) => r.status);
    await expect.poll(statuses, { timeout: 10_000 }).toEqual(['408']);
    // Not a failed handler: nothing in the endpoint's failed requests.
    expect((await rig.db.query("SELECT 1 FROM endpoint_failures WHERE endpoint = 'open'")).rowCount).toBe(0);
  });
});
