/**
 * Figures from the rounds (medians, fractions of the bare route, CPU) and how they are printed:
 * a table for people, one JSON line for machines (BENCH_JSON=1).
 */
import { workloadTitles, type RoundResult, type WorkloadName } from './workloads.js';

/** Issue 10's targets, as fractions of the bare route's median. */
export const targets: Partial<Record<WorkloadName, number>> = { W1: 0.1, W2: 0.04 };

/** Issue 41's scale-out goal: a multi-worker platform's figure as a fraction of the one-process one's. */
export const scaleOutTargets: Partial<Record<WorkloadName, number>> = { W2: 0.8 };

/** One measured series: a workload against one server (the bare route, or one platform variant). */
export class Series {
  readonly opsPerSecond: number[] = [];
  /** Cores the server's processes kept busy during each round (1 = one core). */
  readonly serverCores: number[] = [];
  readonly loadCores: number[] = [];
  /** Cores the local Postgres server kept busy (only where it was measured). */
  readonly databaseCores: number[] = [];
  errors = 0;
  readonly errorSamples = new Set<string>();

  /** `variant` tells the platforms apart in progress lines and error messages, e.g. "workers 2". */
  constructor(
    readonly workload: WorkloadName,
    readonly variant?: string,
  ) {}

  get name(): string {
    return this.variant ? `${this.workload} [${this.variant}]` : this.workload;
  }

  add(result: RoundResult, serverCpuSeconds: number, databaseCpuSeconds?: number): void {
    this.opsPerSecond.push(result.ops / result.seconds);
    this.serverCores.push(serverCpuSeconds / result.seconds);
    this.loadCores.push(result.loadCpuSeconds / result.seconds);
    if (databaseCpuSeconds !== undefined) this.databaseCores.push(databaseCpuSeconds / result.seconds);
    this.errors += result.errors;
    for (const sample of result.errorSamples) this.errorSamples.add(sample);
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface VariantReport {
  /** e.g. "1 process, sessions in memory" */
  label: string;
  workers: number;
  sessions: 'memory' | 'database';
  series: Series[];
}

export interface Report {
  connections: number;
  rounds: number;
  seconds: number;
  bare: Series;
  variants: VariantReport[];
  /** Variants that could not run, with why. */
  skipped: string[];
  /**
   * A minimal Go MCP server (mark3labs/mcp-go with the two tools, a bearer check and nothing else),
   * when it ran: a floor for what an MCP request costs in Go, not the fuller Go platform the issue's
   * goals are stated against.
   */
  anchor?: { label: string; series: Series[] };
}

/** Each platform variant's medians over the Go floor's, workload by workload. */
function anchorRatios(report: Report) {
  const anchor = report.anchor;
  if (!anchor) return [];
  return report.variants.flatMap((variant) =>
    variant.series.flatMap((series) => {
      const theirs = anchor.series.find((s) => s.workload === series.workload);
      if (!theirs) return [];
      return [{ variant, workload: series.workload, ratio: median(series.opsPerSecond) / median(theirs.opsPerSecond) }];
    }),
  );
}

/**
 * Each multi-worker variant's workloads against the one-process platform's: the median of the
 * rounds' ratios (each round measures both, back to back), so the machine's drift between rounds
 * cancels out.
 */
function scaleOutRatios(report: Report) {
  const single = report.variants.find((v) => v.workers === 1);
  if (!single) return [];
  return report.variants
    .filter((v) => v.workers > 1)
    .flatMap((variant) =>
      variant.series.flatMap((series) => {
        const base = single.series.find((s) => s.workload === series.workload);
        if (!base) return [];
        const perRound = series.opsPerSecond.map((ops, i) => ops / base.opsPerSecond[i]!);
        const ratio = median(perRound);
        const target = scaleOutTargets[series.workload];
        return [{ variant, workload: series.workload, ratio, perRound, target, pass: target === undefined ? undefined : ratio >= target }];
      }),
    );
}

function summary(series: Series, bareMedian: number) {
  const value = median(series.opsPerSecond);
  return {
    median: Math.round(value),
    min: Math.round(Math.min(...series.opsPerSecond)),
    max: Math.round(Math.max(...series.opsPerSecond)),
    errors: series.errors,
    fraction: Number((value / bareMedian).toFixed(4)),
    server_cpu_cores: Number(median(series.serverCores).toFixed(2)),
    load_cpu_cores: Number(median(series.loadCores).toFixed(2)),
    ...(series.databaseCores.length > 0 ? { database_cpu_cores: Number(median(series.databaseCores).toFixed(2)) } : {}),
    machine_cpu_us_per_op: Math.round(machineCpuPerOp(series)),
    rounds: series.opsPerSecond.map(Math.round),
  };
}

/**
 * CPU microseconds per operation of everything the workload kept busy on this machine (the
 * server, the load generator and, where measured, Postgres), the median over the rounds: on a
 * machine whose cores are all busy, the variants' op/s can be at most in the inverse ratio.
 */
function machineCpuPerOp(series: Series): number {
  return median(series.opsPerSecond.map((ops, i) => ((series.serverCores[i]! + series.loadCores[i]! + (series.databaseCores[i] ?? 0)) * 1e6) / ops));
}

const percent = (cores: number) => `${Math.round(cores * 100)}%`;

function row(cells: string[]): string {
  const widths = [36, 12, 8, 8, 7, 8, 11, 9, 7, 10];
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' ');
}

function seriesRow(series: Series, bareMedian: number, indent: string): string {
  const s = summary(series, bareMedian);
  const name = series.workload === 'bare' ? workloadTitles.bare : `${series.workload} ${workloadTitles[series.workload]}`;
  const database = s.database_cpu_cores === undefined ? '-' : percent(s.database_cpu_cores);
  return row([`${indent}${name}`, String(s.median), String(s.min), String(s.max), String(s.errors), s.fraction.toFixed(3), percent(s.server_cpu_cores), percent(s.load_cpu_cores), database, String(s.machine_cpu_us_per_op)]);
}

/** Each variant's targeted workloads against their targets. */
function targetChecks(report: Report, bareMedian: number) {
  return report.variants.flatMap((variant) =>
    variant.series.flatMap((series) => {
      const target = targets[series.workload];
      if (target === undefined) return [];
      const fraction = median(series.opsPerSecond) / bareMedian;
      return [{ variant, workload: series.workload, target, fraction, pass: fraction >= target }];
    }),
  );
}

function allSeries(report: Report): Series[] {
  return [report.bare, ...report.variants.flatMap((v) => v.series), ...(report.anchor?.series ?? [])];
}

export function totalErrors(report: Report): number {
  return allSeries(report).reduce((sum, s) => sum + s.errors, 0);
}

/** The table, the targets with PASS/FAIL, and every error message seen. */
export function formatReport(report: Report): string {
  const bareMedian = median(report.bare.opsPerSecond);
  const lines = [
    `MCP benchmark: ${report.connections} keep-alive connections, median of ${report.rounds} rounds of ${report.seconds} s (after a discarded warm-up round)`,
    'CPU: cores kept busy during the timed window (100% = one core), server = the serving process and its children,',
    'db = the local Postgres server (measured when a variant keeps its sessions there); µs/op = CPU per operation of all three',
    '',
    row(['workload', 'median op/s', 'min', 'max', 'errors', 'x bare', 'server CPU', 'load CPU', 'db CPU', 'µs/op']),
    seriesRow(report.bare, bareMedian, ''),
  ];
  for (const variant of report.variants) {
    lines.push(`platform: ${variant.label}`);
    for (const series of variant.series) lines.push(seriesRow(series, bareMedian, '  '));
  }
  if (report.anchor) {
    lines.push(`Go floor: ${report.anchor.label}`);
    for (const series of report.anchor.series) lines.push(seriesRow(series, bareMedian, '  '));
  }
  for (const skipped of report.skipped) lines.push(`skipped: ${skipped}`);
  const ratios = anchorRatios(report);
  if (ratios.length > 0) {
    lines.push('', 'ratio to the Go floor (platform / floor; the floor has no auth chain, personas, audit, metrics or logging):');
  }
  for (const r of ratios) lines.push(`  ${r.workload} ${r.ratio.toFixed(2)}x  (${r.variant.label})`);
  const scaled = scaleOutRatios(report);
  if (scaled.length > 0) lines.push('', 'scale-out (platform / 1 process, median of the rounds\' ratios):');
  for (const r of scaled) {
    const verdict = r.pass === undefined ? '     ' : r.pass ? 'PASS ' : 'FAIL ';
    const goal = r.target === undefined ? '' : ` >= ${r.target.toFixed(2)}`;
    lines.push(`  ${verdict} ${r.workload}${goal}: ${r.ratio.toFixed(2)} (rounds ${r.perRound.map((x) => x.toFixed(2)).join(', ')})  (${r.variant.label})`);
  }
  lines.push('', 'targets (fraction of the bare route):');
  for (const check of targetChecks(report, bareMedian)) {
    lines.push(`  ${check.pass ? 'PASS' : 'FAIL'}  ${check.workload} >= ${check.target.toFixed(2)}: ${check.fraction.toFixed(3)}  (${check.variant.label})`);
  }
  const errors = totalErrors(report);
  if (errors > 0) {
    lines.push('', `ERRORS: ${errors} failed operations; figures of series with errors are not trustworthy:`);
    for (const series of allSeries(report)) {
      for (const sample of series.errorSamples) lines.push(`  ${series.name}: ${sample}`);
    }
  }
  return lines.join('\n');
}

/** Every figure on one line, for scripts and CI logs. */
export function jsonReport(report: Report): string {
  const bareMedian = median(report.bare.opsPerSecond);
  const checks = targetChecks(report, bareMedian);
  return JSON.stringify({
    bench: 'mcp',
    connections: report.connections,
    rounds: report.rounds,
    seconds: report.seconds,
    bare: summary(report.bare, bareMedian),
    variants: report.variants.map((variant) => ({
      workers: variant.workers,
      sessions: variant.sessions,
      workloads: Object.fromEntries(variant.series.map((series) => [series.workload, summary(series, bareMedian)])),
      targets: Object.fromEntries(
        checks
          .filter((check) => check.variant === variant)
          .map((check) => [check.workload, { target: check.target, fraction: Number(check.fraction.toFixed(4)), pass: check.pass }]),
      ),
    })),
    ...(report.anchor
      ? {
          anchor: {
            label: report.anchor.label,
            workloads: Object.fromEntries(report.anchor.series.map((series) => [series.workload, summary(series, bareMedian)])),
          },
          anchor_ratios: anchorRatios(report).map((r) => ({ workers: r.variant.workers, sessions: r.variant.sessions, workload: r.workload, ratio: Number(r.ratio.toFixed(3)) })),
        }
      : {}),
    scale_out: scaleOutRatios(report).map((r) => ({ workers: r.variant.workers, workload: r.workload, ratio: Number(r.ratio.toFixed(3)), ...(r.target === undefined ? {} : { target: r.target, pass: r.pass }) })),
    skipped: report.skipped,
    errors: totalErrors(report),
  });
}
