/**
 * One nesting limit for JSON from callers (shared/inbound/json.ts, MAX_JSON_DEPTH): a body nested
 * deeper is refused with 400 before it is parsed — on every route of the production api role that
 * takes a JSON body, /mcp included (a JSON-RPC error) — never a 5xx. Routes whose body is content
 * (webhooks, endpoints, uploads) apply the same rule where they read JSON (unit tests of
 * shared/webhooks/events.ts and shared/endpoints/request.ts); here they must only never fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../shared/inbound/index.js';
import { plainTarget, rawBodies, startEveryRouteRig, withBody, type EveryRouteRig } from './every-route-fixtures.js';

let rig: EveryRouteRig;

beforeAll(async () => {
  rig = await startEveryRouteRig();
});

afterAll(async () => {
  await rig?.stop();
});

/** `{"name":{"a":{"a":…}}}`, `depth` objects deep. */
function deepObject(depth: number): string {
  return `{"name":${'{"a":'.repeat(depth - 2)}{}${'}'.repeat(depth - 2)}}`;
}


describe(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, () => {
  it('is refused with 400 on every route that reads a JSON body (413 where the body limit is smaller), never a 5xx', async () => {
    const body = deepObject(400_000);
    const wrong: string[] = [];
    for (const { url, methods } of rig.routes) {
      for (const method of methods.filter((m) => withBody.has(m))) {
        const answer = await rig.send(method, plainTarget(url), {
          headers: { authorization: `Bearer ${rig.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
        });
        const refused = answer.status === 400 || answer.status === 413;
        if (rawBodies.has(url) ? answer.status >= 500 : !refused) wrong.push(`${method} ${url} → ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers /mcp with a JSON-RPC error naming the limit; the limit itself is accepted', async () => {
    const headers = { authorization: `Bearer ${rig.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const call = (args: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"platform_info","arguments":{"x":${args}}}}`;
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const deep = await rig.send('POST', '/mcp', { headers, body: call(nested(400_000)) });
    expect(deep.status).toBe(400);
    expect(JSON.parse(deep.body)).toMatchObject({ error: { code: -32600, message: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels` } });
    // Three levels are the envelope's own (message, params, arguments); the limit reaches the transport.
    const atLimit = await rig.send('POST', '/mcp', { headers, body: call(nested(MAX_JSON_DEPTH - 3)) });
    expect(JSON.parse(atLimit.body)).toMatchObject({ error: { message: 'Bad Request: Mcp-Session-Id header is required' } });
    const past = await rig.send('POST', '/mcp', { headers, body: call(nested(MAX_JSON_DEPTH - 2)) });
    expect(JSON.parse(past.body)).toMatchObject({ error: { message: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels` } });
  });
});
