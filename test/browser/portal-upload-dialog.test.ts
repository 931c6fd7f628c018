/**
 * Uploads in the Resources file manager (issue 37; spec document 2, "Upload rules in the portal",
 * "Authentication: Add a new file", "Limits"): the Upload dialog offers exactly the top-level
 * folders the api lets each person add to; one file with its display name (the file name without
 * extension by default), description and tags; a zip archive unpacked in the browser with its
 * nested folders beneath the chosen one and its system files left out and counted; a folder from
 * the folder picker; images usable in generated documents marked; a drop from the desktop onto a
 * tree folder and a listing folder uploads into it. Real Chromium against the real api.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { listedNames, listingRows, personAddress, poll, treeRow, uploadMany } from './portal-resources-support.js';
import { batchNames, batchRow, dropFiles, fileDragOutcome, filesBeneath, personLibrary, topLevelOptions, uploadDialog } from './portal-upload-support.js';

/** A 1×1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

describe.skipIf(!haveChromium)('portal Resources: the Upload dialog', () => {
  let rig: PortalRig;
  let dir: string;

  beforeAll(async () => {
    rig = await startPortalRig();
    dir = await mkdtemp(join(tmpdir(), 'portal-upload-'));
    await uploadMany(rig, people.alice, [
      { path: 'inbox/drop-here', name: 'seed.txt', content: 'seed' },
      { path: 'inbox/listing-target', name: 'seed.txt', content: 'seed' },
    ]);
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('offers as top-level folder only where the api lets the person add: own library; the persona for its persona-admin; every one, Global too, for a platform administrator', async () => {
    const expectations: Array<[typeof people.alice, string[]]> = [
      [people.alice, ['My Resources']],
      [people.bob, ['My Resources', 'Sales']],
      [people.admin, ['My Resources', 'Administrators', 'Sales', 'Support', 'Global']],
    ];
    for (const [user, offered] of expectations) {
      const { page, context } = await rig.open(user);
      const problems = watchPageProblems(page);
      await page.goto(personAddress(user));
      await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
      await uploadDialog(page).waitFor();
      await poll(() => topLevelOptions(page)).toEqual(offered);
      expect(problems).toEqual([]);
      await context.close();
    }
    // A member of Sales without persona-admin:sales is offered no Upload in the Sales folder at all.
    const { page, context } = await rig.open(people.alice);
    await page.goto('/portal/resources/lib/persona:sales');
    await page.getByRole('heading', { name: 'Sales', level: 2 }).waitFor();
    await poll(() => page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await context.close();
  });

  it('one file: display name defaults to the file name without extension; description, tags and folder set; created there, the image marked usable in documents', async () => {
    const { page, context } = await rig.open(people.alice, { width: 1920 });
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'inbox'));
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
    const dialog = uploadDialog(page);
    await dialog.getByLabel('Files to upload').setInputFiles([{ name: 'Brand Logo.png', mimeType: 'image/png', buffer: png }]);
    await poll(() => dialog.getByLabel('Display name').inputValue()).toBe('Brand Logo');
    expect(await dialog.getByLabel('Folder', { exact: true }).inputValue()).toBe('inbox');
    await expect(batchRow(page, 'Brand Logo.png').getByText('usable in documents')).toBeDefined();
    await poll(() => batchRow(page, 'Brand Logo.png').locator('.batch-badge').count()).toBe(1);
    await dialog.getByLabel('Folder', { exact: true }).fill('inbox/brand');
    await dialog.getByLabel('Description').fill('The logo in colour');
    await dialog.getByLabel('Tags').fill('brand, logo');
    await page.screenshot({ path: '/tmp/wt-37a-upload-single-1920.png' });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 1 created.');
    await poll(() => batchRow(page, 'Brand Logo.png').locator('.batch-state').textContent()).toBe('Created');
    const [stored] = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/inbox/brand`);
    expect(stored).toMatchObject({ path: 'inbox/brand', file_name: 'Brand Logo.png', display_name: 'Brand Logo', description: 'The logo in colour', tags: ['brand', 'logo'], content_type: 'image/png' });
    // Close puts focus back on the Upload button, and the listing shows the new folder.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Upload');
    await poll(() => listedNames(page)).toContain('brand');
    // Its page says so too.
    await page.goto(`/portal/resources/${stored!.id}`);
    await page.getByText('usable directly in generated documents').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a zip archive is unpacked in the browser: nested folders become folders beneath the chosen one, system files left out and counted, {name} in the description, images marked and EPS stored as uploaded', async () => {
    const archive = await zipOf({
      'Brand Assets/Logos/mark.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
      'Brand Assets/Logos/print.eps': '%!PS-Adobe-3.0 EPSF-3.0\n',
      'Brand Assets/readme.txt': 'read me',
      'data/rows.csv': 'a,b\n1,2\n',
      'Brand Assets/.DS_Store': 'x',
      '__MACOSX/Brand Assets/._readme.txt': 'x',
      'data/Thumbs.db': 'x',
    });
    const { page, context } = await rig.open(people.bob, { theme: 'dark', width: 1280 });
    const problems = watchPageProblems(page);
    await page.goto('/portal/resources/lib/persona:sales');
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
    const dialog = uploadDialog(page);
    await poll(() => dialog.getByLabel('Top-level folder').inputValue()).toBe('persona:sales');
    await dialog.getByLabel('Files to upload').setInputFiles([{ name: 'kit.zip', mimeType: 'application/zip', buffer: archive }]);
    await poll(() => dialog.getByRole('status').first().textContent()).toMatch(/^4 files, \d+ B · 3 system files left out$/);
    expect((await batchNames(page)).sort()).toEqual(['kit.zip/Brand Assets/Logos/mark.svg', 'kit.zip/Brand Assets/Logos/print.eps', 'kit.zip/Brand Assets/readme.txt', 'kit.zip/data/rows.csv']);
    expect(await batchRow(page, 'kit.zip/Brand Assets/Logos/mark.svg').locator('.batch-badge').count()).toBe(1);
    expect(await batchRow(page, 'kit.zip/Brand Assets/Logos/print.eps').locator('.batch-badge').count()).toBe(0);
    await dialog.getByLabel('Folder', { exact: true }).fill('imports');
    await dialog.getByLabel('Description').fill('Kit file {name}');
    await dialog.getByLabel('Tags').fill('kit');
    await page.screenshot({ path: '/tmp/wt-37a-upload-zip-dark-1280.png' });
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Upload 4 files' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 4 created.');
    await page.screenshot({ path: '/tmp/wt-37a-upload-zip-done-dark-1280.png' });
    const stored = await filesBeneath(rig, people.bob, 'persona:sales/imports');
    expect(stored.map((f) => `${f.path}/${f.file_name}`).sort()).toEqual([
      'imports/brand-assets/logos/mark.svg',
      'imports/brand-assets/logos/print.eps',
      'imports/brand-assets/readme.txt',
      'imports/data/rows.csv',
    ]);
    const byName = new Map(stored.map((f) => [f.file_name, f]));
    expect(byName.get('mark.svg')).toMatchObject({ display_name: 'mark', description: 'Kit file mark', tags: ['kit'], content_type: 'image/svg+xml' });
    expect(byName.get('print.eps')).toMatchObject({ display_name: 'print', content_type: 'application/postscript' });
    expect(byName.get('rows.csv')).toMatchObject({ description: 'Kit file rows', content_type: 'text/csv' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a folder from the folder picker: its subfolders become folders beneath the chosen one, dotfiles left out and counted', async () => {
    const root = join(dir, 'Quarterly Pack');
    await mkdir(join(root, 'Charts', '.cache'), { recursive: true });
    await writeFile(join(root, 'summary.md'), '# Summary\n');
    await writeFile(join(root, 'Charts', 'q1.png'), png);
    await writeFile(join(root, 'Charts', '.cache', 'x.bin'), 'x');
    await writeFile(join(root, '.hidden'), 'x');
    const { page, context } = await rig.open(people.alice, { theme: 'dark', width: 1920 });
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice));
    await page.getByRole('toolbar', { name: 'Folder actions' }).getByRole('button', { name: 'Upload' }).click();
    const dialog = uploadDialog(page);
    await dialog.getByLabel('Folder to upload').setInputFiles(root);
    await poll(() => dialog.getByRole('status').first().textContent()).toMatch(/^2 files, .* · 2 system files left out$/);
    await dialog.getByLabel('Folder', { exact: true }).fill('reports');
    await dialog.getByRole('button', { name: 'Upload 2 files' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 2 created.');
    await page.screenshot({ path: '/tmp/wt-37a-upload-folder-done-dark-1920.png' });
    expect(await seriousViolations(page)).toEqual([]);
    const stored = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/reports`);
    expect(stored.map((f) => `${f.path}/${f.file_name}`).sort()).toEqual(['reports/quarterly-pack/charts/q1.png', 'reports/quarterly-pack/summary.md']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a drop from the desktop onto a tree folder, and onto a listing folder row, uploads into that folder', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'inbox'));
    await poll(() => listedNames(page)).toContain('drop-here');
    await poll(() => treeRow(page, 'drop-here').count()).toBe(1);
    await dropFiles(treeRow(page, 'drop-here'), { 'note one.txt': 'first note', 'note two.txt': 'second note' });
    const dialog = uploadDialog(page);
    await poll(() => dialog.getByLabel('Folder', { exact: true }).inputValue()).toBe('inbox/drop-here');
    // Once the dropped files are read, Upload has focus: Enter sends them.
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Upload 2 files');
    await page.keyboard.press('Enter');
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 2 created.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    const inTree = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/inbox/drop-here`);
    expect(inTree.map((f) => f.file_name).sort()).toEqual(['note one.txt', 'note two.txt', 'seed.txt']);

    await dropFiles(listingRows(page).filter({ hasText: 'listing-target' }), { 'dropped.txt': 'dropped on a row' });
    await poll(() => dialog.getByLabel('Folder', { exact: true }).inputValue()).toBe('inbox/listing-target');
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await poll(() => dialog.locator('.upload-summary').textContent()).toBe('Done: 1 created.');
    const inRow = await filesBeneath(rig, people.alice, `${personLibrary(people.alice)}/inbox/listing-target`);
    expect(inRow.map((f) => f.file_name).sort()).toEqual(['dropped.txt', 'seed.txt']);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A drop onto Global, where Alice may not add files, opens nothing.
    await dropFiles(page.getByRole('treegrid', { name: 'Folders' }).getByRole('row', { name: /^Global/ }), { 'stray.txt': 'stray' });
    // Files dropped where nothing takes them (the preview pane) are refused, not opened by the
    // browser in place of the portal, and open no dialog.
    expect(await fileDragOutcome(page.getByRole('complementary', { name: 'Preview' }))).toEqual({ dragoverHandled: true, dropHandled: true, dropEffect: 'none' });
    await dropFiles(listingRows(page).filter({ hasText: 'listing-target' }), { 'after.txt': 'after' });
    await poll(() => dialog.getByLabel('Folder', { exact: true }).inputValue()).toBe('inbox/listing-target');
    expect(await dialog.locator('.batch-name').allTextContents()).toEqual(['after.txt']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // "Upload here…" in a folder's context menu opens the dialog on that folder.
    await listingRows(page).filter({ hasText: 'drop-here' }).click();
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menuitem', { name: 'Upload here…' }).click();
    await poll(() => dialog.getByLabel('Folder', { exact: true }).inputValue()).toBe('inbox/drop-here');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(problems).toEqual([]);
    await context.close();
  });
});
