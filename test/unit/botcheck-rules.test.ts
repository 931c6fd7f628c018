/**
 * The bot check's pure rules (issue 17, item 5): the difficulty rule row by row, leading zero bits,
 * challenges and answers checked against key, endpoint and clock (docs/botcheck.md "Header format"),
 * the bot-check key derived apart from the session key, and the settings' defaults and bounds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { botCheckKey } from '../../cli/botcheck.js';
import { botCheckSettingsSchema, challengeDifficulty, checkAnswer, clientNetwork, issueChallenge, leadingZeroBits } from '../../shared/botcheck/index.js';
import { parseConfig } from '../../shared/config/index.js';
import { deriveKey } from '../../shared/crypto/index.js';

const spec = { difficulty: 16, rate_threshold: 30, max_difficulty: 22 };

describe('challengeDifficulty: past rate_threshold answers in the last minute the difficulty rises, one bit per doubling, up to max_difficulty', () => {
  it.each([
    [0, 16],
    [29, 16],
    [30, 16],
    [31, 17],
    [60, 17],
    [61, 18],
    [120, 18],
    [121, 19],
    [240, 19],
    [241, 20],
    [480, 20],
    [481, 21],
    [960, 21],
    [961, 22],
    [3840, 22],
    [1_000_000_000, 22],
  ])('%i answers in the last minute (spec defaults 16 / 30 / 22): %i bits', (answers, bits) => {
    expect(challengeDifficulty(spec, answers)).toBe(bits);
  });

  it('never rises when difficulty is already max_difficulty, and follows another threshold', () => {
    expect(challengeDifficulty({ difficulty: 22, rate_threshold: 30, max_difficulty: 22 }, 10_000)).toBe(22);
    expect(challengeDifficulty({ difficulty: 4, rate_threshold: 1, max_difficulty: 28 }, 1)).toBe(4);
    expect(challengeDifficulty({ difficulty: 4, rate_threshold: 1, max_difficulty: 28 }, 2)).toBe(5);
    expect(challengeDifficulty({ difficulty: 4, rate_threshold: 1, max_difficulty: 28 }, 3)).toBe(6);
    expect(challengeDifficulty({ difficulty: 4, rate_threshold: 1, max_difficulty: 28 }, 2 ** 24)).toBe(28);
  });
});

describe('leadingZeroBits', () => {
  it.each([
    [[0x80, 0], 0],
    [[0x40], 1],
    [[0x0f], 4],
    [[0x01], 7],
    [[0x00, 0x01], 15],
    [[0x00, 0x00, 0xff], 16],
    [new Array(32).fill(0), 256],
  ])('%j has %i', (bytes, bits) => {
    expect(leadingZeroBits(Uint8Array.from(bytes))).toBe(bits);
  });
});

/** The first counter whose answer has `bits` leading zero bits, found with hex digits (not leadingZeroBits). */
function solve(challenge: string, bits: number): string {
  const zeroHex = '0'.repeat(bits / 4);
  for (let counter = 0; ; counter += 1) {
    const answer = `${challenge}:${counter}`;
    if (createHash('sha256').update(answer).digest('hex').startsWith(zeroHex)) return answer;
  }
}

describe('checkAnswer', () => {
  const key = randomBytes(32);
  const nowMs = Date.parse('2025-06-01T12:00:00.000Z');
  const issued = issueChallenge(key, { endpoint: 'orders', difficulty: 8, ttlSeconds: 300, nowMs });
  const answer = solve(issued.challenge, 8);

  it('accepts a solved answer for its endpoint before expiry, naming the challenge it used and when that expires', () => {
    expect(issued.expiresAtMs).toBe(nowMs + 300_000);
    expect(checkAnswer(key, answer, { endpoint: 'orders', nowMs })).toEqual({ ok: true, challenge: issued.challenge, expiresAtMs: nowMs + 300_000 });
    expect(checkAnswer(key, answer, { endpoint: 'orders', nowMs: nowMs + 299_999 }).ok).toBe(true);
  });

  it('refuses it expired, for another endpoint, under another key, and without the bits', () => {
    expect(checkAnswer(key, answer, { endpoint: 'orders', nowMs: nowMs + 300_000 })).toEqual({ ok: false, refusal: 'expired' });
    expect(checkAnswer(key, answer, { endpoint: 'quotes', nowMs })).toEqual({ ok: false, refusal: 'other_endpoint' });
    expect(checkAnswer(randomBytes(32), answer, { endpoint: 'orders', nowMs })).toEqual({ ok: false, refusal: 'altered' });
    let weak = `${issued.challenge}:0`;
    for (let c = 1; createHash('sha256').update(weak).digest('hex').startsWith('00'); c += 1) weak = `${issued.challenge}:${c}`;
    expect(checkAnswer(key, weak, { endpoint: 'orders', nowMs })).toEqual({ ok: false, refusal: 'too_few_bits' });
  });

  it('checks the signature first: an altered challenge is "altered" whatever else is wrong with it', () => {
    const [v, , d, e, n, m] = issued.challenge.split('.');
    const renamed = solve([v, 'quotes', d, e, n, m].join('.'), 8);
    expect(checkAnswer(key, renamed, { endpoint: 'quotes', nowMs })).toEqual({ ok: false, refusal: 'altered' });
    expect(checkAnswer(key, renamed, { endpoint: 'quotes', nowMs: nowMs + 10 ** 9 })).toEqual({ ok: false, refusal: 'altered' });
  });

  it.each(['', 'v1', issued.challenge, `${issued.challenge}:`, `${issued.challenge}:01`, `${issued.challenge}: 1`, `${issued.challenge}:9007199254740993`, `v2${issued.challenge.slice(2)}:1`])(
    'refuses %j as malformed',
    (text) => {
      expect(checkAnswer(key, text, { endpoint: 'orders', nowMs })).toEqual({ ok: false, refusal: 'malformed' });
    },
  );
});

describe('the bot-check key', () => {
  it('is HKDF of auth.browser_session.signing_key for purpose bot-check: not the signing key, not another purpose\'s key; none without a signing key', () => {
    const signingKey = randomBytes(32);
    const config = parseConfig(`auth:\n  browser_session:\n    signing_key: ${signingKey.toString('base64')}\n`, {}).config;
    const key = botCheckKey(config)!;
    expect(Buffer.from(key)).toEqual(Buffer.from(deriveKey(signingKey, 'bot-check')));
    expect(Buffer.from(key).equals(signingKey)).toBe(false);
    expect(Buffer.from(key).equals(Buffer.from(deriveKey(signingKey, 'objstore-presign')))).toBe(false);
    expect(botCheckKey(parseConfig('', {}).config)).toBeUndefined();
  });
});

describe('bot-check settings schema', () => {
  it('an empty section is every spec default', () => {
    expect(botCheckSettingsSchema.parse({})).toEqual({
      provider: 'pow',
      allow_public_without_check: false,
      challenge_ttl_seconds: 300,
      difficulty: 16,
      rate_threshold: 30,
      max_difficulty: 22,
      site_key: null,
      secret_name: null,
    });
  });

  it.each([
    [{ difficulty: 28, max_difficulty: 28 }, true],
    [{ difficulty: 23 }, false],
    [{ difficulty: 1, max_difficulty: 1 }, true],
    [{ challenge_ttl_seconds: 30 }, true],
    [{ challenge_ttl_seconds: 3600 }, true],
    [{ rate_threshold: 1_000_000 }, true],
    [{ rate_threshold: 1_000_001 }, false],
    [{ provider: 'hosted_b', site_key: 'k', secret_name: 'hcaptcha' }, true],
    [{ provider: 'hosted_b', site_key: 'k' }, false],
    [{ provider: 'none', allow_public_without_check: true }, true],
  ])('%j valid: %s', (section, valid) => {
    expect(botCheckSettingsSchema.safeParse(section).success).toBe(valid);
  });
});

describe('clientNetwork: what a caller who proved nothing is counted by', () => {
  it.each([
    [undefined, ''],
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::9', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:1::', '2001:db8:1:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::203.0.113.9', '64:ff9b:0:0::/64'],
    ['2001:db8:1:2:3:4:203.0.113.9', '2001:db8:1:2::/64'],
  ])('%s → %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});
