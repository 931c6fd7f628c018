/**
 * Issue 41 item 1 (the MCP request path: what is not ours to pay): messages our envelope check
 * accepted go to the SDK protocol's handler of their kind without its zod type guards, anything
 * else to the SDK's dispatcher as before; tools/call results leave as the handler made them,
 * without Server's second parse — and every answer is the SDK's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EmptyResultSchema, ErrorCode, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { directDispatch, closeWithoutStackTraces, setToolCallHandler } from '../../api/mcp/sdk-dispatch.js';

/** A transport that records what the server sends. */
class RecordingTransport implements Transport {
  sent: JSONRPCMessage[] = [];
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  async start(): Promise<void> {}
  async close(): Promise<void> {
    this.onclose?.();
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
}

async function connected(): Promise<{ server: Server; transport: RecordingTransport; errors: Error[] }> {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  const errors: Error[] = [];
  server.onerror = (error) => errors.push(error);
  const transport = new RecordingTransport();
  await server.connect(transport);
  transport.onmessage = directDispatch(server, transport.onmessage);
  return { server, transport, errors };
}

/** Answers in the order of their requests' ids (each is sent when its handler settles). */
function byId(sent: JSONRPCMessage[]): JSONRPCMessage[] {
  return [...sent].sort((a, b) => Number((a as { id: number }).id) - Number((b as { id: number }).id));
}

async function answered(transport: RecordingTransport, count: number): Promise<void> {
  await vi.waitFor(() => expect(transport.sent.length).toBeGreaterThanOrEqual(count));
}

describe('messages handed to the protocol by kind', () => {
  it('routes a checked request, notification and response to their handlers; the rest to the SDK dispatcher', () => {
    const handlers = { _onrequest: vi.fn(), _onnotification: vi.fn(), _onresponse: vi.fn() };
    const sdk = vi.fn();
    const dispatch = directDispatch(handlers as unknown as Server, sdk)!;
    const request = { jsonrpc: '2.0', id: 7, method: 'tools/list' } as JSONRPCMessage;
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage;
    const response = { jsonrpc: '2.0', id: 3, result: {} } as JSONRPCMessage;
    const error = { jsonrpc: '2.0', id: 4, error: { code: -1, message: 'no' } } as JSONRPCMessage;
    const foreign = { jsonrpc: '2.0', id: 5, method: 'tools/list', extra: true } as unknown as JSONRPCMessage;
    const extra = { authInfo: { token: 't', clientId: 'c', scopes: [] } };
    dispatch(request, extra);
    dispatch(notification);
    dispatch(response);
    dispatch(error);
    dispatch(foreign, extra);
    expect(handlers._onrequest).toHaveBeenCalledExactlyOnceWith(request, extra);
    expect(handlers._onnotification).toHaveBeenCalledExactlyOnceWith(notification);
    expect(handlers._onresponse.mock.calls).toEqual([[response], [error]]);
    expect(sdk).toHaveBeenCalledExactlyOnceWith(foreign, extra);
  });

  it('keeps the SDK dispatcher when the protocol lacks the handlers it reaches', () => {
    const sdk = vi.fn();
    expect(directDispatch({} as Server, sdk)).toBe(sdk);
  });

  it('a real server answers through it as through the SDK, and reports what is not a message', async () => {
    const { server, transport, errors } = await connected();
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    transport.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    transport.onmessage!({ jsonrpc: '2.0', id: 2, method: 'no/such/method' });
    await answered(transport, 2);
    expect(byId(transport.sent)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { tools: [] } },
      { jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32601 }) },
    ]);
    transport.onmessage!({ jsonrpc: '2.0', id: 3, method: 'tools/list', stray: 1 } as unknown as JSONRPCMessage);
    expect(errors.map((e) => e.message)).toEqual([expect.stringContaining('Unknown message type')]);
  });
});

describe('tools/call registered on the protocol', () => {
  it('sends the result the handler made (not a parsed copy); a malformed request is refused with InvalidParams as before', async () => {
    const { server, transport } = await connected();
    const result = { content: [{ type: 'text' as const, text: 'hello' }], structuredContent: { n: 1 } };
    setToolCallHandler(server, async () => result);
    transport.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } });
    transport.onmessage!({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } });
    await answered(transport, 2);
    const [ok, refused] = byId(transport.sent) as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(ok!.result).toBe(result);
    // Refused as Server's own wrapper refuses it.
    expect(refused).toMatchObject({ id: 2, error: { code: -32602, message: expect.stringContaining('Invalid tools/call request') } });
  });
});

describe('closing without stack traces (a stateless request\'s server, a session\'s end)', () => {
  it('closes it as close() does — handlers still registered are aborted, the server hears its close — without building stack traces, and leaves the limit as it was', async () => {
    const { server, transport } = await connected();
    let signal: AbortSignal | undefined;
    server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      signal = extra.signal;
      return new Promise(() => undefined); // never answers
    });
    transport.onmessage?.({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await vi.waitFor(() => expect(signal).toBeDefined());
    let closed = 0;
    server.onclose = () => void closed++;
    const limit = Error.stackTraceLimit;
    const stacks: Array<string | undefined> = [];
    signal!.addEventListener('abort', () => stacks.push((signal!.reason as Error).stack));
    void closeWithoutStackTraces(server);
    expect(closed).toBe(1);
    expect(signal!.aborted).toBe(true);
    expect(stacks).toHaveLength(1);
    expect(stacks[0]).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('after').stack).toMatch(/\n\s+at /);
  });

  it('a request the server is still waiting on fails as before: ConnectionClosed, same message', async () => {
    const { server, transport } = await connected();
    const pending = server.request({ method: 'ping' }, EmptyResultSchema);
    await vi.waitFor(() => expect(transport.sent).toHaveLength(1));
    await closeWithoutStackTraces(transport);
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed, message: 'MCP error -32000: Connection closed' });
  });

  it('a close that fails is not an unhandled rejection, and the limit is restored', async () => {
    const limit = Error.stackTraceLimit;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const closing = closeWithoutStackTraces({ close: () => Promise.reject(new Error('broken')) });
      expect(Error.stackTraceLimit).toBe(limit);
      await expect(closing).resolves.toBeUndefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
