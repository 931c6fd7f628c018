/**
 * The audit log against the machine's PostgreSQL: rows written through the real middleware and
 * pipeline (invokeTool, and once over MCP HTTP), redaction as stored in jsonb, the two full-queue
 * policies with the table really locked (so the writer is really stuck), write failures, and
 * batched retention.
 */
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  auditMiddleware,
  auditRefusals,
  createAuditLog,
  purgeAuditLog,
  REDACTED,
  type AuditLog,
  type CreateAuditLogOptions,
} from '../../shared/audit/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import {
  allowAllTools,
  defineTool,
  invokeTool,
  textResult,
  toolError,
  ToolRegistry,
  type CallToolResult,
  type ToolCallContext,
} from '../../shared/mcp-tools/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

type AuditConfig = PlatformConfig['audit'];
const auditOn = (over: Partial<AuditConfig> = {}): { audit: AuditConfig } => ({
  audit: { enabled: true, log_tool_calls: true, retention_days: 90, queue_size: 100, on_queue_full: 'drop', ...over },
});

const connect = z.object({ host: z.string(), password: z.string(), options: z.record(z.string(), z.string()).optional() });
const queryTool = defineTool({
  name: 'test_query',
  toolkit: 'test',
  description: 'runs a pretend query',
  input: z.object({ sql: z.string(), connection: connect.optional(), api_key: z.string().optional() }),
  handler: async ({ sql }) => (sql.includes('missing') ? toolError(`table not found: ${sql}`) : textResult('1 row')),
});
const crashTool = defineTool({
  name: 'test_crash',
  toolkit: 'test',
  description: 'throws',
  input: z.object({ token: z.string() }),
  handler: async () => {
    throw new Error('driver crashed');
  },
});
const registry = new ToolRegistry().register(queryTool, crashTool);

const ctx = (): ToolCallContext => ({
  caller: { subject: 'u-42', name: 'Ada', email: 'ada@example.com', roles: ['analyst'], authType: 'oidc' },
  persona: 'analyst',
  sessionId: 'session-abc',
  signal: new AbortController().signal,
  log: silentLogger(),
});

/** A clock that moves 1 ms per reading, so calls made within one real millisecond still sort in call order. */
let now = Date.now();
const clock = () => (now += 1);

const call = (audit: AuditLog, name: string, rawArgs: unknown): Promise<CallToolResult> =>
  invokeTool({ registry, access: allowAllTools, middlewares: [auditMiddleware(audit, { clock })], name, rawArgs, ctx: ctx() });

interface Row {
  id: string;
  occurred_at: Date;
  subject: string;
  email: string | null;
  auth_type: string;
  persona: string | null;
  tool: string;
  parameters: unknown;
  duration_ms: number;
  outcome: string;
  error_text: string | null;
  session_id: string | null;
  resource_id: string | null;
}

let database: { dsn: string; drop(): Promise<void> };
let db: Db;
const logs: AuditLog[] = [];

function auditLog(opts: Partial<CreateAuditLogOptions> & { config: { audit: AuditConfig } }): AuditLog {
  // A long interval: these tests decide when batches are written (flush/close), not a timer.
  const log = createAuditLog({ db, log: silentLogger(), flushIntervalMs: 60_000, ...opts });
  logs.push(log);
  return log;
}

async function rows(): Promise<Row[]> {
  return (await db.query<Row>('SELECT * FROM audit_log ORDER BY occurred_at, id')).rows;
}

/** Holds an exclusive lock on audit_log from another session until released: every INSERT waits. */
async function lockAuditTable(): Promise<{ release(): Promise<void> }> {
  const locker = new pg.Client({ connectionString: database.dsn });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query('LOCK TABLE audit_log IN ACCESS EXCLUSIVE MODE');
  let released: Promise<void> | undefined;
  return {
    release() {
      released ??= locker.query('COMMIT').then(() => locker.end());
      return released;
    },
  };
}

/** Resolves once an INSERT into audit_log is waiting on a lock: the writer is provably stuck. */
async function insertIsBlocked(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await db.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO audit_log%'`,
          )
        ).rowCount,
      { timeout: 10_000, interval: 20 },
    )
    .toBe(1);
}

function settledFlag<T>(p: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  const promise = p.finally(() => {
    settled = true;
  });
  return { settled: () => settled, promise };
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
  await migrate(db, { log: silentLogger() });
});

afterEach(async () => {
  await Promise.all(logs.splice(0).map((l) => l.close()));
  await db.query('TRUNCATE audit_log');
});

afterAll(async () => {
  await db?.end();
  await database?.drop();
});

describe('rows written through the middleware', () => {
  it('records successful, failing and throwing calls with secrets redacted', async () => {
    const audit = auditLog({ config: auditOn() });
    const ok = await call(audit, 'test_query', {
      sql: 'select * from orders',
      api_key: 'sk-live-123',
      connection: { host: 'warehouse', password: 'hunter2', options: { session_token: 'tok', region: 'eu' } },
    });
    expect(ok).toEqual(textResult('1 row'));
    const failed = await call(audit, 'test_query', { sql: 'select * from missing' });
    expect(failed.isError).toBe(true);
    const crashed = await call(audit, 'test_crash', { token: 'abc' });
    expect(crashed).toEqual(toolError('test_crash failed: driver crashed'));

    expect(await rows()).toEqual([]); // nothing written on the callers' path
    await audit.flush();
    const written = await rows();
    expect(written).toHaveLength(3);
    const common = { subject: 'u-42', email: 'ada@example.com', auth_type: 'oidc', persona: 'analyst', session_id: 'session-abc' };
    expect(written[0]).toMatchObject({
      ...common,
      tool: 'test_query',
      outcome: 'ok',
      error_text: null,
      parameters: {
        sql: 'select * from orders',
        api_key: REDACTED,
        connection: { host: 'warehouse', password: REDACTED, options: { session_token: REDACTED, region: 'eu' } },
      },
    });
    expect(written[1]).toMatchObject({
      ...common,
      tool: 'test_query',
      outcome: 'error',
      error_text: 'table not found: select * from missing',
      parameters: { sql: 'select * from missing' },
    });
    expect(written[2]).toMatchObject({ ...common, tool: 'test_crash', outcome: 'error', error_text: 'driver crashed', parameters: { token: REDACTED } });
    for (const row of written) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
      expect(row.duration_ms).toBe(1);
      expect(Date.now() - row.occurred_at.getTime()).toBeLessThan(60_000);
    }
    expect(JSON.stringify(written)).not.toMatch(/hunter2|sk-live-123|"tok"|"abc"/);
  });

  it('stores what jsonb and text would otherwise reject, and truncates huge strings', async () => {
    const audit = auditLog({ config: auditOn() });
    await call(audit, 'test_query', { sql: `select 'a\u0000b', '\uD800' -- ${'x'.repeat(100_000)}` });
    await audit.close();
    const [row] = await rows();
    const sql = (row!.parameters as { sql: string }).sql;
    expect(sql.length).toBeLessThan(4200);
    expect(sql).toMatch(/^select 'a\uFFFDb', '\uFFFD' -- x+…\[truncated \d+ chars\]$/);
  });

  it('keeps quotes, backslashes, line breaks and any Unicode exactly, in text columns and parameters', async () => {
    // The batch travels as one JSON document (store.ts): nothing in a value may bend it.
    const tricky = `"quoted" \\back\\slash\n\ttab ünïcødé 𝄞 ${"'"}; DROP TABLE audit_log; -- "},{"id":"x"`;
    const audit = auditLog({ config: auditOn() });
    audit.record({ subject: tricky, email: tricky, authType: 'apikey', persona: tricky, tool: tricky, parameters: { [tricky]: [tricky, 1.5, null, true] }, durationMs: 3, outcome: 'error', errorText: tricky, sessionId: tricky });
    await audit.close();
    const [row] = await rows();
    expect(row).toMatchObject({ subject: tricky, email: tricky, persona: tricky, tool: tricky, error_text: tricky, session_id: tricky, parameters: { [tricky]: [tricky, 1.5, null, true] } });
  });

  it('a lone surrogate in resource_id or a time outside Postgres years does not cost the batch its rows', async () => {
    const audit = auditLog({ config: auditOn() });
    const entry = { subject: 's', authType: 'apikey', durationMs: 1, outcome: 'ok' as const };
    audit.record({ ...entry, tool: 'odd-resource', resourceId: 'res-\uDC00' });
    audit.record({ ...entry, tool: 'odd-time', occurredAt: 8.64e15 });
    audit.record({ ...entry, tool: 'plain' });
    await audit.close();
    expect(audit.dropped).toBe(0);
    const written = await rows();
    expect(written.map((row) => row.tool).sort()).toEqual(['odd-resource', 'odd-time', 'plain']);
    expect(written.find((row) => row.tool === 'odd-resource')!.resource_id).toBe('res-\uFFFD');
    expect(written.find((row) => row.tool === 'odd-time')!.occurred_at.getUTCFullYear()).toBeLessThan(10_000);
  });

  it('with the database unusable, calls still succeed; the batch is retried once, then dropped and counted', async () => {
    const registry = new Registry();
    const other = await createTestDatabase(); // no migrations: audit_log does not exist there
    const otherDb = createPool({ dsn: other.dsn, maxOpenConns: 1 });
    try {
      const audit = auditLog({ config: auditOn(), db: otherDb, metrics: { registry }, retryDelayMs: 10 });
      expect(await call(audit, 'test_query', { sql: 'select 1' })).toEqual(textResult('1 row'));
      await expect(audit.flush()).resolves.toBeUndefined();
      expect(audit.dropped).toBe(1);
      const metric = await registry.getSingleMetric('platform_audit_dropped_total')!.get();
      expect(metric.values).toEqual([expect.objectContaining({ labels: { reason: 'write_failed' }, value: 1 })]);
    } finally {
      await otherDb.end();
      await other.drop();
    }
  });
});

describe('a full queue', () => {
  it('drop: the extra record is discarded and counted; callers are never delayed, even with the table locked', async () => {
    const registry = new Registry();
    const audit = auditLog({ config: auditOn({ queue_size: 2, on_queue_full: 'drop' }), metrics: { registry } });
    const lock = await lockAuditTable();
    try {
      await call(audit, 'test_query', { sql: 'select 1' });
      const flushing = audit.flush(); // the writer takes the first record and waits on the lock
      await insertIsBlocked();
      // Each call below completes while the writer is stuck: the audit write is not on their path.
      expect(await call(audit, 'test_query', { sql: 'select 2' })).toEqual(textResult('1 row'));
      expect(audit.pending).toBe(2);
      expect(audit.dropped).toBe(0);
      expect(await call(audit, 'test_query', { sql: 'select 3' })).toEqual(textResult('1 row'));
      expect(await call(audit, 'test_query', { sql: 'select 4' })).toEqual(textResult('1 row'));
      expect(audit.dropped).toBe(2);
      const metric = await registry.getSingleMetric('platform_audit_dropped_total')!.get();
      expect(metric.values).toEqual([expect.objectContaining({ labels: { reason: 'queue_full' }, value: 2 })]);
      await lock.release();
      await flushing;
    } finally {
      await lock.release();
    }
    expect((await rows()).map((r) => (r.parameters as { sql: string }).sql)).toEqual(['select 1', 'select 2']);
  });

  it('block: the caller waits until a written batch makes room, and nothing is lost', async () => {
    const audit = auditLog({ config: auditOn({ queue_size: 1, on_queue_full: 'block' }) });
    expect(audit.mode).toBe('block');
    const lock = await lockAuditTable();
    let second: ReturnType<typeof settledFlag<CallToolResult>>;
    try {
      await call(audit, 'test_query', { sql: 'select 1' });
      const flushing = audit.flush();
      await insertIsBlocked();
      // The queue (size 1) holds the batch being written: the next call must wait for room.
      second = settledFlag(call(audit, 'test_query', { sql: 'select 2' }));
      await new Promise((r) => setTimeout(r, 300));
      expect(second.settled()).toBe(false);
      expect(audit.pending).toBe(1);
      await lock.release();
      expect(await second.promise).toEqual(textResult('1 row'));
      await flushing; // the flush also writes the record admitted meanwhile
    } finally {
      await lock.release();
    }
    expect(audit.dropped).toBe(0);
    expect((await rows()).map((r) => (r.parameters as { sql: string }).sql)).toEqual(['select 1', 'select 2']);
  });
});

describe('close', () => {
  it('writes what is queued (several batches), then refuses new records', async () => {
    const audit = auditLog({ config: auditOn({ queue_size: 1000 }) });
    for (let i = 0; i < 450; i++) audit.record({ subject: 'k', authType: 'apikey', tool: `t${i}`, durationMs: 1, outcome: 'ok' });
    expect(audit.dropped).toBe(0);
    await audit.close();
    expect(audit.pending).toBe(0);
    expect((await db.query('SELECT count(*)::int AS n FROM audit_log')).rows[0].n).toBe(450);
    audit.record({ subject: 'k', authType: 'apikey', tool: 'late', durationMs: 1, outcome: 'ok' });
    expect(audit.dropped).toBe(1);
  });
});

describe('over MCP HTTP', () => {
  it('records the API key name as subject, the auth type and the MCP session id', async () => {
    const audit = auditLog({ config: auditOn() });
    const api = await startTestApi({
      config: testConfig(apiConfigYaml()),
      tools: [queryTool],
      surface: { middlewares: [auditMiddleware(audit)], onRefused: auditRefusals(audit)! },
    });
    const client = new McpClient({ name: 'audit-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } });
    try {
      await client.connect(transport);
      await client.callTool({ name: 'test_query', arguments: { sql: 'select 1', api_key: 'secret-value' } });
      await audit.flush();
      const [row] = await rows();
      expect(row).toMatchObject({
        subject: 'apikey:tester',
        auth_type: 'apikey',
        tool: 'test_query',
        outcome: 'ok',
        session_id: transport.sessionId,
        parameters: { sql: 'select 1', api_key: REDACTED },
        persona: 'analyst',
      });
      // A guessed tool name is refused before any middleware, and recorded as denied.
      await expect(client.callTool({ name: 'drop_everything', arguments: { password: 'p' } })).rejects.toMatchObject({ code: -32602 });
      await audit.flush();
      const denied = (await rows()).find((r) => r.tool === 'drop_everything');
      expect(denied).toMatchObject({ outcome: 'denied', subject: 'apikey:tester', parameters: { password: REDACTED }, session_id: transport.sessionId });
    } finally {
      await client.close();
      await api.stop();
    }
  });
});

describe('purgeAuditLog', () => {
  async function seed(ageDays: number[]): Promise<void> {
    await db.query(
      `INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, duration_ms, outcome)
       SELECT gen_random_uuid(), now() - make_interval(days => d), 'k', 'apikey', 'd' || d, 1, 'ok' FROM unnest($1::int[]) AS d`,
      [ageDays],
    );
  }
  const remaining = async () => (await db.query<{ tool: string }>('SELECT tool FROM audit_log ORDER BY occurred_at')).rows.map((r) => r.tool);

  it('deletes rows older than the window in batches until a batch comes back short', async () => {
    await seed([...Array.from({ length: 25 }, () => 40), 29, 1]);
    expect(await purgeAuditLog(db, { retentionDays: 30, batchSize: 10 })).toEqual({ removed: 25, more: false });
    expect(await remaining()).toEqual(['d29', 'd1']);
    expect(await purgeAuditLog(db, { retentionDays: 30, batchSize: 10 })).toEqual({ removed: 0, more: false });
  });

  it('stops after maxBatches, oldest first, and says there is more', async () => {
    await seed([100, 90, 80, 70, 60, 5]);
    expect(await purgeAuditLog(db, { retentionDays: 30, batchSize: 2, maxBatches: 1 })).toEqual({ removed: 2, more: true });
    expect(await remaining()).toEqual(['d80', 'd70', 'd60', 'd5']);
  });

  it('refuses a window that is not a positive integer', async () => {
    await seed([1]);
    for (const retentionDays of [0, -1, 1.5, Number.NaN]) {
      await expect(purgeAuditLog(db, { retentionDays })).rejects.toThrow(RangeError);
    }
    await expect(purgeAuditLog(db, { retentionDays: 1, batchSize: 0 })).rejects.toThrow(/batchSize/);
    expect(await remaining()).toEqual(['d1']);
  });
});
