/**
 * The proof of work: challenges and answers as text (docs/botcheck.md, "Header format").
 *
 *   challenge  v1.<endpoint>.<difficulty>.<expires>.<nonce>.<mac>
 *     endpoint    the endpoint's name (lowercase letters, digits, "-", "_")
 *     difficulty  leading zero bits the answer's SHA-256 must have (decimal)
 *     expires     Unix time in seconds from which the challenge is refused (decimal)
 *     nonce       16 random bytes, base64url
 *     mac         HMAC-SHA256 under the bot-check key of "v1.<endpoint>.<difficulty>.<expires>.<nonce>",
 *                 base64url as issued (canonical: its unused trailing bits zero; any other spelling is altered)
 *   answer     <challenge>:<counter>   (the X-Bot-Check header's whole value)
 *     counter     decimal without leading zeros, 0 … 2^53 − 1, such that SHA-256 of the answer's
 *                 UTF-8 bytes starts with at least <difficulty> zero bits
 *
 * The bot-check key is HKDF-SHA256 of `auth.browser_session.signing_key` for purpose `bot-check`
 * (shared/crypto deriveKey), so it differs from the key that signs sessions. Pure: the caller
 * gives the key and the time; whether an answer was used before is the caller's (used-answers.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The request header that carries an answer (a proof-of-work answer or a hosted provider's token). */
export const BOT_CHECK_HEADER = 'X-Bot-Check';
/** Longest header value looked at (a hosted token is at most a few KiB). */
export const MAX_ANSWER_LENGTH = 8192;

const VERSION = 'v1';
const NONCE_BYTES = 16;
const answerPattern = /^v1\.([a-z0-9_-]{1,128})\.(\d{1,2})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43}):(0|[1-9]\d{0,15})$/;

export interface ChallengeFields {
  endpoint: string;
  difficulty: number;
  /** Unix seconds from which the challenge is refused. */
  expires: number;
  nonce: string;
}

function signedText(f: ChallengeFields): string {
  return `${VERSION}.${f.endpoint}.${f.difficulty}.${f.expires}.${f.nonce}`;
}

function macOf(key: Uint8Array, f: ChallengeFields): Buffer {
  return createHmac('sha256', key).update(signedText(f)).digest();
}

/** A new challenge for `endpoint`, answerable for `ttlSeconds` from `nowMs`. */
export function issueChallenge(key: Uint8Array, opts: { endpoint: string; difficulty: number; ttlSeconds: number; nowMs: number }): { challenge: string; expiresAtMs: number } {
  const fields: ChallengeFields = {
    endpoint: opts.endpoint,
    difficulty: opts.difficulty,
    expires: Math.floor(opts.nowMs / 1000) + opts.ttlSeconds,
    nonce: randomBytes(NONCE_BYTES).toString('base64url'),
  };
  return { challenge: `${signedText(fields)}.${macOf(key, fields).toString('base64url')}`, expiresAtMs: fields.expires * 1000 };
}

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export type PowRefusal = 'malformed' | 'altered' | 'other_endpoint' | 'expired' | 'too_few_bits';

export const powRefusalReasons: Record<PowRefusal, string> = {
  malformed: 'the bot-check answer is not of the form <challenge>:<counter>',
  altered: 'the bot-check challenge was altered or not issued by this platform',
  other_endpoint: 'the bot-check challenge was issued for another endpoint',
  expired: 'the bot-check challenge expired',
  too_few_bits: 'the bot-check answer does not have the leading zero bits the challenge requires',
};

export type PowCheck = { ok: true; challenge: string; expiresAtMs: number } | { ok: false; refusal: PowRefusal };

/**
 * Checks an answer against the key, the endpoint it is presented to and the time, in this order:
 * form, signature (constant-time), endpoint, expiry, work. Whether it was used is not checked here.
 */
export function checkAnswer(key: Uint8Array, answer: string, opts: { endpoint: string; nowMs: number }): PowCheck {
  const m = answer.length <= MAX_ANSWER_LENGTH ? answerPattern.exec(answer) : null;
  if (!m || !Number.isSafeInteger(Number(m[6]))) return { ok: false, refusal: 'malformed' };
  const fields: ChallengeFields = { endpoint: m[1]!, difficulty: Number(m[2]), expires: Number(m[3]), nonce: m[4]! };
  const presented = Buffer.from(m[5]!, 'base64url');
  // Only the spelling the platform issued: 43 characters carry 2 bits past the MAC's 256, and each
  // other spelling of the same bytes would be another challenge text, so another unused answer.
  if (presented.length !== 32 || presented.toString('base64url') !== m[5] || !timingSafeEqual(presented, macOf(key, fields))) return { ok: false, refusal: 'altered' };
  if (fields.endpoint !== opts.endpoint) return { ok: false, refusal: 'other_endpoint' };
  if (opts.nowMs >= fields.expires * 1000) return { ok: false, refusal: 'expired' };
  if (leadingZeroBits(createHash('sha256').update(answer, 'utf8').digest()) < fields.difficulty) return { ok: false, refusal: 'too_few_bits' };
  return { ok: true, challenge: answer.slice(0, answer.lastIndexOf(':')), expiresAtMs: fields.expires * 1000 };
}
