/**
 * The upload figure of test/bench/portal.ts (issue 37; PORTAL.md "Budgets"): the same files
 * uploaded through the page's Upload dialog (four at a time, one create request each) and directly
 * from Node (four at a time, the same route, the same session), in the same run, as rates and
 * their ratio (budget: the page ≥ 0.7× Node); then the page's peak JavaScript heap while it unpacks
 * and uploads a large zip generated here. Page scripts are text: tsx would wrap functions in a
 * helper the page does not have.
 */
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { Page } from 'playwright-core';
import type { SessionUser } from '../../shared/identity/index.js';
import type { PortalRig } from '../support/portal.js';

const budgetRatio = 0.7;

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** Uploads through the page: opens the dialog on the folder, picks the files, sends them; the seconds from Upload to done. */
async function throughPage(page: Page, url: string, folder: string, paths: string[]): Promise<number> {
  await page.goto(`${url}/portal/resources/lib/global`);
  await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog', { name: /^Upload/ });
  await dialog.getByLabel('Folder', { exact: true }).fill(folder);
  await dialog.getByLabel('Files to upload').setInputFiles(paths);
  // Locators, not waitForFunction: the page's CSP allows no string evaluation.
  const send = dialog.locator('.upload-send:not([disabled])');
  await send.waitFor({ timeout: 600_000 });
  const started = performance.now();
  await send.click();
  await dialog.locator('.upload-summary', { hasText: /^Done: / }).waitFor({ timeout: 1_800_000 });
  const seconds = (performance.now() - started) / 1000;
  const summary = await dialog.locator('.upload-summary').textContent();
  if (!/^Done: [\d,]+ created\.$/.test(summary ?? '')) throw new Error(`the page's batch ended: ${summary}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  return seconds;
}

/** The same uploads from Node, four at a time, through a session of the same person; seconds. */
async function fromNode(rig: PortalRig, user: SessionUser, folder: string, paths: string[]): Promise<number> {
  const rest = await rig.restAs(user);
  const started = performance.now();
  await pool(paths, 4, async (path) => {
    const form = new FormData();
    form.set('library', 'global');
    form.set('path', folder);
    form.set('if_exists', 'fail');
    form.set('file', await openAsBlob(path), path.split('/').pop()!);
    const answer = await rest('POST', '/api/v1/resources', form);
    if (answer.status !== 201) throw new Error(`upload of ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  });
  return (performance.now() - started) / 1000;
}

async function zipOnDisk(path: string, megabytes: number): Promise<void> {
  const zip = new yazl.ZipFile();
  const member = 8 * 1024 * 1024;
  // Text-like members (deflated by about a third) under nested folders, as an export of documents would be.
  const line = Buffer.from('2026-01-01,acme,widget,42,17.5,"a line of a table of values"\n');
  const body = Buffer.alloc(member);
  for (let i = 0; i < member; i += line.length) line.copy(body, i);
  for (let n = 0; n * member < megabytes * 1024 * 1024; n++) zip.addBuffer(body, `export/part-${Math.floor(n / 10)}/rows-${n}.csv`, { compress: n % 2 === 0 });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

export async function uploadFigure(rig: PortalRig, user: SessionUser, scratch: string, opts: { files: number; bigMb: number; zipMb: number }): Promise<void> {
  const small = join(scratch, 'small');
  await mkdir(small);
  const smallPaths: string[] = [];
  for (let n = 0; n < opts.files; n++) {
    // Not a type a thumbnail is drawn for (the rig indexes nothing): no background job of one run competes with the other.
    const path = join(small, `note-${String(n).padStart(4, '0')}.bin`);
    await writeFile(path, `note ${n}\n${'x'.repeat(1000)}\n`);
    smallPaths.push(path);
  }
  const big = join(scratch, 'big.bin');
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
  await writeFile(big, Buffer.concat(Array.from({ length: opts.bigMb }, () => chunk)));

  const { context, page } = await rig.open(user, { width: 1280, height: 900 });
  try {
    const pageSmall = await throughPage(page, rig.url, 'bench/up-page', smallPaths);
    const nodeSmall = await fromNode(rig, user, 'bench/up-node', smallPaths);
    const smallRatio = nodeSmall / pageSmall;
    console.log(
      `upload of ${opts.files} small files: page ${(opts.files / pageSmall).toFixed(1)} files/s, Node ${(opts.files / nodeSmall).toFixed(1)} files/s (4 at a time each): ` +
        `ratio ${smallRatio.toFixed(2)}× (budget ≥ ${budgetRatio}×)`,
    );
    const nodeBig = await fromNode(rig, user, 'bench/big-node', [big]);
    const pageBig = await throughPage(page, rig.url, 'bench/big-page', [big]);
    console.log(
      `upload of one ${opts.bigMb} MB file: page ${(opts.bigMb / pageBig).toFixed(1)} MB/s, Node ${(opts.bigMb / nodeBig).toFixed(1)} MB/s: ratio ${(nodeBig / pageBig).toFixed(2)}× (budget ≥ ${budgetRatio}×)`,
    );

    const zipPath = join(scratch, 'export.zip');
    await zipOnDisk(zipPath, opts.zipMb);
    const archiveBytes = (await openAsBlob(zipPath)).size;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
    const before = await heap();
    let peak = before;
    let sampling = true;
    // Sampled from the pick on: the archive's directory is read when it is picked, its members as they are sent.
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heap());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    let zipSeconds: number;
    try {
      zipSeconds = await throughPage(page, rig.url, 'bench/zip-page', [zipPath]);
    } finally {
      sampling = false;
      await sampler;
    }
    console.log(
      `unpacking and uploading a ${(archiveBytes / 1024 / 1024).toFixed(0)} MB zip (${opts.zipMb} MB of members) in the page: ${zipSeconds.toFixed(1)} s; ` +
        `peak JS heap ${(peak / 1024 / 1024).toFixed(1)} MB (before: ${(before / 1024 / 1024).toFixed(1)} MB)`,
    );
  } finally {
    await context.close();
  }
}
