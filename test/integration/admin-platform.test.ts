/**
 * The admin REST routes the administrators' portal pages read (api/admin/platform.ts), over real
 * HTTP on the production api role (cli/services.ts) with Postgres: access, the audit trail
 * (filters, cursor paging, redaction on the way out, the CSV export), personas (effective
 * definitions, tools, members), connections and their health, system info — administrators only.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import { auditRow, insertAuditRows } from '../../shared/audit/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { auditedApiYaml, restJson, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

const keys = { root: 'root-key-0123456789', ana: 'ana-key-0123456789', ops: 'ops-key-0123456789' } as const;
const prefix = '/api/v1/admin';
let dir: string;
let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let api: RunningApiRole;

const get = (path: string, key: string | null = keys.root) =>
  key === null ? fetch(`${api.url}${prefix}${path}`).then(async (r) => ({ status: r.status, body: (await r.json()) as Json, headers: r.headers })) : restJson(`${api.url}${prefix}${path}`, key, 'GET');

const T0 = Date.parse('2026-03-02T10:00:00.000Z');
const MINUTE = 60_000;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'admin-platform-'));
  database = await createTestDatabase();
  const config = testConfig(`${auditedApiYaml({
    dsn: database.dsn,
    dataDir: dir,
    keys: [
      { key: keys.root, name: 'root', roles: ['admin'] },
      { key: keys.ana, name: 'ana', roles: ['analyst'] },
      { key: keys.ops, name: 'ops', roles: ['ops', 'analyst'] },
    ],
  })}personas:
  definitions:
    admin: { display_name: Administrators, roles: [admin], priority: 100, tools: { allow: ["*"] } }
    analyst: { display_name: Analysts, description: Reads data, roles: [analyst], priority: 5, tools: { allow: ["sql_*", "manage_*"], deny: ["manage_script"] }, hints: { sql_query: "Filter by dt" } }
    operations: { roles: [], priority: 10, tools: { allow: ["objstore_*"] } }
  role_mapping:
    oidc_to_persona: { ops: operations }
    user_personas: { "someone@example.com": analyst }
admin: { enabled: true, persona: admin }
toolkits:
  objstore:
    local: { driver: filesystem, root: ${JSON.stringify(join(dir, 'objects'))} }
  sql:
    local: { engine: duckdb }
  catalog:
    nowhere: { url: "http://127.0.0.1:9/graphql", timeout: 2s }
`);
  const log = silentLogger();
  db = (await openDatabase(config, log))!;
  api = await startApiRole({ config, log, db });
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await db?.end();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('admin platform routes: who may use them', () => {
  it('GET /access answers an administrator 200, anyone else 403, nobody 401; every route refuses them alike', async () => {
    expect(await get('/access')).toMatchObject({ status: 200, body: { administrator: true, admin_persona: 'admin', path_prefix: prefix } });
    for (const path of ['/access', '/audit', '/audit/export.csv', '/personas', '/connections', '/system']) {
      expect((await get(path, keys.ana)).status, path).toBe(403);
      expect((await get(path, null)).status, path).toBe(401);
    }
    expect((await get('/access', keys.ana)).body.message).toMatch(/admin\.persona/);
  });
});

describe('admin platform routes: the audit trail', () => {
  beforeAll(async () => {
    const rows = [
      { occurredAt: T0, subject: 'oidc:idp#alice', email: 'alice@example.com', authType: 'oidc', persona: 'analyst', tool: 'sql_query', parameters: { sql: 'SELECT 1', connection: 'local' }, durationMs: 12, outcome: 'ok' as const },
      { occurredAt: T0 + MINUTE, subject: 'oidc:idp#alice', email: 'alice@example.com', authType: 'oidc', persona: 'analyst', tool: 'manage_script', parameters: { action: 'create', api_key: 'should-not-show' }, durationMs: 30, outcome: 'error' as const, errorText: 'syntax error at 1:2' },
      { occurredAt: T0 + 2 * MINUTE, subject: 'apikey:ops', authType: 'apikey', tool: 'endpoint:orders', parameters: { source: 'endpoint', status: 500 }, durationMs: 3, outcome: 'error' as const, errorText: 'handler failed' },
      { occurredAt: T0 + 3 * MINUTE, subject: 'apikey:ops', authType: 'apikey', tool: 'endpoint:lookup', parameters: { source: 'endpoint', status: 404 }, durationMs: 1, outcome: 'denied' as const },
      { occurredAt: T0 + 4 * MINUTE, subject: 'oidc:idp#bob', email: 'bob@example.com', authType: 'oidc', tool: 'sql_query', parameters: { sql: '=HYPERLINK("x")' }, durationMs: 7, outcome: 'ok' as const },
    ];
    await insertAuditRows(db, rows.map((row) => auditRow(row, T0)));
    // Written before a redaction rule hid it: the route redacts again on the way out.
    await db.query(`INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, parameters, duration_ms, outcome) VALUES (gen_random_uuid(), $1, 'apikey:legacy', 'apikey', 'legacy_tool', $2, 0, 'ok')`, [
      new Date(T0 - MINUTE),
      JSON.stringify({ password: 'hunter2', note: 'ok' }),
    ]);
    // Three rows in one microsecond: paging must neither skip nor repeat them.
    for (let i = 0; i < 3; i++) {
      await db.query(`INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, parameters, duration_ms, outcome) VALUES (gen_random_uuid(), $1, 'apikey:burst', 'apikey', 'burst_tool', '{}', 0, 'ok')`, [
        '2026-03-02T09:00:00.123456Z',
      ]);
    }
  });

  const ids = (body: Json) => body.items.map((i: Json) => `${i.subject} ${i.tool}`);

  it('filters by user (subject or email, any case), tool (exact or a prefix*), outcome and time range; newest first', async () => {
    const byUser = await get('/audit?user=ALICE@example');
    expect(ids(byUser.body)).toEqual(['oidc:idp#alice manage_script', 'oidc:idp#alice sql_query']);
    expect(byUser.body.settings).toEqual({ enabled: true, log_tool_calls: true, retention_days: 90 });
    expect(ids((await get('/audit?user=alice&tool=sql_query')).body)).toEqual(['oidc:idp#alice sql_query']);
    expect(ids((await get('/audit?tool=endpoint:*')).body)).toEqual(['apikey:ops endpoint:lookup', 'apikey:ops endpoint:orders']);
    expect(ids((await get('/audit?outcome=error')).body)).toEqual(['apikey:ops endpoint:orders', 'oidc:idp#alice manage_script']);
    const range = await get(`/audit?from=${new Date(T0 + MINUTE).toISOString()}&to=${new Date(T0 + 3 * MINUTE).toISOString()}`);
    expect(ids(range.body)).toEqual(['apikey:ops endpoint:orders', 'oidc:idp#alice manage_script']);
    // A LIKE wildcard in the filter is taken literally.
    expect((await get('/audit?user=%25')).body.items).toEqual([]);
    const row = byUser.body.items[0];
    expect(row).toMatchObject({ subject: 'oidc:idp#alice', email: 'alice@example.com', auth_type: 'oidc', persona: 'analyst', tool: 'manage_script', outcome: 'error', duration_ms: 30, error_text: 'syntax error at 1:2', resource_id: null });
    expect(row.parameters).toEqual({ action: 'create', api_key: '[redacted]' });
    expect((await get('/audit?tool=legacy_tool')).body.items[0].parameters).toEqual({ password: '[redacted]', note: 'ok' });
    expect((await get('/audit?outcome=maybe')).status).toBe(400);
    expect((await get('/audit?from=yesterday')).status).toBe(400);
  });

  it('pages by cursor without skipping or repeating rows of the same instant', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: Json } = await get(`/audit?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((i: Json) => i.id));
      cursor = page.body.next_cursor;
      pages++;
    } while (cursor);
    const all = (await get('/audit?limit=200')).body.items.map((i: Json) => i.id);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(pages).toBe(Math.ceil(all.length / 2));
    expect((await get('/audit?cursor=bogus')).body).toEqual({ error: 'invalid', message: 'cursor: not a cursor this route gave' });
  });

  it('exports the filtered range as CSV: header, the same rows, formulas defused, as an attachment', async () => {
    const answer = await fetch(`${api.url}${prefix}/audit/export.csv?tool=sql_query`, { headers: { authorization: `Bearer ${keys.root}` } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-[\d-]+\.csv"$/);
    const lines = (await answer.text()).split('\r\n');
    expect(lines[0]).toBe('occurred_at,subject,email,auth_type,persona,tool,outcome,duration_ms,error_text,session_id,resource_id,parameters,id');
    expect(lines.filter(Boolean)).toHaveLength(3);
    expect(lines[1]).toMatch(/^2026-03-02T10:04:00\.000Z,oidc:idp#bob,bob@example\.com,oidc,,sql_query,ok,7,,,,"\{""sql"":""=HYPERLINK\(\\""x\\""\)""\}",/);
    expect(lines[2]).toContain('oidc:idp#alice,alice@example.com,oidc,analyst,sql_query,ok,12');
    const all = await fetch(`${api.url}${prefix}/audit/export.csv?user=alice`, { headers: { authorization: `Bearer ${keys.root}` } });
    expect(await all.text()).not.toContain('should-not-show');
  });
});

describe('admin platform routes: personas, connections, system', () => {
  it('personas: every definition with its defaults, the tools it allows among those served, and its members', async () => {
    const { status, body } = await get('/personas');
    expect(status).toBe(200);
    expect(body).toMatchObject({ admin_persona: 'admin', default_persona: 'default', default_defined: false, role_mapping: { oidc_to_persona: { ops: 'operations' }, user_personas: { 'someone@example.com': 'analyst' } } });
    expect(body.personas.map((p: Json) => p.name)).toEqual(['admin', 'operations', 'analyst']);
    const [admin, operations, analyst] = body.personas;
    expect(admin).toMatchObject({ administrators: true, display_name: 'Administrators', tools: { allow: ['*'], deny: [] }, members: { roles: [{ role: 'admin', via: 'persona_roles' }], users: [], api_keys: [{ name: 'root', roles: ['admin'], active: true }] } });
    expect(admin.tools.effective).toEqual(expect.arrayContaining(['manage_script', 'sql_query', 'objstore_list_buckets']));
    expect(analyst).toMatchObject({ description: 'Reads data', hints: { sql_query: 'Filter by dt' }, members: { users: ['someone@example.com'] } });
    expect(analyst.tools.effective).toContain('sql_query');
    expect(analyst.tools.effective).toContain('manage_resource');
    expect(analyst.tools.effective).not.toContain('manage_script');
    expect(analyst.tools.effective).not.toContain('objstore_list_buckets');
    expect(analyst.members.api_keys).toEqual([
      { name: 'ana', roles: ['analyst'], active: true },
      { name: 'ops', roles: ['ops', 'analyst'], active: false },
    ]);
    expect(operations.members).toEqual({ roles: [{ role: 'ops', via: 'role_mapping' }], users: [], api_keys: [{ name: 'ops', roles: ['ops', 'analyst'], active: true }] });
    expect(operations.tools.effective.every((t: string) => t.startsWith('objstore_'))).toBe(true);
  });

  it('connections: each with where it points and a probe made now; an unreachable one says why', async () => {
    const { status, body } = await get('/connections');
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.connections.map((c: Json) => [`${c.kind}:${c.name}`, c]));
    expect(byName['sql:local']).toMatchObject({ engine: 'duckdb', is_default: true, read_only: false, health: { ok: true, error: null } });
    expect(byName['objstore:local']).toMatchObject({ engine: 'filesystem', target: join(dir, 'objects'), health: { ok: true } });
    expect(byName['catalog:nowhere']).toMatchObject({ engine: 'catalog', target: 'http://127.0.0.1:9/graphql', health: { ok: false } });
    expect(byName['catalog:nowhere'].health.error).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toMatch(/secret_access_key|password/);
  });

  it('system: versions, the database with its newest migration, Temporal not configured here, the audit switches', async () => {
    const { status, body } = await get('/system');
    expect(status).toBe(200);
    expect(body.server.version).toBe('1.0.0');
    expect(body.platform).toMatchObject({ version: expect.any(String), node: process.version });
    expect(body.database).toMatchObject({ configured: true, health: { ok: true, error: null }, version: expect.stringMatching(/^\d+/), migration: { version: expect.any(Number), name: expect.any(String) } });
    expect(body.temporal).toMatchObject({ configured: false, address: null, namespace: 'default', ui_url: null, health: { ok: false, latency_ms: null } });
    expect(body.audit).toEqual({ enabled: true, log_tool_calls: true, retention_days: 90, recording: true });
    expect(body.admin).toEqual({ persona: 'admin', path_prefix: prefix });
  });

  it('are documented in /api/openapi.json', async () => {
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    const ops = Object.fromEntries(['/access', '/audit', '/audit/export.csv', '/personas', '/connections', '/system'].map((p) => [p, document.paths[`${prefix}${p}`]?.get?.operationId]));
    expect(ops).toEqual({
      '/access': 'getAdminAccess',
      '/audit': 'listAuditRecords',
      '/audit/export.csv': 'exportAuditRecords',
      '/personas': 'listPersonas',
      '/connections': 'listConnections',
      '/system': 'getSystemInfo',
    });
  });
});
