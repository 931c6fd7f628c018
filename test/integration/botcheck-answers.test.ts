/**
 * The proof-of-work bot check (issue 17, item 5) on a real Postgres, through the challenge route and
 * the pipeline's entry point `verify`: every row of spec document 3's "Bot-check answer" state
 * table, the difficulty rule counted in the database, one answer sent to two replicas at once
 * accepted exactly once, the challenges' own rate bucket per endpoint, client network and replica, no signing key,
 * provider none, the /botcheck/ routes' CORS and headers, and housekeeping's purge of used answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHousekeepingActivities } from '../../activities/housekeeping.js';
import { botCheckSettingsSection, type BotCheckSettings } from '../../shared/botcheck/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { botCheckConfig, call, PublicEndpoints, solve, startBotCheckApi, zeroBitsOf, type BotCheckApi } from './botcheck-fixtures.js';

const START = Date.parse('2025-06-01T12:00:00.000Z');
const PARTNER = 'https://partner.example';

let database: { dsn: string; drop(): Promise<void> };
let dbA: Db;
let dbB: Db;
let dataDir: string;
let config: PlatformConfig;
let now = START;
const clock = () => now;
const endpoints = new PublicEndpoints()
  .add('orders')
  .add('quotes')
  .add('busy')
  .add('partner', { allowedOrigins: [PARTNER] })
  .add('tight', { rateLimit: 120 })
  .add('tight-too', { rateLimit: 120 });
let a: BotCheckApi;
let b: BotCheckApi;

async function setSettings(settings: Partial<BotCheckSettings>): Promise<void> {
  await a.services.settings.write(botCheckSettingsSection, settings, 'apikey:root', new Date(now));
}

async function challenge(endpoint: string, replica: BotCheckApi = a, headers: Record<string, string> = {}) {
  return call(`${replica.api.url}/botcheck/challenge?endpoint=${encodeURIComponent(endpoint)}`, { headers });
}

/** A fresh challenge for `endpoint`, solved. */
async function answerFor(endpoint: string, replica: BotCheckApi = a): Promise<{ header: string; challenge: string; difficulty: number }> {
  const issued = await challenge(endpoint, replica);
  expect(issued.status, issued.text).toBe(200);
  return { header: solve(issued.json.challenge, issued.json.difficulty), challenge: issued.json.challenge, difficulty: issued.json.difficulty };
}

/** http_rate_limited_total{limiter="endpoint"} of a replica. */
async function refusedChallenges(replica: BotCheckApi): Promise<number> {
  const metric = await replica.metrics.getSingleMetric('http_rate_limited_total')!.get();
  return metric.values.find((v) => v.labels.limiter === 'endpoint')?.value ?? 0;
}

function verify(endpoint: string, header: string | undefined, replica: BotCheckApi = a) {
  return replica.services.check!.verify({ endpoint, header, remoteIp: '203.0.113.9' });
}

async function usedRows(endpoint: string): Promise<Array<{ kind: string; accepted_at: Date; expires_at: Date }>> {
  const { rows } = await dbA.query('SELECT kind, accepted_at, expires_at FROM bot_check_answers WHERE endpoint = $1 ORDER BY accepted_at', [endpoint]);
  return rows;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dbA = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  dbB = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(dbA);
  dataDir = await mkdtemp(join(tmpdir(), 'botcheck-answers-'));
  config = botCheckConfig({ dataDir });
  // Two replicas: each its own pool, bot check and buckets; one database and one signing key.
  a = await startBotCheckApi({ config, db: dbA, endpoints, clock });
  b = await startBotCheckApi({ config, db: dbB, endpoints, clock });
});

afterAll(async () => {
  await a?.api.stop();
  await b?.api.stop();
  await dbA?.end();
  await dbB?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
  // Each test starts a minute later, so answers of earlier tests never count toward the rate.
  now += 10 * 60_000;
  await setSettings({ difficulty: 8 });
});

describe('Bot-check answer state table', () => {
  it('none → issued: a challenge for a public endpoint is signed, bound to the endpoint and valid challenge_ttl_seconds (defaults: 16 bits, 300 s)', async () => {
    await dbA.query('DELETE FROM platform_settings');
    const issued = await challenge('orders');
    expect(issued.status).toBe(200);
    const expires = Math.floor(now / 1000) + 300;
    expect(issued.json).toEqual({
      provider: 'pow',
      header: 'X-Bot-Check',
      challenge: expect.stringMatching(new RegExp(`^v1\\.orders\\.16\\.${expires}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`)),
      difficulty: 16,
      expires_at: new Date(expires * 1000).toISOString(),
    });
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.headers.get('x-content-type-options')).toBe('nosniff');
    // Every challenge is another one.
    expect((await challenge('orders')).json.challenge).not.toBe(issued.json.challenge);

    await setSettings({ challenge_ttl_seconds: 60 });
    expect((await challenge('orders')).json.expires_at).toBe(new Date((Math.floor(now / 1000) + 60) * 1000).toISOString());
  });

  it('issued → used: a valid, unexpired answer for its endpoint is accepted and recorded in the database until its expiry', async () => {
    const { header, difficulty } = await answerFor('orders');
    expect(difficulty).toBe(8);
    expect(zeroBitsOf(header)).toBeGreaterThanOrEqual(8);
    expect(await verify('orders', header)).toEqual({ ok: true });
    const rows = await usedRows('orders');
    expect(rows.at(-1)).toEqual({ kind: 'pow', accepted_at: new Date(now), expires_at: new Date((Math.floor(now / 1000) + 300) * 1000) });
  });

  it('used → refused (403): the same answer again, or the same challenge with another counter', async () => {
    const { header, challenge: text } = await answerFor('orders');
    expect(await verify('orders', header)).toEqual({ ok: true });
    expect(await verify('orders', header)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
    // Another counter that also has the bits answers the same challenge: the challenge is what was used.
    let counter = Number(header.slice(header.lastIndexOf(':') + 1)) + 1;
    while (zeroBitsOf(`${text}:${counter}`) < 8) counter += 1;
    expect(await verify('orders', `${text}:${counter}`)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
  });

  it('used → refused (403) on another replica', async () => {
    const { header } = await answerFor('orders', b);
    expect(await verify('orders', header, a)).toEqual({ ok: true });
    expect(await verify('orders', header, b)).toMatchObject({ ok: false, status: 403, reason: 'the bot-check answer was already used' });
  });

  it('issued → refused (403): altered — any part of the challenge changed, even re-solved — and nothing is recorded', async () => {
    const { challenge: text } = await answerFor('orders');
    const [version, endpoint, difficulty, expires, nonce, mac] = text.split('.');
    const variants = [
      [version, endpoint, '1', expires, nonce, mac], // an easier difficulty
      [version, endpoint, difficulty, String(Number(expires) + 3600), nonce, mac], // a later expiry
      [version, endpoint, difficulty, expires, `${nonce!.slice(0, -2)}AA`, mac], // another nonce
      [version, endpoint, difficulty, expires, nonce, `${mac!.slice(0, -2)}AA`], // another signature
    ].map((parts) => parts.join('.'));
    const before = (await usedRows('orders')).length;
    for (const variant of variants) {
      expect(await verify('orders', solve(variant, 8)), variant).toEqual({ ok: false, status: 403, reason: 'the bot-check challenge was altered or not issued by this platform' });
    }
    // Signed with another deployment's key.
    const other = await startBotCheckApi({ config: botCheckConfig({ dataDir }), db: dbA, endpoints, clock });
    try {
      const foreign = await answerFor('orders', other);
      expect(await verify('orders', foreign.header)).toMatchObject({ ok: false, status: 403, reason: 'the bot-check challenge was altered or not issued by this platform' });
    } finally {
      await other.api.stop();
    }
    expect((await usedRows('orders')).length).toBe(before);
  });

  it('issued → refused (403): expired — from its expires second on — and nothing is recorded', async () => {
    const { header } = await answerFor('orders');
    const expiresMs = Number(header.split('.')[3]) * 1000;
    now = expiresMs;
    const before = (await usedRows('orders')).length;
    expect(await verify('orders', header)).toEqual({ ok: false, status: 403, reason: 'the bot-check challenge expired' });
    now = expiresMs - 1;
    expect(await verify('orders', header)).toEqual({ ok: true });
    expect((await usedRows('orders')).length).toBe(before + 1);
  });

  it('issued → refused (403): for another endpoint', async () => {
    const { header } = await answerFor('orders');
    expect(await verify('quotes', header)).toEqual({ ok: false, status: 403, reason: 'the bot-check challenge was issued for another endpoint' });
    // Still unused: its own endpoint accepts it.
    expect(await verify('orders', header)).toEqual({ ok: true });
  });

  it('refused (403): missing, malformed, or without the required leading zero bits', async () => {
    expect(await verify('orders', undefined)).toEqual({ ok: false, status: 403, reason: 'bot check missing: send the X-Bot-Check header' });
    expect(await verify('orders', '')).toMatchObject({ ok: false, status: 403 });
    const { challenge: text } = await answerFor('orders');
    for (const malformed of [text, `${text}:`, `${text}:-1`, `${text}:007`, `${text}:1e3`, `${text}:99999999999999999`, `x${text}:1`, 'x'.repeat(9000)]) {
      expect((await verify('orders', malformed)).ok, malformed.slice(0, 80)).toBe(false);
    }
    let weak = `${text}:0`;
    for (let c = 1; zeroBitsOf(weak) >= 8; c += 1) weak = `${text}:${c}`;
    expect(await verify('orders', weak)).toEqual({ ok: false, status: 403, reason: 'the bot-check answer does not have the leading zero bits the challenge requires' });
  });

  it('no challenge for a name that is not a public endpoint (404), nor for a malformed name (400)', async () => {
    const unknown = await challenge('signed-in-only');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'not_found', message: 'no public endpoint named signed-in-only' });
    expect((await challenge('Orders')).status).toBe(400);
    expect((await call(`${a.api.url}/botcheck/challenge`)).status).toBe(400);
  });
});

describe('difficulty rule, counted in Postgres', () => {
  it('rises past rate_threshold answers in the last minute, one bit per doubling, up to max_difficulty, on every replica', async () => {
    await setSettings({ difficulty: 4, rate_threshold: 2, max_difficulty: 7 });
    const seen: number[] = [];
    for (let accepted = 0; accepted <= 17; accepted += 1) {
      // Alternate replicas: both read the same count.
      const { header, difficulty } = await answerFor('busy', accepted % 2 ? a : b);
      seen.push(difficulty);
      expect(await verify('busy', header, accepted % 2 ? b : a)).toEqual({ ok: true });
    }
    // 0–2 accepted: 4 bits; past 2 (3–4): 5; past 2 × 2 (5–8): 6; past 2 × 4 (9 on): 7, the ceiling.
    expect(seen).toEqual([4, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7]);
    // Other endpoints keep their own count.
    expect((await challenge('quotes')).json.difficulty).toBe(4);
    // A minute later, none of those answers counts any more.
    now += 60_001;
    expect((await challenge('busy')).json.difficulty).toBe(4);
  });
});

describe('replay across replicas', () => {
  it('one accepted answer sent to two replicas at once is accepted exactly once', async () => {
    for (let round = 0; round < 20; round += 1) {
      const { header } = await answerFor('orders', round % 2 ? a : b);
      const verdicts = await Promise.all([verify('orders', header, a), verify('orders', header, b)]);
      expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
      expect(verdicts.filter((v) => !v.ok)).toEqual([{ ok: false, status: 403, reason: 'the bot-check answer was already used' }]);
    }
  });
});

describe('challenge rate bucket (separate, per endpoint and client network, per replica)', () => {
  it('takes the endpoint\'s rate_limit per minute, a minute\'s worth at once like the endpoint\'s own bucket, and answers 429 with Retry-After past it', async () => {
    // 120 a minute: a bucket of 120, refilling one every 500 ms.
    for (let i = 0; i < 120; i += 1) expect((await challenge('tight')).status).toBe(200);
    const limitedBefore = await refusedChallenges(a);
    const refused = await challenge('tight');
    expect(refused.status).toBe(429);
    // Counted with the endpoint's own refusals.
    expect((await refusedChallenges(a)) - limitedBefore).toBe(1);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.json).toEqual({ error: 'rate_limited', message: 'past the challenge rate of endpoint tight for this network' });
    // Another endpoint, and the same endpoint on another replica, have their own buckets.
    expect((await challenge('tight-too')).status).toBe(200);
    expect((await challenge('tight', b)).status).toBe(200);
    now += 500;
    expect((await challenge('tight')).status).toBe(200);
    expect((await challenge('tight')).status).toBe(429);
  });

  it('a bigger rate_limit takes effect on the next challenge', async () => {
    endpoints.add('tight', { rateLimit: 120 });
    for (let i = 0; i < 120; i += 1) await challenge('tight');
    expect((await challenge('tight')).status).toBe(429);
    endpoints.add('tight', { rateLimit: 6000 });
    now += 1000;
    for (let i = 0; i < 50; i += 1) expect((await challenge('tight')).status).toBe(200);
  });
});

describe('without a proof-of-work key, or with provider none', () => {
  it('a deployment without auth.browser_session.signing_key cannot issue challenges (503) nor check answers (503)', async () => {
    const keyless = await startBotCheckApi({ config: botCheckConfig({ dataDir, signingKey: null }), db: dbA, endpoints, clock, log: silentLogger() });
    try {
      const refused = await challenge('orders', keyless);
      expect(refused.status).toBe(503);
      expect(refused.json).toEqual({ error: 'unavailable', message: 'cannot issue challenges: auth.browser_session.signing_key is not configured' });
      const { header } = await answerFor('orders');
      expect(await verify('orders', header, keyless)).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
    } finally {
      await keyless.api.stop();
    }
  });

  it('provider none: public endpoints are refused (503) until allow_public_without_check, then pass without a header', async () => {
    await setSettings({ provider: 'none' });
    expect((await challenge('orders')).json).toEqual({ provider: 'none', header: 'X-Bot-Check' });
    expect(await verify('orders', undefined)).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
    await setSettings({ provider: 'none', allow_public_without_check: true });
    expect(await verify('orders', undefined, b)).toEqual({ ok: true });
  });

  it('settings that cannot be read make the check 503, never a pass', async () => {
    const { header } = await answerFor('orders');
    // A section stored before a schema tightened (here: written past the API's validation).
    await dbA.query(`UPDATE platform_settings SET value = '{"difficulty": 99}' WHERE section = 'bot_check'`);
    expect(await verify('orders', header)).toEqual({ ok: false, status: 503, reason: 'bot check could not be made' });
    expect((await challenge('orders')).status).toBe(503);
  });
});

describe('/botcheck/ routes and CORS', () => {
  it('the challenge answers cross-origin requests from the endpoint\'s allowed_origins only, never with credentials; the platform\'s CORS layer stays out', async () => {
    const listed = await challenge('partner', a, { origin: PARTNER });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe(PARTNER);
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listed.headers.get('vary')).toMatch(/Origin/);
    for (const origin of ['https://elsewhere.example', 'http://mcp-client.example']) {
      const other = await challenge('partner', a, { origin });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    }
    // An origin listed for one endpoint is nothing to another.
    expect((await challenge('orders', a, { origin: PARTNER })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('GET /botcheck/solver.js is JavaScript with nosniff, and carries no CORS headers', async () => {
    const solver = await call(`${a.api.url}/botcheck/solver.js`, { headers: { origin: 'http://mcp-client.example' } });
    expect(solver.status).toBe(200);
    expect(solver.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(solver.headers.get('x-content-type-options')).toBe('nosniff');
    expect(solver.headers.get('access-control-allow-origin')).toBeNull();
    expect(solver.text).toContain('window.PlatformBotCheck');
  });
});

describe('housekeeping: purgeBotCheckAnswers', () => {
  it('removes answers expired more than the grace ago, keeps the others, and an expired answer stays refused after its row is gone', async () => {
    await dbA.query('DELETE FROM bot_check_answers');
    const insert = (digit: string, expiresSql: string) =>
      dbA.query(`INSERT INTO bot_check_answers (digest, kind, endpoint, accepted_at, expires_at) VALUES (decode(repeat($1, 64), 'hex'), 'pow', 'orders', now(), ${expiresSql})`, [digit]);
    await insert('1', "now() - interval '6 minutes'");
    await insert('2', "now() - interval '4 minutes'");
    await insert('3', "now() + interval '4 minutes'");
    const activities = createHousekeepingActivities({ db: dbA, log: silentLogger() });
    expect(await activities.purgeBotCheckAnswers({ name: 'purgeBotCheckAnswers' })).toEqual({ removed: 1 });
    expect((await dbA.query('SELECT count(*)::int AS n FROM bot_check_answers')).rows[0].n).toBe(2);

    // Our clock: an accepted answer, its row purged once expired; presented again it is refused as expired.
    const { header } = await answerFor('orders');
    expect(await verify('orders', header)).toEqual({ ok: true });
    await dbA.query('DELETE FROM bot_check_answers');
    now += 301_000;
    expect(await verify('orders', header)).toEqual({ ok: false, status: 403, reason: 'the bot-check challenge expired' });
  });
});
