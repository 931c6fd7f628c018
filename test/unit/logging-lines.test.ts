/**
 * Issue 41 item 1 (the access log: kept, made cheap): a request's access line written by hand is
 * the line pino writes for the same fields, key for key; a request's logger is made only when it
 * logs, and then carries its bindings.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChild, requestFields, writeAccessLine } from '../../shared/logging/index.js';
import { capturingLogger } from '../support/logs.js';

async function settled(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

const req = { method: 'POST', url: '/mcp?api_key=[redacted]', host: 'localhost:8080', remoteAddress: '127.0.0.1', remotePort: 50312 };

describe('access lines written by hand', () => {
  it('is the line pino writes for the same request, bindings of the parent included', async () => {
    const { log, lines } = capturingLogger();
    const listener = log.child({ listener: 'webhooks' });
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_790_000_000_000);
    try {
      // A request as Fastify hands it to pino's `req` serializer, and the fields that serializer takes.
      const request = { method: 'POST', url: '/mcp?api_key=S3CR3T', host: 'localhost:8080', ip: '127.0.0.1', socket: { remotePort: 50312 } };
      listener.child({ reqId: 'req-1' }).info({ req: request, res: { statusCode: 202 }, responseTime: 1.625 }, 'request completed');
      expect(writeAccessLine(listener, 'info', { idLabel: 'reqId', id: 'req-1', req: requestFields(request), statusCode: 202, responseTime: 1.625 })).toBe(true);
    } finally {
      now.mockRestore();
    }
    await settled();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 30, service: 'platform', listener: 'webhooks', reqId: 'req-1', req, res: { statusCode: 202 }, msg: 'request completed' });
  });

  it('keeps the level: an error line at warn, nothing of an info line', async () => {
    const { log, lines } = capturingLogger('warn');
    expect(writeAccessLine(log, 'info', { idLabel: 'reqId', id: 'a', req, statusCode: 200, responseTime: 1 })).toBe(true);
    expect(writeAccessLine(log, 'error', { idLabel: 'reqId', id: 'b', req, statusCode: 503, responseTime: 2 })).toBe(true);
    await settled();
    expect(lines.map((line) => JSON.parse(line) as { level: number; reqId: string })).toEqual([expect.objectContaining({ level: 50, reqId: 'b' })]);
  });

  it('escapes what the caller sent (a request id or URL cannot add fields or lines)', async () => {
    const { log, lines } = capturingLogger();
    const id = 'x","level":10,"msg":"forged\ninjected';
    writeAccessLine(log, 'info', { idLabel: 'reqId', id, req: { ...req, url: '/a"}\n{"b' }, statusCode: 200, responseTime: 1 });
    await settled();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, reqId: id, req: { url: '/a"}\n{"b' }, msg: 'request completed' });
  });

  it('declines a destination that wants pino metadata (a multistream): the caller logs through pino', () => {
    const log = pino({}, pino.multistream([{ stream: new Writable({ write: (_c, _e, done) => done() }) }]));
    expect(writeAccessLine(log, 'info', { idLabel: 'reqId', id: 'a', req, statusCode: 200, responseTime: 1 })).toBe(false);
  });
});

describe('a logger made when it first logs', () => {
  it('makes no child until a line is logged, then logs with its bindings', async () => {
    const { log, lines } = capturingLogger();
    const child = vi.spyOn(log, 'child');
    const lazy = lazyChild(log, { tool: 'platform_info', session: 's-1' });
    expect(typeof lazy.info).toBe('function');
    expect(typeof lazy.child).toBe('function');
    expect(child).not.toHaveBeenCalled();
    lazy.warn({ detail: 1 }, 'slow');
    lazy.info('again');
    expect(child).toHaveBeenCalledTimes(1);
    await settled();
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 40, tool: 'platform_info', session: 's-1', detail: 1, msg: 'slow' }),
      expect.objectContaining({ level: 30, tool: 'platform_info', msg: 'again' }),
    ]);
  });

  it('answers every other member from the child: level, bindings, isLevelEnabled', () => {
    const { log } = capturingLogger('warn');
    const lazy = lazyChild(log, { reqId: 'r' }, { level: 'debug' });
    expect(lazy.level).toBe('debug');
    expect(lazy.bindings()).toMatchObject({ reqId: 'r' });
    expect(lazy.isLevelEnabled('debug')).toBe(true);
    expect(log.isLevelEnabled('debug')).toBe(false);
  });

  it('sets members on the child and answers `in` as a pino logger does', () => {
    const { log } = capturingLogger('warn');
    const lazy = lazyChild(log, { reqId: 'r' });
    expect('info' in lazy && 'level' in lazy && 'isLevelEnabled' in lazy).toBe(true);
    expect('noSuchMember' in lazy).toBe(false);
    lazy.level = 'debug';
    expect(lazy.isLevelEnabled('debug')).toBe(true);
    expect(log.level).toBe('warn');
  });

  it('a grandchild keeps both bindings', async () => {
    const { log, lines } = capturingLogger();
    lazyChild(log, { reqId: 'r' }).child({ step: 'auth' }).info('checked');
    await settled();
    expect(JSON.parse(lines[0]!)).toMatchObject({ reqId: 'r', step: 'auth', msg: 'checked' });
  });
});
