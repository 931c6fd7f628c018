/**
 * Part of bench:endpoints (issue 17): how long `/botcheck/solver.js` takes to answer a challenge
 * in headless Debian Chromium (playwright-core) at difficulty 16, 20 and the spec's maximum of 22,
 * and the hash rate behind it, from which the averages follow (2^bits / rate). One solve is luck
 * (the tries needed are geometric), so several are timed and the rate is computed over all of them:
 * the workers interleave their counters (worker i tries i, i + n, …), so a solve's answer counter + 1
 * is the tries made, and the rate does not depend on luck. It includes each solve's start-up
 * (fetching the challenge, starting the workers), a few tens of milliseconds, which is most of a
 * solve at 16 bits now that the workers hash by hand (api/botcheck/solver.js).
 *
 * It runs twice: as is, and on a phone-class CPU (4× slower, a common mid-range approximation).
 * DevTools' `Emulation.setCPUThrottlingRate` cannot do the latter: it throttles the page's main
 * thread only, and Chromium refuses it on a dedicated worker's target ("Operation is only supported
 * for pages, not workers"; measured with auto-attached workers, Chromium 156), so hashes/s did not
 * move. Instead Chromium's renderer processes (page, workers and WebCrypto alike) are let run a
 * quarter of the wall-clock time, SIGSTOP/SIGCONT in 100 ms cycles — the same duty cycle DevTools
 * applies to the main thread, for the whole process. The measured slowdown is printed.
 *
 * The round is bounded: each difficulty has a time budget; a solve still running at its end is
 * stopped (the page reloaded, which ends its workers) and shown as "> N s".
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { botCheckSettingsSection } from '../../shared/botcheck/index.js';
import type { Db } from '../../shared/db/index.js';
import { PlatformSettings } from '../../shared/settings/index.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** How many times slower the phone-class CPU is. */
const phoneSlowdown = 4;
/** One stop/run cycle of the throttled renderers. */
const cycleMs = 100;

interface Solve {
  value: string;
  ms: number;
}
type Outcome = Solve | { stoppedAfterMs: number };
/** Difficulty, solves at most, time budget (ms) for them. */
type Plan = ReadonlyArray<readonly [number, number, number]>;

const desktopPlan: Plan = [
  [16, 5, 6_000],
  [20, 3, 14_000],
  [22, 3, 30_000],
];
const phonePlan: Plan = [
  [16, 3, 9_000],
  [20, 2, 24_000],
  [22, 3, 60_000],
];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Lets Chromium's renderer processes run 1/`slowdown` of the wall-clock time until `stop`, which
 * resumes them for good and resolves to the fraction of time they were let run.
 */
async function throttleRenderers(browser: Browser, slowdown: number): Promise<{ stop(): Promise<number> }> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  const pids = processInfo.filter((info) => info.type === 'renderer').map((info) => info.id);
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // The process has exited.
      }
    }
  };
  const started = performance.now();
  let running = true;
  let ranMs = 0;
  const cycles = (async () => {
    try {
      while (running) {
        const from = performance.now();
        signal('SIGCONT');
        await sleep(cycleMs / slowdown);
        ranMs += performance.now() - from;
        if (!running) break;
        signal('SIGSTOP');
        // Stopped until the run time is 1/slowdown of the elapsed time again (timers overshoot).
        await sleep(Math.max(0, ranMs * slowdown - (performance.now() - started)));
      }
    } finally {
      signal('SIGCONT');
    }
  })();
  let stopped: Promise<number> | undefined;
  return {
    stop() {
      running = false;
      stopped ??= cycles.then(() => ranMs / (performance.now() - started));
      return stopped;
    },
  };
}

/** Prints the solver's times for the public endpoint `endpoint` of the api at `apiUrl`; skipped without Chromium. */
export async function reportSolverTimes(apiUrl: string, db: Db, endpoint: string): Promise<void> {
  if (!existsSync(chromiumPath)) {
    console.log(`bot-check solver: skipped (no Chromium at ${chromiumPath})`);
    return;
  }
  const settings = new PlatformSettings(db);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  let throttle: { stop(): Promise<number> } | undefined;
  try {
    const page = await browser.newPage();
    const load = async () => {
      // The platform's own origin: the challenge is fetched same-origin.
      await page.goto(`${apiUrl}/readyz`);
      await page.addScriptTag({ url: `${apiUrl}/botcheck/solver.js` });
    };
    await load();
    const solve = async (limitMs: number): Promise<Outcome> => {
      const answer = page.evaluate(async (name) => {
        const check = (window as unknown as { PlatformBotCheck: { answer(n: string, o: { container: Element }): Promise<string> } }).PlatformBotCheck;
        const started = performance.now();
        const value = await check.answer(name, { container: document.body });
        return { value, ms: performance.now() - started };
      }, endpoint);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const result = await Promise.race([answer, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), limitMs)))]);
      clearTimeout(timer);
      if (result) return result;
      answer.catch(() => undefined); // its page is reloaded below
      await load(); // leaving the page ends its workers
      return { stoppedAfterMs: limitMs };
    };
    const round = async (plan: Plan) => {
      const runs = new Map<number, Outcome[]>();
      for (const [difficulty, count, budgetMs] of plan) {
        await settings.write(botCheckSettingsSection, { difficulty }, 'bench', new Date());
        const list: Outcome[] = [];
        runs.set(difficulty, list);
        const deadline = performance.now() + budgetMs;
        for (let i = 0; i < count && deadline > performance.now(); i++) {
          const outcome = await solve(deadline - performance.now());
          list.push(outcome);
          if ('stoppedAfterMs' in outcome) break;
        }
      }
      const solved = [...runs.values()].flat().filter((run): run is Solve => 'value' in run);
      const tried = solved.reduce((sum, run) => sum + Number(run.value.slice(run.value.lastIndexOf(':') + 1)) + 1, 0);
      const rate = solved.length ? tried / (solved.reduce((sum, run) => sum + run.ms, 0) / 1000) : Number.NaN;
      const times = (difficulty: number) => {
        const list = runs.get(difficulty) ?? [];
        if (!list.length) return 'none (time budget spent)';
        return list.map((run) => ('value' in run ? `${(run.ms / 1000).toFixed(2)} s` : `> ${(run.stoppedAfterMs / 1000).toFixed(1)} s (stopped)`)).join(', ');
      };
      const solves = plan.map(([difficulty]) => `difficulty ${difficulty}: ${times(difficulty)}`).join('; ');
      const expected = (bits: number) => (2 ** bits / rate < 1 ? `${Math.round((2 ** bits / rate) * 1000)} ms` : `${(2 ** bits / rate).toFixed(1)} s`);
      const averages = `on average ${expected(16)} at 16, ${expected(20)} at 20, ${expected(22)} at 22 bits`;
      return { rate, solves, averages };
    };
    const workers = await page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8)));

    const desktop = await round(desktopPlan);
    console.log(`bot-check solver in Chromium (${workers} workers, SHA-256 by hand from a midstate, answers confirmed with WebCrypto): ${desktop.solves}`);
    if (Number.isNaN(desktop.rate)) console.log('  no solve finished within the time budget');
    else console.log(`  about ${Math.round(desktop.rate)} hashes/s: ${desktop.averages}`);

    if (process.platform === 'win32') {
      console.log('  phone-class CPU: skipped (needs SIGSTOP/SIGCONT)');
      return;
    }
    throttle = await throttleRenderers(browser, phoneSlowdown);
    const phone = await round(phonePlan);
    const ran = await throttle.stop();
    console.log(
      `  phone-class CPU (renderers let run ${(ran * 100).toFixed(0)}% of the time, ~${phoneSlowdown}× slower; still ${workers} workers as on this ` +
        `${workers}-core machine: a phone reports more, slower cores and the solver starts up to 8 workers): ${phone.solves}`,
    );
    if (Number.isNaN(phone.rate)) console.log('    no solve finished within the time budget');
    else console.log(`    about ${Math.round(phone.rate)} hashes/s (${(desktop.rate / phone.rate).toFixed(1)}× fewer than unthrottled): ${phone.averages}`);
  } finally {
    await throttle?.stop();
    await browser.close();
  }
}
