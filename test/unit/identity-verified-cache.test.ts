/**
 * Issue 10 item 3: verified credentials are remembered safely — by digest, for a bounded time and
 * number, never past the verdict's own end — and a cached key never lets a different key in.
 */
import { describe, expect, it } from 'vitest';
import { apiKeyAuthenticator, authenticateCredentials, digestKey, extractCredentials, type CallerContext } from '../../shared/identity/index.js';
import { VerifiedCredentials } from '../../shared/identity/verified-cache.js';

/** A settable clock in milliseconds. */
function testClock(start = Date.UTC(2030, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const ada: CallerContext = { subject: 'apikey:ada', name: 'ada', roles: ['analyst'], authType: 'apikey' };

describe('VerifiedCredentials', () => {
  it('answers for the digest it was given until the TTL ends', () => {
    const clock = testClock();
    const cache = new VerifiedCredentials({ clock: clock.now, ttlMs: 1000 });
    expect(cache.remember(digestKey('k1'), ada)).toBe(1000);
    expect(cache.get(digestKey('k1'))).toEqual({ caller: ada, remainingMs: 1000 });
    expect(cache.get(digestKey('k2'))).toBeUndefined();
    clock.advance(999);
    expect(cache.get(digestKey('k1'))).toEqual({ caller: ada, remainingMs: 1 });
    clock.advance(1);
    expect(cache.get(digestKey('k1'))).toBeUndefined();
  });

  it('never past the verdict’s own end, and not at all when that has passed', () => {
    const clock = testClock();
    const cache = new VerifiedCredentials({ clock: clock.now, ttlMs: 60_000 });
    expect(cache.remember(digestKey('token'), ada, clock.now() + 500)).toBe(500);
    expect(cache.remember(digestKey('stale'), ada, clock.now())).toBe(0);
    expect(cache.get(digestKey('stale'))).toBeUndefined();
    expect(cache.get(digestKey('token'))?.remainingMs).toBe(500);
    clock.advance(500);
    expect(cache.get(digestKey('token'))).toBeUndefined();
  });

  it('keeps at most maxEntries, forgetting the least recently used', () => {
    const cache = new VerifiedCredentials({ maxEntries: 2 });
    cache.remember(digestKey('a'), ada);
    cache.remember(digestKey('b'), ada);
    cache.get(digestKey('a'));
    cache.remember(digestKey('c'), ada);
    expect(cache.get(digestKey('a'))?.caller).toEqual(ada);
    expect(cache.get(digestKey('b'))).toBeUndefined();
    expect(cache.get(digestKey('c'))?.caller).toEqual(ada);
  });

  it('hands every request a caller of its own', () => {
    const cache = new VerifiedCredentials();
    const first = { ...ada, roles: [...ada.roles] };
    cache.remember(digestKey('k'), first);
    first.roles.push('admin');
    const hit = cache.get(digestKey('k'))!;
    hit.caller.roles.push('admin');
    expect(cache.get(digestKey('k'))?.caller).toEqual(ada);
  });
});

describe('API keys with the verified cache', () => {
  const key = 'configured-secret-0123456789';
  const link = apiKeyAuthenticator([{ key, name: 'etl', roles: ['loader'] }]);
  const authenticate = (headers: Record<string, string>) => authenticateCredentials([link], extractCredentials(headers), false);

  it('a wrong key never matches a cached one', async () => {
    for (const presented of [key, key, key]) {
      expect(await authenticate({ 'x-api-key': presented })).toMatchObject({ ok: true, caller: { subject: 'apikey:etl' } });
    }
    const nearMisses = [`${key}x`, key.slice(0, -1), `${key.slice(0, -1)}8`, key.toUpperCase(), ` ${key}x`, 'configured'];
    for (const presented of nearMisses) {
      expect(await authenticate({ 'x-api-key': presented })).toMatchObject({ ok: false, error: 'invalid_token' });
      expect(await authenticate({ authorization: `Bearer ${presented}` })).toMatchObject({ ok: false, error: 'invalid_token' });
    }
    expect(await authenticate({ authorization: `Bearer ${key}` })).toMatchObject({ ok: true, caller: { subject: 'apikey:etl', roles: ['loader'] } });
  });
});
