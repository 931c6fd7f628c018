/**
 * The audit writer's rules without a database server: entry building, row mapping, the no-op
 * cases, and the retry-once policy. `db` here is a stand-in for pg's Pool (a third-party client),
 * recording the statements it is sent; the Postgres behaviour itself is covered in
 * test/integration/audit-log.test.ts.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  auditMiddleware,
  auditRow,
  createAuditLog,
  MAX_PARAMETERS_BYTES,
  parametersJson,
  REDACTED,
  toolCallEntry,
  type AuditEntry,
  type AuditLog,
} from '../../shared/audit/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createLogger, silentLogger } from '../../shared/logging/index.js';
import { allowAllTools, defineTool, invokeTool, textResult, toolError, ToolRegistry, type ToolCallContext } from '../../shared/mcp-tools/index.js';

type AuditConfig = PlatformConfig['audit'];
const on: AuditConfig = { enabled: true, log_tool_calls: true, retention_days: 90, queue_size: 100, on_queue_full: 'drop' };

const ctx = (over: Partial<ToolCallContext> = {}): ToolCallContext => ({
  caller: { subject: 'ci-pipeline', name: 'ci-pipeline', roles: ['analyst'], authType: 'apikey' },
  persona: 'analyst',
  sessionId: 'sess-1',
  signal: new AbortController().signal,
  log: silentLogger(),
  ...over,
});

/** One statement the writer sent: its text and the rows of its batch (the one JSON parameter, store.ts). */
interface Call {
  text: string;
  values: unknown[];
  rows: Record<string, unknown>[];
}

/** A pg stand-in: `failures` first calls reject, later ones succeed; every call is kept. */
function fakeDb(failures = 0) {
  const calls: Call[] = [];
  return {
    calls,
    query: (async (query: { text: string; values: unknown[] }) => {
      calls.push({ ...query, rows: JSON.parse(query.values[0] as string) as Record<string, unknown>[] });
      if (calls.length <= failures) throw Object.assign(new Error('connection terminated'), { code: '57P01' });
      return { rowCount: calls.at(-1)!.rows.length, rows: [] };
    }) as never,
  };
}

/** A real pino logger whose JSON lines are kept for assertions. */
function capturingLog() {
  const lines: { level: string; msg: string; [k: string]: unknown }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = JSON.parse(chunk.toString()) as { level: number; msg: string };
      lines.push({ ...line, level: pino.levels.labels[line.level]! });
      done();
    },
  });
  return Object.assign(createLogger({ level: 'debug', destination }), { lines });
}

describe('createAuditLog without auditing', () => {
  const cases: [string, AuditConfig, boolean][] = [
    ['no database', on, false],
    ['audit.enabled off', { ...on, enabled: false }, true],
    ['audit.log_tool_calls off', { ...on, log_tool_calls: false }, true],
  ];
  it.each(cases)('%s: a silent no-op logger', async (_name, audit, withDb) => {
    const db = fakeDb();
    const log = capturingLog();
    const audit_ = createAuditLog({ config: { audit }, ...(withDb ? { db } : {}), log });
    expect(audit_.enabled).toBe(false);
    audit_.record(toolCallEntry({ tool: 't', args: {}, ctx: ctx(), startedAt: 0, durationMs: 1, result: textResult('x') }));
    await audit_.recordAsync({ subject: 's', authType: 'apikey', tool: 't', durationMs: 1, outcome: 'ok' });
    await audit_.flush();
    await audit_.close();
    expect(audit_.dropped).toBe(0);
    expect(db.calls).toHaveLength(0);
    // The CLI warns once about a missing database; the factory must not warn again.
    expect(log.lines).toEqual([]);
  });

  it('the middleware of a no-op logger just runs the call', async () => {
    const mw = auditMiddleware(createAuditLog({ config: { audit: on }, log: silentLogger() }));
    const tool = defineTool({ name: 't', toolkit: 'x', description: 'd', input: z.object({}), handler: async () => textResult('ok') });
    expect(await mw({ tool, args: {}, ctx: ctx() }, () => tool.handler({}, ctx()))).toEqual(textResult('ok'));
  });
});

describe('toolCallEntry', () => {
  it('builds an ok entry with caller, persona, session and arguments', () => {
    const entry = toolCallEntry({
      tool: 'sql_query',
      args: { sql: 'select 1' },
      ctx: ctx({ caller: { subject: 'u-1', email: 'a@example.com', roles: [], authType: 'oidc' } }),
      startedAt: 1_700_000_000_000,
      durationMs: 12,
      result: textResult('1'),
    });
    expect(entry).toEqual({
      occurredAt: 1_700_000_000_000,
      subject: 'u-1',
      email: 'a@example.com',
      authType: 'oidc',
      persona: 'analyst',
      tool: 'sql_query',
      parameters: { sql: 'select 1' },
      durationMs: 12,
      outcome: 'ok',
      sessionId: 'sess-1',
    });
  });

  it('an isError result is an error with the result text; a throw is an error with its message', () => {
    const base = { tool: 't', args: {}, ctx: ctx({ persona: undefined, sessionId: undefined }), startedAt: 0, durationMs: 0 };
    expect(toolCallEntry({ ...base, result: toolError('table not found') })).toMatchObject({ outcome: 'error', errorText: 'table not found' });
    expect(toolCallEntry({ ...base, error: new Error('boom') })).toMatchObject({ outcome: 'error', errorText: 'boom' });
    expect(toolCallEntry({ ...base, error: undefined })).toMatchObject({ outcome: 'error', errorText: 'undefined' });
    const denied = toolCallEntry({ ...base, outcome: 'denied', errorText: 'Unknown tool: t' });
    expect(denied).toMatchObject({ outcome: 'denied', errorText: 'Unknown tool: t' });
    expect(denied).not.toHaveProperty('persona');
    expect(denied).not.toHaveProperty('sessionId');
  });
});

describe('auditRow', () => {
  it('redacts parameters, clamps duration, stamps a time-ordered uuid', () => {
    const entry: AuditEntry = { subject: 's', authType: 'apikey', tool: 't', parameters: { token: 'x', q: 1 }, durationMs: -3.4, outcome: 'ok' };
    const [id, at, , email, , persona, , params, duration, outcome, errorText, session] = auditRow(entry, Date.UTC(2024, 0, 2));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(at.toISOString()).toBe('2024-01-02T00:00:00.000Z');
    expect(JSON.parse(params)).toEqual({ token: REDACTED, q: 1 });
    expect([email, persona, duration, outcome, errorText, session]).toEqual([null, null, 0, 'ok', null, null]);
    const later = auditRow({ ...entry, occurredAt: Date.UTC(2024, 0, 3) }, 0)[0];
    expect(later > id).toBe(true);
  });

  it('names the resource of a resource event, and none for a tool call', () => {
    const entry: AuditEntry = { subject: 's', authType: 'oidc', tool: 'portal_download', durationMs: 0, outcome: 'ok' };
    expect(auditRow(entry, 0)[12]).toBeNull();
    expect(auditRow({ ...entry, resourceId: '0190a6b2-7c3e-7a11-8f00-000000000001' }, 0)[12]).toBe('0190a6b2-7c3e-7a11-8f00-000000000001');
  });

  it('replaces oversized parameters by a note', () => {
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'x'.repeat(4000)]));
    const json = parametersJson(big);
    expect(Buffer.byteLength(json)).toBeLessThan(MAX_PARAMETERS_BYTES);
    expect(JSON.parse(json)).toEqual({ '[truncated]': expect.stringMatching(/^parameters were \d+ bytes, over the 65536-byte limit$/) });
    expect(parametersJson(undefined)).toBe('{}');
  });
});

describe('writer', () => {
  const entry = (tool: string): AuditEntry => ({ subject: 's', authType: 'apikey', tool, durationMs: 1, outcome: 'ok', occurredAt: 0 });

  it('writes queued entries as one multi-row insert on flush', async () => {
    const db = fakeDb();
    const audit = createAuditLog({ config: { audit: on }, db, log: silentLogger(), flushIntervalMs: 60_000 });
    for (const t of ['a', 'b', 'c']) audit.record(entry(t));
    expect(audit.pending).toBe(3);
    expect(db.calls).toHaveLength(0); // nothing on the caller's path
    await audit.flush();
    expect(db.calls).toHaveLength(1);
    expect(db.calls[0]!.text).toMatch(/^INSERT INTO audit_log .* FROM json_to_recordset\(\$1::json\) .* ON CONFLICT \(id\) DO NOTHING$/s);
    expect(db.calls[0]!.rows.map((row) => row.tool)).toEqual(['a', 'b', 'c']);
    expect(audit.pending).toBe(0);
  });

  it('splits into batches of batchSize and writes a full batch without waiting for the timer', async () => {
    const db = fakeDb();
    const audit = createAuditLog({ config: { audit: on }, db, log: silentLogger(), flushIntervalMs: 60_000, batchSize: 2 });
    for (const t of ['a', 'b', 'c', 'd', 'e']) audit.record(entry(t));
    await audit.flush();
    expect(db.calls.map((c) => c.rows.length)).toEqual([2, 2, 1]);
  });

  it('writes a steady stream in full batches: entries queued while a batch is written wait for a full batch or their own interval', async () => {
    const db = fakeDb();
    // Each write waits until the test lets it finish.
    const finishes: (() => void)[] = [];
    const query = db.query as unknown as (q: unknown) => Promise<unknown>;
    const slowDb = { calls: db.calls, query: (async (q: unknown) => { await new Promise<void>((r) => finishes.push(r)); return query(q); }) as never };
    const audit = createAuditLog({ config: { audit: on }, db: slowDb, log: silentLogger(), flushIntervalMs: 60_000, batchSize: 3 });
    for (const t of ['a', 'b', 'c']) audit.record(entry(t));
    await expect.poll(() => finishes.length).toBe(1);
    // Two arrive while the first batch is written: they do not go as a batch of two right after it.
    audit.record(entry('d'));
    audit.record(entry('e'));
    finishes.shift()!();
    await expect.poll(() => audit.pending).toBe(2);
    expect(db.calls).toHaveLength(1);
    expect(finishes).toHaveLength(0);
    // A third makes a full batch, written at once.
    audit.record(entry('f'));
    await expect.poll(() => finishes.length).toBe(1);
    finishes.shift()!();
    await expect.poll(() => db.calls.length).toBe(2);
    expect(db.calls.map((c) => c.rows.map((row) => row.tool))).toEqual([['a', 'b', 'c'], ['d', 'e', 'f']]);
    await audit.close();
  });

  it('writes a partial batch after flushIntervalMs', async () => {
    const db = fakeDb();
    const audit = createAuditLog({ config: { audit: on }, db, log: silentLogger(), flushIntervalMs: 10 });
    audit.record(entry('a'));
    await expect.poll(() => db.calls.length, { timeout: 5_000 }).toBe(1);
    await audit.close();
  });

  it('retries a failed write once, then succeeds without dropping', async () => {
    const db = fakeDb(1);
    const log = capturingLog();
    const audit = createAuditLog({ config: { audit: on }, db, log, flushIntervalMs: 60_000, retryDelayMs: 1 });
    audit.record(entry('a'));
    await audit.flush();
    expect(db.calls).toHaveLength(2);
    expect(db.calls[1]!.values).toEqual(db.calls[0]!.values); // same ids: the retry is idempotent
    expect(audit.dropped).toBe(0);
    expect(log.lines.map((l) => [l.level, l.msg])).toEqual([['warn', 'audit write failed; retrying once']]);
  });

  it('drops and counts a batch that fails twice, logs without parameter values, never throws', async () => {
    const db = fakeDb(2);
    const log = capturingLog();
    const registry = new Registry();
    const audit = createAuditLog({ config: { audit: on }, db, log, metrics: { registry }, flushIntervalMs: 60_000, retryDelayMs: 1 });
    audit.record({ ...entry('a'), parameters: { sql: 'select secret_stuff' } });
    audit.record(entry('b'));
    await expect(audit.flush()).resolves.toBeUndefined();
    expect(db.calls).toHaveLength(2);
    expect(audit.dropped).toBe(2);
    const metric = await registry.getSingleMetric('platform_audit_dropped_total')!.get();
    expect(metric.values).toEqual([expect.objectContaining({ labels: { reason: 'write_failed' }, value: 2 })]);
    expect(log.lines.map((l) => l.level)).toEqual(['warn', 'error']);
    expect(JSON.stringify(log.lines)).not.toContain('secret_stuff');
    // The writer still works afterwards.
    audit.record(entry('c'));
    await audit.flush();
    expect(db.calls).toHaveLength(3);
  });

  it('after close, records are dropped as closed', async () => {
    const db = fakeDb();
    const registry = new Registry();
    const audit = createAuditLog({ config: { audit: on }, db, log: silentLogger(), metrics: { registry }, flushIntervalMs: 60_000 });
    audit.record(entry('a'));
    await audit.close();
    await audit.close();
    expect(db.calls).toHaveLength(1);
    audit.record(entry('late'));
    await audit.recordAsync(entry('later'));
    expect(audit.dropped).toBe(2);
    const metric = await registry.getSingleMetric('platform_audit_dropped_total')!.get();
    expect(metric.values).toEqual([expect.objectContaining({ labels: { reason: 'closed' }, value: 2 })]);
  });

  it('two logs on one registry share the counter but count their own drops', async () => {
    const registry = new Registry();
    const small = { ...on, queue_size: 1 };
    const a = createAuditLog({ config: { audit: small }, db: fakeDb(), log: silentLogger(), metrics: { registry }, flushIntervalMs: 60_000 });
    const b = createAuditLog({ config: { audit: small }, db: fakeDb(), log: silentLogger(), metrics: { registry }, flushIntervalMs: 60_000 });
    for (const log of [a, b, b]) {
      log.record(entry('x'));
      log.record(entry('y'));
    }
    expect([a.dropped, b.dropped]).toEqual([1, 3]);
    const metric = await registry.getSingleMetric('platform_audit_dropped_total')!.get();
    expect(metric.values[0]!.value).toBe(4);
    await Promise.all([a.close(), b.close()]);
  });

  it('rejects a batch size the INSERT cannot carry', () => {
    expect(() => createAuditLog({ config: { audit: on }, db: fakeDb(), log: silentLogger(), batchSize: 5000 })).toThrow(/batchSize/);
  });
});

describe('auditMiddleware through invokeTool', () => {
  const echo = defineTool({
    name: 'echo',
    toolkit: 'test',
    description: 'echo',
    input: z.object({ text: z.string(), api_key: z.string().optional() }),
    handler: async ({ text }) => (text === 'fail' ? toolError('it failed') : textResult(text)),
  });
  const boom = defineTool({ name: 'boom', toolkit: 'test', description: 'throws', input: z.object({}), handler: async () => { throw new Error('kaboom'); } });
  const registry = new ToolRegistry().register(echo, boom);

  async function run(audit: AuditLog, name: string, rawArgs: unknown, clock: () => number) {
    return invokeTool({ registry, access: allowAllTools, middlewares: [auditMiddleware(audit, { clock })], name, rawArgs, ctx: ctx() });
  }

  it('records outcome, duration and error text; a throw still becomes the pipeline tool error', async () => {
    const db = fakeDb();
    const audit = createAuditLog({ config: { audit: on }, db, log: silentLogger(), flushIntervalMs: 60_000 });
    let t = 1_000;
    const clock = () => (t += 5);
    expect(await run(audit, 'echo', { text: 'hi', api_key: 'k' }, clock)).toEqual(textResult('hi'));
    expect((await run(audit, 'echo', { text: 'fail' }, clock)).isError).toBe(true);
    const thrown = await run(audit, 'boom', {}, clock);
    expect(thrown).toEqual(toolError('boom failed: kaboom'));
    await audit.flush();
    const { rows } = db.calls[0]!;
    expect(rows.map((r) => [r.tool, r.parameters, r.duration_ms, r.outcome, r.error_text])).toEqual([
      ['echo', { text: 'hi', api_key: REDACTED }, 5, 'ok', null],
      ['echo', { text: 'fail' }, 5, 'error', 'it failed'],
      ['boom', {}, 5, 'error', 'kaboom'],
    ]);
    expect([rows[0]!.subject, rows[0]!.email, rows[0]!.auth_type, rows[0]!.persona]).toEqual(['ci-pipeline', null, 'apikey', 'analyst']);
    expect(rows[0]!.session_id).toBe('sess-1');
  });
});
