/**
 * SseConnection over a real HTTP server: the last event of a POST's stream reaches the client
 * before the response ends. On Node 22 a write corked before `end()` was dropped, so clients that
 * negotiate 2025-11-25 (primed streams: one write, then the answer with the end) never got an
 * answer to initialize; CI runs Node 22 (issue 35).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { beatTimers } from '../../api/mcp/streamable/beats.js';
import { SseConnection } from '../../api/mcp/streamable/sse.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves one SSE response shaped by `respond` and returns the body the client read. */
async function bodyOf(respond: (sse: SseConnection) => void): Promise<string> {
  server = createServer((_req, res) => respond(new SseConnection(res, { keepAliveMs: 0, flushHeaders: false })));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  return response.text();
}

describe('SseConnection', () => {
  it('sendLast after a priming event delivers the answer, then ends the response', async () => {
    const body = await bodyOf((sse) => {
      sse.prime('s.0', 1000);
      // The answer comes on a later turn, as a handler's does.
      setImmediate(() => sse.sendLast({ jsonrpc: '2.0', id: 1, result: {} }, 's.1'));
    });
    expect(body).toBe('id: s.0\nretry: 1000\ndata: \n\nevent: message\nid: s.1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
  });

  it('sendLast alone is the whole response; nothing is written after the end', async () => {
    const body = await bodyOf((sse) => {
      sse.sendLast({ jsonrpc: '2.0', id: 2, result: {} }, undefined);
      expect(sse.closed).toBe(true);
      expect(sse.send({ late: true }, undefined)).toBe(false);
    });
    expect(body).toBe('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n\n');
  });

  it('on a response whose client already left, is closed and gone at once: nothing is written, no keep-alive runs', async () => {
    let connection: SseConnection | undefined;
    let arrived: () => void = () => undefined;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const left = new Promise<void>((resolve) => {
      server = createServer((_req, res) => {
        arrived();
        // The client leaves while the answer waits (a JSON-first window); the stream opens after.
        res.once('close', () => {
          connection = new SseConnection(res, { keepAliveMs: 10, flushHeaders: false });
          resolve();
        });
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server!.address() as AddressInfo;
    // Node's client, so the socket itself goes (fetch may keep it for reuse after an abort).
    const request = httpRequest(`http://127.0.0.1:${port}/`);
    request.on('error', () => undefined);
    request.end();
    await received;
    request.destroy();
    await left;
    expect(connection!.closed).toBe(true);
    const heard: boolean[] = [];
    connection!.onClose((delivered) => heard.push(delivered));
    expect(heard).toEqual([false]);
    expect(connection!.prime('s.0', 1000)).toBe(false);
    expect(connection!.send({ late: true }, 's.1')).toBe(false);
    expect(beatTimers()).toBe(0);
  });
});
