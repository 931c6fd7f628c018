/**
 * The group commit of a source's events on one replica (shared/webhooks/buffer.ts): when a flush
 * starts (store idle, limits, the interval behind a slow write), one segment per window at the spec's key, answers only after the write, the buffer
 * limit, write failures and the write timeout.
 */
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BufferFullError, SourceBuffer, WriteFailedError, type BufferSettings, type Segment } from '../../shared/webhooks/buffer.js';
import type { WebhookRow } from '../../shared/webhooks/layout.js';

const t0 = Date.UTC(2026, 10, 22, 10, 59, 59, 500);
const settings: BufferSettings = { flushMaxEvents: 5, flushMaxIntervalMs: 1000, flushMaxBytes: 1 << 20, bufferLimit: 8 };
const row = (id: string, at = t0): WebhookRow => ({ receivedAtMs: at, eventId: id, eventType: null, key: null, contentHash: `h${id}`, payload: `{"id":"${id}"}` });

interface Rig {
  buffer: SourceBuffer;
  written: Segment[];
  registered: string[];
  /** The event count of each write begun, in order. */
  started: number[];
  /** Resolves once `count` writes have begun. */
  whenStarted(count: number): Promise<void>;
  /** Makes the next writes wait until released. */
  hold(): () => void;
  /** The raw generation the next writes answer (as WebhookWindows.landed does; undefined: the source is gone). */
  answerGeneration(generation: number | undefined): void;
  failNext(error: Error): void;
}

function rig(extra: Partial<BufferSettings> = {}): Rig {
  const written: Segment[] = [];
  const registered: string[] = [];
  const started: number[] = [];
  const startWaiters: Array<{ count: number; resolve(): void }> = [];
  let gate: Promise<void> | undefined;
  let failure: Error | undefined;
  let generation: number | undefined = 0;
  const buffer = new SourceBuffer(
    {
      source: 'orders',
      replica: 'host-a1',
      startMs: 1_700_000_000_000,
      writeTimeoutMs: 30_000,
      now: () => Date.now(),
      async write(segment, signal) {
        started.push(segment.events);
        for (const w of startWaiters.filter((w) => started.length >= w.count)) w.resolve();
        if (gate) await Promise.race([gate, new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))]);
        if (failure) {
          const f = failure;
          failure = undefined;
          throw f;
        }
        written.push(segment);
        return generation;
      },
      async registerWindow(w) {
        registered.push(`${w.dt} ${w.hour}:${w.minute}`);
      },
    },
    { ...settings, ...extra },
  );
  return {
    buffer,
    written,
    registered,
    started,
    whenStarted(count) {
      return started.length >= count ? Promise.resolve() : new Promise((resolve) => startWaiters.push({ count, resolve }));
    },
    hold() {
      let release!: () => void;
      gate = new Promise((r) => (release = r));
      return () => {
        gate = undefined;
        release();
      };
    },
    failNext(error) {
      failure = error;
    },
    answerGeneration(next) {
      generation = next;
    },
  };
}

const settled = async <T>(p: Promise<T>) => {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await vi.advanceTimersByTimeAsync(0);
  return state;
};

describe('webhook buffer', () => {
  beforeEach(() => {
    // setImmediate stays real: a flush with the store idle starts on the next turn of the loop.
    vi.useFakeTimers({ now: t0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the store idle: a request is written at once (no timer), and requests arriving together share one segment', async () => {
    const r = rig();
    const a = r.buffer.append([row('a')], 60);
    const b = r.buffer.append([row('b')], 60);
    await Promise.all([a, b]);
    expect(r.written).toHaveLength(1);
    expect(r.written[0]!.key).toBe('webhooks/orders/raw/dt=2026-11-22/hour=10/minute=00/host-a1-1700000000000-1.jsonl.gz');
    const lines = gunzipSync(r.written[0]!.body).toString().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.event_id)).toEqual(['a', 'b']);
    expect(lines[0]).toEqual({
      received_at: '2026-11-22 10:59:59.500000',
      landed_at: '2026-11-22 10:59:59.500000',
      event_id: 'a',
      event_type: null,
      key: null,
      content_hash: 'ha',
      replica: 'host-a1',
      payload: '{"id":"a"}',
    });
    expect(r.registered).toEqual(['2026-11-22 10:00']);
  });

  it('requests arriving while a segment is written wait for it, then share the next segment, written as soon as it lands', async () => {
    const r = rig();
    const release = r.hold();
    const a = r.buffer.append([row('a')], 60);
    await r.whenStarted(1);
    const b = r.buffer.append([row('b')], 60);
    const c = r.buffer.append([row('c')], 60);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(b)).toBe('pending');
    expect(r.started).toEqual([1]);
    release();
    await Promise.all([a, b, c]);
    expect(r.written.map((s) => s.events)).toEqual([1, 2]);
  });

  it('flush_max_interval_ms bounds the wait behind a slow write: the events held start their own segment when it passes', async () => {
    const r = rig();
    const release = r.hold();
    const a = r.buffer.append([row('a')], 60);
    await r.whenStarted(1);
    const b = r.buffer.append([row('b')], 60);
    // Without the interval the second write would wait for the first, which never lands before release.
    await vi.advanceTimersByTimeAsync(1000);
    await r.whenStarted(2);
    release();
    await Promise.all([a, b]);
    expect(r.written.map((s) => s.key.slice(-12))).toEqual(['000-1.jsonl.gz', '000-2.jsonl.gz'].map((k) => k.slice(-12)));
  });

  it('flushes at once at flush_max_events and at flush_max_bytes, even while a write is in flight', async () => {
    const r = rig();
    const release = r.hold();
    const first = r.buffer.append([row('0')], 60);
    await r.whenStarted(1);
    const full = r.buffer.append([row('1'), row('2'), row('3'), row('4'), row('5')], 60);
    await r.whenStarted(2);
    expect(r.started).toEqual([1, 5]);
    release();
    await Promise.all([first, full]);
    const bytes = rig({ flushMaxBytes: 150 });
    const releaseBytes = bytes.hold();
    const before = bytes.buffer.append([row('x')], 60);
    await bytes.whenStarted(1);
    const big = bytes.buffer.append([row('big')], 60);
    await bytes.whenStarted(2);
    releaseBytes();
    await Promise.all([before, big]);
  });

  it('writes one segment per window, numbered in sequence, and registers each window once per replica', async () => {
    const r = rig({ flushMaxEvents: 3 });
    await r.buffer.append([row('a', t0), row('b', t0 + 1000), row('c', t0 + 2000)], 60);
    await r.buffer.append([row('d', t0 + 3000), row('e', t0), row('f', t0)], 60);
    expect(r.written.map((s) => [s.key.split('/').slice(3).join('/'), s.events])).toEqual([
      ['dt=2026-11-22/hour=10/minute=00/host-a1-1700000000000-1.jsonl.gz', 1],
      ['dt=2026-11-22/hour=11/minute=00/host-a1-1700000000000-2.jsonl.gz', 2],
      ['dt=2026-11-22/hour=11/minute=00/host-a1-1700000000000-3.jsonl.gz', 1],
      ['dt=2026-11-22/hour=10/minute=00/host-a1-1700000000000-4.jsonl.gz', 2],
    ]);
    expect(r.registered).toEqual(['2026-11-22 10:00', '2026-11-22 11:00']);
    const fiveMinutes = rig({ flushMaxEvents: 1 });
    await fiveMinutes.buffer.append([row('x', Date.UTC(2026, 10, 22, 10, 7))], 5);
    expect(fiveMinutes.written[0]!.key).toContain('/hour=10/minute=05/');
  });

  it('the window of the events before is not reused for another window length or past its end', async () => {
    const r = rig({ flushMaxEvents: 1 });
    const at = Date.UTC(2026, 10, 22, 10, 7, 30);
    await r.buffer.append([row('a', at)], 5);
    // The source's compact_every_minutes changed: the same instant falls in an hour-long window.
    await r.buffer.append([row('b', at)], 60);
    await r.buffer.append([row('c', at)], 5);
    // The last millisecond of 10:05-10:10, then the first of the next window.
    await r.buffer.append([row('d', Date.UTC(2026, 10, 22, 10, 9, 59, 999))], 5);
    await r.buffer.append([row('e', Date.UTC(2026, 10, 22, 10, 10))], 5);
    expect(r.written.map((s) => `${s.window.hour}:${s.window.minute} ${s.window.endMs - s.window.startMs}`)).toEqual([
      '10:05 300000',
      '10:00 3600000',
      '10:05 300000',
      '10:05 300000',
      '10:10 300000',
    ]);
  });

  it('registers a window again once its raw generation changed (retention removed its segments and unregistered it), not for a source gone', async () => {
    const r = rig({ flushMaxEvents: 1 });
    await r.buffer.append([row('a')], 60);
    await r.buffer.append([row('b')], 60);
    r.answerGeneration(7);
    await r.buffer.append([row('c')], 60);
    await r.buffer.append([row('d')], 60);
    r.answerGeneration(undefined);
    await r.buffer.append([row('e', t0 + 1000)], 60);
    expect(r.written).toHaveLength(5);
    expect(r.registered).toEqual(['2026-11-22 10:00', '2026-11-22 10:00']);
  });

  it('refuses what does not fit in buffer_limit, counting events being written', async () => {
    const r = rig({ flushMaxEvents: 4 });
    const release = r.hold();
    const writing = r.buffer.append([row('1'), row('2'), row('3'), row('4')], 60);
    await vi.advanceTimersByTimeAsync(0);
    const waiting = r.buffer.append([row('5'), row('6'), row('7')], 60);
    expect(r.buffer.held).toBe(7);
    await expect(r.buffer.append([row('8'), row('9')], 60)).rejects.toBeInstanceOf(BufferFullError);
    release();
    await writing;
    await vi.advanceTimersByTimeAsync(1000);
    await waiting;
    expect(r.buffer.held).toBe(0);
  });

  it('a failed write answers its requests with WriteFailed, and the next batch is written', async () => {
    const r = rig({ flushMaxEvents: 1 });
    r.failNext(new Error('SlowDown'));
    await expect(r.buffer.append([row('a')], 60)).rejects.toThrow(new WriteFailedError('segment write failed: SlowDown'));
    await r.buffer.append([row('b')], 60);
    expect(r.written.map((s) => s.events)).toEqual([1]);
  });

  it('a segment not written within the write timeout answers WriteFailed', async () => {
    const r = rig({ flushMaxEvents: 1 });
    r.hold();
    const late = r.buffer.append([row('a')], 60);
    late.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(await settled(late)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    await expect(late).rejects.toThrow(new WriteFailedError('segment not written within 30000 ms'));
  });
});
