/**
 * The Resources listing by keyboard alone (issue 36; spec document 2, "Upload rules in the
 * portal": Up/Down, Shift extends, Enter opens, Backspace goes up, Cmd/Ctrl-Backspace or Delete
 * deletes, F2 renames; a context menu with the same actions; focus never lost). Real Chromium
 * against the real api.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { expectFocusedRow, focusedRowName, listedNames, listing, listingRows, personAddress, poll, tabInto, uploadMany } from './portal-resources-support.js';

describe.skipIf(!haveChromium)('portal Resources: the listing by keyboard', () => {
  let rig: PortalRig;
  let ids: Record<string, string>;

  beforeAll(async () => {
    rig = await startPortalRig();
    const answers = await uploadMany(rig, people.alice, [
      { path: 'kb/alpha', name: 'inside.txt', content: 'inside' },
      { path: 'kb', name: 'one.txt', content: 'one' },
      { path: 'kb', name: 'two.txt', content: 'two' },
      { path: 'kb', name: 'three.txt', content: 'three' },
      { path: 'kb', name: 'four.txt', content: 'four' },
    ]);
    ids = { inside: answers[0]!.id, one: answers[1]!.id, two: answers[2]!.id, three: answers[3]!.id, four: answers[4]!.id };
    const rest = await rig.restAs(people.alice);
    expect((await rest('POST', '/api/v1/resources/folders', { library: 'personal', path: 'kb/beta' })).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await rig?.stop();
  });

  const selectedNames = (page: Page) =>
    listingRows(page)
      .and(page.locator('[aria-selected="true"]'))
      .evaluateAll((rows) => rows.map((r) => r.querySelector('.cell-text')?.textContent ?? ''));

  async function openKb(page: Page) {
    await page.goto(personAddress(people.alice, 'kb'));
    await poll(() => listedNames(page).then((n) => n.slice(0, 2))).toEqual(['alpha', 'beta']);
    await tabInto(page, listing(page).locator('[role="rowgroup"]').last());
    await expectFocusedRow(page, 'alpha');
  }

  it('Up/Down move, Shift extends the selection, Enter opens a folder and Backspace goes back up to it', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await openKb(page);
    expect(await listedNames(page)).toEqual(['alpha', 'beta', 'four', 'one', 'three', 'two']);
    await page.keyboard.press('ArrowDown');
    await expectFocusedRow(page, 'beta');
    expect(await selectedNames(page)).toEqual(['beta']);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await expectFocusedRow(page, 'one');
    expect(await selectedNames(page)).toEqual(['beta', 'four', 'one']);
    await page.keyboard.press('Shift+ArrowUp');
    expect(await selectedNames(page)).toEqual(['beta', 'four']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expectFocusedRow(page, 'three');
    expect(await selectedNames(page)).toEqual(['three']);
    await page.keyboard.press('Home');
    await expectFocusedRow(page, 'alpha');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${personAddress(people.alice, 'kb/alpha')}`);
    await expectFocusedRow(page, 'inside');
    await page.keyboard.press('Backspace');
    await page.waitForURL(`**${personAddress(people.alice, 'kb')}`);
    await expectFocusedRow(page, 'alpha');
    // Up from the library's top level: the top-level folders, focus on the one we left.
    await page.keyboard.press('Backspace');
    await page.waitForURL(`**${personAddress(people.alice)}`);
    await expectFocusedRow(page, 'kb');
    await page.keyboard.press('Backspace');
    await page.waitForURL(/\/portal\/resources$/);
    await expectFocusedRow(page, 'My Resources');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Enter on a file opens its page at /portal/resources/<id>; Back returns to the folder', async () => {
    const { page, context } = await rig.open(people.alice);
    await openKb(page);
    await page.keyboard.press('End');
    await expectFocusedRow(page, 'two');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/portal/resources/${ids.two}`);
    await page.goBack();
    await page.waitForURL(`**${personAddress(people.alice, 'kb')}`);
    await poll(() => listedNames(page)).toContain('two');
    await context.close();
  });

  it('F2 renames a file (its display name); focus comes back to its row', async () => {
    const { page, context } = await rig.open(people.alice);
    await openKb(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expectFocusedRow(page, 'four');
    await page.keyboard.press('F2');
    const dialog = page.getByRole('dialog', { name: 'Rename file' });
    await dialog.waitFor();
    const field = dialog.getByRole('textbox', { name: 'Display name' });
    await poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('vier');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).toEqual(['alpha', 'beta', 'one', 'three', 'two', 'vier']);
    await expectFocusedRow(page, 'vier');
    const rest = await rig.restAs(people.alice);
    const renamed = await rest('GET', `/api/v1/resources/${ids.four}`);
    expect(renamed.body).toMatchObject({ display_name: 'vier', file_name: 'four.txt' });
    // Escape leaves a dialog without renaming, focus back on the row.
    await page.keyboard.press('F2');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusedRow(page, 'vier');
    await context.close();
  });

  it('Delete and Cmd/Ctrl-Backspace delete after a confirmation; focus moves to the next row', async () => {
    const { page, context } = await rig.open(people.alice);
    await openKb(page);
    await poll(() => listedNames(page)).toContain('three');
    while ((await focusedRowName(page)) !== 'three') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete file' });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('three.txt');
    // Keyboard only: Tab to the Delete button.
    for (let i = 0; i < 5 && !(await confirm.getByRole('button', { name: 'Delete' }).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'detached' });
    await poll(() => listedNames(page)).not.toContain('three');
    await expectFocusedRow(page, 'two');
    const rest = await rig.restAs(people.alice);
    expect((await rest('GET', `/api/v1/resources/${ids.three}`)).status).toBe(404);
    // Cmd/Ctrl-Backspace asks too; Escape keeps the file and the focus.
    await page.keyboard.press('ControlOrMeta+Backspace');
    await page.getByRole('alertdialog', { name: 'Delete file' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await expectFocusedRow(page, 'two');
    expect(page.url()).toContain('/kb');
    await context.close();
  });

  it('the context menu opens by Shift+F10 and by the Menu key with the row’s actions; Escape returns focus to the row; an item runs its action', async () => {
    const { page, context } = await rig.open(people.alice);
    await openKb(page);
    while ((await focusedRowName(page)) !== 'one') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu', { name: 'Actions for one' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitem').evaluateAll((items) => items.map((i) => i.querySelector('[slot="label"]')?.textContent))).toEqual([
      'Open',
      'Rename…',
      'Move to…',
      'Delete…',
    ]);
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expectFocusedRow(page, 'one');
    await page.keyboard.press('ContextMenu');
    await menu.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rename file' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocusedRow(page, 'one');
    // A folder's menu: its own actions (Upload here: the person may add files there).
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+F10');
    const folderMenu = page.getByRole('menu', { name: 'Actions for alpha' });
    await folderMenu.waitFor();
    expect(await folderMenu.getByRole('menuitem').evaluateAll((items) => items.map((i) => i.querySelector('[slot="label"]')?.textContent))).toEqual([
      'Open',
      'Rename…',
      'Move to…',
      'Describe…',
      'Upload here…',
      'Delete…',
    ]);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${personAddress(people.alice, 'kb/alpha')}`);
    await expectFocusedRow(page, 'inside');
    // Right click opens the same menu at the pointer.
    await listingRows(page).filter({ hasText: 'inside' }).click({ button: 'right' });
    await page.getByRole('menu', { name: 'Actions for inside' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expectFocusedRow(page, 'inside');
    await context.close();
  });
});
