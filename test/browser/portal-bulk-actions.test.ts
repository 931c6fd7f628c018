/**
 * Multi-select and bulk actions in the Resources listing (issue 37, "Bulk actions and moves"; spec
 * document 2, "Upload rules in the portal"): mouse (click, Shift, Ctrl) and keyboard selection with
 * the selection bar; bulk Tag adding to each file's tags (a folder standing for every file inside);
 * bulk Move to from the keyboard with a partial failure summarised in the server's words, and
 * Undo; bulk Delete counting a folder's files first (held until counted, Retry after a failed
 * count), deleting each file and then the folder, which stays when one of its files cannot be
 * deleted. Real Chromium against the real api.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig, type RestAs } from '../support/portal.js';
import { expectFocusedRow, listedNames, listing, listingRows, listingSection, personAddress, poll, tabInto, uploadMany } from './portal-resources-support.js';

const aliceLibrary = () => `person:${encodeURIComponent(subjectOf(people.alice))}`;

describe.skipIf(!haveChromium)('portal Resources: multi-select and bulk actions', () => {
  let rig: PortalRig;
  let rest: RestAs;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // A DuckDB connection: a registered table holds a file against an unforced delete.
    rig = await startPortalRig({ extraYaml: '  sql:\n    warehouse: { engine: duckdb }\n' });
    rest = await rig.restAs(people.alice);
    const plain = await uploadMany(rig, people.alice, [
      { path: 'bulk/sel', name: 'a.txt', content: 'a' },
      { path: 'bulk/sel', name: 'b.txt', content: 'b' },
      { path: 'bulk/sel', name: 'c.txt', content: 'c' },
      { path: 'bulk/sel', name: 'd.txt', content: 'd' },
      { path: 'bulk/tag/inner', name: 't3.txt', content: 't3' },
      { path: 'bulk/mv', name: 'm1.txt', content: 'm1' },
      { path: 'bulk/mv', name: 'm2.txt', content: 'm2' },
      { path: 'bulk/mv', name: 'report.txt', content: 'mine' },
      { path: 'bulk/dest', name: 'report.txt', content: 'already there' },
      { path: 'bulk/del', name: 'x.txt', content: 'x' },
      { path: 'bulk/del/keep', name: 'free.txt', content: 'free' },
      { path: 'bulk/del/keep/deeper', name: 'deep.txt', content: 'deep' },
      { path: 'bulk/cnt/box', name: 'y.txt', content: 'y' },
      { path: 'bulk/cnt', name: 'z.txt', content: 'z' },
    ]);
    for (const [i, name] of ['a', 'b', 'c', 'd', 't3', 'm1', 'm2', 'report', 'dest-report', 'x', 'free', 'deep', 'y', 'z'].entries()) ids[name] = plain[i]!.id;
    ids.t1 = ((await rig.upload(people.alice, { path: 'bulk/tag', name: 't1.txt', content: 't1', tags: ['keep'] })) as { id: string }).id;
    ids.t2 = ((await rig.upload(people.alice, { path: 'bulk/tag', name: 't2.txt', content: 't2', tags: ['old', 'q1'] })) as { id: string }).id;
    ids.held = ((await rig.upload(people.alice, { path: 'bulk/del/keep', name: 'held.csv', content: 'n\n1\n', type: 'text/csv' })) as { id: string }).id;
    expect((await rest('POST', `/api/v1/resources/${ids.held}/tables`, {})).status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
  });

  const row = (page: Page, name: string): Locator => listingRows(page).filter({ has: page.locator('.cell-text', { hasText: new RegExp(`^${name}$`) }) });
  const selectedNames = (page: Page) =>
    listingRows(page)
      .and(page.locator('[aria-selected="true"]'))
      .evaluateAll((rows) => rows.map((r) => r.querySelector('.cell-text')?.textContent ?? ''));
  const bar = (page: Page) => page.getByRole('toolbar', { name: 'Selection' });
  const resource = async (id: string) => (await rest('GET', `/api/v1/resources/${id}`)).body as { path: string; tags: string[] };
  async function openFolder(page: Page, path: string, first: string) {
    await page.goto(personAddress(people.alice, path));
    await poll(() => listedNames(page)).toContain(first);
  }

  it('Shift/Ctrl multi-select: click, Shift+click ranges, Ctrl+click toggles, Shift+arrows, Space and Ctrl+A; the bar counts them; one click selects one again', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await openFolder(page, 'bulk/sel', 'a');
    expect(await listedNames(page)).toEqual(['a', 'b', 'c', 'd']);
    await row(page, 'a').click();
    expect(await selectedNames(page)).toEqual(['a']);
    expect(await bar(page).count()).toBe(0);
    await row(page, 'c').click({ modifiers: ['Shift'] });
    await poll(() => selectedNames(page)).toEqual(['a', 'b', 'c']);
    await poll(() => bar(page).innerText()).toContain('3 selected (3 files)');
    expect(await bar(page).getByRole('button').allInnerTexts()).toEqual(['Move to…', 'Tag…', 'Delete…', 'Clear selection']);
    await row(page, 'b').click({ modifiers: ['Control'] });
    await poll(() => selectedNames(page)).toEqual(['a', 'c']);
    await row(page, 'd').click({ modifiers: ['Control'] });
    await poll(() => selectedNames(page)).toEqual(['a', 'c', 'd']);
    await poll(() => bar(page).innerText()).toContain('3 selected');
    // One plain click: that row alone, and the bar goes.
    await row(page, 'b').click();
    await poll(() => selectedNames(page)).toEqual(['b']);
    expect(await bar(page).count()).toBe(0);
    // The keyboard: Shift+Down extends, Space toggles the focused row, Ctrl+A takes every row.
    await expectFocusedRow(page, 'b');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await poll(() => selectedNames(page)).toEqual(['b', 'c', 'd']);
    await page.keyboard.press('Space');
    await poll(() => selectedNames(page)).toEqual(['b', 'c']);
    await page.keyboard.press('Control+a');
    await poll(() => selectedNames(page)).toEqual(['a', 'b', 'c', 'd']);
    await poll(() => bar(page).innerText()).toContain('4 selected');
    expect(await seriousViolations(page)).toEqual([]);
    await bar(page).getByRole('button', { name: 'Clear selection' }).click();
    await poll(() => selectedNames(page)).toEqual(['d']);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('bulk tag adds to existing tags: two files and a folder (standing for the file inside) each keep their tags and gain the new ones', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await openFolder(page, 'bulk/tag', 'inner');
    expect(await listedNames(page)).toEqual(['inner', 't1', 't2']);
    await row(page, 'inner').click();
    await row(page, 't2').click({ modifiers: ['Shift'] });
    await poll(() => bar(page).innerText()).toContain('3 selected (2 files and 1 folder)');
    await bar(page).getByRole('button', { name: 'Tag…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tag 2 files and 1 folder' });
    await dialog.waitFor();
    // The folder's files are counted first (what "a folder stands for every file inside" means here).
    await poll(() => dialog.innerText()).toContain('(1 file inside the folder)');
    await dialog.getByRole('textbox', { name: 'Tags to add' }).fill('reviewed, q1');
    await dialog.getByRole('button', { name: 'Tag', exact: true }).click();
    await poll(() => dialog.getByRole('status').innerText()).toBe('Tagged 3 of 3 files with reviewed, q1.');
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await resource(ids.t1!)).tags).toEqual(['keep', 'reviewed', 'q1']);
    expect((await resource(ids.t2!)).tags).toEqual(['old', 'q1', 'reviewed']);
    expect((await resource(ids.t3!)).tags).toEqual(['reviewed', 'q1']);
    await poll(() => listingSection(page).getByRole('status').first().innerText()).toContain('Tagged 3 of 3 files');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('bulk move with a partial failure summary: Move to on a keyboard selection moves what it can, names the collision in the server’s words, and Undo puts the moved ones back', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await openFolder(page, 'bulk/mv', 'm1');
    await tabInto(page, listing(page).locator('[role="rowgroup"]').last());
    await expectFocusedRow(page, 'm1');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await poll(() => selectedNames(page)).toEqual(['m1', 'm2', 'report']);
    // The context menu of a selected row acts on the whole selection.
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for 3 selected' });
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move 3 files' });
    await dialog.waitFor();
    const combo = dialog.getByRole('combobox', { name: /Move to folder in My Resources/ });
    await combo.fill('bulk/dest');
    await page.keyboard.press('Tab');
    await poll(() => page.getByRole('listbox').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await poll(() => dialog.getByRole('status').innerText()).toBe('Moved 2 of 3 items to bulk/dest.');
    const failed = dialog.getByRole('list', { name: 'What failed' });
    expect(await failed.getByRole('listitem').allInnerTexts()).toEqual([expect.stringMatching(/^report: a file named "report\.txt" already exists in .*bulk\/dest/)]);
    await page.screenshot({ path: '/tmp/wt-37b-bulk-move-summary.png' });
    expect((await resource(ids.m1!)).path).toBe('bulk/dest');
    expect((await resource(ids.m2!)).path).toBe('bulk/dest');
    expect((await resource(ids.report!)).path).toBe('bulk/mv');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).toEqual(['report']);
    await expectFocusedRow(page, 'report');
    // Undo: the same routes put the two moved files back.
    const toast = page.getByRole('region', { name: 'Moves' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await poll(() => toast.getByRole('status').innerText()).toBe('Moved 2 items back.');
    expect((await resource(ids.m1!)).path).toBe('bulk/mv');
    expect((await resource(ids.m2!)).path).toBe('bulk/mv');
    await poll(() => listedNames(page)).toEqual(['m1', 'm2', 'report']);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Dismiss');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('a folder delete where one file cannot be deleted: the files inside are counted first, each deletable file goes, the folder stays and the summary says why', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await openFolder(page, 'bulk/del', 'keep');
    expect(await listedNames(page)).toEqual(['keep', 'x']);
    // Hold the count's listing until Delete has been seen held.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(/\/api\/v1\/resources\?path=[^&]*bulk%2Fdel%2Fkeep&direct=false/, async (route) => {
      await released;
      await route.continue();
    });
    await row(page, 'keep').click();
    await row(page, 'x').click({ modifiers: ['Shift'] });
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('alertdialog', { name: 'Delete 1 file and 1 folder' });
    await dialog.waitFor();
    await poll(() => dialog.getByRole('status').innerText()).toBe('Counting the files inside keep…');
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    release();
    await poll(() => dialog.innerText()).toContain('(3 files inside the folder)');
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isEnabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => dialog.getByRole('status').innerText()).toBe('Deleted 3 of 4 files and 0 of 1 folder.');
    const failures = await dialog.getByRole('list', { name: 'What failed' }).getByRole('listitem').allInnerTexts();
    expect(failures).toEqual([
      'held: "held.csv" is used by 0 assets, 0 prompts and 1 registered table; delete with force to delete it anyway',
      'keep: The folder stays: 1 file in it could not be deleted.',
    ]);
    await page.screenshot({ path: '/tmp/wt-37b-bulk-delete-summary.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    for (const gone of ['x', 'free', 'deep']) expect((await rest('GET', `/api/v1/resources/${ids[gone]}`)).status).toBe(404);
    expect((await resource(ids.held!)).path).toBe('bulk/del/keep');
    await poll(() => listedNames(page)).toEqual(['keep']);
    await expectFocusedRow(page, 'keep');
    const facets = await rest('GET', `/api/v1/resources/facets?path=${aliceLibrary()}/bulk/del/keep&depth=1`);
    expect(facets.body.folders.map((f: { path: string; count: number }) => [f.path.split('/').slice(1).join('/'), f.count])).toEqual([['bulk/del/keep', 1]]);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('a failed count offers Retry and holds Delete; counted again, the folder and its files are deleted', async () => {
    const { page, context } = await rig.open(people.alice);
    await openFolder(page, 'bulk/cnt', 'box');
    let fail = true;
    await page.route(/\/api\/v1\/resources\?path=[^&]*bulk%2Fcnt%2Fbox&direct=false/, async (route) => {
      if (!fail) return route.continue();
      fail = false;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'unavailable', message: 'the database is restarting' }) });
    });
    await row(page, 'box').click();
    await row(page, 'z').click({ modifiers: ['Control'] });
    await bar(page).getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete 1 file and 1 folder' });
    await poll(() => dialog.getByRole('alert').innerText()).toBe('Could not count the files inside: the database is restarting');
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await poll(() => dialog.innerText()).toContain('(1 file inside the folder)');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => dialog.getByRole('status').innerText()).toBe('Deleted 2 of 2 files and 1 of 1 folder.');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await poll(() => listedNames(page)).toEqual([]);
    expect((await rest('GET', `/api/v1/resources/${ids.y}`)).status).toBe(404);
    const facets = await rest('GET', `/api/v1/resources/facets?path=${aliceLibrary()}/bulk/cnt&depth=1`);
    expect(facets.body.folders.map((f: { path: string }) => f.path.split('/').slice(1).join('/'))).toEqual(['bulk/cnt']);
    await context.close();
  }, 120_000);

  it('the selection bar and the bulk dialog pass axe in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { page, context } = await rig.open(people.alice, { theme, width });
        await openFolder(page, 'bulk/sel', 'a');
        await row(page, 'a').click();
        await row(page, 'c').click({ modifiers: ['Shift'] });
        await bar(page).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-37b-bar-${theme}-${width}.png` });
        await bar(page).getByRole('button', { name: 'Tag…' }).click();
        await page.getByRole('dialog', { name: 'Tag 3 files' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-37b-tag-${theme}-${width}.png` });
        await context.close();
      }
    }
  }, 180_000);
});
