/**
 * Benchmark (a script, not a test): the script sandbox (issue 16).
 * - cold run: a trivial `main()` from `sandbox.run()` to its outcome — a fresh QuickJS runtime and
 *   context on a warm worker thread — p50/p99 over N sequential runs;
 * - throughput: 32 concurrent trivial runs (maxConcurrent 32), repeated, against a bare function-call
 *   loop doing the same `main()` logic in Node, printed as runs per second and their ratio;
 * - peak RSS of this process (which holds the worker threads).
 *
 *   npx tsx test/bench/scripts.ts [runs=500]
 */
import { createSandbox, type SandboxRun } from '../../shared/scripts/index.js';

const runs = Number(process.argv[2] ?? 500);
const concurrency = 32;
const trivial = 'export function main(n) { return { doubled: n * 2 } }';
const run = (n: number): SandboxRun => ({ source: trivial, entry: 'main', args: [n], memoryBytes: 64 * 1024 * 1024, deadlineMs: 5_000, resolveLibrary: async () => undefined, host: {} });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;
let peakRss = 0;
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));

async function main() {
  const sandbox = createSandbox({ maxConcurrent: concurrency });
  // Start every worker thread (and its QuickJS module) before measuring.
  await Promise.all(Array.from({ length: concurrency }, (_, i) => sandbox.run(run(i))));

  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const outcome = await sandbox.run(run(i));
    cold.push(performance.now() - t0);
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    if (i % 50 === 0) sampleRss();
  }
  cold.sort((a, b) => a - b);
  console.log(`cold run of a trivial main() (fresh runtime + context, run() to outcome), ${runs} runs`);
  console.log(`  p50 ${ms(percentile(cold, 0.5))}  p99 ${ms(percentile(cold, 0.99))}  max ${ms(cold.at(-1)!)}`);

  const rounds = Math.max(1, Math.floor(runs / concurrency));
  const failures: string[] = [];
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    const outcomes = await Promise.all(Array.from({ length: concurrency }, (_, i) => sandbox.run(run(i))));
    for (const o of outcomes) if (o.status !== 'ok') failures.push(`${o.status}: ${o.error}`);
    sampleRss();
  }
  const sandboxPerSecond = (rounds * concurrency) / ((performance.now() - t0) / 1000);

  // The same logic as a plain function in this process: what a run costs beyond the work itself.
  const bare = (n: number) => JSON.parse(JSON.stringify({ doubled: n * 2 })) as unknown;
  const calls = rounds * concurrency * 100;
  const t1 = performance.now();
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += (bare(i) as { doubled: number }).doubled;
  const barePerSecond = calls / ((performance.now() - t1) / 1000);
  if (sink < 0) console.log(sink);

  console.log(`throughput, ${concurrency} concurrent trivial runs x ${rounds} rounds`);
  console.log(`  sandbox ${sandboxPerSecond.toFixed(0)} runs/s   bare function call ${barePerSecond.toFixed(0)} calls/s   ratio (bare / sandbox) ${(barePerSecond / sandboxPerSecond).toFixed(0)}x`);
  if (failures.length) console.log(`  ${failures.length} concurrent runs did not answer ok, first: ${failures[0]}`);
  sampleRss();
  console.log(`peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB (${concurrency} worker threads, each with a QuickJS module)`);
  await sandbox.close();
}

await main();
