/**
 * Security pass 3, item 11: a bot-check answer is one answer however it is spelled. The challenge's
 * MAC is 32 bytes in 43 base64url characters, whose last 2 bits are unused: four spellings decode
 * to the same bytes. Were any but the issued one accepted, each would be a different challenge text
 * and so a different used answer — one solved challenge admitting four requests. Only the canonical
 * spelling is accepted. Through HTTP against the deployment's own proof-of-work check over Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, issueChallenge } from '../../shared/botcheck/index.js';
import { solve } from '../integration/botcheck-fixtures.js';
import { jsonOf, startEndpointRig, type EndpointRig } from '../integration/endpoint-requests-fixtures.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The other spellings of a challenge: its MAC's last character with the unused low bits set otherwise. */
function respellings(challenge: string): string[] {
  const last = ALPHABET.indexOf(challenge.at(-1)!);
  return [1, 2, 3].map((bits) => `${challenge.slice(0, -1)}${ALPHABET[last ^ bits]}`);
}

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig({ botCheck: 'deployment' });
  await rig.endpoint('orders', 'export function handle() { return { status: 201, json: { ordered: true } } }', { methods: ['POST'] });
});

afterAll(async () => {
  await rig?.stop();
});

describe('a solved challenge admits one request, however its signature is spelled', () => {
  it('the same MAC bytes spelled with other trailing bits are refused: exactly one request is admitted', async () => {
    const issued = await jsonOf(await fetch(`${rig.api.url}/botcheck/challenge?endpoint=orders`));
    const challenge = issued.challenge as string;
    expect(Buffer.from(challenge.slice(challenge.lastIndexOf('.') + 1), 'base64url').toString('base64url')).toBe(challenge.slice(challenge.lastIndexOf('.') + 1));
    const spellings = [challenge, ...respellings(challenge)];
    // Each spelling decodes to the issued MAC's bytes, and is solved on its own (the work covers the whole text).
    const macs = new Set(spellings.map((text) => Buffer.from(text.slice(text.lastIndexOf('.') + 1), 'base64url').toString('hex')));
    expect(macs.size).toBe(1);
    const statuses: number[] = [];
    for (const text of spellings) {
      const response = await rig.call('/endpoints/orders', { method: 'POST', headers: { 'x-bot-check': solve(text, issued.difficulty as number) } });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([201, 403, 403, 403]);
  });

  it('checkAnswer refuses a non-canonical MAC as altered, and accepts the issued spelling', () => {
    const key = new Uint8Array(32).fill(7);
    const nowMs = Date.parse('2025-06-01T12:00:00Z');
    const { challenge } = issueChallenge(key, { endpoint: 'orders', difficulty: 1, ttlSeconds: 60, nowMs });
    expect(checkAnswer(key, solve(challenge, 1), { endpoint: 'orders', nowMs })).toMatchObject({ ok: true, challenge });
    for (const text of respellings(challenge)) expect(checkAnswer(key, solve(text, 1), { endpoint: 'orders', nowMs })).toEqual({ ok: false, refusal: 'altered' });
  });
});
