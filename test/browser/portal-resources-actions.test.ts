/**
 * The Resources file manager's folder and file actions (issue 36; spec document 2, "Move, rename,
 * folder change", "Folder", "Errors", "Authentication"): Move to with the collision refusal naming
 * the colliding file, New folder with the name rule, Describe folder, Rename and move a folder
 * (the 500-file limit stated with its true count), Delete a file and an empty folder (a folder
 * holding files refused); each offered exactly where the api accepts it, so a member in Global
 * sees none of them. The refusals are the server's words. Real Chromium against the real api.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';
import { expectFocusedRow, focusedRowName, listedNames, listing, listingRows, listingSection, personAddress, poll, tabInto, treeRow, uploadMany, seedFileRows } from './portal-resources-support.js';

const overLimit = 501;

describe.skipIf(!haveChromium)('portal Resources: folder and file actions', () => {
  let rig: PortalRig;
  let reportId: string;

  beforeAll(async () => {
    rig = await startPortalRig();
    const answers = await uploadMany(rig, people.alice, [
      { path: 'act/docs', name: 'report.txt', content: 'report', displayName: 'Quarterly report' },
      { path: 'act/docs', name: 'memo.txt', content: 'memo' },
      { path: 'act/archive', name: 'report.txt', content: 'old report' },
      { path: 'act/full', name: 'x.txt', content: 'x' },
      { path: 'act/rename-me/deep', name: 'y.txt', content: 'y' },
      { path: 'act/clash', name: 'report.txt', content: 'another report' },
    ]);
    reportId = answers[0]!.id;
    const rest = await rig.restAs(people.alice);
    expect((await rest('POST', '/api/v1/resources/folders', { library: 'personal', path: 'act/empty' })).status).toBe(201);
    await uploadMany(rig, people.admin, [{ library: 'global', path: 'brand', name: 'logo.txt', content: 'logo' }]);
    await seedFileRows(rig, people.alice, 'big/inner', overLimit);
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
  });

  async function openMenu(page: Page, row: string) {
    await listingRows(page).filter({ hasText: row }).first().click();
    await expectFocusedRow(page, row);
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menu', { name: `Actions for ${row}` }).waitFor();
  }
  async function choose(page: Page, item: string) {
    await page.getByRole('menuitem', { name: item }).click();
  }
  /** Types a folder into the Move to combo box and leaves it with Tab (its suggestions close, the text stays). */
  async function typeDestination(page: Page, combo: ReturnType<Page['getByRole']>, path: string) {
    await combo.fill(path);
    await page.keyboard.press('Tab');
    await poll(() => page.getByRole('listbox').count()).toBe(0);
    expect(await combo.inputValue()).toBe(path);
  }
  const menuItems = (page: Page) => page.getByRole('menu').getByRole('menuitem').evaluateAll((items) => items.map((i) => i.querySelector('[slot="label"]')?.textContent));

  it('Move to: a collision is refused naming the colliding file and nothing moves; a free folder takes the file, focus on the next row', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'act/docs'));
    await poll(() => listedNames(page)).toEqual(['memo', 'Quarterly report']);
    await openMenu(page, 'Quarterly report');
    await choose(page, 'Move to…');
    const dialog = page.getByRole('dialog', { name: 'Move Quarterly report' });
    await dialog.waitFor();
    const combo = dialog.getByRole('combobox', { name: /Move to folder in My Resources/ });
    await typeDestination(page, combo, 'act/archive');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    const refusal = dialog.getByRole('alert');
    await poll(() => refusal.innerText()).toContain('report.txt');
    expect(await dialog.isVisible()).toBe(true);
    const rest = await rig.restAs(people.alice);
    expect((await rest('GET', `/api/v1/resources/${reportId}`)).body.path).toBe('act/docs');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-p1-move-refused.png' });
    await typeDestination(page, combo, 'act/moved');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).toEqual(['memo']);
    await expectFocusedRow(page, 'memo');
    expect((await rest('GET', `/api/v1/resources/${reportId}`)).body.path).toBe('act/moved');
    await poll(() => listingSection(page).getByRole('status').innerText()).toContain('Moved Quarterly report to act/moved');
    // The tree shows the new folder, with its count.
    await treeRow(page, 'moved').waitFor();
    expect(await treeRow(page, 'moved').innerText()).toContain('1 file');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('New folder: a name breaking the rule is refused naming the rule; a good one is created, listed and focused', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'act'));
    await poll(() => listedNames(page)).toContain('docs');
    await page.getByRole('button', { name: 'New folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'New folder in act' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('Lowercase letters, digits and hyphens, starting with a letter or digit');
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill('Reports');
    await page.keyboard.press('Enter');
    const refusal = dialog.getByRole('alert');
    await poll(() => refusal.innerText()).toMatch(/"Reports" breaks the rule/);
    await dialog.getByRole('textbox', { name: 'Folder name' }).fill('reports-2026');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).toContain('reports-2026');
    await expectFocusedRow(page, 'reports-2026');
    await treeRow(page, 'reports-2026').waitFor();
    await context.close();
  });

  it('Delete folder: one still holding files is refused in the server’s words; an empty one is deleted', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'act'));
    await poll(() => listedNames(page)).toContain('full');
    await openMenu(page, 'full');
    await choose(page, 'Delete…');
    const confirm = page.getByRole('alertdialog', { name: 'Delete folder' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await poll(() => confirm.getByRole('alert').innerText()).toMatch(/1 file/);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expectFocusedRow(page, 'full');
    expect(await listedNames(page)).toContain('full');
    await openMenu(page, 'empty');
    await choose(page, 'Delete…');
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).not.toContain('empty');
    expect(await focusedRowName(page)).not.toBe('');
    await context.close();
  });

  it('Describe folder: the description is saved and shown with the folder', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'act'));
    await poll(() => listedNames(page)).toContain('archive');
    await openMenu(page, 'archive');
    await choose(page, 'Describe…');
    const dialog = page.getByRole('dialog', { name: 'Describe archive' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Reports kept for the record');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listingRows(page).filter({ hasText: 'archive' }).innerText()).toContain('Reports kept for the record');
    await expectFocusedRow(page, 'archive');
    // Inside the folder the toolbar's Describe folder edits the same text.
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${personAddress(people.alice, 'act/archive')}`);
    await poll(() => page.locator('.listing-description').innerText()).toBe('Reports kept for the record');
    await page.getByRole('button', { name: 'Describe folder' }).click();
    await poll(() => page.getByRole('dialog', { name: 'Describe archive' }).getByRole('textbox').inputValue()).toBe('Reports kept for the record');
    await page.keyboard.press('Escape');
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Describe folder');
    const rest = await rig.restAs(people.alice);
    const facets = await rest('GET', `/api/v1/resources/facets?path=${encodeURIComponent(`person:${subjectOf(people.alice)}/act/archive`)}&depth=1`);
    expect(facets.body.folders[0].description).toBe('Reports kept for the record');
    await context.close();
  });

  it('Rename a folder (F2) moves every file beneath; a taken name is refused naming the file; more than 500 files is refused with the true count', async () => {
    const { page, context } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'act'));
    await poll(() => listedNames(page)).toContain('rename-me');
    await listingRows(page).filter({ hasText: 'rename-me' }).click();
    await page.keyboard.press('F2');
    const dialog = page.getByRole('dialog', { name: 'Rename folder' });
    await dialog.waitFor();
    const field = dialog.getByRole('textbox', { name: 'Folder name' });
    expect(await field.inputValue()).toBe('rename-me');
    await field.fill('renamed');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).toContain('renamed');
    expect(await listedNames(page)).not.toContain('rename-me');
    await expectFocusedRow(page, 'renamed');
    const rest = await rig.restAs(people.alice);
    const moved = await rest('GET', `/api/v1/resources?path=${encodeURIComponent(`person:${subjectOf(people.alice)}/act/renamed/deep`)}&direct=true`);
    expect(moved.body.items.map((r: { file_name: string }) => r.file_name)).toEqual(['y.txt']);

    // A folder whose files would land on taken addresses: refused, naming the file.
    await listingRows(page).filter({ hasText: 'archive' }).click();
    await page.keyboard.press('F2');
    await dialog.waitFor();
    await field.fill('clash');
    await page.keyboard.press('Enter');
    await poll(() => dialog.getByRole('alert').innerText()).toContain('report.txt');
    await page.keyboard.press('Escape');
    await expectFocusedRow(page, 'archive');

    // Move a folder under another (Move to), then over the 500-file limit.
    await page.goto(personAddress(people.alice));
    await poll(() => listedNames(page)).toContain('big');
    await openMenu(page, 'big');
    await choose(page, 'Move to…');
    const move = page.getByRole('dialog', { name: 'Move big' });
    await move.waitFor();
    await typeDestination(page, move.getByRole('combobox'), 'act');
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await poll(() => move.getByRole('alert').innerText()).toContain(`${overLimit} files`);
    expect(await move.getByRole('alert').innerText()).toContain('500');
    await page.screenshot({ path: '/tmp/wt-p1-rename-limit.png' });
    await move.getByRole('button', { name: 'Cancel' }).click();
    await expectFocusedRow(page, 'big');
    await context.close();
  }, 120_000);

  it('a member never sees a control the api would refuse: in Global, no New folder, no Describe, a file offers only Open, and Delete or F2 do nothing', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto('/portal/resources/lib/global');
    await poll(() => listedNames(page)).toEqual(['brand']);
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    await openMenu(page, 'brand');
    expect(await menuItems(page)).toEqual(['Open']);
    await page.keyboard.press('Escape');
    await expectFocusedRow(page, 'brand');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/portal/resources/lib/global/brand');
    await poll(() => listedNames(page)).toEqual(['logo']);
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Describe folder' }).count()).toBe(0);
    await tabInto(page, listing(page).locator('[role="rowgroup"]').last());
    await expectFocusedRow(page, 'logo');
    await page.keyboard.press('Shift+F10');
    await page.getByRole('menu', { name: 'Actions for logo' }).waitFor();
    expect(await menuItems(page)).toEqual(['Open']);
    await page.keyboard.press('Escape');
    await expectFocusedRow(page, 'logo');
    await page.keyboard.press('Delete');
    await page.keyboard.press('F2');
    await poll(() => listingSection(page).getByRole('status').innerText()).toContain('not offered');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await expectFocusedRow(page, 'logo');
    // Bob administers the sales persona: there he may add folders; alice, a member, may not.
    await page.goto('/portal/resources/lib/persona:sales');
    await poll(() => page.getByRole('heading', { level: 2 }).innerText()).toBe('Sales');
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the dialogs pass axe in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, context } = await rig.open(people.alice, { theme, width: 1920 });
      await page.goto(personAddress(people.alice, 'act'));
      await poll(() => listedNames(page)).toContain('docs');
      await openMenu(page, 'docs');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-p1-menu-${theme}.png` });
      await choose(page, 'Rename…');
      await page.getByRole('dialog', { name: 'Rename folder' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-p1-dialog-${theme}.png` });
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'New folder' }).click();
      await page.getByRole('dialog').getByRole('textbox').fill('Bad Name');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog').getByRole('alert').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-p1-newfolder-${theme}.png` });
      await context.close();
    }
  });
});
