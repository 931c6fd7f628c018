/**
 * The "Query as a table" panel over REST (spec document 2, "Table registration"; issue 36):
 * `GET /api/v1/resources/{id}/tables` shows none / registered at the current version / at an older
 * version (which) / correcting the file, with the name agents query; `POST` registers the file with
 * manage_table's checks, refusals (rows and columns), correction ("Save a corrected copy and
 * register") and authority (uploader, administrator, administrator of the owning persona). On the
 * embedded DuckDB with real Postgres; the tables are queried to prove they exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { unauthenticated } from '../../api/http/rest-auth.js';
import { resourceRoutes } from '../../api/resources/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import type { ResourceActor } from '../../shared/resources/index.js';
import { tableHooks } from '../../shared/tables/index.js';
import { sales, startTablesEnv, type TablesEnv } from './tables-fixtures.js';

describe('Query as a table (REST)', () => {
  let env: TablesEnv;
  let app: App;
  let url: string;
  let callers: Record<string, ResourceActor>;

  beforeAll(async () => {
    env = await startTablesEnv('duckdb');
    callers = {
      sally: env.salesAdmin,
      sam: env.salesMember,
      root: env.admin,
      ann: env.actor('ann'),
      // Active persona sales: a personal file registers under the sales_ prefix.
      finn: { ...env.actor('finn', ['sales']), activePersona: 'sales' },
    };
    app = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024 * 1024, version: 'test', serveMetrics: false });
    await app.register(resourceRoutes, {
      service: env.service,
      maxUploadBytes: 1024 * 1024,
      tables: tableHooks(env.deps),
      tableRegistration: env.deps,
      // Test-only identity: `x-test-subject` names one of the callers above.
      async actorOf(request) {
        const who = callers[String(request.headers['x-test-subject'] ?? '')];
        return who ? { ok: true, actor: who } : unauthenticated();
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await env?.stop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON answers
  async function call(subject: string | undefined, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { ...(subject ? { 'x-test-subject': subject } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }

  const clean = 'id,name,city\n1,Ada,Oslo\n2,Bob,Rome\n';

  it('unregistered: the panel offers registering on the connection with a scratch catalog, under the persona-prefixed name', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'orders.csv', clean);
    const res = await call('sally', 'GET', `/api/v1/resources/${resource.id}/tables`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      format: 'csv',
      tables: [],
      connections: [{ name: env.connection, display_name: env.connection, default: true }],
      default_table_name: 'sales_orders',
      register: { allowed: true, reason: null },
    });
    // A personal file takes the registering caller's active persona as its prefix.
    const { resource: mine } = await env.upload(callers.finn!, { kind: 'person', subject: 'finn' }, 'My Leads.csv', clean);
    expect((await call('finn', 'GET', `/api/v1/resources/${mine.id}/tables`)).json.default_table_name).toBe('sales_my_leads');
  });

  it('register (uploader or persona administrator): registered at the current revision, queryable under the name agents use', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'cities.csv', clean);
    const res = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { follow: false });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({
      change: 'checked and registered at version 1',
      table: { table: 'sales_cities', connection: env.connection, version: 1, head_version: 1, status: 'current', pinned: true, follow: false, corrects: false, registered_by: 'sally' },
    });
    expect(res.json.table.relation).toContain('sales_cities');
    expect((await env.rows('sales_cities')).map((r) => r.name)).toEqual(['Ada', 'Bob']);
    const panel = await call('sally', 'GET', `/api/v1/resources/${resource.id}/tables`);
    expect(panel.json.tables).toEqual([res.json.table]);
    // A platform administrator may register too.
    expect((await call('root', 'POST', `/api/v1/resources/${resource.id}/tables`, { table_name: 'by_root' })).status).toBe(200);
  });

  it('registered, then a new revision uploaded: the panel says registered at an older revision (which); registering again moves it', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'pinned.csv', clean);
    expect((await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { follow: false })).status).toBe(200);
    await env.upload(env.salesAdmin, sales, 'pinned.csv', 'id,name,city\n3,Cy,Lima\n');
    const older = await call('sam', 'GET', `/api/v1/resources/${resource.id}/tables`);
    expect(older.status).toBe(200);
    expect(older.json.tables).toEqual([expect.objectContaining({ table: 'sales_pinned', version: 1, head_version: 2, status: 'older', state: expect.stringContaining('pinned at version 1; the file is at version 2') })]);
    const again = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { follow: false });
    expect(again.json.table).toMatchObject({ version: 2, status: 'current' });
    expect((await env.rows('sales_pinned')).map((r) => r.name)).toEqual(['Cy']);
  });

  it('a cell holding a line break: refused (422) saying how many rows and which columns; Save a corrected copy and register writes a labelled version and the table corrects the file', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'notes.csv', 'id,note,city\n1,"two\nlines",Oslo\n2,"x\ny",Rome\n');
    const refused = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, {});
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ error: 'refused', rows: 2, columns: ['note'], cr_only_lines: 0, invalid_utf8_bytes: 0 });
    expect(refused.json.message).toContain('2 rows have a line break inside a cell (column note)');
    expect((await call('sally', 'GET', `/api/v1/resources/${resource.id}/tables`)).json.tables).toEqual([]);

    const corrected = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { correct: true });
    expect(corrected.status, JSON.stringify(corrected.json)).toBe(200);
    expect(corrected.json).toMatchObject({ corrected: { version: 2, reference: resource.reference }, table: { table: 'sales_notes', version: 2, head_version: 2, status: 'current', corrects: true } });
    const versions = await env.service.versions(env.salesAdmin, resource.id);
    expect(versions[0]!.change_summary).toMatch(/^table-registration correction of version 1: /);
    expect((await env.rows('sales_notes')).map((r) => r.note)).toEqual(['two lines', 'x y']);
    const panel = await call('sam', 'GET', `/api/v1/resources/${resource.id}/tables`);
    expect(panel.json.tables[0]).toMatchObject({ corrects: true, status: 'current' });
  });

  it('refuses who may not register: a persona member 403 (the panel says why), a person outside the library 404', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'guarded.csv', clean);
    const panel = await call('sam', 'GET', `/api/v1/resources/${resource.id}/tables`);
    expect(panel.json.register).toEqual({ allowed: false, reason: expect.stringContaining('uploader') });
    const member = await call('sam', 'POST', `/api/v1/resources/${resource.id}/tables`, {});
    expect(member.status).toBe(403);
    expect(member.json.error).toBe('forbidden');
    for (const method of ['GET', 'POST']) {
      const stranger = await call('ann', method, `/api/v1/resources/${resource.id}/tables`, method === 'POST' ? {} : undefined);
      expect(stranger.status).toBe(404);
      expect(stranger.json.error).toBe('not_found');
    }
    expect((await call('sally', 'GET', '/api/v1/resources/00000000-0000-7000-8000-000000000000/tables')).status).toBe(404);
  });

  it('refuses bad input (400): a file that is no table, a connection without a scratch catalog, an unknown field; a name another file holds (409, naming it)', async () => {
    const { resource: text } = await env.upload(env.salesAdmin, sales, 'readme.txt', 'hello');
    const panel = await call('sally', 'GET', `/api/v1/resources/${text.id}/tables`);
    expect(panel.json).toMatchObject({ format: null, default_table_name: null, register: { allowed: false, reason: expect.stringContaining('not a CSV, TSV or NDJSON file') } });
    const notTable = await call('sally', 'POST', `/api/v1/resources/${text.id}/tables`, {});
    expect(notTable.status).toBe(400);
    expect(notTable.json.error).toBe('invalid');

    const { resource } = await env.upload(env.salesAdmin, sales, 'bad-input.csv', clean);
    const unknown = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { connection: 'nowhere' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain(`one of: ${env.connection}`);
    expect((await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { tables: 'x' })).status).toBe(400);
    expect((await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { follow: 'yes' })).status).toBe(400);

    const { resource: holder } = await env.upload(env.salesAdmin, sales, 'holder.csv', clean);
    expect((await call('sally', 'POST', `/api/v1/resources/${holder.id}/tables`, { table_name: 'shared_name' })).status).toBe(200);
    const taken = await call('sally', 'POST', `/api/v1/resources/${resource.id}/tables`, { table_name: 'shared_name' });
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ error: 'conflict', table: 'sales_shared_name', registered_over: holder.reference });
    expect(taken.json.message).toContain('"holder.csv"');
  });

  it('answers 401 without credentials', async () => {
    const { resource } = await env.upload(env.salesAdmin, sales, 'anon.csv', clean);
    for (const method of ['GET', 'POST']) {
      const res = await call(undefined, method, `/api/v1/resources/${resource.id}/tables`, method === 'POST' ? {} : undefined);
      expect(res.status).toBe(401);
      expect(res.json.error).toBe('unauthorized');
    }
  });
});
