/**
 * Benchmark (a script, not a test) of the portal in Chromium against the real api (PORTAL.md,
 * "Budgets"; issue 36, "Tests and figures"):
 *  1. initial JavaScript, gzipped: the entry script of portal/dist/index.html and every chunk it
 *     preloads (budget ≤ 250 KB); the editor and viewers load on demand and are not counted;
 *  2. a folder of 10,000 files (BENCH_FILES), warm api: time from navigation start to the first
 *     rows of the listing being visible, over BENCH_ROUNDS navigations (p50 budget ≤ 300 ms; p99
 *     printed), and the same for the api's first page alone (GET /api/v1/resources) as the baseline
 *     the page cannot beat;
 *  3. scrolling the listing to its end: the most rows the DOM held at once (budget: a few hundred)
 *     and whether the last file was reached;
 *  4. the upload figure (issue 37): 1,000 small files (BENCH_UPLOAD_FILES) and one 200 MB file
 *     (BENCH_UPLOAD_MB) uploaded through the page's Upload dialog vs the same uploads made directly
 *     from Node, 4 at a time, in the same run (budget: the page ≥ 0.7× Node's rate), and the peak
 *     JavaScript heap of the page (CDP Performance.getMetrics, JSHeapUsedSize, sampled every 50 ms)
 *     while it unpacks and uploads a large zip (BENCH_ZIP_MB, generated here).
 * The files are filed through the resource service itself (seeding is not what is measured), as
 * `application/octet-stream` with indexing off, so no background job competes with the page.
 *
 *   npm run bench:portal
 *   BENCH_FILES=10000 BENCH_ROUNDS=20 npx tsx test/bench/portal.ts
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { vouchedCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, resourceActor } from '../../shared/resources/index.js';
import { createAssetService } from '../../shared/assets/index.js';
import { portalDistDir } from '../../shared/toolchain/index.js';
import { ensurePortalBuilt } from '../../shared/toolchain/index.js';
import { devIdentityIssuer } from '../../api/portal-auth/index.js';
import { people, startPortalRig } from '../support/portal.js';
import { uploadFigure } from './portal-upload.js';

const files = Number(process.env.BENCH_FILES ?? 10_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 20);
const budgets = { initialKb: 250, firstRowsMs: 300, domRows: 400 };

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The entry script and the chunks index.html preloads, gzipped (level 9, as the api serves them). */
function initialJavaScript(page = 'index.html'): { files: string[]; gzipBytes: number } {
  const html = readFileSync(join(portalDistDir, page), 'utf8');
  const scripts = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/portal\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const gzipBytes = scripts.reduce((sum, name) => sum + gzipSync(readFileSync(join(portalDistDir, name)), { level: 9 }).length, 0);
  return { files: scripts, gzipBytes };
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

await ensurePortalBuilt({ quiet: true });
const initial = initialJavaScript();
console.log(`initial JavaScript: ${(initial.gzipBytes / 1024).toFixed(1)} KB gzipped (${initial.files.join(', ')}); budget ≤ ${budgets.initialKb} KB`);
// The public viewer's own entry (portal/view.html, issue 38): what a cold cache loads before its first paint.
const viewer = initialJavaScript('view.html');
console.log(`public viewer JavaScript (cold cache, before first paint): ${(viewer.gzipBytes / 1024).toFixed(1)} KB gzipped (${viewer.files.join(', ')}); budget ≤ 100 KB`);

const uploadMb = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const rig = await startPortalRig({
  extraYaml: `resources:\n  managed:\n    max_upload_bytes: ${(uploadMb + 16) * 1024 * 1024}\n  index:\n    - { index: not_indexed }\n`,
});
try {
  const service = createResourceService({ config: rig.config, db: rig.db, objstore: createObjstoreConnections(rig.config, { env: {} }), log: silentLogger() });
  const owner = people.admin;
  const actor = resourceActor(vouchedCaller({ issuer: devIdentityIssuer, ...owner }, 'browser_session'), { config: rig.config, origin: 'person' });
  const seedStart = Date.now();
  await pool(Array.from({ length: files }, (_, n) => n), 16, async (n) => {
    await service.create(actor, {
      library: { kind: 'global' },
      path: 'bench/big',
      file_name: `file-${String(n).padStart(5, '0')}.bin`,
      content_type: 'application/octet-stream',
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(`bytes of file ${n}\n`)]),
    });
  });
  console.log(`seeded ${files} files in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);

  const rest = await rig.restAs(owner);
  const apiTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const answer = await rest('GET', '/api/v1/resources?path=global/bench/big&direct=true&sort=name&limit=100');
    if (answer.status !== 200) throw new Error(`list answered ${answer.status}`);
    apiTimes.push(performance.now() - started);
  }

  const { context, page } = await rig.open(owner, { width: 1280, height: 800 });
  const address = `${rig.url}/portal/resources/lib/global/bench/big`;
  const rowSelector = '[role="grid"] [role="row"][aria-rowindex]';
  await page.goto(address);
  await page.waitForSelector(rowSelector);
  const pageTimes: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await page.goto(address);
    await page.waitForSelector(`${rowSelector} >> text=file-00000`);
    pageTimes.push(await page.evaluate(() => performance.now()));
  }
  console.log(
    `first rows of a ${files}-file folder after navigation: p50 ${percentile(pageTimes, 50).toFixed(0)} ms, p99 ${percentile(pageTimes, 99).toFixed(0)} ms ` +
      `(budget p50 ≤ ${budgets.firstRowsMs} ms); the api's first page alone: p50 ${percentile(apiTimes, 50).toFixed(1)} ms, p99 ${percentile(apiTimes, 99).toFixed(1)} ms`,
  );

  // Scroll to the end, page by page as a person would, counting the rows the DOM holds. The script
  // is text: tsx would wrap a function's inner functions in a helper the page does not have.
  const scrolled = (await page.evaluate(`(async () => {
    const selector = ${JSON.stringify(rowSelector)};
    const last = ${JSON.stringify(`file-${String(files - 1).padStart(5, '0')}`)};
    const rows = () => document.querySelectorAll(selector);
    const box = document.querySelector('[role="grid"]');
    let most = rows().length;
    const deadline = Date.now() + 300000;
    while (Date.now() < deadline) {
      box.scrollTop += box.clientHeight;
      await new Promise((r) => setTimeout(r, 50));
      most = Math.max(most, rows().length);
      if ([...rows()].some((row) => (row.textContent || '').includes(last))) return { most, reached: true };
    }
    return { most, reached: false };
  })()`)) as { most: number; reached: boolean };
  console.log(`scrolling to the end: at most ${scrolled.most} rows in the DOM at once (budget ≤ ${budgets.domRows}); last file ${scrolled.reached ? 'reached' : 'NOT reached'}`);
  await context.close();

  // The public viewer on a cold cache (a fresh browser context each time): first contentful paint
  // and the shared markdown shown, for a stranger opening a public link.
  const assets = createAssetService({ config: rig.config, db: rig.db, objstore: createObjstoreConnections(rig.config, { env: {} }), log: silentLogger() });
  const saved = await assets.save(actor, { name: 'Bench memo', content: Buffer.from('# Bench memo\n\nA shared document.\n'), content_type: 'text/markdown' });
  const shared = await assets.createShare(actor, saved.asset.id, {});
  const paints: number[] = [];
  const shown: number[] = [];
  for (let i = 0; i < Math.min(rounds, 10); i++) {
    const cold = await rig.open(undefined);
    await cold.page.goto(`${rig.url}${shared.path}`);
    await cold.page.getByRole('heading', { name: 'Bench memo', level: 2 }).or(cold.page.locator('.asset-markdown h1')).first().waitFor();
    shown.push(await cold.page.evaluate(() => performance.now()));
    paints.push(await cold.page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
    await cold.context.close();
  }
  console.log(
    `public viewer, cold cache: first contentful paint p50 ${percentile(paints, 50).toFixed(0)} ms, the shared document shown p50 ${percentile(shown, 50).toFixed(0)} ms (p99 ${percentile(shown, 99).toFixed(0)} ms)`,
  );

  const scratch = await mkdtemp(join(tmpdir(), 'bench-portal-upload-'));
  try {
    await uploadFigure(rig, owner, scratch, {
      files: Number(process.env.BENCH_UPLOAD_FILES ?? 1000),
      bigMb: uploadMb,
      zipMb: Number(process.env.BENCH_ZIP_MB ?? 400),
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
} finally {
  await rig.stop();
}
