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

describe('bench:mcp machine CPU per operation', () => {
  it('adds the server, the load generator and Postgres where measured, per operation, median over the rounds', () => {
    const memory = new Series('W2');
    const database = new Series('W2', 'database');
    for (const ops of [1000, 2000, 4000]) memory.add({ workload: 'W2', ops, errors: 0, errorSamples: [], seconds: 1, loadCpuSeconds: 0.5 }, 1);
    for (const ops of [500, 1000]) database.add({ workload: 'W2', ops, errors: 0, errorSamples: [], seconds: 1, loadCpuSeconds: 0.5 }, 1, 0.5);
    const r: Report = {
      connections: 16,
      rounds: 3,
      seconds: 1,
      bare: series('bare', [10_000, 10_000, 10_000]),
      variants: [
        { label: '1 process, sessions in memory', workers: 1, sessions: 'memory', series: [memory] },
        { label: '1 process, sessions in database', workers: 1, sessions: 'database', series: [database] },
      ],
      skipped: [],
    };
    const json = JSON.parse(jsonReport(r)) as { variants: Array<{ workloads: { W2: { machine_cpu_us_per_op: number; database_cpu_cores?: number } } }> };
    // 1.5 cores over 1000, 2000, 4000 op/s: 1500, 750, 375 µs; 2 cores over 500 and 1000 op/s: 4000 and 2000.
    expect(json.variants.map((v) => v.workloads.W2)).toMatchObject([{ machine_cpu_us_per_op: 750 }, { machine_cpu_us_per_op: 3000, database_cpu_cores: 0.5 }]);
    expect(json.variants[0]!.workloads.W2.database_cpu_cores).toBeUndefined();
    const lines = formatReport(r).split('\n');
    expect(lines[lines.indexOf('platform: 1 process, sessions in memory') + 1]).toMatch(/50%\s+-\s+750$/);
    expect(lines[lines.indexOf('platform: 1 process, sessions in database') + 1]).toMatch(/50%\s+50%\s+3000$/);
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
