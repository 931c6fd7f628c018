import { describe, expect, it } from 'vitest';
import {
  acceptQuality,
  acceptsEventStream,
  answerModeFor,
  batchesAllowed,
  eventId,
  headerProtocolVersion,
  messagesOf,
  parseEventId,
  primesStreams,
  responseModeFor,
} from '../../api/mcp/streamable/wire.js';
import { newStreamId } from '../../api/mcp/streamable/transport.js';

const request = { jsonrpc: '2.0', id: 1, method: 'ping' };

describe('Streamable HTTP wire rules', () => {
  it('weighs Accept ranges by specificity then q', () => {
    expect(acceptQuality('application/json', 'application/json')).toBe(1);
    expect(acceptQuality('application/*;q=0.5, */*;q=0.1', 'application/json')).toBe(0.5);
    expect(acceptQuality('*/*;q=0.2', 'text/event-stream')).toBe(0.2);
    expect(acceptQuality('text/event-stream;q=0, */*', 'text/event-stream')).toBe(0);
    expect(acceptQuality('text/html', 'application/json')).toBe(0);
  });

  it('streams unless JSON is preferred or alone; 406 when neither is acceptable', () => {
    expect(responseModeFor(undefined)).toBe('sse');
    expect(responseModeFor('')).toBe('sse');
    expect(responseModeFor('application/json, text/event-stream')).toBe('sse-or-json');
    expect(responseModeFor('*/*')).toBe('sse-or-json');
    expect(responseModeFor('text/event-stream')).toBe('sse');
    expect(responseModeFor('application/json')).toBe('json');
    expect(responseModeFor('application/json, text/event-stream;q=0.5')).toBe('json');
    expect(responseModeFor('text/html')).toMatchObject({ status: 406 });
    expect(acceptsEventStream('application/json')).toBe(false);
    expect(acceptsEventStream(undefined)).toBe(true);
  });

  it('answers an initialize as JSON when the client takes either, another single request JSON-first, a batch on a stream', () => {
    const initialize = { method: 'initialize' };
    const call = { method: 'tools/call' };
    expect(answerModeFor('sse-or-json', [initialize], true)).toBe('json');
    expect(answerModeFor('sse-or-json', [call], true)).toBe('json-first');
    expect(answerModeFor('sse-or-json', [{ method: 'ping' }], true)).toBe('json-first');
    expect(answerModeFor('sse-or-json', [call, { method: 'resources/read' }], true)).toBe('sse');
    // Without a JSON window (json_answer_within: 0s) everything but an initialize is streamed.
    expect(answerModeFor('sse-or-json', [initialize], false)).toBe('json');
    expect(answerModeFor('sse-or-json', [call], false)).toBe('sse');
    // A client that takes only a stream (or sends no Accept) gets one; one that prefers JSON, JSON.
    expect(answerModeFor('sse', [initialize], true)).toBe('sse');
    expect(answerModeFor('sse', [call], true)).toBe('sse');
    expect(answerModeFor('json', [call], true)).toBe('json');
  });

  it('accepts batches only before 2025-06-18, never empty, never with initialize among others', () => {
    expect(batchesAllowed('2025-03-26')).toBe(true);
    expect(batchesAllowed('2025-06-18')).toBe(false);
    expect(messagesOf([request, { ...request, id: 2 }], '2025-03-26')).toMatchObject({ batch: true });
    expect(messagesOf([request], '2025-11-25')).toMatchObject({ status: 400, code: -32600 });
    expect(messagesOf([], '2025-03-26')).toMatchObject({ status: 400, code: -32600 });
    expect(messagesOf([request, { jsonrpc: '2.0', id: 3, method: 'initialize', params: {} }], '2025-03-26')).toMatchObject({ code: -32600 });
    expect(messagesOf(Array.from({ length: 101 }, (_, i) => ({ ...request, id: i })), '2025-03-26')).toMatchObject({ code: -32600 });
  });

  it('checks the JSON-RPC envelope of each message', () => {
    expect(messagesOf(request, '2025-11-25')).toMatchObject({ batch: false });
    expect(messagesOf({ jsonrpc: '2.0', id: 1, result: {} }, '2025-11-25')).toMatchObject({ batch: false });
    expect(messagesOf({ jsonrpc: '2.0', method: 'notifications/initialized' }, '2025-11-25')).toMatchObject({ batch: false });
    // Shapes the SDK would drop without answering must be refused here, or the POST would hang.
    const droppedBySdk = [{ ...request, extra: 1 }, { ...request, params: [] }, { ...request, id: 7.5 }];
    for (const bad of [undefined, null, 'x', { id: 1, method: 'ping' }, { jsonrpc: '2.0', id: {}, method: 'ping' }, { jsonrpc: '2.0', id: 1 }, ...droppedBySdk]) {
      expect(messagesOf(bad, '2025-11-25'), JSON.stringify(bad)).toMatchObject({ status: 400, code: -32600 });
    }
  });

  it('reads the protocol version header: absent is 2025-03-26, unsupported is 400', () => {
    expect(headerProtocolVersion(undefined)).toBe('2025-03-26');
    expect(headerProtocolVersion('2025-06-18')).toBe('2025-06-18');
    expect(headerProtocolVersion('1999-01-01')).toMatchObject({ status: 400 });
    expect(primesStreams('2025-11-25')).toBe(true);
    expect(primesStreams('2025-06-18')).toBe(false);
  });

  it('round-trips event ids and refuses malformed ones', () => {
    expect(parseEventId(eventId('AbC_-9', 12))).toEqual({ streamId: 'AbC_-9', seq: 12 });
    for (const bad of ['', 'x', 'a.b', 'a b.1', '.1', `${'a'.repeat(65)}.1`]) expect(parseEventId(bad), bad).toBeUndefined();
  });
});

describe('stream ids', () => {
  it('are 12 random bytes each, distinct across refills of their pool, and fit an event id', () => {
    const ids = Array.from({ length: 1000 }, () => newStreamId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(parseEventId(eventId(id, 3))).toEqual({ streamId: id, seq: 3 });
    }
  });
});
