/**
 * The upload queue (issue 37; spec document 2, "Upload rules in the portal", "Errors", "Limits"):
 * each file its own request to the create route with its outcome shown in the server's words — a
 * 409 under `if_exists=fail`, then Retry failed with `skip_unchanged` sending only the failures
 * (unchanged and revised); an executable refused by the server; a file past max_upload_bytes, a
 * batch past 5,000 files and an archive past 1 GiB refused before anything is sent, naming the
 * limit; Cancel aborting what is in flight and stopping what waits. Real Chromium, real api, with
 * resources.managed.max_upload_bytes at 300,000 bytes.
 */
import { mkdtemp, open as openFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { personAddress, poll, uploadMany } from './portal-resources-support.js';
import { batchRow, dropFiles, filesBeneath, personLibrary, uploadDialog } from './portal-upload-support.js';

const maxUploadBytes = 300_000;

describe.skipIf(!haveChromium)('portal Resources: the upload queue', () => {
  let rig: PortalRig;
  let dir: string;

  beforeAll(async () => {
    rig = await startPortalRig({ extraYaml: `resources:\n  managed:\n    max_upload_bytes: ${maxUploadBytes}\n` });
    dir = await mkdtemp(join(tmpdir(), 'portal-upload-queue-'));
    await uploadMany(rig, people.alice, [
      { path: 'retry', name: 'a.txt', content: 'same bytes' },
      { path: 'retry', name: 'b.txt', content: 'old bytes' },
      { path: 'refuse', name: 'seed.txt', content: 'seed' },
      { path: 'cancel', name: 'seed.txt', content: 'seed' },
      { path: 'limits', name: 'seed.txt', content: 'seed' },
    ]);
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Counts the create requests the page sends from now on. */
  function countUploads(page: Page): { count: number } {
    const seen = { count: 0 };
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/v1/resources') seen.count++;
    });
    return seen;
  }

  /** What the api itself answers for this file (to compare the page's words with). */
  async function serverRefusal(name: string, content: string, path: string): Promise<{ status: number; message: string }> {
    const rest = await rig.restAs(people.alice);
    const form = new FormData();
    form.set('library', 'personal');
    form.set('path', path);
    form.set('if_exists', 'fail');
    form.set('file', new Blob([content]), name);
    const answer = await rest('POST', '/api/v1/resources', form);
    return { status: answer.status, message: (answer.body as { message: string }).message };
  }

  async function openUpload(page: Page, path: string) {
    await page.goto(personAddress(people.alice, path));
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
    await uploadDialog(page).waitFor();
    return uploadDialog(page);
  }

  it('a 409 under if_exists=fail is shown in the server’s words; Retry failed with skip_unchanged sends only the failures: unchanged and revised', async () => {
    const taken = await serverRefusal('a.txt', 'same bytes', 'retry');
    expect(taken.status).toBe(409);
    const { page, context } = await rig.open(people.alice, { width: 1920 });
    const problems = watchPageProblems(page);
    const dialog = await openUpload(page, 'retry');
    await dialog.getByLabel('Files to upload').setInputFiles([
      { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('same bytes') },
      { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('new bytes') },
      { name: 'c.txt', mimeType: 'text/plain', buffer: Buffer.from('c bytes') },
    ]);
    expect(await dialog.getByLabel('If a file of that name is already there').inputValue()).toBe('fail');
    const sent = countUploads(page);
    await dialog.getByRole('button', { name: 'Upload 3 files' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 1 created, 2 failed.');
    expect(sent.count).toBe(3);
    expect(await batchRow(page, 'a.txt').locator('.batch-state').textContent()).toBe(`Failed (409): ${taken.message}`);
    expect(await batchRow(page, 'c.txt').locator('.batch-state').textContent()).toBe('Created');
    await page.screenshot({ path: '/tmp/wt-37a-upload-409-1920.png' });
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByLabel('If a file of that name is already there').selectOption('skip_unchanged');
    await dialog.getByRole('button', { name: 'Retry failed (2)' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 1 created, 1 revised, 1 unchanged.');
    expect(sent.count).toBe(5);
    expect(await batchRow(page, 'a.txt').locator('.batch-state').textContent()).toBe('Unchanged');
    expect(await batchRow(page, 'b.txt').locator('.batch-state').textContent()).toBe('Revised (new version)');
    expect(await dialog.getByRole('button', { name: /Retry failed/ }).count()).toBe(0);
    const stored = new Map((await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/retry`)).map((f) => [f.file_name, f.version]));
    expect(Object.fromEntries(stored)).toEqual({ 'a.txt': 1, 'b.txt': 2, 'c.txt': 1 });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an executable is refused by the server in its words; a file past max_upload_bytes is refused up front naming the limit and never sent', async () => {
    const executable = await serverRefusal('tool.exe', 'MZ', 'refuse');
    expect(executable.status).toBe(415);
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    const dialog = await openUpload(page, 'refuse');
    await dialog.getByLabel('Files to upload').setInputFiles([
      { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(maxUploadBytes + 1, 1) },
      { name: 'fine.txt', mimeType: 'text/plain', buffer: Buffer.from('fine') },
    ]);
    await poll(() => batchRow(page, 'big.bin').locator('.batch-state').textContent()).toBe('Refused: larger than the upload limit of 300,000 bytes (300,001 bytes)');
    const sent = countUploads(page);
    await dialog.getByRole('button', { name: 'Upload 2 files' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 1 created, 1 failed, 1 refused before sending.');
    expect(sent.count).toBe(2);
    expect(await batchRow(page, 'tool.exe').locator('.batch-state').textContent()).toBe(`Failed (415): ${executable.message}`);
    const stored = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/refuse`);
    expect(stored.map((f) => f.file_name).sort()).toEqual(['fine.txt', 'seed.txt']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a batch past 5,000 files and an archive past 1 GiB are refused before anything is sent, naming the limit', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'limits'));
    await page.locator('section.listing [role="grid"]').waitFor();
    const many = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`f-${i}.txt`, 'x']));
    await dropFiles(page.locator('section.listing .listing-footer'), many);
    const dialog = uploadDialog(page);
    await poll(() => dialog.getByRole('alert').textContent()).toBe('A batch takes at most 5,000 files; this one has 5,001. Upload it in parts.');
    expect(await dialog.getByRole('button', { name: 'Upload 5,001 files' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A sparse file just past 1 GiB (no disk is used for it): refused from its size, never read.
    const huge = join(dir, 'huge.zip');
    const handle = await openFile(huge, 'w');
    await handle.truncate(1024 ** 3 + 1);
    await handle.close();
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
    await uploadDialog(page).getByLabel('Files to upload').setInputFiles(huge);
    await poll(() => batchRow(page, 'huge.zip').locator('.batch-state').textContent()).toBe(
      'Refused: The archive huge.zip is 1,073,741,825 bytes; archives are unpacked up to 1 GiB (1,073,741,824 bytes).',
    );
    expect(await uploadDialog(page).getByRole('button', { name: 'Upload 0 files' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Cancel aborts the uploads in flight and stops the waiting ones: nothing of them is stored', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    const dialog = await openUpload(page, 'cancel');
    // A slow uplink, so the batch is still sending when Cancel is pressed.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 32 * 1024 });
    await dialog.getByLabel('Files to upload').setInputFiles(
      Array.from({ length: 6 }, (_, i) => ({ name: `slow-${i}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.alloc(250_000, i) })),
    );
    await dialog.getByRole('button', { name: 'Upload 6 files' }).click();
    // Focus moves from Upload (gone) onto Cancel upload, and onto Close once the batch ends.
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel upload');
    await poll(() => dialog.locator('.batch-state', { hasText: /^Sending/ }).count()).toBe(4);
    expect(await dialog.locator('.batch-state', { hasText: /^Waiting/ }).count()).toBe(2);
    await page.screenshot({ path: '/tmp/wt-37a-upload-sending-1280.png' });
    await dialog.getByRole('button', { name: 'Cancel upload' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 6 cancelled.');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    expect(await dialog.getByRole('button', { name: /Retry failed/ }).count()).toBe(0);
    const stored = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/cancel`);
    expect(stored.map((f) => f.file_name)).toEqual(['seed.txt']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
