/**
 * Moves by drag and drop in the Resources file manager (issue 37, "Bulk actions and moves"; spec
 * document 2: "Drag within a top-level folder moves, with Undo"; "Move, rename, folder change";
 * Errors; Limits): a file dragged onto a tree folder and a folder dragged onto a listing folder
 * move, and Undo puts each back with the same routes; refusals — a collision, a folder into
 * itself, a folder of more than 500 files (its true count) — are the server's words and nothing
 * has moved (a multi-item drag puts back what it moved before the refusal); a drop onto another
 * top-level folder is refused in the page. Real Chromium against the real api.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig, type RestAs } from '../support/portal.js';
import { listedNames, listingRows, personAddress, poll, treeRow, uploadMany, seedFileRows } from './portal-resources-support.js';

const overLimit = 501;

describe.skipIf(!haveChromium)('portal Resources: moves by drag, with Undo', () => {
  let rig: PortalRig;
  let rest: RestAs;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rig = await startPortalRig();
    rest = await rig.restAs(people.alice);
    const answers = await uploadMany(rig, people.alice, [
      { path: 'drag/src', name: 'f1.txt', content: 'f1' },
      { path: 'drag/src', name: 'f2.txt', content: 'f2' },
      { path: 'drag/dst', name: 'other.txt', content: 'other' },
      { path: 'drag/fold/inner', name: 'z.txt', content: 'z' },
      { path: 'drag/clash', name: 'f2.txt', content: 'another f2' },
    ]);
    for (const [i, name] of ['f1', 'f2', 'other', 'z', 'clash-f2'].entries()) ids[name] = answers[i]!.id;
    await uploadMany(rig, people.admin, [{ library: 'global', path: 'brand', name: 'logo.txt', content: 'logo' }]);
    await seedFileRows(rig, people.alice, 'drag/big/inner', overLimit);
  }, 300_000);

  afterAll(async () => {
    await rig?.stop();
  });

  const row = (page: Page, name: string): Locator => listingRows(page).filter({ has: page.locator('.cell-text', { hasText: new RegExp(`^${name}$`) }) });
  const toast = (page: Page) => page.getByRole('region', { name: 'Moves' });
  const pathOf = async (id: string) => ((await rest('GET', `/api/v1/resources/${id}`)).body as { path: string }).path;
  const filesIn = async (path: string) =>
    ((await rest('GET', `/api/v1/resources?path=${encodeURIComponent(`person:${subjectOf(people.alice)}/${path}`)}&direct=false&limit=1000`)).body as { items: Array<{ id: string }> }).items.length;

  async function open(page: Page, path: string, first: string) {
    await page.goto(personAddress(people.alice, path));
    await poll(() => listedNames(page)).toContain(first);
  }

  it('drag-move of a file onto a tree folder, then Undo restores it', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await open(page, 'drag/src', 'f1');
    await treeRow(page, 'dst').waitFor();
    await row(page, 'f1').dragTo(treeRow(page, 'dst'));
    await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved 1 file to dst.');
    expect(await pathOf(ids.f1!)).toBe('drag/dst');
    await poll(() => listedNames(page)).toEqual(['f2']);
    await poll(() => treeRow(page, 'dst').innerText()).toContain('2 files');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-37b-drag-undo.png' });
    await toast(page).getByRole('button', { name: 'Undo' }).click();
    await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved f1 back.');
    expect(await pathOf(ids.f1!)).toBe('drag/src');
    await poll(() => listedNames(page)).toEqual(['f1', 'f2']);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('drag-move of a folder onto a listing folder moves everything beneath it, then Undo restores it', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await open(page, 'drag', 'fold');
    await row(page, 'fold').dragTo(row(page, 'dst'));
    await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved 1 folder to dst.');
    expect(await pathOf(ids.z!)).toBe('drag/dst/fold/inner');
    await poll(() => listedNames(page)).not.toContain('fold');
    await toast(page).getByRole('button', { name: 'Undo' }).click();
    await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved fold back.');
    expect(await pathOf(ids.z!)).toBe('drag/fold/inner');
    await poll(() => listedNames(page)).toContain('fold');
    // Focus stays in the message (the Undo button is gone), and Dismiss goes back to the listing.
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Dismiss');
    await page.keyboard.press('Enter');
    await poll(() => toast(page).count()).toBe(0);
    await poll(() => page.evaluate(() => document.activeElement?.closest('[role="grid"]') !== null)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('refusals in the server’s words with nothing moved: a two-file drag onto a folder holding one of the names, a folder into its own subfolder', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await open(page, 'drag/src', 'f1');
    await row(page, 'f1').click();
    await row(page, 'f2').click({ modifiers: ['Shift'] });
    await treeRow(page, 'clash').waitFor();
    await row(page, 'f2').dragTo(treeRow(page, 'clash'));
    const refusal = toast(page).getByRole('alert');
    await poll(() => refusal.innerText()).toMatch(/^f2 was not moved: a file named "f2\.txt" already exists in .*drag\/clash.*\. Nothing was moved\.$/);
    expect(await toast(page).getByRole('button', { name: 'Undo' }).count()).toBe(0);
    // f1 went first and was put back.
    expect(await pathOf(ids.f1!)).toBe('drag/src');
    expect(await pathOf(ids.f2!)).toBe('drag/src');
    await poll(() => listedNames(page)).toEqual(['f1', 'f2']);
    await page.screenshot({ path: '/tmp/wt-37b-drag-refused.png' });

    // A folder dropped into its own subfolder (the tree shows it once fold is expanded).
    await open(page, 'drag', 'fold');
    await treeRow(page, 'fold').locator('.tree-chevron').click();
    await treeRow(page, 'inner').waitFor();
    await row(page, 'fold').dragTo(treeRow(page, 'inner'));
    await poll(() => refusal.innerText()).toMatch(/^fold was not moved: cannot move folder drag\/fold inside itself/);
    expect(await pathOf(ids.z!)).toBe('drag/fold/inner');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('oversize folder move refused: more than 500 files beneath is the server’s refusal with the true count, nothing moved', async () => {
    const { page, context } = await rig.open(people.alice);
    await open(page, 'drag', 'big');
    await row(page, 'big').dragTo(row(page, 'dst'));
    const refusal = toast(page).getByRole('alert');
    await poll(() => refusal.innerText()).toContain(`${overLimit} files`);
    expect(await refusal.innerText()).toContain('at most 500');
    expect(await refusal.innerText()).toContain('Nothing was moved.');
    expect(await filesIn('drag/big')).toBe(overLimit);
    expect(await filesIn('drag/dst')).toBe(1);
    await page.screenshot({ path: '/tmp/wt-37b-drag-oversize.png' });
    await context.close();
  }, 120_000);

  it('a drop onto another top-level folder (Global) is refused in the page, saying moves between libraries are in Edit details; nothing moves; a file the caller may not move is no drag source', async () => {
    const { page, context } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await open(page, 'drag/src', 'f1');
    await row(page, 'f1').dragTo(treeRow(page, 'Global'));
    await poll(() => toast(page).getByRole('alert').innerText()).toBe('Moving to another top-level folder is done in Edit details (Top-level folder), not by drag.');
    expect(await pathOf(ids.f1!)).toBe('drag/src');
    expect(((await rest('GET', `/api/v1/resources/${ids.f1}`)).body as { library: string }).library).toBe(`person:${subjectOf(people.alice)}`);
    expect(await row(page, 'f1').getAttribute('draggable')).toBe('true');
    // In Global a member may change nothing: neither the folder nor the file is draggable.
    await page.goto('/portal/resources/lib/global/brand');
    await poll(() => listedNames(page)).toEqual(['logo']);
    expect(await row(page, 'logo').getAttribute('draggable')).toBeNull();
    await page.goto('/portal/resources/lib/global');
    await poll(() => listedNames(page)).toEqual(['brand']);
    expect(await row(page, 'brand').getAttribute('draggable')).toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('the move message passes axe in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { page, context } = await rig.open(people.alice, { theme, width: 1920 });
      await open(page, 'drag/src', 'f1');
      await row(page, 'f2').dragTo(treeRow(page, 'dst'));
      await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved 1 file to dst.');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-37b-toast-${theme}.png` });
      await toast(page).getByRole('button', { name: 'Undo' }).click();
      await poll(() => toast(page).getByRole('status').innerText()).toBe('Moved f2 back.');
      await context.close();
    }
  }, 120_000);
});
