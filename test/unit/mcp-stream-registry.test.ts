import { PassThrough } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { OutboundStream } from '../../api/mcp/streamable/outbound-stream.js';
import { StreamRegistry } from '../../api/mcp/streamable/registry.js';
import { SseConnection } from '../../api/mcp/streamable/sse.js';

/** A response stand-in that can be cut like a dropped connection. */
function response(): ServerResponse & { drop(): void } {
  const sink = new PassThrough() as unknown as ServerResponse & { drop(): void };
  Object.assign(sink, {
    writeHead: () => sink,
    flushHeaders: () => undefined,
    cork: () => undefined,
    uncork: () => undefined,
    drop: () => sink.emit('close'),
  });
  return sink;
}

function stream(id: string, clock: () => number): OutboundStream {
  return new OutboundStream(id, { sessionId: 's', window: 10, clock });
}

/** A stream that was connected and lost its connection at `clock()`. */
function dropped(id: string, clock: () => number): OutboundStream {
  const s = stream(id, clock);
  const res = response();
  s.attach(new SseConnection(res, { keepAliveMs: 0, flushHeaders: true }), 0, undefined);
  res.drop();
  return s;
}

describe('the resumable streams of a process', () => {
  it('keeps a disconnected stream for the TTL, then drops it', () => {
    let now = 0;
    const registry = new StreamRegistry(1000, () => now);
    registry.add('s', dropped('a', () => now));
    now = 999;
    expect(registry.sweep()).toBe(0);
    expect(registry.get('s', 'a')).toBeDefined();
    now = 1000;
    expect(registry.sweep()).toBe(1);
    expect(registry.get('s', 'a')).toBeUndefined();
  });

  it('never keeps a stream for another session id', () => {
    const registry = new StreamRegistry(1000, () => 0);
    registry.add('s', stream('a', () => 0));
    expect(registry.get('other', 'a')).toBeUndefined();
  });

  it('bounds what one session leaves behind: the oldest disconnected stream goes first', () => {
    const registry = new StreamRegistry(60_000, () => 0, 3);
    const live = stream('live', () => 0);
    registry.add('s', live);
    for (const id of ['d1', 'd2', 'd3']) registry.add('s', dropped(id, () => 0));
    expect(registry.get('s', 'd1')).toBeUndefined();
    expect(registry.get('s', 'live')).toBe(live);
    expect(registry.get('s', 'd3')).toBeDefined();
    expect(registry.size).toBe(3);
  });
});
