import { describe, expect, it } from 'vitest';
import { checkOrigin, isLoopbackHost, mcpBodyLimit } from '../../api/mcp/http-rules.js';
import { parseListenAddress } from '../../api/http/app.js';
import { LiveSessions, isExpired, memorySessionCap } from '../../api/mcp/sessions.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

describe('checkOrigin', () => {
  it.each([
    { origin: undefined, host: 'api.example.com', loopbackOnly: false, ok: true },
    { origin: 'https://api.example.com', host: 'api.example.com', loopbackOnly: false, ok: true },
    { origin: 'https://evil.example.com', host: 'api.example.com', loopbackOnly: false, ok: false },
    { origin: 'https://portal.example.com', host: 'api.example.com', loopbackOnly: false, ok: true },
    { origin: 'not a url', host: 'api.example.com', loopbackOnly: false, ok: false },
    { origin: 'http://localhost:6274', host: 'localhost:8080', loopbackOnly: true, ok: true },
    { origin: 'http://evil.example.com', host: 'evil.example.com', loopbackOnly: true, ok: false },
    { origin: undefined, host: 'evil.example.com', loopbackOnly: true, ok: false },
    { origin: undefined, host: '127.0.0.1:8080', loopbackOnly: true, ok: true },
  ])('origin=$origin host=$host loopbackOnly=$loopbackOnly → $ok', ({ origin, host, loopbackOnly, ok }) => {
    expect(checkOrigin({ origin, host, loopbackOnly, allowedOrigins: ['https://portal.example.com'] }).ok).toBe(ok);
  });

  it('recognises loopback hosts with ports and IPv6', () => {
    expect(isLoopbackHost('[::1]:8080')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('10.0.0.1:80')).toBe(false);
  });
});

describe('parseListenAddress', () => {
  it.each([
    [':8080', { host: '0.0.0.0', port: 8080 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
  ])('%s', (text, expected) => expect(parseListenAddress(text)).toEqual(expected));

  it('refuses a malformed address', () => expect(() => parseListenAddress('8080')).toThrow(/invalid listen address/));
});

describe('LiveSessions', () => {
  function fakeSession() {
    const closed = { transport: false, server: false };
    return {
      closed,
      transport: { close: async () => void (closed.transport = true) } as unknown as Transport,
      server: { close: async () => void (closed.server = true) } as unknown as Server,
    };
  }

  it('expires by idle time and by lifetime, on use and on sweep', async () => {
    let now = 0;
    const sessions = new LiveSessions({ ttlMs: 100, idleMs: 30 }, () => now);
    const a = fakeSession();
    sessions.add('a', { transport: a.transport, server: a.server, subject: 'alice' });
    now = 20;
    expect(sessions.use('a', 'alice')).toBeDefined();
    expect(sessions.use('a', 'mallory')).toBeUndefined();
    now = 49;
    expect(sessions.use('a', 'alice')).toBeDefined();
    now = 80;
    expect(await sessions.sweep()).toBe(1);
    expect(a.closed).toEqual({ transport: true, server: true });
    expect(sessions.size).toBe(0);
  });

  it('memorySessionCap: an identity\'s sessions in every store count; at the cap only live ones do', async () => {
    let now = 0;
    const limits = { ttlMs: 1000, idleMs: 100 };
    const http = new LiveSessions(limits, () => now);
    const sse = new LiveSessions(limits, () => now);
    const admit = memorySessionCap(2, [http, sse], () => now);
    const a = fakeSession();
    const b = fakeSession();
    http.add('a', { transport: a.transport, server: a.server, subject: 'alice' });
    expect(admit('alice')).toEqual({ ok: true });
    sse.add('b', { transport: b.transport, server: b.server, subject: 'alice' });
    expect(admit('alice')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(admit('bob')).toEqual({ ok: true });
    // Both idle past idleMs but not yet swept: still held, no longer live.
    now = 100;
    expect(http.heldBy('alice') + sse.heldBy('alice')).toBe(2);
    expect(admit('alice')).toEqual({ ok: true });
    http.forget('a');
    await sse.close('b');
    expect(http.heldBy('alice') + sse.heldBy('alice')).toBe(0);
    expect(b.closed).toEqual({ transport: true, server: true });
  });

  it('isExpired applies ttl even to a busy session', () => {
    expect(isExpired({ createdAt: 0, lastSeenAt: 99 }, { ttlMs: 100, idleMs: 30 }, 100)).toBe(true);
    expect(isExpired({ createdAt: 0, lastSeenAt: 99 }, { ttlMs: 100, idleMs: 30 }, 99)).toBe(false);
  });
});

describe('mcpBodyLimit', () => {
  it('is server.body_limit, but never less than one asset save of portal.max_content_size as base64 in a JSON-RPC envelope', () => {
    // The defaults: 4 MiB, 10 MiB assets — a 10 MiB PNG is 13,981,016 bytes of base64.
    expect(mcpBodyLimit({ bodyLimit: 4_194_304, maxContentSize: 10_485_760 })).toBe(13_981_016 + 65_536);
    expect(mcpBodyLimit({ bodyLimit: 64 * 1024 * 1024, maxContentSize: 10_485_760 })).toBe(64 * 1024 * 1024);
    expect(mcpBodyLimit({ bodyLimit: 65_536, maxContentSize: 16_384 })).toBe(21_848 + 65_536);
  });
});
