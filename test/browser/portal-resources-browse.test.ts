/**
 * The Resources file manager, browsing (issue 36; spec document 2, "Libraries and top-level
 * folders", "Portal addresses", "Upload rules in the portal": sort, keyboard): the top-level
 * folders each kind of person sees, the folder tree by keyboard alone, the listing's sort, paging
 * as it scrolls with a bounded DOM, Back and reload on every address, axe in both themes.
 * Real Chromium against the real api (Postgres, Temporal, storage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';
import { listedNames, listing, listingRows, personAddress, poll, tabInto, treeRow, uploadMany } from './portal-resources-support.js';

const bulkFiles = 250;

describe.skipIf(!haveChromium)('portal Resources: browsing', () => {
  let rig: PortalRig;

  beforeAll(async () => {
    rig = await startPortalRig();
    await uploadMany(rig, people.alice, [
      { path: 'data', name: 'orders.csv', content: 'a,b\n1,2\n', type: 'text/csv' },
      { path: 'data/raw', name: 'raw.json', content: '{}', type: 'application/json' },
      { path: 'notes', name: 'todo.md', content: '# todo', type: 'text/markdown' },
    ]);
    // Sorting: names a < b < c, sizes b < c < a, uploaded c, a, b (so b is the newest).
    for (const [name, size] of [
      ['c.txt', 20],
      ['a.txt', 30],
      ['b.txt', 10],
    ] as const) {
      await uploadMany(rig, people.alice, [{ path: 'sorting', name, content: 'x'.repeat(size) }]);
    }
    await uploadMany(rig, people.bob, [{ library: 'persona:sales', path: 'templates', name: 'deck.txt', content: 'deck' }]);
    await uploadMany(rig, people.carol, [{ path: 'tickets', name: 'open.txt', content: 'open' }]);
    await uploadMany(rig, people.admin, [
      { library: 'global', path: 'brand', name: 'logo.txt', content: 'logo' },
      { library: 'global', path: 'brand/print', name: 'cmyk.txt', content: 'cmyk' },
      { library: 'global', path: '', name: 'root-file.txt', content: 'root' },
    ]);
    await uploadMany(
      rig,
      people.alice,
      Array.from({ length: bulkFiles }, (_, i) => ({ path: 'bulk', name: `file-${String(i).padStart(3, '0')}.txt`, content: `file ${i}` })),
    );
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
  });

  async function topLevelTreeNames(page: import('playwright-core').Page): Promise<string[]> {
    const rows = page.getByRole('treegrid', { name: 'Folders' }).locator('[role="row"][aria-level="1"]');
    await rows.first().waitFor();
    return rows.evaluateAll((els) => els.map((e) => (e.querySelector('.tree-name')?.textContent ?? '').trim()));
  }

  it('a member sees My Resources, the personas she belongs to (by display name) and Global — no People, never the word "scope"', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto('/portal/resources');
    await poll(() => topLevelTreeNames(page)).toEqual(['My Resources', 'Sales', 'Global']);
    await poll(() => listedNames(page)).toEqual(['My Resources', 'Sales', 'Global']);
    expect(await page.locator('body').innerText()).not.toMatch(/scope/i);
    // Her persona's folder: she is a member, not its administrator, so she may not add folders there.
    await listingRows(page).filter({ hasText: 'Sales' }).dblclick();
    await page.waitForURL('**/portal/resources/lib/persona:sales');
    await poll(() => listedNames(page)).toEqual(['templates']);
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a persona administrator sees the persona’s folder and may add folders to it', async () => {
    const { page, context } = await rig.open(people.bob);
    await page.goto('/portal/resources');
    await poll(() => topLevelTreeNames(page)).toEqual(['My Resources', 'Sales', 'Global']);
    await page.goto('/portal/resources/lib/persona:sales');
    await poll(() => listedNames(page)).toEqual(['templates']);
    await page.getByRole('button', { name: 'New folder' }).waitFor();
    await context.close();
  });

  it('a platform administrator sees every persona, Global and People, whose folders (one per person) are read when People opens', async () => {
    const { page, context } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    const peopleRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/resources')) peopleRequests.push(r.url());
    });
    await page.goto('/portal/resources');
    await poll(() => topLevelTreeNames(page)).toEqual(['My Resources', 'Administrators', 'Sales', 'Support', 'Global', 'People']);
    const peopleRow = treeRow(page, 'People');
    expect(await peopleRow.getAttribute('aria-expanded')).toBe('false');
    expect(peopleRequests.filter((u) => u.includes('/libraries/people'))).toEqual([]);
    await peopleRow.getByRole('button', { name: 'Expand People' }).click();
    await treeRow(page, subjectOf(people.alice)).waitFor();
    expect(peopleRequests.filter((u) => u.includes('/libraries/people')).length).toBeGreaterThan(0);
    await treeRow(page, subjectOf(people.carol)).waitFor();
    // The People folder in the listing: one folder per person whose resources exist.
    await page.goto('/portal/resources/lib/people');
    // Bob filed only into the persona's folder: his own library holds nothing, so he is not listed.
    await poll(() => listedNames(page)).toEqual([subjectOf(people.alice), subjectOf(people.carol)].sort());
    await listingRows(page).filter({ hasText: subjectOf(people.carol) }).dblclick();
    await page.waitForURL(`**${personAddress(people.carol)}`);
    await poll(() => listedNames(page)).toEqual(['tickets']);
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).innerText()).toContain('People');
    expect(await page.locator('body').innerText()).not.toMatch(/scope/i);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the folder tree works by keyboard alone: Up/Down move, Right opens, Left closes, Enter opens the folder', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto('/portal/resources');
    const tree = page.getByRole('treegrid', { name: 'Folders' });
    await treeRow(page, 'My Resources').waitFor();
    await tabInto(page, tree);
    const focused = () => page.evaluate(() => document.activeElement?.closest('[role="row"]')?.querySelector('.tree-name')?.textContent ?? '');
    expect(await focused()).toBe('My Resources');
    await page.keyboard.press('ArrowRight');
    await poll(() => treeRow(page, 'My Resources').getAttribute('aria-expanded')).toBe('true');
    await treeRow(page, 'data').waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('bulk');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('data');
    await page.keyboard.press('ArrowRight');
    await treeRow(page, 'raw').waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${personAddress(people.alice, 'data')}`);
    await poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('data');
    await poll(() => treeRow(page, 'data').getAttribute('aria-selected')).toBe('true');
    await poll(() => listedNames(page)).toEqual(['raw', 'orders']);
    expect(await focused()).toBe('data');
    await page.keyboard.press('ArrowLeft');
    await poll(() => treeRow(page, 'data').getAttribute('aria-expanded')).toBe('false');
    expect(await treeRow(page, 'raw').count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('My Resources');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('My Resources');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Global');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/resources/lib/global');
    await poll(() => listedNames(page)).toEqual(['brand', '1 file at the top level']);
    await context.close();
  });

  it('counts and last change per folder: the tree and the listing show exact counts, a top-level folder lists folders and how many files sit at its top level', async () => {
    const { page, context } = await rig.open(people.admin);
    await page.goto('/portal/resources/lib/global');
    await poll(() => listedNames(page)).toEqual(['brand', '1 file at the top level']);
    expect(await treeRow(page, 'Global').innerText()).toMatch(/3 files · changed /);
    expect(await listingRows(page).filter({ hasText: 'brand' }).innerText()).toMatch(/2 files/);
    await treeRow(page, 'brand').waitFor();
    expect(await treeRow(page, 'brand').innerText()).toMatch(/2 files · changed /);
    // The top-level files open as every file of the library.
    await listingRows(page).filter({ hasText: 'at the top level' }).dblclick();
    await page.waitForURL('**/portal/resources/lib/global?files=all');
    await poll(() => listedNames(page)).toEqual(['cmyk', 'logo', 'root-file']);
    await context.close();
  });

  it('the listing sorts by Name, Modified and Size; a second click on the header reverses', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'sorting'));
    await poll(() => listedNames(page)).toEqual(['a', 'b', 'c']);
    const header = (name: string) => listing(page).getByRole('columnheader', { name });
    expect(await header('Name').getAttribute('aria-sort')).toBe('ascending');
    await header('Name').getByRole('button').click();
    await poll(() => listedNames(page)).toEqual(['c', 'b', 'a']);
    expect(await header('Name').getAttribute('aria-sort')).toBe('descending');
    expect(page.url()).toContain('sort=name_desc');
    await header('Modified').getByRole('button').click();
    await poll(() => listedNames(page)).toEqual(['b', 'a', 'c']);
    expect(await header('Modified').getAttribute('aria-sort')).toBe('descending');
    expect(await header('Name').getAttribute('aria-sort')).toBe('none');
    await header('Modified').getByRole('button').click();
    await poll(() => listedNames(page)).toEqual(['c', 'a', 'b']);
    await header('Size').getByRole('button').click();
    await poll(() => listedNames(page)).toEqual(['b', 'c', 'a']);
    expect(page.url()).toContain('sort=size');
    await header('Size').getByRole('button').click();
    await poll(() => listedNames(page)).toEqual(['a', 'c', 'b']);
    // The sort is part of the address: a reload keeps it.
    await page.reload();
    await poll(() => listedNames(page)).toEqual(['a', 'c', 'b']);
    expect(await header('Size').getAttribute('aria-sort')).toBe('descending');
    // Not an administrator: no Last read column.
    expect(await header('Last read').count()).toBe(0);
    await context.close();
  });

  it('administrators see Last read and the Recently read sort', async () => {
    const rest = await rig.restAs(people.alice);
    const listed = await rest('GET', `/api/v1/resources?path=${encodeURIComponent(`person:${subjectOf(people.alice)}/sorting`)}`);
    const a = listed.body.items.find((r: { file_name: string }) => r.file_name === 'a.txt');
    expect((await rest('GET', `/api/v1/resources/${a.id}/content`)).status).toBe(200);
    const { page, context } = await rig.open(people.admin);
    await page.goto(personAddress(people.alice, 'sorting'));
    await poll(() => listedNames(page)).toEqual(['a', 'b', 'c']);
    const lastRead = listing(page).getByRole('columnheader', { name: 'Last read' });
    await lastRead.waitFor();
    await lastRead.getByRole('button').click();
    // Most recently read first, never read last (b and c: never read, in id order).
    await poll(() => listedNames(page).then((n) => n[0])).toBe('a');
    expect(await listing(page).getByRole('columnheader', { name: 'Recently read' }).getAttribute('aria-sort')).toBe('descending');
    expect(await listingRows(page).first().innerText()).not.toContain('never');
    expect(await listingRows(page).last().innerText()).toContain('never');
    expect(page.url()).toContain('sort=last_read');
    await context.close();
  });

  it(`pages past the first page while scrolling (${bulkFiles} files) and the DOM holds a bounded number of rows`, async () => {
    const { page, context } = await rig.open(people.alice, { height: 800 });
    const pages: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/resources?')) pages.push(r.url());
    });
    await page.goto(personAddress(people.alice, 'bulk'));
    await poll(() => listedNames(page).then((n) => n[0])).toBe('file-000');
    const grid = listing(page);
    expect(await grid.getAttribute('aria-rowcount')).toBe(String(bulkFiles + 1));
    const domRows = () => listingRows(page).count();
    let most = 0;
    for (let i = 0; i < 40; i++) {
      most = Math.max(most, await domRows());
      const names = await listedNames(page);
      if (names.includes(`file-${bulkFiles - 1}`)) break;
      await grid.evaluate((el) => el.scrollBy(0, 1200));
      await page.waitForTimeout(50);
    }
    await poll(() => listedNames(page)).toContain(`file-${bulkFiles - 1}`);
    most = Math.max(most, await domRows());
    expect(most).toBeLessThan(80);
    expect(pages.filter((u) => u.includes('cursor=')).length).toBeGreaterThanOrEqual(1);
    const last = listingRows(page).filter({ hasText: `file-${bulkFiles - 1}` });
    expect(await last.getAttribute('aria-rowindex')).toBe(String(bulkFiles + 1));
    await poll(() => page.locator('.listing-footer').innerText()).toContain(`${bulkFiles} files`);
    await context.close();
  });

  it('every address reloads and Back and Forward work: the root, Global, a persona’s folder, My Resources, People and a person', async () => {
    const { page, context } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    const title = () => page.getByRole('heading', { level: 2 }).innerText();
    await page.goto('/portal/resources');
    await poll(() => listedNames(page)).toContain('Global');
    await listingRows(page).filter({ hasText: 'Global' }).dblclick();
    await page.waitForURL('**/portal/resources/lib/global');
    await listingRows(page).filter({ hasText: 'brand' }).dblclick();
    await page.waitForURL('**/portal/resources/lib/global/brand');
    await poll(title).toBe('brand');
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Global' }).click();
    await page.waitForURL('**/portal/resources/lib/global');
    await page.goBack();
    await page.waitForURL('**/portal/resources/lib/global/brand');
    await poll(title).toBe('brand');
    await poll(() => listedNames(page)).toEqual(['print', 'logo']);
    await page.goBack();
    await page.goBack();
    await page.waitForURL(/\/portal\/resources$/);
    await poll(title).toBe('Resources');
    await page.goForward();
    await page.waitForURL('**/portal/resources/lib/global');
    await poll(title).toBe('Global');

    const addresses: Array<[string, string, string[]]> = [
      ['/portal/resources', 'Resources', ['My Resources', 'Administrators', 'Sales', 'Support', 'Global', 'People']],
      ['/portal/resources/lib/global/brand/print', 'print', ['cmyk']],
      ['/portal/resources/lib/persona:sales/templates', 'templates', ['deck']],
      [personAddress(people.admin), 'My Resources', []],
      ['/portal/resources/lib/people', 'People', [subjectOf(people.alice), subjectOf(people.carol)].sort()],
      [personAddress(people.alice, 'data/raw'), 'raw', ['raw']],
    ];
    for (const [address, heading, names] of addresses) {
      await page.goto(address);
      await page.reload();
      await poll(title).toBe(heading);
      await poll(() => listedNames(page)).toEqual(names);
    }
    // The open folder is expanded in the tree and marked current after a reload.
    await poll(() => treeRow(page, 'raw').getAttribute('aria-selected')).toBe('true');
    expect(await treeRow(page, 'People').getAttribute('aria-expanded')).toBe('true');
    expect(await treeRow(page, 'data').getAttribute('aria-expanded')).toBe('true');
    await page.goto('/portal/resources/lib/nowhere');
    await page.getByText('This address names no folder').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('axe finds no serious or critical violations in light and dark; screenshots at 1280 and 1920 wide', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { page, context } = await rig.open(people.admin, { theme, width });
        await page.goto(personAddress(people.alice, 'data'));
        await poll(() => listedNames(page)).toEqual(['raw', 'orders']);
        await treeRow(page, 'raw').waitFor();
        await listingRows(page).filter({ hasText: 'orders' }).click();
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-p1-browse-${theme}-${width}.png` });
        await page.goto('/portal/resources');
        await poll(() => listedNames(page)).toContain('People');
        if (width === 1920) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-p1-root-${theme}-${width}.png` });
        await context.close();
      }
    }
  }, 180_000);
});
