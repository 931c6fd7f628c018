import { describe, expect, it } from 'vitest';
import { OpError, jsonRpcResult, sseMessages, type HttpAnswer } from './mcp-http.js';

const json = (body: unknown, status = 200): HttpAnswer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sse = (body: string): HttpAnswer => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body });

describe('the load generator reads MCP answers as JSON or SSE', () => {
  it('reads the data lines of each SSE event and skips a priming event with empty data', () => {
    const body = 'id: 0\ndata: \n\nevent: message\nid: 1\ndata: {"jsonrpc":"2.0",\ndata: "method":"notifications/progress"}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n';
    expect(sseMessages(body)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress' },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
  });

  it('takes the response to its request from an SSE stream that carries notifications first', () => {
    const body = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\nevent: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"tools":[]}}\n\n';
    expect(jsonRpcResult(sse(body), 3)).toEqual({ tools: [] });
  });

  it('takes the response from a plain JSON answer', () => {
    expect(jsonRpcResult(json({ jsonrpc: '2.0', id: 2, result: { content: [] } }), 2)).toEqual({ content: [] });
  });

  it('does not count JSON-RPC errors, tool errors, other HTTP statuses or answers to another request', () => {
    expect(() => jsonRpcResult(json({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'nope' } }), 2)).toThrow(OpError);
    expect(() => jsonRpcResult(json({ jsonrpc: '2.0', id: 2, result: { isError: true, content: [] } }), 2)).toThrow(/tool error/);
    expect(() => jsonRpcResult(json({ error: 'x' }, 429), 2)).toThrow(/HTTP 429/);
    expect(() => jsonRpcResult(json({ jsonrpc: '2.0', id: 5, result: {} }), 2)).toThrow(/no JSON-RPC response with id 2/);
  });
});
