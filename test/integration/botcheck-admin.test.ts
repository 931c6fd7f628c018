/**
 * The administrators' side of the bot check (issue 17, item 5) over real HTTP and Postgres: the
 * settings section bot_check at GET/PUT /api/v1/admin/settings/bot-check (every field and default,
 * validation, administrators only, a PUT seen by another replica on its next request, secret_name
 * never a value), and the stored secrets at /api/v1/admin/secrets (write-only values sealed at
 * rest, bound to their row, `secretFor` only for an allowed connection and no personas, no value
 * in any response or log line).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { MAX_SECRET_VALUE_BYTES, SecretError, SecretStore, storedSecretBox } from '../../shared/secrets/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { capturingLogger } from '../support/logs.js';
import { ADMIN_KEY, ANALYST_KEY, botCheckConfig, call, PublicEndpoints, startBotCheckApi, type Answer, type BotCheckApi } from './botcheck-fixtures.js';

const VALUE = 'Sup3r-S3cret-Provider-K3y-never-shown';
const OTHER_VALUE = 'An0ther-S3cret-V4lue-never-shown';
const START = Date.parse('2025-06-01T12:00:00.000Z');

let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let dbB: Db;
let dataDir: string;
let config: PlatformConfig;
let now = START;
const clock = () => now;
const endpoints = new PublicEndpoints().add('orders');
const logged = capturingLogger('trace');
let a: BotCheckApi;
let b: BotCheckApi;
const responses: string[] = [];

async function request(method: string, path: string, opts: { body?: unknown; key?: string | null; on?: BotCheckApi; raw?: string } = {}): Promise<Answer> {
  const url = `${(opts.on ?? a).api.url}${path}`;
  const key = opts.key === undefined ? ADMIN_KEY : opts.key;
  const answer =
    opts.raw === undefined
      ? await call(url, { method, key, ...(opts.body !== undefined ? { body: opts.body } : {}) })
      : await fetch(url, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: opts.raw }).then(async (response) => {
          const text = await response.text();
          return { status: response.status, headers: response.headers, text, json: JSON.parse(text) as unknown };
        });
  responses.push(answer.text);
  return answer;
}

const settingsPath = '/api/v1/admin/settings/bot-check';
const defaults = {
  provider: 'pow',
  allow_public_without_check: false,
  challenge_ttl_seconds: 300,
  difficulty: 16,
  rate_threshold: 30,
  max_difficulty: 22,
  site_key: null,
  secret_name: null,
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  dbB = createPool({ dsn: database.dsn, maxOpenConns: 4 });
  await migrate(db);
  dataDir = await mkdtemp(join(tmpdir(), 'botcheck-admin-'));
  config = botCheckConfig({ dataDir });
  a = await startBotCheckApi({ config, db, endpoints, clock, log: logged.log });
  b = await startBotCheckApi({ config, db: dbB, endpoints, clock, log: logged.log });
});

afterAll(async () => {
  await a?.api.stop();
  await b?.api.stop();
  await db?.end();
  await dbB?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  for (const text of [...responses, ...logged.lines]) {
    expect(text).not.toContain(VALUE);
    expect(text).not.toContain(OTHER_VALUE);
  }
});

describe('bot-check settings: GET/PUT /api/v1/admin/settings/bot-check', () => {
  it('reads every field with the spec\'s default before any write', async () => {
    const read = await request('GET', settingsPath);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(defaults);
  });

  it('is for administrators: anonymous 401, another persona 403 — before any body is read', async () => {
    expect((await request('GET', settingsPath, { key: null })).status).toBe(401);
    const forbidden = await request('GET', settingsPath, { key: ANALYST_KEY });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('forbidden');
    expect((await request('PUT', settingsPath, { key: ANALYST_KEY, body: { difficulty: 99 } })).status).toBe(403);
    expect((await request('PUT', settingsPath, { key: null, body: { difficulty: 99 } })).status).toBe(401);
  });

  it.each([
    ['difficulty above max_difficulty', { difficulty: 20, max_difficulty: 18 }, 'difficulty'],
    ['difficulty 0', { difficulty: 0 }, 'difficulty'],
    ['max_difficulty above 28', { max_difficulty: 29 }, 'max_difficulty'],
    ['challenge_ttl_seconds below 30', { challenge_ttl_seconds: 10 }, 'challenge_ttl_seconds'],
    ['challenge_ttl_seconds above 3600', { challenge_ttl_seconds: 3601 }, 'challenge_ttl_seconds'],
    ['rate_threshold 0', { rate_threshold: 0 }, 'rate_threshold'],
    ['a fractional difficulty', { difficulty: 16.5 }, 'difficulty'],
    ['an unknown provider', { provider: 'recaptcha' }, 'provider'],
    ['an unknown field', { dificulty: 12 }, 'dificulty'],
    ['a hosted provider without site_key and secret_name', { provider: 'hosted_a' }, 'site_key'],
    ['a secret_name that is no secret name', { secret_name: 'Not A Name' }, 'secret_name'],
  ])('refuses %s (400, naming the field) and keeps what was stored', async (_what, body, field) => {
    const refused = await request('PUT', settingsPath, { body });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.message).toContain(field);
    expect((await request('GET', settingsPath)).json).toEqual(defaults);
  });

  it('a PUT replaces the whole section (omitted fields take their defaults), records who, and every replica reads it on its next request', async () => {
    now += 1000;
    const put = await request('PUT', settingsPath, { body: { difficulty: 10, max_difficulty: 12, rate_threshold: 5, challenge_ttl_seconds: 120 } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ ...defaults, difficulty: 10, max_difficulty: 12, rate_threshold: 5, challenge_ttl_seconds: 120 });
    expect((await request('GET', settingsPath, { on: b })).json).toEqual(put.json);
    const challenge = await call(`${b.api.url}/botcheck/challenge?endpoint=orders`);
    expect(challenge.json).toMatchObject({ difficulty: 10, expires_at: new Date((Math.floor(now / 1000) + 120) * 1000).toISOString() });
    const { rows } = await db.query("SELECT updated_by, updated_at FROM platform_settings WHERE section = 'bot_check'");
    expect(rows).toEqual([{ updated_by: 'apikey:root', updated_at: new Date(now) }]);

    expect((await request('PUT', settingsPath, { body: { rate_threshold: 7 } })).json).toEqual({ ...defaults, rate_threshold: 7 });
  });

  it('secret_name names a stored secret the bot check can read; GET answers the name, never the value', async () => {
    const hosted = { provider: 'hosted_a', site_key: '0x4AAAAAAA', secret_name: 'turnstile' };
    const missing = await request('PUT', settingsPath, { body: hosted });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'invalid', message: 'secret_name: no stored secret named "turnstile"' });

    expect((await request('PUT', '/api/v1/admin/secrets/turnstile', { body: { value: VALUE, allow_connections: ['objstore'] } })).status).toBe(201);
    expect((await request('PUT', settingsPath, { body: hosted })).json.message).toBe('secret_name: stored secret "turnstile" does not allow connection bot_check (allow_connections)');
    expect((await request('PUT', '/api/v1/admin/secrets/turnstile', { body: { allow_connections: ['bot_check'], personas: ['analyst'] } })).status).toBe(200);
    expect((await request('PUT', settingsPath, { body: hosted })).json.message).toBe('secret_name: stored secret "turnstile" lists personas, so no platform connection reads it');
    expect((await request('PUT', '/api/v1/admin/secrets/turnstile', { body: { allow_connections: ['bot_check'] } })).status).toBe(200);

    const put = await request('PUT', settingsPath, { body: hosted });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ ...defaults, ...hosted });
    const read = await request('GET', settingsPath, { on: b });
    expect(read.json).toEqual({ ...defaults, ...hosted });
    expect(read.text).not.toContain(VALUE);
    expect((await call(`${a.api.url}/botcheck/challenge?endpoint=orders`)).text).not.toContain(VALUE);
  });

  it('is in the OpenAPI document with the other admin routes', async () => {
    const paths = Object.keys((await call(`${a.api.url}/api/openapi.json`)).json.paths);
    expect(paths).toEqual(expect.arrayContaining([settingsPath, '/api/v1/admin/secrets', '/api/v1/admin/secrets/{name}', '/botcheck/challenge', '/botcheck/solver.js']));
  });
});

describe('stored secrets: /api/v1/admin/secrets', () => {
  it('creates (201) and replaces (200) a secret, answering its name and grants, never its value; a replace without value keeps it', async () => {
    now += 1000;
    const created = await request('PUT', '/api/v1/admin/secrets/partner.api-key', { body: { value: OTHER_VALUE, allow_connections: ['bot_check'] } });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      name: 'partner.api-key',
      allow_connections: ['bot_check'],
      personas: [],
      created_at: new Date(now).toISOString(),
      created_by: 'apikey:root',
      updated_at: new Date(now).toISOString(),
      updated_by: 'apikey:root',
    });
    now += 1000;
    const replaced = await request('PUT', '/api/v1/admin/secrets/partner.api-key', { body: { allow_connections: ['bot_check', 'objstore'] } });
    expect(replaced.status).toBe(200);
    expect(replaced.json).toMatchObject({ allow_connections: ['bot_check', 'objstore'], created_at: created.json.created_at, updated_at: new Date(now).toISOString() });
    expect(await a.services.secrets.secretFor('partner.api-key', 'bot_check')).toBe(OTHER_VALUE);

    const listed = await request('GET', '/api/v1/admin/secrets');
    expect(listed.status).toBe(200);
    expect(listed.json.secrets.map((s: { name: string }) => s.name)).toContain('partner.api-key');
    for (const secret of listed.json.secrets) expect(Object.keys(secret).sort()).toEqual(['allow_connections', 'created_at', 'created_by', 'name', 'personas', 'updated_at', 'updated_by']);
  });

  it('refuses a create without a value, a bad name, a value too long, and malformed JSON (400) — never echoing the value', async () => {
    const noValue = await request('PUT', '/api/v1/admin/secrets/fresh', { body: { allow_connections: ['bot_check'] } });
    expect(noValue.status).toBe(400);
    expect(noValue.json).toEqual({ error: 'invalid', message: 'value: required to create stored secret "fresh"' });
    expect((await request('PUT', '/api/v1/admin/secrets/Bad%20Name', { body: { value: VALUE } })).status).toBe(400);
    const tooLong = await request('PUT', '/api/v1/admin/secrets/long', { body: { value: VALUE + 'x'.repeat(MAX_SECRET_VALUE_BYTES) } });
    expect(tooLong.status).toBe(400);
    expect((await request('PUT', '/api/v1/admin/secrets/unknown-field', { body: { value: VALUE, valeu: VALUE } })).status).toBe(400);
    expect((await request('PUT', '/api/v1/admin/secrets/broken', { raw: `{"value": "${VALUE}", ` })).status).toBe(400);
    expect((await request('GET', '/api/v1/admin/secrets')).json.secrets.map((s: { name: string }) => s.name)).not.toContain('fresh');
  });

  it('is for administrators: anonymous 401, another persona 403', async () => {
    expect((await request('GET', '/api/v1/admin/secrets', { key: null })).status).toBe(401);
    expect((await request('GET', '/api/v1/admin/secrets', { key: ANALYST_KEY })).status).toBe(403);
    expect((await request('PUT', '/api/v1/admin/secrets/mine', { key: ANALYST_KEY, body: { value: VALUE } })).status).toBe(403);
    expect((await request('DELETE', '/api/v1/admin/secrets/turnstile', { key: ANALYST_KEY })).status).toBe(403);
  });

  it('deletes a secret (204), then 404', async () => {
    expect((await request('PUT', '/api/v1/admin/secrets/short-lived', { body: { value: VALUE } })).status).toBe(201);
    expect((await request('DELETE', '/api/v1/admin/secrets/short-lived')).status).toBe(204);
    expect((await request('DELETE', '/api/v1/admin/secrets/short-lived')).status).toBe(404);
    await expect(a.services.secrets.secretFor('short-lived', 'bot_check')).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('stored secrets: the rules of secretFor and of storage', () => {
  it('hands the value only to a connection allow_connections names, and never when personas are listed', async () => {
    const secrets = a.services.secrets;
    await secrets.put('rules', { value: VALUE, allow_connections: ['bot_check'] }, 'test');
    expect(await secrets.secretFor('rules', 'bot_check')).toBe(VALUE);
    await expect(secrets.secretFor('rules', 'objstore')).rejects.toEqual(new SecretError('not_allowed', 'stored secret "rules" does not allow connection objstore (allow_connections)'));
    await secrets.put('rules', { allow_connections: ['bot_check'], personas: ['analyst'] }, 'test');
    await expect(secrets.secretFor('rules', 'bot_check')).rejects.toEqual(new SecretError('not_allowed', 'stored secret "rules" lists personas, so no platform connection reads it'));
    await expect(secrets.secretFor('nothing-here', 'bot_check')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('seals the value at rest, bound to its row and to the deployment\'s encryption key', async () => {
    const secrets = a.services.secrets;
    await secrets.put('sealed', { value: VALUE, allow_connections: ['bot_check'] }, 'test');
    await secrets.put('victim', { value: 'harmless', allow_connections: ['bot_check'] }, 'test');
    const { rows } = await db.query<{ ciphertext: Buffer }>("SELECT ciphertext FROM stored_secrets WHERE name = 'sealed'");
    expect(rows[0]!.ciphertext.includes(Buffer.from(VALUE))).toBe(false);
    expect((await db.query("SELECT count(*)::int AS n FROM stored_secrets WHERE ciphertext::text LIKE '%' || $1 || '%'", [VALUE])).rows[0].n).toBe(0);

    // The ciphertext copied onto another row does not open there.
    await db.query("UPDATE stored_secrets SET ciphertext = (SELECT ciphertext FROM stored_secrets WHERE name = 'sealed') WHERE name = 'victim'");
    await expect(secrets.secretFor('victim', 'bot_check')).rejects.toMatchObject({ code: 'not_found' });
    // Another deployment's key does not open it either.
    const elsewhere = new SecretStore({ db, box: await storedSecretBox({ data_dir: dataDir, secrets: { encryption_key: randomBytes(32).toString('base64') } }) });
    await expect(elsewhere.secretFor('sealed', 'bot_check')).rejects.toMatchObject({ code: 'not_found' });
    const error = await elsewhere.secretFor('sealed', 'bot_check').catch((e: unknown) => e as Error);
    expect(String((error as Error).message)).not.toContain(VALUE);
  });
});
