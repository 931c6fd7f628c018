import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { openSession, post, sseEvents, type WireSession } from '../support/mcp-wire.js';

const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

describe('Streamable HTTP: the Accept header decides between a JSON answer and a stream', () => {
  let api: RunningApi;
  let session: WireSession;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml()) });
    session = await openSession(api.url);
  });
  afterAll(async () => {
    await api.stop();
  });

  it('answers a POST that accepts only application/json with one JSON body', async () => {
    const res = await post(session.url, list, session.headers({ accept: 'application/json' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { id: number; result: { tools: unknown[] } };
    expect(body.id).toBe(7);
    expect(body.result.tools.length).toBeGreaterThan(0);
  });

  it('answers a POST that accepts only text/event-stream with a stream', async () => {
    const res = await post(session.url, list, session.headers({ accept: 'text/event-stream' }));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const messages = (await sseEvents(res).rest()).filter((e) => e.data !== '');
    expect(JSON.parse(messages[0]!.data)).toMatchObject({ id: 7 });
  });

  it('streams when both are accepted, and when Accept is missing or */* (served leniently)', async () => {
    for (const accept of ['application/json, text/event-stream', '*/*', undefined]) {
      const headers = session.headers();
      if (accept === undefined) delete headers.accept;
      else headers.accept = accept;
      const res = await post(session.url, list, headers);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type'), String(accept)).toBe('text/event-stream');
      await res.text();
    }
  });

  it('prefers JSON when the client weighs it above the stream', async () => {
    const res = await post(session.url, list, session.headers({ accept: 'text/event-stream;q=0.1, application/json' }));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    await res.json();
  });

  it('refuses with 406 a POST that accepts neither type', async () => {
    const res = await post(session.url, list, session.headers({ accept: 'text/html' }));
    expect(res.status).toBe(406);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32000);
  });
});
