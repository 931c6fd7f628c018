/**
 * The api role (cli/services.ts startApiRole) composes the bot check over its database: the solver
 * and the admin routes of the bot-check settings and stored secrets are served; the challenge route
 * reads the endpoint bindings (an enabled public endpoint gets challenges, nothing else does); and
 * a public binding is refused while the settings say provider none without allow_public_without_check.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startApiRole } from '../../cli/services.js';
import type { RunningApi } from '../../api/start.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { ADMIN_KEY, botCheckConfig, call } from './botcheck-fixtures.js';

describe('the api role composes the bot check', () => {
  let database: { dsn: string; drop(): Promise<void> };
  let db: Db;
  let dataDir: string;
  let api: RunningApi;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'botcheck-wiring-'));
    const config = botCheckConfig({ dataDir, extra: `database:\n  dsn: ${database.dsn}` });
    db = (await openDatabase(config, silentLogger()))!;
    api = await startApiRole({ config, log: silentLogger(), db });
  });

  afterAll(async () => {
    await api?.stop();
    await db?.end();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves /botcheck/solver.js and the admin routes of the settings and the stored secrets', async () => {
    const solver = await call(`${api.url}/botcheck/solver.js`);
    expect(solver.status).toBe(200);
    expect(solver.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await call(`${api.url}/api/v1/admin/settings/bot-check`, { key: ADMIN_KEY })).json).toMatchObject({ provider: 'pow', difficulty: 16 });
    expect((await call(`${api.url}/api/v1/admin/secrets/turnstile`, { method: 'PUT', key: ADMIN_KEY, body: { value: 'v', allow_connections: ['bot_check'] } })).status).toBe(201);
    expect((await call(`${api.url}/api/v1/admin/secrets`, { key: ADMIN_KEY })).json.secrets).toHaveLength(1);
    // No such endpoint: no challenge.
    expect((await call(`${api.url}/botcheck/challenge?endpoint=orders`)).status).toBe(404);
  });

  it('issues challenges for an enabled public endpoint only, and binds a public endpoint only while the settings can protect it', async () => {
    const scripts = `${api.url}/api/v1/portal/scripts`;
    const created = await call(scripts, { method: 'POST', key: ADMIN_KEY, body: { name: 'orders', source: 'export function handle(req) { return { json: 1 } }' } });
    expect(created.status).toBe(201);
    const id = created.json.script.id;
    const bind = (auth_mode: string) => call(`${scripts}/${id}/endpoint`, { method: 'PUT', key: ADMIN_KEY, body: { endpoint: 'orders', auth_mode } });
    expect((await bind('signed_in')).status).toBe(200);
    expect((await call(`${api.url}/botcheck/challenge?endpoint=orders`)).status).toBe(404);
    expect((await bind('public')).status).toBe(200);
    expect(await call(`${api.url}/botcheck/challenge?endpoint=orders`)).toMatchObject({ status: 200, json: { provider: 'pow', difficulty: 16 } });
    expect((await call(`${scripts}/${id}/endpoint/disable`, { method: 'POST', key: ADMIN_KEY })).status).toBe(200);
    expect((await call(`${api.url}/botcheck/challenge?endpoint=orders`)).status).toBe(404);

    const settings = `${api.url}/api/v1/admin/settings/bot-check`;
    expect((await call(settings, { method: 'PUT', key: ADMIN_KEY, body: { provider: 'none' } })).status).toBe(200);
    expect(await bind('public')).toMatchObject({ status: 400, json: { error: 'invalid', field: 'auth_mode', message: expect.stringMatching(/provider is none/) } });
    expect((await call(settings, { method: 'PUT', key: ADMIN_KEY, body: { provider: 'none', allow_public_without_check: true } })).status).toBe(200);
    expect((await bind('public')).status).toBe(200);
  });
});
