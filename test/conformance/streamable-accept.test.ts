import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { openSession, post, sseEvents, type WireSession } from '../support/mcp-wire.js';
import { askTool, gatedTool, toolCall } from './tools.js';

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

  it('answers a request ready at once with one JSON body when both are accepted, and when Accept is missing or */* (served leniently)', async () => {
    for (const accept of ['application/json, text/event-stream', '*/*', undefined]) {
      const headers = session.headers();
      if (accept === undefined) delete headers.accept;
      else headers.accept = accept;
      const res = await post(session.url, list, headers);
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type'), String(accept)).toMatch(/^application\/json/);
      expect(res.headers.get('mcp-session-id')).toBe(session.sessionId);
      expect(((await res.json()) as { id: number }).id, String(accept)).toBe(7);
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

describe('Streamable HTTP: server.streamable.json_answer_within (a client that takes either form)', () => {
  const gated = gatedTool();
  let api: RunningApi;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml({ server: ['streamable:', '  json_answer_within: 20ms'] })), tools: [gated.tool] });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('opens a stream once a call outlasts the window: its priming event first, then the answer when ready', async () => {
    const session = await openSession(api.url);
    // fetch resolves at the headers: they come with the priming event, one to two windows on.
    const res = await post(session.url, toolCall(21, 'wait_for_gate'), session.headers());
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(res);
    const priming = await events.next();
    expect(priming).toMatchObject({ data: '' });
    expect(priming!.id).toMatch(/^[A-Za-z0-9_-]+\.0$/);
    gated.open();
    const answer = await events.next();
    expect(answer!.id).toBe(`${priming!.id!.slice(0, -2)}.1`);
    expect(JSON.parse(answer!.data)).toMatchObject({ id: 21, result: { content: [{ type: 'text', text: 'released' }] } });
    expect(await events.next()).toBeUndefined();
  });
});

describe('Streamable HTTP: a window of an hour (only what is sent first opens a stream)', () => {
  const late = gatedTool();
  let api: RunningApi;

  beforeAll(async () => {
    // A window of an hour: only the question, not the window, can open the stream here.
    api = await startTestApi({ config: testConfig(apiConfigYaml({ server: ['streamable:', '  json_answer_within: 1h'] })), tools: [askTool, late.tool] });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('puts the question for the client on a primed stream, then the answer after the reply', async () => {
    const session = await openSession(api.url, { capabilities: { elicitation: {} } });
    const res = await post(session.url, toolCall(31, 'ask_then_answer'), session.headers());
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(res);
    expect(await events.next()).toMatchObject({ data: '' });
    const question = JSON.parse((await events.next())!.data) as { id: number; method: string };
    expect(question.method).toBe('elicitation/create');
    const replied = await post(session.url, { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { ok: true } } }, session.headers());
    expect(replied.status).toBe(202);
    expect(JSON.parse((await events.next())!.data)).toMatchObject({ id: 31, result: { content: [{ type: 'text', text: 'answered accept' }] } });
  });

  it('keeps nothing of a client that left while its answer waited: the call ends, the session serves the next request', async () => {
    const again = await openSession(api.url);
    const left = new AbortController();
    const call = post(again.url, toolCall(22, 'wait_for_gate'), again.headers(), left.signal).catch((error: unknown) => error);
    await late.started();
    left.abort();
    expect(await call).toBeInstanceOf(Error);
    late.open();
    const next = await post(again.url, { jsonrpc: '2.0', id: 24, method: 'ping' }, again.headers());
    expect(next.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await next.json()) as { id: number }).id).toBe(24);
  });
});

describe('Streamable HTTP: json_answer_within 0s streams every request but an initialize', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml({ server: ['streamable:', '  json_answer_within: 0s'] })) });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('streams a request ready at once, with its priming event', async () => {
    const session = await openSession(api.url);
    const res = await post(session.url, list, session.headers());
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await sseEvents(res).rest();
    expect(events[0]).toMatchObject({ data: '' });
    expect(JSON.parse(events[1]!.data)).toMatchObject({ id: 7 });
  });
});
