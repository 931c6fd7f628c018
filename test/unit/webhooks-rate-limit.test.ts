import { describe, expect, it } from 'vitest';
import { TokenBucket, capacityOf } from '../../shared/webhooks/rate-limit.js';

const T0 = 1_700_000_000_000;

describe('webhook source rate limit (rate_limit_per_minute, rate_limit_burst): a token bucket per source', () => {
  it('lets the burst through at once, then refuses with the seconds until the next token', () => {
    const bucket = new TokenBucket({ perMinute: 60, burst: 3 }, T0);
    expect([bucket.take(T0), bucket.take(T0), bucket.take(T0)]).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('refills at the per-minute rate and never above the burst', () => {
    const bucket = new TokenBucket({ perMinute: 6, burst: 2 }, T0);
    bucket.take(T0);
    bucket.take(T0);
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterSeconds: 10 });
    expect(bucket.take(T0 + 9_000)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(bucket.take(T0 + 10_000)).toEqual({ ok: true });
    // An hour idle still holds only the burst.
    const later = T0 + 3_600_000;
    expect([bucket.take(later), bucket.take(later), bucket.take(later).ok]).toEqual([{ ok: true }, { ok: true }, false]);
  });

  it('without a burst holds one second of the rate, at least one request', () => {
    expect(capacityOf({ perMinute: 600 })).toBe(10);
    expect(capacityOf({ perMinute: 61 })).toBe(2);
    expect(capacityOf({ perMinute: 1 })).toBe(1);
    const bucket = new TokenBucket({ perMinute: 1 }, T0);
    expect(bucket.take(T0)).toEqual({ ok: true });
    expect(bucket.take(T0)).toEqual({ ok: false, retryAfterSeconds: 60 });
  });

  it('a changed limit applies from now, keeping at most the new burst', () => {
    const bucket = new TokenBucket({ perMinute: 60, burst: 10 }, T0);
    bucket.settings = { perMinute: 60, burst: 1 };
    expect(bucket.take(T0)).toEqual({ ok: true });
    expect(bucket.take(T0).ok).toBe(false);
  });

  it('a clock stepping back neither refills nor breaks the bucket', () => {
    const bucket = new TokenBucket({ perMinute: 60, burst: 1 }, T0);
    expect(bucket.take(T0).ok).toBe(true);
    expect(bucket.take(T0 - 5_000).ok).toBe(false);
    expect(bucket.take(T0 + 1_000).ok).toBe(true);
  });
});
