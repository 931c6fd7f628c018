/**
 * The hosted bot-check providers (issue 17, item 5): hosted_a (Cloudflare Turnstile) and hosted_b
 * (hCaptcha) tokens verified server-side at a local stand-in of their siteverify API with the
 * secret read from the stored secret named by secret_name (allow_connections bot_check, no
 * personas): success, refusal, the provider unreachable or answering garbage (503), a token
 * accepted once (replay refused), the secret missing or not allowed (503), and the secret never in
 * a response, a verdict or a log line — even when the provider echoes it back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { capturingLogger } from '../support/logs.js';
import { ADMIN_KEY, botCheckConfig, call, PublicEndpoints, SiteverifyStandIn, startBotCheckApi, type BotCheckApi } from './botcheck-fixtures.js';

const SECRET = 'ts-Secret-S3CR3T-0xDEADBEEF-never-shown';
const HCAPTCHA_SECRET = '0xHcaptcha-Secret-K3Y-never-shown';

let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let dataDir: string;
let config: PlatformConfig;
const turnstile = new SiteverifyStandIn();
const hcaptcha = new SiteverifyStandIn();
const endpoints = new PublicEndpoints().add('orders');
const logged = capturingLogger('trace');
let replica: BotCheckApi;
let token = 0;
const responses: string[] = [];

/** A token as a widget would give it; a new one each time. */
function newToken(): string {
  token += 1;
  return `XXXX.DUMMY.TOKEN.${token}`;
}

async function admin(method: string, path: string, body?: unknown) {
  const answer = await call(`${replica.api.url}/api/v1/admin${path}`, { method, key: ADMIN_KEY, ...(body !== undefined ? { body } : {}) });
  responses.push(answer.text);
  return answer;
}

function verify(header: string | undefined, on: BotCheckApi = replica) {
  return on.services.check!.verify({ endpoint: 'orders', header, remoteIp: '203.0.113.9' });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(db);
  dataDir = await mkdtemp(join(tmpdir(), 'botcheck-hosted-'));
  const [a, b] = [await turnstile.start(), await hcaptcha.start()];
  config = botCheckConfig({ dataDir, extra: `bot_check:\n  hosted_a_verify_url: ${a}\n  hosted_b_verify_url: ${b}\n  verify_timeout: 1s` });
  replica = await startBotCheckApi({ config, db, endpoints, log: logged.log });
  expect((await admin('PUT', '/secrets/turnstile', { value: SECRET, allow_connections: ['bot_check'] })).status).toBe(201);
  expect((await admin('PUT', '/secrets/hcaptcha', { value: HCAPTCHA_SECRET, allow_connections: ['bot_check'] })).status).toBe(201);
});

afterAll(async () => {
  await replica?.api.stop();
  await turnstile.close();
  await hcaptcha.close();
  await db?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  // Nothing this suite did put a secret into a response or a log line.
  for (const text of [...responses, ...logged.lines]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(HCAPTCHA_SECRET);
  }
});

beforeEach(async () => {
  turnstile.calls.length = 0;
  hcaptcha.calls.length = 0;
  turnstile.answer = () => ({ status: 200, body: JSON.stringify({ success: true, 'error-codes': [], hostname: 'partner.example' }) });
  hcaptcha.answer = turnstile.answer;
  const put = await admin('PUT', '/settings/bot-check', { provider: 'hosted_a', site_key: '0x4AAAAAAA-site', secret_name: 'turnstile' });
  expect(put.status, put.text).toBe(200);
});

describe('hosted_a (Cloudflare Turnstile)', () => {
  it('the challenge names the provider and its site key', async () => {
    const challenge = await call(`${replica.api.url}/botcheck/challenge?endpoint=orders`);
    expect(challenge.json).toEqual({ provider: 'hosted_a', header: 'X-Bot-Check', site_key: '0x4AAAAAAA-site' });
  });

  it('a token the provider confirms passes: form POST of secret, response and remoteip; recorded as used', async () => {
    const value = newToken();
    expect(await verify(value)).toEqual({ ok: true });
    expect(turnstile.calls).toEqual([{ contentType: 'application/x-www-form-urlencoded;charset=UTF-8', form: { secret: SECRET, response: value, remoteip: '203.0.113.9' } }]);
    const { rows } = await db.query("SELECT kind, endpoint FROM bot_check_answers WHERE kind = 'hosted_a'");
    expect(rows).toContainEqual({ kind: 'hosted_a', endpoint: 'orders' });
  });

  it('a token accepted once is refused the second time (403), on any replica, even when the provider would say yes again', async () => {
    const value = newToken();
    expect(await verify(value)).toEqual({ ok: true });
    expect(await verify(value)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
    const other = await startBotCheckApi({ config, db, endpoints, log: logged.log });
    try {
      expect(await verify(value, other)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
    } finally {
      await other.api.stop();
    }
  });

  it('a token the provider refuses is refused (403) with its error codes, and is not recorded', async () => {
    turnstile.answer = () => ({ status: 200, body: JSON.stringify({ success: false, 'error-codes': ['invalid-input-response'] }) });
    const value = newToken();
    expect(await verify(value)).toEqual({ ok: false, status: 403, reason: 'the hosted_a token was refused (invalid-input-response)' });
    turnstile.answer = () => ({ status: 200, body: JSON.stringify({ success: true }) });
    expect(await verify(value)).toEqual({ ok: true });
  });

  it('a missing header is refused (403) without asking the provider', async () => {
    expect(await verify(undefined)).toMatchObject({ ok: false, status: 403 });
    expect(turnstile.calls).toEqual([]);
  });

  it.each([
    ['answers HTTP 500', () => ({ status: 500, body: JSON.stringify({ success: true }) })],
    ['answers an HTML page', () => ({ status: 200, body: '<html>Just a moment…</html>' })],
    ['answers JSON without success', () => ({ status: 200, body: JSON.stringify({ 'error-codes': [] }) })],
    ['answers success as a string', () => ({ status: 200, body: JSON.stringify({ success: 'true' }) })],
  ])('the provider %s: the check could not be made (503), never a pass', async (_what, answer) => {
    turnstile.answer = answer;
    expect(await verify(newToken())).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
  });

  it('the provider does not answer within bot_check.verify_timeout: 503', async () => {
    turnstile.answer = () => ({ status: 200, body: '', hang: true });
    const started = Date.now();
    expect(await verify(newToken())).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('the provider unreachable: 503', async () => {
    const port = await closedPort();
    const unreachable = await startBotCheckApi({
      config: botCheckConfig({ dataDir, encryptionKey: config.secrets.encryption_key!, extra: `bot_check:\n  hosted_a_verify_url: http://127.0.0.1:${port}/siteverify` }),
      db,
      endpoints,
      log: logged.log,
    });
    try {
      expect(await verify(newToken(), unreachable)).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
      expect(logged.lines.some((line) => line.includes('hosted_a token could not be verified') && line.includes('could not be reached'))).toBe(true);
    } finally {
      await unreachable.api.stop();
    }
  });

  it('a provider echoing the secret back gets it into no verdict and no log line', async () => {
    turnstile.answer = (form) => ({ status: 200, body: JSON.stringify({ success: false, 'error-codes': [form.secret, 'timeout-or-duplicate'] }) });
    const verdict = await verify(newToken());
    expect(verdict).toEqual({ ok: false, status: 403, reason: 'the hosted_a token was refused (timeout-or-duplicate)' });
    turnstile.answer = (form) => ({ status: 502, body: form.secret! });
    expect(await verify(newToken())).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
  });
});

describe('the stored secret behind secret_name', () => {
  it('missing: 503, and the provider is not asked', async () => {
    expect((await admin('PUT', '/secrets/doomed', { value: 'doomed-value', allow_connections: ['bot_check'] })).status).toBe(201);
    expect((await admin('PUT', '/settings/bot-check', { provider: 'hosted_a', site_key: 'k', secret_name: 'doomed' })).status).toBe(200);
    expect((await admin('DELETE', '/secrets/doomed')).status).toBe(204);
    expect(await verify(newToken())).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
    expect(turnstile.calls).toEqual([]);
  });

  it('no longer allowing bot_check, or listing a persona: 503', async () => {
    expect((await admin('PUT', '/secrets/turnstile', { allow_connections: ['elsewhere'] })).status).toBe(200);
    expect(await verify(newToken())).toMatchObject({ ok: false, status: 503 });
    expect((await admin('PUT', '/secrets/turnstile', { allow_connections: ['bot_check'], personas: ['analyst'] })).status).toBe(200);
    expect(await verify(newToken())).toMatchObject({ ok: false, status: 503 });
    expect(turnstile.calls).toEqual([]);
    // Back as it was (grants only: the stored value stays).
    expect((await admin('PUT', '/secrets/turnstile', { allow_connections: ['bot_check'] })).status).toBe(200);
    expect(await verify(newToken())).toEqual({ ok: true });
    expect(turnstile.calls[0]?.form.secret).toBe(SECRET);
  });
});

describe('hosted_b (hCaptcha)', () => {
  it('verifies at its own URL with its own secret, also sending the site key; replay refused', async () => {
    expect((await admin('PUT', '/settings/bot-check', { provider: 'hosted_b', site_key: '10000000-ffff-ffff-ffff-000000000001', secret_name: 'hcaptcha' })).status).toBe(200);
    const value = newToken();
    expect(await verify(value)).toEqual({ ok: true });
    expect(turnstile.calls).toEqual([]);
    expect(hcaptcha.calls.map((c) => c.form)).toEqual([
      { secret: HCAPTCHA_SECRET, response: value, remoteip: '203.0.113.9', sitekey: '10000000-ffff-ffff-ffff-000000000001' },
    ]);
    expect(await verify(value)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
    hcaptcha.answer = () => ({ status: 200, body: JSON.stringify({ success: false, 'error-codes': ['sitekey-secret-mismatch'] }) });
    expect(await verify(newToken())).toEqual({ ok: false, status: 403, reason: 'the hosted_b token was refused (sitekey-secret-mismatch)' });
  });
});
