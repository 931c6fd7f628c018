/**
 * bench:mcp-anchor's figures: per workload each server's median rate over the rounds, the
 * per-round ratios ours / anchor with their median against issue 41's goal, errors, CPU per
 * operation; the bare Go route for scale. A table for people, one JSON line for machines.
 */
import { median } from '../mcp/report.js';
import type { PlatformCode } from '../mcp/processes.js';
import { anchorWorkloadTitles, serverLabels, type AnchorWorkload, type ServerKind } from './harness.js';

/** One loadgen run against one freshly started server. */
export interface RunRecord {
  round: number;
  /** Operations per second in the measured window; 0 when the run gave no figures. */
  rate: number;
  errors: number;
  lastError?: string;
  cpuMsPerOp?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** How the server ended during the run, when it did (the anchor has died under W3). */
  died?: string;
  /** Why the run gave no figures (the loadgen's setup was refused, …). */
  failed?: string;
}

export interface WorkloadRuns {
  workload: AnchorWorkload;
  runs: Partial<Record<ServerKind, RunRecord[]>>;
}

export interface AnchorReport {
  anchor: string;
  /** What ours ran: the compiled build or the sources (PlatformCode). */
  ours: PlatformCode;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  bare: RunRecord[];
  workloads: WorkloadRuns[];
  loadavg: { start: string; end: string };
}

/** Issue 41's goals for ours / anchor; W3 also asks that ours never fails. */
const goals: Record<AnchorWorkload, { text: string; met(ratio: number, ours: readonly RunRecord[]): boolean }> = {
  W1: { text: '>= 1.2', met: (ratio) => ratio >= 1.2 },
  W2: { text: '>= 1.0', met: (ratio) => ratio >= 1.0 },
  W3: { text: 'ahead, never fail', met: (ratio, ours) => ratio > 1 && ours.every(clean) },
  W4: { text: 'stay ahead', met: (ratio) => ratio > 1 },
};

const clean = (run: RunRecord) => run.errors === 0 && !run.died && !run.failed;

const medianOf = (runs: readonly RunRecord[], pick: (run: RunRecord) => number | undefined): number | undefined => {
  const values = runs.map(pick).filter((v): v is number => v !== undefined);
  return values.length > 0 ? median(values) : undefined;
};

/** ours / anchor round by round (a round where the anchor gave nothing is infinitely ahead). */
function roundRatios(ours: readonly RunRecord[], anchor: readonly RunRecord[]): number[] {
  return ours.flatMap((run) => {
    const theirs = anchor.find((a) => a.round === run.round);
    return theirs ? [theirs.rate > 0 ? run.rate / theirs.rate : Infinity] : [];
  });
}

/** Each variant of ours against the anchor, for one workload. */
function comparisons(entry: WorkloadRuns) {
  const anchor = entry.runs.anchor ?? [];
  return (['ours', 'ours-audit'] as const).flatMap((kind) => {
    const ours = entry.runs[kind];
    if (!ours || anchor.length === 0) return [];
    const perRound = roundRatios(ours, anchor);
    const ratio = median(perRound);
    const goal = goals[entry.workload];
    return [{ kind, perRound, ratio, goal: goal.text, met: goal.met(ratio, ours) }];
  });
}

/** Runs of ours (any variant) that had errors, died or gave no figures: the script then exits non-zero. */
export function oursFailures(report: AnchorReport): number {
  return report.workloads.reduce((sum, entry) => sum + [...(entry.runs.ours ?? []), ...(entry.runs['ours-audit'] ?? [])].filter((run) => !clean(run)).length, 0);
}

const fixed = (value: number | undefined, digits: number) => (value === undefined ? '-' : Number.isFinite(value) ? value.toFixed(digits) : 'inf');

function row(cells: string[]): string {
  const widths = [18, 12, 22, 7, 10, 8, 8, 8];
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' ');
}

function serverRow(kind: ServerKind, runs: readonly RunRecord[], bareMedian: number): string {
  const rate = median(runs.map((r) => r.rate));
  return row([
    `  ${serverLabels[kind]}`,
    String(Math.round(rate)),
    runs.map((r) => `${Math.round(r.rate)}${r.died ? '†' : ''}`).join(' '),
    String(runs.reduce((sum, r) => sum + r.errors, 0)),
    fixed(medianOf(runs, (r) => r.cpuMsPerOp), 3),
    fixed(medianOf(runs, (r) => r.p50Ms), 1),
    fixed(medianOf(runs, (r) => r.p99Ms), 1),
    fixed(bareMedian > 0 ? rate / bareMedian : undefined, 3),
  ]);
}

/** Every run that went wrong, one line each. */
function problems(report: AnchorReport): string[] {
  const entries: Array<[string, ServerKind | 'bare', RunRecord]> = [
    ...report.bare.map((run): [string, 'bare', RunRecord] => ['bare', 'bare', run]),
    ...report.workloads.flatMap((entry) => Object.entries(entry.runs).flatMap(([kind, runs]) => runs.map((run): [string, ServerKind, RunRecord] => [entry.workload, kind as ServerKind, run]))),
  ];
  return entries.flatMap(([workload, kind, run]) => {
    const who = `${kind === 'bare' ? 'barego' : serverLabels[kind]}, ${workload} round ${run.round}`;
    return [
      ...(run.died ? [`${who}: the server died during the run: ${run.died}`] : []),
      ...(run.failed ? [`${who}: no figures: ${run.failed}`] : []),
      ...(run.errors > 0 ? [`${who}: ${run.errors} failed operations, the last: ${run.lastError ?? '?'}`] : []),
    ];
  });
}

export function formatAnchorReport(report: AnchorReport): string {
  const bareMedian = median(report.bare.map((r) => r.rate));
  const lines = [
    `MCP request path, ours against the Go anchor ${report.anchor}`,
    `ours: platform serve from ${report.ours === 'compiled' ? 'the compiled build (dist/, npm run build)' : 'the TypeScript sources through tsx'}`,
    `shared loadgen: ${report.connections} workers, ${report.warmupSeconds} s warm-up + ${report.seconds} s per run, ${report.rounds} rounds; every run on a freshly started server, one server at a time, the order alternating round by round`,
    `load average (1, 5, 15 min): ${report.loadavg.start} at the start, ${report.loadavg.end} at the end`,
    `bare net/http route (barego, the machine's HTTP ceiling): median ${Math.round(bareMedian)} op/s (rounds ${report.bare.map((r) => Math.round(r.rate)).join(' ')})`,
    '† = the server died during that run; CPU = the server process over the measured window',
  ];
  for (const entry of report.workloads) {
    lines.push('', `${entry.workload} ${anchorWorkloadTitles[entry.workload]}`);
    lines.push(row(['  server', 'median op/s', 'per round', 'errors', 'CPU ms/op', 'p50 ms', 'p99 ms', 'x bare']));
    for (const [kind, runs] of Object.entries(entry.runs)) lines.push(serverRow(kind as ServerKind, runs, bareMedian));
    for (const c of comparisons(entry)) {
      lines.push(`  ${serverLabels[c.kind]} / anchor: per round ${c.perRound.map((r) => fixed(r, 2)).join(' ')}, median ${fixed(c.ratio, 2)}; goal ${c.goal}: ${c.met ? 'MET' : 'NOT MET'}`);
    }
  }
  const found = problems(report);
  if (found.length > 0) lines.push('', 'problems:', ...found.map((p) => `  ${p}`));
  return lines.join('\n');
}

/** Every figure on one line (BENCH_JSON=1). */
export function jsonAnchorReport(report: AnchorReport): string {
  return JSON.stringify({
    bench: 'mcp-anchor',
    anchor: report.anchor,
    ours: report.ours,
    connections: report.connections,
    seconds: report.seconds,
    warmup_seconds: report.warmupSeconds,
    rounds: report.rounds,
    loadavg: report.loadavg,
    bare: { median: median(report.bare.map((r) => r.rate)), runs: report.bare },
    workloads: Object.fromEntries(
      report.workloads.map((entry) => [
        entry.workload,
        {
          servers: Object.fromEntries(Object.entries(entry.runs).map(([kind, runs]) => [kind, { median: median(runs.map((r) => r.rate)), cpu_ms_per_op: medianOf(runs, (r) => r.cpuMsPerOp), runs }])),
          ratios: comparisons(entry).map((c) => ({ server: c.kind, per_round: c.perRound, median: c.ratio, goal: c.goal, met: c.met })),
        },
      ]),
    ),
    ours_failures: oursFailures(report),
  });
}
