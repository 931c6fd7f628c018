/**
 * The api role (cli/services.ts startApiRole) composes the bot check over its database: the solver
 * and the admin routes of the bot-check settings and stored secrets are served. The challenge route
 * waits for the endpoint bindings (`BotCheckEndpoints`), which compose it when they exist.
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
    // No endpoint bindings composed yet: no challenge is issued for any name.
    expect((await call(`${api.url}/botcheck/challenge?endpoint=orders`)).status).toBe(404);
  });
});
