import { describe, expect, it } from 'vitest';
import { workloadsFrom } from './options.js';
import { Series, formatReport, jsonReport, type Report } from './report.js';
import type { WorkloadName } from './workloads.js';

function series(workload: WorkloadName, ops: number[], variant?: string): Series {
  const s = new Series(workload, variant);
  for (const n of ops) s.add({ workload, ops: n, errors: 0, errorSamples: [], seconds: 1, loadCpuSeconds: 0.5 }, 1);
  return s;
}

function report(single: number[], scaled: number[]): Report {
  return {
    connections: 16,
    rounds: single.length,
    seconds: 1,
    bare: series('bare', single.map(() => 10_000)),
    variants: [
      { label: '1 process, sessions in memory', workers: 1, sessions: 'memory', series: [series('W2', single)] },
      { label: 'server.workers 2, sessions in database', workers: 2, sessions: 'database', series: [series('W2', scaled, 'workers 2')] },
    ],
    skipped: [],
  };
}

describe('bench:mcp scale-out figure (issue 41: W2 with workers 2 >= 0.8 of one process)', () => {
  it('is the median of the rounds\' ratios, so a slow phase of the machine hits both sides of a round alike', () => {
    // Medians of the series alone would give 800 / 1000 = 0.80; round by round it is 0.70, 0.75, 0.90.
    const text = formatReport(report([1000, 400, 2000], [700, 300, 1800]));
    expect(text).toContain('FAIL  W2 >= 0.80: 0.75 (rounds 0.70, 0.75, 0.90)  (server.workers 2, sessions in database)');
    const json = JSON.parse(jsonReport(report([1000, 400, 2000], [700, 300, 1800]))) as { scale_out: unknown };
    expect(json.scale_out).toEqual([{ workers: 2, workload: 'W2', ratio: 0.75, target: 0.8, pass: false }]);
  });

  it('passes at the goal', () => {
    expect(formatReport(report([1000, 1000, 1000], [800, 900, 700]))).toContain('PASS  W2 >= 0.80: 0.80');
  });

  it('is absent without a multi-worker variant', () => {
    const single = report([1000], [1000]);
    single.variants.pop();
    expect(formatReport(single)).not.toContain('scale-out');
  });
});

describe('BENCH_WORKLOADS', () => {
  it('takes a subset in the workloads\' own order, and all four when unset', () => {
    expect(workloadsFrom('w3, W1')).toEqual(['W1', 'W3']);
    expect(workloadsFrom(undefined)).toEqual(['W1', 'W2', 'W3', 'W4']);
  });

  it('refuses unknown names and an empty list', () => {
    expect(() => workloadsFrom('W5')).toThrow(/BENCH_WORKLOADS/);
    expect(() => workloadsFrom(',')).toThrow(/BENCH_WORKLOADS/);
  });
});
