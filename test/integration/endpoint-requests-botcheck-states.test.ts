/**
 * Spec document 3, "Bot-check answer" (and the 403/503 rows of "Scripted endpoint answers"),
 * proved through /endpoints/{name} with the deployment's own bot check (cli/botcheck.ts) on an
 * injected clock: a valid, unexpired answer for the right endpoint, unused, is answered (200) and
 * recorded as used; an altered answer, an expired one, one for another endpoint and one already
 * used are refused (403). Then one round of the hosted provider hosted_a (Cloudflare Turnstile)
 * through the endpoint, verified at a local stand-in of its siteverify API with the secret read
 * from the stored secret named by secret_name: accepted (200), refused (403, the answer telling
 * nothing of the provider's error codes nor the secret), replayed (403), provider down (503).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restJson } from '../support/api.js';
import { SiteverifyStandIn, solve, zeroBitsOf } from './botcheck-fixtures.js';
import { jsonOf, keys, startEndpointRig, type EndpointRig, type Json } from './endpoint-requests-fixtures.js';

const SECRET = 'ts-Secret-ENDPOINT-0xC0FFEE-never-shown';
const PROVIDER_CODE = 'invalid-input-response';

let rig: EndpointRig;
const turnstile = new SiteverifyStandIn();
/** The bot check's clock: the real one unless a test sets a time. */
let now: number | undefined;
const answers: string[] = [];

beforeAll(async () => {
  const verifyUrl = await turnstile.start();
  rig = await startEndpointRig({ botCheck: 'deployment', botCheckClock: () => now ?? Date.now(), hostedAVerifyUrl: verifyUrl });
  const echo = "export function handle(req) { return { json: { item: req.json.item } } }";
  await rig.endpoint('orders', echo, { methods: ['POST'] });
  await rig.endpoint('returns', echo, { methods: ['POST'] });
});

afterAll(async () => {
  await rig?.stop();
  await turnstile.close();
});

/** A solved challenge of `endpoint`, as /botcheck/challenge issued it. */
async function challengeOf(endpoint: string): Promise<{ challenge: string; difficulty: number; expiresAt: number }> {
  const issued = await jsonOf(await fetch(`${rig.api.url}/botcheck/challenge?endpoint=${endpoint}`));
  expect(issued).toMatchObject({ provider: 'pow', header: 'X-Bot-Check' });
  return { challenge: issued.challenge, difficulty: issued.difficulty, expiresAt: Date.parse(issued.expires_at) };
}

async function post(endpoint: string, header: string): Promise<{ status: number; text: string; json: Json }> {
  const response = await rig.call(`/endpoints/${endpoint}`, { method: 'POST', headers: { 'x-bot-check': header, 'content-type': 'application/json' }, body: '{"item":"tea"}' });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, text, json: JSON.parse(text) };
}

async function expectRefused(endpoint: string, header: string): Promise<void> {
  const answer = await post(endpoint, header);
  expect([answer.status, answer.json.error]).toEqual([403, 'bot_check_refused']);
}

async function admin(method: string, path: string, body?: unknown) {
  return restJson(`${rig.api.url}/api/v1/admin${path}`, keys.root, method, body);
}

describe('a proof-of-work answer sent to /endpoints/{name}', () => {
  it('issued → used: a valid, unexpired answer for the right endpoint, unused, is answered and recorded as used', async () => {
    const { challenge, difficulty } = await challengeOf('orders');
    const answer = await post('orders', solve(challenge, difficulty));
    expect([answer.status, answer.json]).toEqual([200, { item: 'tea' }]);
    const { rows } = await rig.db.query("SELECT kind, endpoint FROM bot_check_answers WHERE kind = 'pow' AND endpoint = 'orders'");
    expect(rows).toEqual([{ kind: 'pow', endpoint: 'orders' }]);
  });

  it('issued or used → refused: an altered answer (403)', async () => {
    const { challenge, difficulty } = await challengeOf('orders');
    const [version, endpoint, , ...signed] = challenge.split('.');
    // The difficulty lowered to 1 bit and answered for it: the signature no longer matches.
    expect(difficulty).toBeGreaterThan(1);
    const easier = [version, endpoint, '1', ...signed].join('.');
    await expectRefused('orders', solve(easier, 1));
    // Another endpoint's name written into this challenge: altered too.
    await expectRefused('returns', solve(['v1', 'returns', String(difficulty), ...signed].join('.'), difficulty));
    // A counter that does not give the required zero bits.
    let counter = 0;
    while (zeroBitsOf(`${challenge}:${counter}`) >= difficulty) counter += 1;
    await expectRefused('orders', `${challenge}:${counter}`);
    // The untouched challenge, solved, still passes: the refusals spent nothing.
    expect((await post('orders', solve(challenge, difficulty))).status).toBe(200);
  });

  it('issued → refused: an expired answer (403), while the same answer before its expiry is answered', async () => {
    const { challenge, difficulty, expiresAt } = await challengeOf('orders');
    const solved = solve(challenge, difficulty);
    try {
      now = expiresAt + 1_000;
      await expectRefused('orders', solved);
      now = expiresAt - 1_000;
      expect((await post('orders', solved)).status).toBe(200);
    } finally {
      now = undefined;
    }
  });

  it('issued → refused: an answer to another endpoint\'s challenge (403), answered at its own endpoint', async () => {
    const { challenge, difficulty } = await challengeOf('returns');
    const solved = solve(challenge, difficulty);
    await expectRefused('orders', solved);
    expect((await post('returns', solved)).status).toBe(200);
  });

  it('used → refused: an answer already used (403)', async () => {
    const { challenge, difficulty } = await challengeOf('orders');
    const solved = solve(challenge, difficulty);
    expect((await post('orders', solved)).status).toBe(200);
    await expectRefused('orders', solved);
  });
});

describe('a hosted_a (Cloudflare Turnstile) token sent to /endpoints/{name}', () => {
  let token = 0;
  const newToken = () => `XXXX.DUMMY.ENDPOINT.TOKEN.${(token += 1)}`;

  beforeAll(async () => {
    expect((await admin('PUT', '/secrets/turnstile', { value: SECRET, allow_connections: ['bot_check'] })).status).toBe(201);
    const put = await admin('PUT', '/settings/bot-check', { provider: 'hosted_a', site_key: '0x4AAAAAAA-site', secret_name: 'turnstile' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  });

  afterAll(async () => {
    // The secret is in no answer the endpoint gave, no audit row and no failed-request record.
    for (const text of answers) expect(text).not.toContain(SECRET);
    await rig.api.endpointRecords!.flush();
    const audit = await rig.db.query("SELECT parameters::text AS p, coalesce(error_text, '') AS e FROM audit_log WHERE tool LIKE 'endpoint:%'");
    const failures = await rig.db.query("SELECT coalesce(error, '') AS e FROM endpoint_failures");
    for (const row of [...audit.rows, ...failures.rows]) expect(JSON.stringify(row)).not.toContain(SECRET);
  });

  it('accepted by the provider: 200, verified with the stored secret; the same token again: 403', async () => {
    turnstile.calls.length = 0;
    turnstile.answer = () => ({ status: 200, body: JSON.stringify({ success: true, 'error-codes': [] }) });
    const value = newToken();
    const answered = await post('orders', value);
    expect([answered.status, answered.json]).toEqual([200, { item: 'tea' }]);
    expect(turnstile.calls.map((c) => ({ secret: c.form.secret, response: c.form.response }))).toEqual([{ secret: SECRET, response: value }]);
    // The provider would say yes again; the token was recorded as used.
    await expectRefused('orders', value);
  });

  it('refused by the provider: 403, telling nothing of its error codes or the secret', async () => {
    turnstile.answer = (form) => ({ status: 200, body: JSON.stringify({ success: false, 'error-codes': [PROVIDER_CODE, form.secret] }) });
    const answer = await post('orders', newToken());
    expect([answer.status, answer.json.error]).toEqual([403, 'bot_check_refused']);
    expect(answer.text).not.toContain(PROVIDER_CODE);
    expect(answer.text).not.toContain(SECRET);
  });

  it('the provider down: 503 (the check could not be made), never a pass', async () => {
    await turnstile.close();
    const answer = await post('orders', newToken());
    expect([answer.status, answer.json.error]).toEqual([503, 'bot_check_unavailable']);
    expect(answer.text).not.toContain(SECRET);
  });
});
