/**
 * Webhook auth over real HTTP (spec document 3, "Webhook auth"; issue 14, item 2): every mode and
 * option — hmac sha1/sha256, hex/base64, prefix, `body` and `timestamp.body`, the timestamp
 * tolerance both ways, millisecond timestamps, header_token, basic, path_token — and rotation with
 * an overlap that ends on the injected clock. Each refusal is 401 with nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign, startIngestRig, unixSeconds, type Answer, type IngestRig } from './webhook-ingest-fixtures.js';

const SECRET = 'whsec-auth-S3CR3T';
const BODY = '{"order":{"id":7},"status":"new"}';

let rig: IngestRig;

const post = (path: string, headers: Record<string, string>, body = BODY): Promise<Answer> => rig.hook(path, { headers: { 'content-type': 'application/json', ...headers }, body });

async function expectRefused(answer: Promise<Answer>, reason?: RegExp): Promise<void> {
  const a = await answer;
  expect(a.status, a.text).toBe(401);
  expect(a.json).toMatchObject({ error: 'unauthorized' });
  if (reason) expect(a.json.message).toMatch(reason);
}

async function expectAccepted(answer: Promise<Answer>): Promise<void> {
  const a = await answer;
  expect(a.status, a.text).toBe(202);
  expect(a.json).toEqual({ accepted: 1 });
}

beforeAll(async () => {
  rig = await startIngestRig();
});
afterAll(async () => {
  await rig?.stop();
});

describe('hmac', () => {
  it.each([
    ['sha256', 'hex'],
    ['sha256', 'base64'],
    ['sha1', 'hex'],
    ['sha1', 'base64'],
  ] as const)('%s signatures in %s over the raw body bytes as sent', async (algorithm, encoding) => {
    const name = `hmac-${algorithm}-${encoding}`;
    await rig.createSource(name, { mode: 'hmac', algorithm, encoding, signature_header: 'X-Signature', secret: SECRET });
    // Formatting the signer chose: the signature covers these bytes, not a re-serialisation.
    const body = '{ "spaced" :  true }\n';
    await expectAccepted(post(`/hooks/${name}`, { 'x-signature': sign(SECRET, body, algorithm, encoding) }, body));
    await expectRefused(post(`/hooks/${name}`, { 'x-signature': sign(SECRET, '{"spaced":true}', algorithm, encoding) }, body), /signature does not match/);
    const otherAlgorithm = algorithm === 'sha1' ? 'sha256' : 'sha1';
    await expectRefused(post(`/hooks/${name}`, { 'x-signature': sign(SECRET, body, otherAlgorithm, encoding) }, body));
    await expectRefused(post(`/hooks/${name}`, {}, body), /missing signature header x-signature/);
    expect(await rig.segments(name)).toHaveLength(1);
  });

  it('prefix: the signature must follow it (sha256=…)', async () => {
    await rig.createSource('hmac-prefix', { mode: 'hmac', signature_header: 'X-Hub-Signature-256', prefix: 'sha256=', secret: SECRET });
    await expectAccepted(post('/hooks/hmac-prefix', { 'x-hub-signature-256': `sha256=${sign(SECRET, BODY)}` }));
    await expectRefused(post('/hooks/hmac-prefix', { 'x-hub-signature-256': sign(SECRET, BODY) }), /lacks the prefix sha256=/);
  });

  it('signed timestamp.body: the HMAC covers the timestamp as sent, a dot, then the body', async () => {
    await rig.createSource('hmac-ts-body', { mode: 'hmac', signature_header: 'X-Signature', timestamp_header: 'X-Timestamp', signed: 'timestamp.body', secret: SECRET });
    const ts = unixSeconds(rig.clock.now);
    await expectAccepted(post('/hooks/hmac-ts-body', { 'x-timestamp': ts, 'x-signature': sign(SECRET, `${ts}.${BODY}`) }));
    // The body alone is not what this source signs; nor is another timestamp's signature.
    await expectRefused(post('/hooks/hmac-ts-body', { 'x-timestamp': ts, 'x-signature': sign(SECRET, BODY) }));
    await expectRefused(post('/hooks/hmac-ts-body', { 'x-timestamp': String(Number(ts) - 1), 'x-signature': sign(SECRET, `${ts}.${BODY}`) }));
    await expectRefused(post('/hooks/hmac-ts-body', { 'x-signature': sign(SECRET, `${ts}.${BODY}`) }), /missing timestamp header x-timestamp/);
  });

  it('a timestamp header that is not signed is refused: at creation (400 naming the fix), and for a source stored before the rule every request is refused', async () => {
    const unsigned = { mode: 'hmac', signature_header: 'X-Signature', timestamp_header: 'X-Timestamp', tolerance_seconds: 60, secret: SECRET };
    for (const signed of [{}, { signed: 'body' }]) {
      const refused = await rig.admin('POST', '', { name: 'hmac-body-ts', connection: 'local', auth: { ...unsigned, ...signed } });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json).toEqual({ error: 'invalid', message: expect.stringMatching(/^auth\.signed: timestamp_header is only checked when it is signed.*Set signed: timestamp\.body/) });
      expect(refused.text).not.toContain(SECRET);
    }
    // A row as written before the rule: the tolerance would check an unsigned header.
    await rig.createSource('hmac-body-ts', { ...unsigned, signed: 'timestamp.body' });
    await rig.db.query(`UPDATE webhook_sources SET auth = jsonb_set(auth, '{signed}', '"body"') WHERE name = 'hmac-body-ts'`);
    rig.clock.now += 2_000; // past the receiver's source cache
    // A day-old request, replayed with its body signature and a fresh timestamp.
    await expectRefused(post('/hooks/hmac-body-ts', { 'x-timestamp': unixSeconds(rig.clock.now), 'x-signature': sign(SECRET, BODY) }), /hmac settings are refused: timestamp_header is only checked when it is signed/);
    expect(await rig.segments('hmac-body-ts')).toHaveLength(0);
  });

  it('timestamp tolerance both ways: inside it in the past and the future accepted, past it either way refused even with a valid signature', async () => {
    await rig.createSource('hmac-tolerance', { mode: 'hmac', signature_header: 'X-Signature', timestamp_header: 'X-Timestamp', tolerance_seconds: 300, signed: 'timestamp.body', secret: SECRET });
    const at = (offsetSeconds: number) => {
      const ts = String(Math.floor(rig.clock.now / 1000) + offsetSeconds);
      return post('/hooks/hmac-tolerance', { 'x-timestamp': ts, 'x-signature': sign(SECRET, `${ts}.${BODY}`) });
    };
    // On a whole second, so the bounds are exact.
    rig.clock.now = Math.ceil(rig.clock.now / 1000) * 1000;
    await expectAccepted(at(-300));
    await expectAccepted(at(300));
    await expectRefused(at(-301), /outside the tolerance of 300 s/);
    await expectRefused(at(301), /outside the tolerance of 300 s/);
  });

  it('timestamps above 10^12 are milliseconds', async () => {
    await rig.createSource('hmac-millis', { mode: 'hmac', signature_header: 'X-Signature', timestamp_header: 'X-Timestamp', tolerance_seconds: 10, signed: 'timestamp.body', secret: SECRET });
    const at = (ms: number) => {
      const ts = String(ms);
      return post('/hooks/hmac-millis', { 'x-timestamp': ts, 'x-signature': sign(SECRET, `${ts}.${BODY}`) });
    };
    expect(rig.clock.now).toBeGreaterThan(1e12);
    await expectAccepted(at(rig.clock.now));
    await expectAccepted(at(rig.clock.now - 9_000));
    await expectRefused(at(rig.clock.now + 11_000), /tolerance/);
  });
});

describe('header_token', () => {
  it('the header carries the secret; a wrong or missing one is 401', async () => {
    await rig.createSource('token', { mode: 'header_token', header: 'X-Token', secret: SECRET });
    await expectAccepted(post('/hooks/token', { 'x-token': SECRET }));
    await expectRefused(post('/hooks/token', { 'x-token': `${SECRET}x` }), /token does not match/);
    await expectRefused(post('/hooks/token', {}), /missing token header x-token/);
    expect(await rig.segments('token')).toHaveLength(1);
  });

  it('an Authorization header token may come as Bearer', async () => {
    await rig.createSource('token-bearer', { mode: 'header_token', header: 'Authorization', secret: SECRET });
    await expectAccepted(post('/hooks/token-bearer', { authorization: `Bearer ${SECRET}` }));
    await expectAccepted(post('/hooks/token-bearer', { authorization: SECRET }));
    await expectRefused(post('/hooks/token-bearer', { authorization: 'Bearer nope' }));
  });
});

describe('basic', () => {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('user name and secret must both match; a wrong user and a wrong password are refused alike', async () => {
    await rig.createSource('basic', { mode: 'basic', username: 'partner', secret: SECRET });
    await expectAccepted(post('/hooks/basic', { authorization: basic('partner', SECRET) }));
    await expectRefused(post('/hooks/basic', { authorization: basic('intruder', SECRET) }), /basic credentials do not match/);
    await expectRefused(post('/hooks/basic', { authorization: basic('partner', 'wrong') }), /basic credentials do not match/);
    await expectRefused(post('/hooks/basic', {}), /missing header authorization/);
    expect(await rig.segments('basic')).toHaveLength(1);
  });
});

describe('path_token', () => {
  it('/hooks/{name}/{secret} authenticates by the path; a wrong or missing token is 401', async () => {
    await rig.createSource('pathed', { mode: 'path_token', secret: 'Path-Token_1.x~y' });
    await expectAccepted(post('/hooks/pathed/Path-Token_1.x~y', {}));
    await expectRefused(post('/hooks/pathed/Path-Token_1.x~z', {}), /path token does not match/);
    await expectRefused(post('/hooks/pathed', {}), /no path token/);
    expect(await rig.segments('pathed')).toHaveLength(1);
  });

  it('a path token sent to an hmac source is 401, even with a valid signature', async () => {
    await rig.createSource('hmac-no-path', { mode: 'hmac', signature_header: 'X-Signature', secret: SECRET });
    await expectRefused(post(`/hooks/hmac-no-path/${SECRET}`, { 'x-signature': sign(SECRET, BODY) }), /path token sent to a source using hmac/);
    await expectAccepted(post('/hooks/hmac-no-path', { 'x-signature': sign(SECRET, BODY) }));
  });
});

describe('rotation', () => {
  it('the previous secret is accepted until the overlap ends on the clock, then 401; the new one from the update on', async () => {
    const OLD = 'old-secret-rotating';
    const NEW = 'new-secret-rotating';
    const auth = { mode: 'hmac', signature_header: 'X-Signature' };
    await rig.createSource('rotating', { ...auth, secret: OLD });
    const withSecret = (secret: string) => post('/hooks/rotating', { 'x-signature': sign(secret, BODY) });
    await expectAccepted(withSecret(OLD));
    await expectRefused(withSecret(NEW));

    const updated = await rig.admin('PUT', '/rotating', { auth: { ...auth, secret: NEW, rotation_overlap_seconds: 60 }, config: { flush_max_events: 1 } });
    expect(updated.status, updated.text).toBe(200);
    const until = rig.clock.now + 60_000;
    expect(updated.json.auth.previous_secret_until).toBe(new Date(until).toISOString());
    // The receiver reads sources at most once a second.
    rig.clock.now += 1001;
    await expectAccepted(withSecret(NEW));
    await expectAccepted(withSecret(OLD));
    rig.clock.now = until - 1;
    await expectAccepted(withSecret(OLD));
    rig.clock.now = until + 1001;
    await expectRefused(withSecret(OLD), /signature does not match/);
    await expectAccepted(withSecret(NEW));
  });

  it('a new secret without an overlap replaces the old one at once', async () => {
    const auth = { mode: 'header_token', header: 'X-Token' };
    await rig.createSource('replaced', { ...auth, secret: 'first-token' });
    await expectAccepted(post('/hooks/replaced', { 'x-token': 'first-token' }));
    const updated = await rig.admin('PUT', '/replaced', { auth: { ...auth, secret: 'second-token' }, config: { flush_max_events: 1 } });
    expect(updated.status, updated.text).toBe(200);
    rig.clock.now += 1001;
    await expectRefused(post('/hooks/replaced', { 'x-token': 'first-token' }));
    await expectAccepted(post('/hooks/replaced', { 'x-token': 'second-token' }));
  });
});

