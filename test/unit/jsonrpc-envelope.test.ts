import { describe, expect, it } from 'vitest';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { classifyMessage, messageJson } from '../../api/mcp/jsonrpc-envelope.js';
import { jsonResult } from '../../shared/mcp-tools/index.js';

/** Shapes on both sides of the line; the SDK's schema is the reference for what it would accept. */
const samples: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', _meta: { progressToken: 3 } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'no' } },
  { jsonrpc: '2.0', error: { code: -1, message: 'no', data: { a: 1 } } },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: true } } },
  { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { 'io.modelcontextprotocol/related-task': {} } } },
  { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
  { jsonrpc: '2.0', id: 1, method: 'ping', other: 1 },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: {}, params: {} },
  { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1 } },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1 },
  [],
  null,
  'text',
  7,
];

describe('classifyMessage', () => {
  it.each(samples.map((s) => [JSON.stringify(s), s]))('agrees with the SDK schema on %s', (_text, sample) => {
    expect(classifyMessage(sample).ok).toBe(JSONRPCMessageSchema.safeParse(sample).success);
  });

  it('tells requests, notifications and responses apart', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' })).toMatchObject({ ok: true, kind: 'request', id: 1, method: 'ping' });
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/cancelled' })).toMatchObject({ ok: true, kind: 'notification' });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: {} })).toMatchObject({ ok: true, kind: 'response' });
  });

  it('keeps a usable id of a refused message so the refusal can answer it', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 'q', method: 5 })).toMatchObject({ ok: false, id: 'q' });
    expect(classifyMessage({ jsonrpc: '2.0', id: { no: 1 }, method: 'ping' })).toMatchObject({ ok: false, id: null });
  });
});

describe('messageJson', () => {
  const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `row "${i}"\n`, nested: { a: [i, null, true] } }));

  it('gives the text JSON.stringify gives, for answers with written structured content and for every other message', () => {
    const written = jsonResult({ columns: ['id'], rows, row_count: rows.length });
    const messages: unknown[] = [
      { result: written, jsonrpc: '2.0', id: 7 },
      { jsonrpc: '2.0', id: 'a"b', result: { ...written, isError: false, _meta: { x: 1 } } },
      { jsonrpc: '2.0', id: 1, result: { structuredContent: written.structuredContent } },
      { jsonrpc: '2.0', id: 1, result: { content: [], structuredContent: { not: 'written' } } },
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
      { jsonrpc: '2.0', id: 1, result: written, extra: true },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } },
      [{ jsonrpc: '2.0', id: 1, result: written }, { jsonrpc: '2.0', id: 2, result: {} }],
      [],
    ];
    for (const message of messages) expect(messageJson(message)).toBe(JSON.stringify(message));
    // The answer parses back to the message it was made of.
    expect(JSON.parse(messageJson({ result: written, jsonrpc: '2.0', id: 7 }))).toEqual({ jsonrpc: '2.0', id: 7, result: written });
  });

  it('writes structured content from the text jsonResult made of it, not by serialising it again', () => {
    const value: Record<string, unknown> = { rows: [1, 2] };
    const written = jsonResult(value);
    // Results are not changed once made: this one is, to show which text is sent.
    value.rows = ['changed'];
    const text = messageJson({ jsonrpc: '2.0', id: 1, result: written });
    expect(JSON.parse(text).result.structuredContent).toEqual({ rows: [1, 2] });
    expect(JSON.parse(text).result.content).toEqual([{ type: 'text', text: '{"rows":[1,2]}' }]);
  });

  it('writes the text block from the quoted text its maker gave, and anything made anew is serialised', () => {
    const value = { rows };
    const text = JSON.stringify(value);
    const written = jsonResult(value, { text, quoted: JSON.stringify(text) });
    const message = { jsonrpc: '2.0', id: 3, result: written };
    expect(messageJson(message)).toBe(JSON.stringify(message));
    // The quoted text is what goes out: a block that was given one is not serialised again.
    const marked = jsonResult({ rows: [1] }, { text: '{"rows":[1]}', quoted: '"{\\"rows\\":[1],\\"seen\\":true}"' });
    expect(JSON.parse(messageJson({ jsonrpc: '2.0', id: 4, result: marked })).result.content[0].text).toBe('{"rows":[1],"seen":true}');
    // A content array made anew (enrichment appends into a new one) has no text of its own.
    const appended = { ...written, content: [...written.content, { type: 'text', text: 'more' }] };
    const other = { jsonrpc: '2.0', id: 5, result: appended };
    expect(messageJson(other)).toBe(JSON.stringify(other));
  });
});
