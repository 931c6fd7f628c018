import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  secretEquals,
  timestampMs,
  verifyWebhookHeaders,
  verifyWebhookRequest,
  type RequestHeaders,
  type WebhookRequestToVerify,
} from '../../shared/webhooks/auth.js';
import { parseSettings, UNSIGNED_TIMESTAMP, webhookAuthSettingsSchema, type WebhookAuthSettings as WebhookAuth } from '../../shared/webhooks/source-config.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const auth = (raw: Record<string, unknown>): WebhookAuth => webhookAuthSettingsSchema.parse(raw);
const NOW_MS = 1_700_000_000_000;
const NOW_S = NOW_MS / 1000;

function verify(overrides: Partial<WebhookRequestToVerify> & { auth: WebhookAuth }) {
  return verifyWebhookRequest({ secrets: [bytes('s3cret')], headers: {}, body: bytes('{"a":1}'), nowMs: NOW_MS, ...overrides });
}

/** The expected signature, computed here with node:crypto rather than through the module under test. */
function sign(algorithm: 'sha1' | 'sha256', secret: string, signed: string, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHmac(algorithm, secret).update(signed).digest(encoding);
}

describe('hmac: known-answer vectors', () => {
  it("sha256 hex with prefix sha256= accepts GitHub's documented X-Hub-Signature-256 example", () => {
    // docs.github.com, "Validating webhook deliveries": secret and payload with their published signature.
    const result = verify({
      auth: auth({ mode: 'hmac', signature_header: 'X-Hub-Signature-256', prefix: 'sha256=' }),
      secrets: [bytes("It's a Secret to Everybody")],
      headers: { 'x-hub-signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' },
      body: bytes('Hello, World!'),
    });
    expect(result).toEqual({ ok: true });
  });

  it('sha1 hex accepts the RFC 2202 vector (key "Jefe")', () => {
    const result = verify({
      auth: auth({ mode: 'hmac', algorithm: 'sha1', signature_header: 'x-signature' }),
      secrets: [bytes('Jefe')],
      headers: { 'x-signature': 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79' },
      body: bytes('what do ya want for nothing?'),
    });
    expect(result).toEqual({ ok: true });
  });

  it('sha256 base64 accepts the RFC 4231 vector (key "Jefe") in base64', () => {
    const hex = '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    const result = verify({
      auth: auth({ mode: 'hmac', signature_header: 'x-signature', encoding: 'base64' }),
      secrets: [bytes('Jefe')],
      headers: { 'x-signature': Buffer.from(hex, 'hex').toString('base64') },
      body: bytes('what do ya want for nothing?'),
    });
    expect(result).toEqual({ ok: true });
  });
});

describe('hmac: algorithm, encoding and prefix', () => {
  const body = '{"id":"evt_1","type":"order.created"}';

  it.each([
    ['sha256', 'hex'],
    ['sha256', 'base64'],
    ['sha1', 'hex'],
    ['sha1', 'base64'],
  ] as const)('%s %s: the right signature is accepted, one of the other algorithm is refused', (algorithm, encoding) => {
    const a = auth({ mode: 'hmac', algorithm, encoding, signature_header: 'x-sig' });
    const other = algorithm === 'sha256' ? 'sha1' : 'sha256';
    expect(verify({ auth: a, headers: { 'x-sig': sign(algorithm, 's3cret', body, encoding) }, body: bytes(body) })).toEqual({ ok: true });
    expect(verify({ auth: a, headers: { 'x-sig': sign(other, 's3cret', body, encoding) }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
  });

  it('hex is accepted in upper case', () => {
    const a = auth({ mode: 'hmac', signature_header: 'x-sig' });
    expect(verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', body).toUpperCase() }, body: bytes(body) })).toEqual({ ok: true });
  });

  it('base64url and unpadded base64 are accepted', () => {
    const a = auth({ mode: 'hmac', algorithm: 'sha1', signature_header: 'x-sig', encoding: 'base64' });
    const url = createHmac('sha1', 's3cret').update(body).digest('base64url');
    expect(verify({ auth: a, headers: { 'x-sig': url }, body: bytes(body) })).toEqual({ ok: true });
  });

  it('the signature is checked over the raw bytes as sent: the same JSON re-formatted does not match', () => {
    const a = auth({ mode: 'hmac', signature_header: 'x-sig' });
    const signature = sign('sha256', 's3cret', body);
    expect(verify({ auth: a, headers: { 'x-sig': signature }, body: bytes(JSON.stringify(JSON.parse(body), null, 2)) })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
  });

  it('with a prefix configured, the prefix is stripped, and a signature without it is refused', () => {
    const a = auth({ mode: 'hmac', signature_header: 'x-hub-signature-256', prefix: 'sha256=' });
    const signature = sign('sha256', 's3cret', body);
    expect(verify({ auth: a, headers: { 'x-hub-signature-256': `sha256=${signature}` }, body: bytes(body) })).toEqual({ ok: true });
    expect(verify({ auth: a, headers: { 'x-hub-signature-256': signature }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature in x-hub-signature-256 lacks the prefix sha256=',
    });
  });

  it('without a prefix configured, a prefixed signature is refused as not hex', () => {
    const a = auth({ mode: 'hmac', signature_header: 'x-sig' });
    expect(verify({ auth: a, headers: { 'x-sig': `sha256=${sign('sha256', 's3cret', body)}` }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature in x-sig is not hex',
    });
  });

  it('a missing, empty, repeated or garbled signature header is refused with a reason naming the header only', () => {
    const a = auth({ mode: 'hmac', signature_header: 'X-Sig' });
    const b64 = auth({ mode: 'hmac', signature_header: 'x-sig', encoding: 'base64' });
    const cases: [WebhookAuth, RequestHeaders, string][] = [
      [a, {}, 'missing signature header x-sig'],
      [a, { 'x-sig': '' }, 'missing signature header x-sig'],
      [a, { 'x-sig': ['ab', 'cd'] }, 'signature header x-sig sent more than once'],
      [a, { 'x-sig': 'zz' }, 'signature in x-sig is not hex'],
      [a, { 'x-sig': 'abc' }, 'signature in x-sig is not hex'],
      [b64, { 'x-sig': 'not base64!' }, 'signature in x-sig is not base64'],
      [a, { 'x-sig': 'ab'.repeat(32) }, 'signature does not match'],
      [a, { 'x-sig': 'ab' }, 'signature does not match'],
    ];
    for (const [settings, headers, reason] of cases) {
      expect(verify({ auth: settings, headers, body: bytes(body) })).toEqual({ ok: false, reason });
    }
  });

  it('a single-value header array is read like the value', () => {
    const a = auth({ mode: 'hmac', signature_header: 'x-sig' });
    expect(verify({ auth: a, headers: { 'x-sig': [sign('sha256', 's3cret', body)] }, body: bytes(body) })).toEqual({ ok: true });
  });
});

describe('hmac: timestamp header and tolerance', () => {
  const body = '{"n":1}';
  const stamped = (extra: Record<string, unknown> = {}) =>
    auth({ mode: 'hmac', signature_header: 'x-sig', timestamp_header: 'X-Timestamp', signed: 'timestamp.body', ...extra });
  const signedAt = (ts: string) => sign('sha256', 's3cret', `${ts}.${body}`);

  it('signed timestamp.body: the signature covers "<timestamp as sent>.<body>"', () => {
    const a = stamped({ signed: 'timestamp.body' });
    const ts = String(NOW_S);
    expect(verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', `${ts}.${body}`), 'x-timestamp': ts }, body: bytes(body) })).toEqual({
      ok: true,
    });
    // A signature over the body alone does not satisfy timestamp.body.
    expect(verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', body), 'x-timestamp': ts }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
  });

  it('signed timestamp.body: a timestamp changed after signing no longer matches', () => {
    const a = stamped({ signed: 'timestamp.body' });
    const signature = sign('sha256', 's3cret', `${NOW_S}.${body}`);
    expect(verify({ auth: a, headers: { 'x-sig': signature, 'x-timestamp': String(NOW_S + 1) }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
  });

  it('a timestamp header with signed: body (stored before that was refused) refuses every request: the timestamp is unsigned', () => {
    // As a row written before the rule holds it; the schema refuses it now.
    const legacy = { ...stamped(), signed: 'body' } as WebhookAuth;
    // A day-old request, its correct body signature, and a fresh timestamp added by whoever replays it.
    const replayed = verify({ auth: legacy, headers: { 'x-sig': sign('sha256', 's3cret', body), 'x-timestamp': String(NOW_S) }, body: bytes(body) });
    expect(replayed).toEqual({ ok: false, reason: expect.stringMatching(/^the source's hmac settings are refused: timestamp_header is only checked when it is signed.*Set signed: timestamp\.body/) });
  });

  it.each([
    ['at the edge in the past', -300, 'accepted'],
    ['at the edge in the future', 300, 'accepted'],
    ['past the tolerance in the past', -301, 'refused even with a correct signature'],
    ['past the tolerance in the future', 301, 'refused even with a correct signature'],
  ])('a timestamp %s (%i s) is %s', (_label, offset, outcome) => {
    const ts = String(NOW_S + offset);
    const a = stamped({ signed: 'timestamp.body' });
    const result = verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', `${ts}.${body}`), 'x-timestamp': ts }, body: bytes(body) });
    expect(result).toEqual(outcome === 'accepted' ? { ok: true } : { ok: false, reason: 'timestamp outside the tolerance of 300 s' });
  });

  it('tolerance_seconds sets the window', () => {
    const a = stamped({ tolerance_seconds: 10 });
    const headers = (offset: number) => ({ 'x-sig': signedAt(String(NOW_S + offset)), 'x-timestamp': String(NOW_S + offset) });
    expect(verify({ auth: a, headers: headers(-10), body: bytes(body) })).toEqual({ ok: true });
    expect(verify({ auth: a, headers: headers(11), body: bytes(body) })).toEqual({ ok: false, reason: 'timestamp outside the tolerance of 10 s' });
  });

  it('a timestamp above 10^12 is read as milliseconds, inside and outside the tolerance', () => {
    const a = stamped({ signed: 'timestamp.body' });
    const inside = String(NOW_MS - 299_000);
    const outside = String(NOW_MS + 301_000);
    expect(verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', `${inside}.${body}`), 'x-timestamp': inside }, body: bytes(body) })).toEqual({
      ok: true,
    });
    expect(verify({ auth: a, headers: { 'x-sig': sign('sha256', 's3cret', `${outside}.${body}`), 'x-timestamp': outside }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'timestamp outside the tolerance of 300 s',
    });
  });

  it('timestampMs: seconds below 10^12, milliseconds above, fractions allowed, anything else undefined', () => {
    expect(timestampMs('1700000000')).toBe(1_700_000_000_000);
    expect(timestampMs('1700000000.5')).toBe(1_700_000_000_500);
    expect(timestampMs('1700000000123')).toBe(1_700_000_000_123);
    expect(timestampMs(' 1700000000 ')).toBe(1_700_000_000_000);
    for (const bad of ['', 'abc', '-1700000000', '1e9', '0x10', '17000 00000', '2023-11-14T22:13:20Z']) expect(timestampMs(bad)).toBeUndefined();
  });

  it('a missing or non-numeric timestamp header is refused even with a correct signature', () => {
    const a = stamped();
    const signature = signedAt(String(NOW_S));
    expect(verify({ auth: a, headers: { 'x-sig': signature }, body: bytes(body) })).toEqual({ ok: false, reason: 'missing timestamp header x-timestamp' });
    expect(verify({ auth: a, headers: { 'x-sig': signature, 'x-timestamp': 'yesterday' }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'timestamp header x-timestamp is not a number',
    });
  });
});

describe('rotation', () => {
  const body = '{"rotate":true}';
  const a = auth({ mode: 'hmac', signature_header: 'x-sig' });
  const secrets = [bytes('new-secret'), bytes('previous-secret')];

  it('the current and the previous secret (inside its overlap) are accepted, a third is not', () => {
    for (const secret of ['new-secret', 'previous-secret']) {
      expect(verify({ auth: a, secrets, headers: { 'x-sig': sign('sha256', secret, body) }, body: bytes(body) })).toEqual({ ok: true });
    }
    expect(verify({ auth: a, secrets, headers: { 'x-sig': sign('sha256', 'older-secret', body) }, body: bytes(body) })).toEqual({
      ok: false,
      reason: 'signature does not match',
    });
  });

  it('rotation applies to every mode: header_token, basic and path_token take either secret', () => {
    const basicHeader = (pw: string) => ({ authorization: `Basic ${Buffer.from(`partner:${pw}`).toString('base64')}` });
    for (const secret of ['new-secret', 'previous-secret']) {
      expect(verify({ auth: auth({ mode: 'header_token', header: 'x-token' }), secrets, headers: { 'x-token': secret } }).ok).toBe(true);
      expect(verify({ auth: auth({ mode: 'basic', username: 'partner' }), secrets, headers: basicHeader(secret) }).ok).toBe(true);
      expect(verify({ auth: auth({ mode: 'path_token' }), secrets, pathSecret: secret }).ok).toBe(true);
    }
    expect(verify({ auth: auth({ mode: 'path_token' }), secrets, pathSecret: 'older-secret' }).ok).toBe(false);
  });

  it('a source without any secret refuses every request', () => {
    expect(verify({ auth: auth({ mode: 'path_token' }), secrets: [], pathSecret: '' })).toEqual({ ok: false, reason: 'the source has no secret set' });
  });
});

describe('header_token', () => {
  const a = auth({ mode: 'header_token', header: 'X-Webhook-Token' });

  it('accepts the secret in the configured header and refuses another value', () => {
    expect(verify({ auth: a, headers: { 'x-webhook-token': 's3cret' } })).toEqual({ ok: true });
    expect(verify({ auth: a, headers: { 'x-webhook-token': 's3cret-not' } })).toEqual({ ok: false, reason: 'token does not match' });
    expect(verify({ auth: a, headers: { 'x-webhook-token': 's3cre' } })).toEqual({ ok: false, reason: 'token does not match' });
  });

  it('refuses a missing header, and the secret in another header', () => {
    expect(verify({ auth: a, headers: {} })).toEqual({ ok: false, reason: 'missing token header x-webhook-token' });
    expect(verify({ auth: a, headers: { 'x-other': 's3cret' } })).toEqual({ ok: false, reason: 'missing token header x-webhook-token' });
  });

  it('Bearer <secret> is accepted only when the header is authorization', () => {
    const bearer = auth({ mode: 'header_token', header: 'Authorization' });
    expect(verify({ auth: bearer, headers: { authorization: 'Bearer s3cret' } })).toEqual({ ok: true });
    expect(verify({ auth: bearer, headers: { authorization: 'bearer s3cret' } })).toEqual({ ok: true });
    expect(verify({ auth: bearer, headers: { authorization: 's3cret' } })).toEqual({ ok: true });
    expect(verify({ auth: bearer, headers: { authorization: 'Bearer wrong' } })).toEqual({ ok: false, reason: 'token does not match' });
    expect(verify({ auth: a, headers: { 'x-webhook-token': 'Bearer s3cret' } })).toEqual({ ok: false, reason: 'token does not match' });
  });

  it('a secret with non-ASCII bytes matches the bytes sent (Node hands header bytes over as latin1)', () => {
    const secret = 'clé-ß';
    const asNodeGivesIt = Buffer.from(secret, 'utf8').toString('latin1');
    expect(verify({ auth: a, secrets: [bytes(secret)], headers: { 'x-webhook-token': asNodeGivesIt } })).toEqual({ ok: true });
  });
});

describe('basic', () => {
  const a = auth({ mode: 'basic', username: 'partner' });
  const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });

  it('accepts the user name with the secret as password, including a password containing ":"', () => {
    expect(verify({ auth: a, headers: basic('partner:s3cret') })).toEqual({ ok: true });
    expect(verify({ auth: a, secrets: [bytes('a:b')], headers: basic('partner:a:b') })).toEqual({ ok: true });
  });

  it('refuses a wrong user and a wrong secret with the same reason', () => {
    expect(verify({ auth: a, headers: basic('intruder:s3cret') })).toEqual({ ok: false, reason: 'basic credentials do not match' });
    expect(verify({ auth: a, headers: basic('partner:guess') })).toEqual({ ok: false, reason: 'basic credentials do not match' });
    expect(verify({ auth: a, headers: basic('partner:') })).toEqual({ ok: false, reason: 'basic credentials do not match' });
  });

  it('refuses a missing or malformed authorization header', () => {
    expect(verify({ auth: a, headers: {} })).toEqual({ ok: false, reason: 'missing header authorization' });
    expect(verify({ auth: a, headers: { authorization: 'Bearer s3cret' } })).toEqual({ ok: false, reason: 'authorization header is not Basic credentials' });
    expect(verify({ auth: a, headers: { authorization: 'Basic !!!' } })).toEqual({ ok: false, reason: 'authorization header is not Basic credentials' });
    expect(verify({ auth: a, headers: basic('partner-s3cret') })).toEqual({ ok: false, reason: 'Basic credentials lack the user:password separator' });
  });
});

describe('path_token', () => {
  const a = auth({ mode: 'path_token' });

  it('accepts the secret as the path segment and refuses another or none', () => {
    expect(verify({ auth: a, pathSecret: 's3cret' })).toEqual({ ok: true });
    expect(verify({ auth: a, pathSecret: 's3cret2' })).toEqual({ ok: false, reason: 'path token does not match' });
    expect(verify({ auth: a })).toEqual({ ok: false, reason: 'no path token' });
    expect(verify({ auth: a, pathSecret: '' })).toEqual({ ok: false, reason: 'no path token' });
  });

  it('a path token sent to a source of another mode is refused even when its own credentials are right', () => {
    const header = auth({ mode: 'header_token', header: 'x-token' });
    expect(verify({ auth: header, headers: { 'x-token': 's3cret' }, pathSecret: 's3cret' })).toEqual({
      ok: false,
      reason: 'path token sent to a source using header_token',
    });
  });
});

describe('refusal reasons never carry secret material or the body', () => {
  it('no reason contains the secret, the signature sent or the body', () => {
    const secret = 'TOPSECRET-VALUE';
    const body = '{"card":"4111111111111111"}';
    const signature = createHmac('sha256', 'wrong').update(body).digest('hex');
    const results = [
      verify({ auth: auth({ mode: 'hmac', signature_header: 'x-sig' }), secrets: [bytes(secret)], headers: { 'x-sig': signature }, body: bytes(body) }),
      verify({ auth: auth({ mode: 'header_token', header: 'x-token' }), secrets: [bytes(secret)], headers: { 'x-token': `${secret}x` }, body: bytes(body) }),
      verify({ auth: auth({ mode: 'path_token' }), secrets: [bytes(secret)], pathSecret: secret.slice(1), body: bytes(body) }),
    ];
    for (const result of results) {
      expect(result.ok).toBe(false);
      const reason = result.ok ? '' : result.reason;
      for (const material of [secret, signature, body, '4111111111111111']) expect(reason).not.toContain(material);
    }
  });
});

describe('secretEquals', () => {
  it('compares bytes of any lengths', () => {
    expect(secretEquals(bytes('abc'), bytes('abc'))).toBe(true);
    expect(secretEquals(bytes('abc'), bytes('abd'))).toBe(false);
    expect(secretEquals(bytes('abc'), bytes('abcd'))).toBe(false);
    expect(secretEquals(bytes(''), bytes(''))).toBe(true);
  });
});

describe('webhookAuthSettingsSchema (the stored auth settings)', () => {
  const message = (raw: unknown) => {
    const r = parseSettings(webhookAuthSettingsSchema, raw);
    return r.ok ? '' : r.message;
  };

  it('applies the spec defaults to hmac: sha256, hex, tolerance 300 s, signed body', () => {
    expect(webhookAuthSettingsSchema.parse({ mode: 'hmac', signature_header: 'X-Signature' })).toEqual({
      mode: 'hmac',
      algorithm: 'sha256',
      signature_header: 'X-Signature',
      encoding: 'hex',
      tolerance_seconds: 300,
      signed: 'body',
    });
  });

  it('refuses values outside the allowed ones, naming each field', () => {
    const text = message({ mode: 'hmac', signature_header: 'x-sig', algorithm: 'md5', encoding: 'base32', tolerance_seconds: 0, signed: 'all' });
    for (const field of ['algorithm', 'encoding', 'tolerance_seconds', 'signed']) expect(text).toContain(`${field}: `);
    expect(message({ mode: 'hmac' })).toBe('signature_header: is required');
    expect(message({ mode: 'hmac', signature_header: 'x sig' })).toMatch(/^signature_header: an HTTP header name/);
    expect(message({ mode: 'hmac', signature_header: 'x-sig', signed: 'timestamp.body' })).toBe('timestamp_header: is required when signed is timestamp.body');
  });

  it('refuses a timestamp header that is not signed (signed: body, given or by default), naming the fix', () => {
    for (const signed of [{ signed: 'body' }, {}]) {
      expect(message({ mode: 'hmac', signature_header: 'x-sig', timestamp_header: 'x-time', ...signed })).toBe(`signed: ${UNSIGNED_TIMESTAMP}`);
    }
    expect(UNSIGNED_TIMESTAMP).toMatch(/Set signed: timestamp\.body .* or remove timestamp_header$/);
    expect(message({ mode: 'hmac', signature_header: 'x-sig', timestamp_header: 'x-time', signed: 'timestamp.body' })).toBe('');
  });

  it("checks each mode's own setting and refuses the secret among stored settings", () => {
    expect(message({ mode: 'header_token' })).toBe('header: is required');
    expect(message({ mode: 'basic', username: 'a:b' })).toMatch(/^username: no colon/);
    expect(message({ mode: 'header_token', header: 'X-Token', secret: 's3cret' })).toBe('unknown field secret');
    expect(webhookAuthSettingsSchema.parse({ mode: 'path_token' })).toEqual({ mode: 'path_token' });
  });
});

describe('verifyWebhookRequest reads headers whatever the case of their configured name', () => {
  it('a signature header configured as X-Signature matches the lower-case request header', () => {
    const body = '{"a":1}';
    const result = verify({
      auth: auth({ mode: 'hmac', signature_header: 'X-Signature', timestamp_header: 'X-Time', signed: 'timestamp.body' }),
      headers: { 'x-signature': sign('sha256', 's3cret', `${NOW_S}.${body}`), 'x-time': String(NOW_S) },
      body: bytes(body),
    });
    expect(result).toEqual({ ok: true });
  });
});

describe('verdict from the headers alone (before the body is read)', () => {
  const base = { secrets: [bytes('s3cret')], headers: {}, nowMs: NOW_MS };

  it('decides header_token, basic and path_token exactly as the whole request would', () => {
    const token = auth({ mode: 'header_token', header: 'X-Token' });
    expect(verifyWebhookHeaders({ ...base, auth: token, headers: { 'x-token': 's3cret' } })).toEqual({ ok: true });
    expect(verifyWebhookHeaders({ ...base, auth: token, headers: { 'x-token': 'wrong' } })).toEqual({ ok: false, reason: 'token does not match' });
    const basic = auth({ mode: 'basic', username: 'u' });
    expect(verifyWebhookHeaders({ ...base, auth: basic, headers: { authorization: `Basic ${Buffer.from('u:s3cret').toString('base64')}` } })).toEqual({ ok: true });
    expect(verifyWebhookHeaders({ ...base, auth: basic })).toEqual({ ok: false, reason: 'missing header authorization' });
    const path = auth({ mode: 'path_token' });
    expect(verifyWebhookHeaders({ ...base, auth: path, pathSecret: 's3cret' })).toEqual({ ok: true });
    expect(verifyWebhookHeaders({ ...base, auth: path, pathSecret: 'nope' })).toEqual({ ok: false, reason: 'path token does not match' });
  });

  it('leaves hmac to the body, unless nothing the body holds could authenticate it', () => {
    const hmac = auth({ mode: 'hmac', signature_header: 'X-Signature' });
    expect(verifyWebhookHeaders({ ...base, auth: hmac, headers: { 'x-signature': 'ab' } })).toBeUndefined();
    expect(verifyWebhookHeaders({ ...base, auth: hmac, secrets: [] })).toEqual({ ok: false, reason: 'the source has no secret set' });
    expect(verifyWebhookHeaders({ ...base, auth: hmac, pathSecret: 'x' })).toEqual({ ok: false, reason: 'path token sent to a source using hmac' });
  });
});
