/**
 * Part of bench:endpoints (issue 17): how long `/botcheck/solver.js` takes to answer a challenge
 * in headless Debian Chromium (playwright-core) at difficulty 16 and 20, and the hash rate behind
 * it, from which the average at the spec's maximum of 22 follows. One solve is luck (the tries
 * needed are geometric), so several are timed and the rate is computed over all of them.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { botCheckSettingsSection } from '../../shared/botcheck/index.js';
import type { Db } from '../../shared/db/index.js';
import { PlatformSettings } from '../../shared/settings/index.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Solve {
  value: string;
  ms: number;
}

/** Prints the solver's times for the public endpoint `endpoint` of the api at `apiUrl`; skipped without Chromium. */
export async function reportSolverTimes(apiUrl: string, db: Db, endpoint: string): Promise<void> {
  if (!existsSync(chromiumPath)) {
    console.log(`bot-check solver: skipped (no Chromium at ${chromiumPath})`);
    return;
  }
  const settings = new PlatformSettings(db);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  try {
    const page = await browser.newPage();
    // The platform's own origin: the challenge is fetched same-origin.
    await page.goto(`${apiUrl}/readyz`);
    await page.addScriptTag({ url: `${apiUrl}/botcheck/solver.js` });
    const solve = (): Promise<Solve> =>
      page.evaluate(async (name) => {
        const check = (window as unknown as { PlatformBotCheck: { answer(n: string, o: { container: Element }): Promise<string> } }).PlatformBotCheck;
        const started = performance.now();
        const value = await check.answer(name, { container: document.body });
        return { value, ms: performance.now() - started };
      }, endpoint);
    const workers = await page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8)));
    const runs: Record<number, Solve[]> = {};
    for (const [difficulty, count] of [[16, 5], [20, 3]] as const) {
      await settings.write(botCheckSettingsSection, { difficulty }, 'bench', new Date());
      runs[difficulty] = [];
      for (let i = 0; i < count; i++) runs[difficulty]!.push(await solve());
    }
    const all = Object.values(runs).flat();
    const tried = all.reduce((sum, run) => sum + Number(run.value.slice(run.value.lastIndexOf(':') + 1)) + 1, 0);
    const rate = tried / (all.reduce((sum, run) => sum + run.ms, 0) / 1000);
    const times = (list: Solve[]) => list.map((run) => `${(run.ms / 1000).toFixed(2)} s`).join(', ');
    const expected = (bits: number) => `${(2 ** bits / rate).toFixed(1)} s`;
    console.log(`bot-check solver in Chromium (${workers} workers, WebCrypto): difficulty 16: ${times(runs[16]!)}; difficulty 20: ${times(runs[20]!)}`);
    console.log(`  about ${Math.round(rate)} hashes/s: on average ${expected(16)} at 16, ${expected(20)} at 20, ${expected(22)} at 22 bits`);
  } finally {
    await browser.close();
  }
}
