import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '../../api/start.js';
import { apiConfigYaml, startTestApi, testConfig } from '../support/api.js';
import { startDatabaseReplicas, type DatabaseReplicas } from '../support/replicas.js';
import { droppablePost, openSession, post, sseEvents, type WireSession } from '../support/mcp-wire.js';
import { askTool, gatedTool, toolCall } from './tools.js';

const gated = gatedTool();

/** Waits for a condition another replica brings about (each check is a query, not a timer). */
async function until(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition never met');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function streamOf(eventId: string): string {
  return eventId.slice(0, eventId.lastIndexOf('.'));
}

/** Puts a question on the POST stream and drops the connection after reading it. */
async function dropAfterQuestion(session: WireSession, id: number) {
  const posted = await droppablePost(session.url, toolCall(id, 'ask_then_answer'), session.headers());
  const priming = await posted.events.next();
  const question = await posted.events.next();
  posted.drop();
  const asked = JSON.parse(question.data) as { id: number; method: string };
  expect(asked.method).toBe('elicitation/create');
  return { priming, question, questionId: asked.id };
}

/** The user's answer travels in a POST of its own; the call then finishes on its (resumed) stream. */
async function answer(session: WireSession, questionId: number): Promise<void> {
  const answered = await post(session.url, { jsonrpc: '2.0', id: questionId, result: { action: 'accept', content: { ok: true } } }, session.headers());
  expect(answered.status).toBe(202);
}

function resume(session: WireSession, lastEventId: string, url = session.url): Promise<Response> {
  return fetch(url, { method: 'GET', headers: session.headers({ accept: 'text/event-stream', 'last-event-id': lastEventId }) });
}

describe('Streamable HTTP resumability (memory sessions)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(apiConfigYaml()), tools: [askTool] });
  });
  afterAll(async () => {
    await api.stop();
  });

  it('opens each 2025-11-25 stream with a priming event (id, empty data, retry) and gives every event an id', async () => {
    const session = await openSession(api.url);
    // A client that takes only a stream gets one even for an answer ready at once.
    const res = await post(session.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, session.headers({ accept: 'text/event-stream' }));
    const text = await res.text();
    expect(text).toMatch(/^id: [A-Za-z0-9_-]+\.0\nretry: 1000\ndata: \n\n/);
    const frames = text.split('\n\n').filter((f) => f.includes('event: message'));
    expect(frames).toHaveLength(1);
    expect(frames.every((f) => /^id: [A-Za-z0-9_-]+\.1$/m.test(f))).toBe(true);
  });

  it('resumes a dropped stream from the last event read: nothing replayed twice, the answer arrives', async () => {
    const session = await openSession(api.url, { capabilities: { elicitation: {} } });
    const { question, questionId } = await dropAfterQuestion(session, 11);
    const resumed = await resume(session, question.id);
    await answer(session, questionId);
    const events = await sseEvents(resumed).rest();
    expect(events.map((e) => e.id)).toEqual([`${streamOf(question.id)}.2`]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ id: 11, result: { content: [{ type: 'text', text: 'answered accept' }] } });
  });

  it('resumes a dropped stream from its priming event: every later event replayed in order, then the answer', async () => {
    const session = await openSession(api.url, { capabilities: { elicitation: {} } });
    const { priming, question, questionId } = await dropAfterQuestion(session, 12);
    const resumed = await resume(session, priming.id);
    await answer(session, questionId);
    const events = await sseEvents(resumed).rest();
    expect(events.map((e) => e.id)).toEqual([question.id, `${streamOf(question.id)}.2`]);
    expect(JSON.parse(events[1]!.data)).toMatchObject({ id: 12, result: { content: [{ type: 'text', text: 'answered accept' }] } });
  });

  it('refuses a malformed Last-Event-ID, and one naming no stream of the session', async () => {
    const session = await openSession(api.url);
    expect((await resume(session, 'not an id')).status).toBe(400);
    expect((await resume(session, 'AAAAAAAAAAAAAAAA.3')).status).toBe(400);
  });

  it('keeps the streams of one session out of reach of another', async () => {
    const owner = await openSession(api.url, { capabilities: { elicitation: {} } });
    const { question, questionId } = await dropAfterQuestion(owner, 13);
    const other = await openSession(api.url);
    expect((await resume(other, question.id)).status).toBe(400);
    // The owner still gets its answer.
    const resumed = await resume(owner, question.id);
    await answer(owner, questionId);
    expect((await sseEvents(resumed).rest()).map((e) => e.id)).toEqual([`${streamOf(question.id)}.2`]);
  });

  it('primes the standalone GET stream and allows only one at a time per session', async () => {
    const session = await openSession(api.url);
    const controller = new AbortController();
    const first = await fetch(session.url, { method: 'GET', headers: session.headers({ accept: 'text/event-stream' }), signal: controller.signal });
    expect(first.status).toBe(200);
    const priming = await sseEvents(first).next();
    expect(priming).toMatchObject({ data: '' });
    expect(priming?.id).toMatch(/\.0$/);
    const second = await fetch(session.url, { method: 'GET', headers: session.headers({ accept: 'text/event-stream' }) });
    expect(second.status).toBe(409);
    controller.abort();
  });
});

describe('Streamable HTTP resumability across replicas (database sessions)', () => {
  let replicas: DatabaseReplicas;

  beforeAll(async () => {
    replicas = await startDatabaseReplicas({ tools: [gated.tool], server: ['streamable:', '  retry_interval: 20ms', '  json_answer_within: 20ms'] });
  });
  afterAll(async () => {
    await replicas?.stop();
  });

  it('replays on replica B the answer of a call whose stream dropped on replica A', async () => {
    const [a, b] = replicas.replicas;
    gated.rearm();
    const session = await openSession(a.url);
    const posted = await droppablePost(session.url, toolCall(21, 'wait_for_gate'), session.headers());
    const priming = await posted.events.next();
    expect(priming.data).toBe('');
    posted.drop();
    // The call goes on after the drop; once replica A has seen the connection go, its stream lives in the archive.
    await until(async () => (await replicas.db.query('SELECT 1 FROM mcp_streams WHERE session_id = $1', [session.sessionId])).rowCount === 1);
    gated.open();
    // Replica A archives the answer once it is ready; until then B tells the client to come back after `retry`.
    let events: { id?: string; data: string }[] = [];
    await until(async () => {
      const res = await resume(session, priming.id, `${b.url}/mcp`);
      expect(res.status).toBe(200);
      events = (await sseEvents(res).rest()).filter((e) => e.data !== '');
      return events.length > 0;
    });
    expect(events.map((e) => e.id)).toEqual([`${streamOf(priming.id)}.1`]);
    expect(JSON.parse(events[0]!.data)).toMatchObject({ id: 21, result: { content: [{ type: 'text', text: 'released' }] } });
  });

  it('refuses a Last-Event-ID of another session', async () => {
    const [a, b] = replicas.replicas;
    gated.rearm();
    const owner = await openSession(a.url);
    const posted = await droppablePost(owner.url, toolCall(22, 'wait_for_gate'), owner.headers());
    const priming = await posted.events.next();
    posted.drop();
    gated.open();
    const other = await openSession(b.url);
    const res = await resume(other, priming.id, `${b.url}/mcp`);
    // Another session's stream is simply not there: the reply carries none of its events.
    expect((await sseEvents(res).rest()).filter((e) => e.data !== '')).toEqual([]);
  });
});
