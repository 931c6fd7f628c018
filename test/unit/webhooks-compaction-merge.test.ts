/**
 * The merge of a window's compaction (shared/webhooks/compaction-duckdb.ts) on the real in-process
 * DuckDB: the same segments and previous file give a byte-identical Parquet file whatever DuckDB's
 * thread count (a worker killed and retried elsewhere ends with the same SHA-256; an unchanged
 * recompaction makes no new version), with the events and duplicates counted alike; and the
 * merge's bounds (compaction.ts): a thread per core as far as the memory limit allows.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { mergeBounds } from '../../shared/webhooks/compaction.js';
import { mergeToParquet, type MergeResult } from '../../shared/webhooks/compaction-duckdb.js';
import { segmentLine } from '../../shared/webhooks/layout.js';

const WINDOW = { dt: '2026-03-02', hour: '10', minute: '15' };
const START = Date.UTC(2026, 2, 2, 10, 15);
/** Over two of DuckDB's Parquet row groups (122,880 rows): several are written at once with more threads. */
const EVENTS = 260_000;
const SEGMENTS = 13;
/** Every 50th event is received again a second later, in the next segment, with another payload. */
const DUPLICATE_EVERY = 50;
const DUPLICATES = EVENTS / DUPLICATE_EVERY;
const MIB = 2 ** 20;

/** Event i as a segment line; many events share a microsecond, so the order needs event_id too. */
function line(i: number, again: boolean): string {
  const row = {
    receivedAtMs: START + Math.floor(i / 4) + (again ? 1_000 : 0),
    eventId: `evt-${String((i * 7919) % EVENTS).padStart(6, '0')}`,
    eventType: i % 3 === 0 ? 'order.created' : 'order.paid',
    key: `c-${i % 97}`,
    contentHash: createHash('sha256').update(`${i}:${again}`).digest('hex'),
    payload: JSON.stringify({ id: i, again, note: 'x'.repeat(i % 40) }),
  };
  return segmentLine(row, START + 60_000, 'replica-a');
}

describe('merging a window into one Parquet file', () => {
  let dir: string;
  let segments: string[];
  let outputs = 0;

  /** Merges into a file of its own with `threads`; answers the result and the file's SHA-256. */
  async function merge(threads: number, previous?: string): Promise<MergeResult & { sha256: string; path: string }> {
    const work = join(dir, `merge-${outputs++}`);
    await mkdir(join(work, 'duckdb'), { recursive: true });
    const output = join(work, 'window.parquet');
    const result = await mergeToParquet({ segments, ...(previous ? { previous } : {}), window: WINDOW, output, tempDir: work, memoryLimitBytes: 1024 * MIB, threads });
    return { ...result, path: output, sha256: createHash('sha256').update(await readFile(output)).digest('hex') };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webhooks-compaction-merge-'));
    segments = [];
    const perSegment = EVENTS / SEGMENTS;
    for (let s = 0; s < SEGMENTS; s++) {
      const lines: string[] = [];
      for (let i = s * perSegment; i < (s + 1) * perSegment; i++) lines.push(line(i, false));
      const previous = (s === 0 ? SEGMENTS : s) - 1;
      for (let i = previous * perSegment; i < (previous + 1) * perSegment; i += DUPLICATE_EVERY) lines.push(line(i, true));
      const path = join(dir, `segment-${s}.jsonl.gz`);
      await writeFile(path, gzipSync(`${lines.join('\n')}\n`));
      segments.push(path);
    }
  }, 60_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the same bytes with one thread and with four, the earliest event per id kept', async () => {
    const one = await merge(1);
    const four = await merge(4);
    expect(one).toMatchObject({ events: EVENTS, duplicatesDropped: DUPLICATES });
    expect(four).toMatchObject({ events: EVENTS, duplicatesDropped: DUPLICATES, sha256: one.sha256 });
  }, 120_000);

  it('a recompaction over the previous file writes the same bytes again, with any thread count', async () => {
    const first = await merge(2);
    const again = await merge(3, first.path);
    expect(again).toMatchObject({ events: EVENTS, duplicatesDropped: DUPLICATES, sha256: first.sha256 });
  }, 120_000);

  it('takes a thread per 64 MiB beyond 512 MiB of memory (at least one), at most one per core', () => {
    const config = (memoryLimit: number) => parseConfig(`webhooks:\n  compactor:\n    memory_limit: ${memoryLimit}\n`, {}).config;
    expect(mergeBounds(config(1024 * MIB), 2)).toEqual({ memoryLimitBytes: 1024 * MIB, threads: 2 });
    expect(mergeBounds(config(1024 * MIB), 64)).toEqual({ memoryLimitBytes: 1024 * MIB, threads: 8 });
    expect(mergeBounds(config(2048 * MIB), 64)).toEqual({ memoryLimitBytes: 2048 * MIB, threads: 24 });
    expect(mergeBounds(config(639 * MIB), 8)).toEqual({ memoryLimitBytes: 639 * MIB, threads: 1 });
    expect(mergeBounds(config(640 * MIB), 8)).toEqual({ memoryLimitBytes: 640 * MIB, threads: 2 });
    expect(mergeBounds(config(256 * MIB), 8)).toEqual({ memoryLimitBytes: 256 * MIB, threads: 1 });
    expect(parseConfig('', {}).config.webhooks.compactor.memory_limit).toBe(1024 * MIB);
  });
});
