/**
 * The Prompts page in a real browser (issue 40): a person creates a prompt from the keyboard,
 * attaches resources picked in the Resources folder tree (a refusal of the Attachment rule shows
 * the server's message naming the file), reorders and detaches them, sees deleted material as
 * missing; a persona administrator's promotion of a prompt with a private attachment is refused
 * with the server's message. axe in both themes; screenshots at 1280 and 1920.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

describe.skipIf(!haveChromium)('the portal\'s prompts page', () => {
  let rig: PortalRig;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rig = await startPortalRig();
    ids.layout = ((await rig.upload(people.alice, { path: 'templates', name: 'layout.md', content: '# Layout', displayName: 'Report layout' })) as { id: string }).id;
    ids.scratch = ((await rig.upload(people.alice, { path: 'templates', name: 'scratch.md', content: 'scratch', displayName: 'Scratch notes' })) as { id: string }).id;
    ids.sales = ((await rig.upload(people.bob, { library: 'persona:sales', path: 'playbooks', name: 'pitch.md', content: 'pitch', displayName: 'Sales pitch' })) as { id: string }).id;
    ids.handbook = ((await rig.upload(people.admin, { library: 'global', path: 'references', name: 'handbook.md', content: 'handbook', displayName: 'Handbook' })) as { id: string }).id;
  }, 180_000);

  afterAll(async () => rig?.stop());

  /** Opens a folder in the picker's tree: the top-level folder's row, then (expanded) the folder's. */
  async function openFolder(page: Page, top: string, folder: string) {
    const tree = page.getByRole('dialog').getByRole('treegrid', { name: 'Folders' });
    await tree.getByRole('row', { name: top }).click();
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('row', { name: folder }).click();
  }

  it('creates a prompt from the keyboard and attaches resources picked in the folder tree, in order', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}/portal/resources`);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Prompts' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Prompts');
    await page.getByRole('button', { name: 'New prompt' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New prompt' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Bad Name');
    await dialog.getByRole('textbox', { name: 'Content' }).fill('Write the weekly sales brief for {region}.');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('lowercase letters');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('sales-brief');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('#prompt-title').innerText()).toBe('sales-brief');
    expect(page.url()).toMatch(/\/portal\/prompts\/[0-9a-f-]+$/);

    await page.getByRole('button', { name: 'Attach resources…' }).click();
    const picker = page.getByRole('dialog', { name: 'Attach resources to sales-brief' });
    await openFolder(page, 'My Resources', 'templates');
    await picker.getByRole('button', { name: 'Attach Scratch notes' }).click();
    await picker.getByRole('button', { name: 'Attach Report layout' }).click();
    await expect.poll(() => picker.getByRole('button', { name: 'Detach Report layout' }).count()).toBe(1);
    // Focus stays on the control that was pressed (now Detach).
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Detach Report layout');
    // A persona's file on a personal prompt: refused by the server, its message shown.
    await openFolder(page, 'Sales', 'playbooks');
    await picker.getByRole('button', { name: 'Attach Sales pitch' }).click();
    await expect.poll(() => picker.getByRole('alert').innerText()).toMatch(/cannot attach resource "Sales pitch" \(mcp:resource:.+\) in persona:sales is narrower than the prompt/);
    await openFolder(page, 'Global', 'references');
    await picker.getByRole('button', { name: 'Attach Handbook' }).click();
    await expect.poll(() => picker.getByRole('status').innerText()).toBe('3 attached');
    await picker.getByRole('button', { name: 'Done' }).click();

    const names = () => page.getByRole('region', { name: 'Attachments' }).getByRole('listitem').allInnerTexts();
    await expect.poll(async () => (await names()).map((t) => t.split('\n')[0])).toEqual(['Scratch notes', 'Report layout', 'Handbook']);
    await page.getByRole('button', { name: 'Move Report layout up' }).click();
    await expect.poll(async () => (await names()).map((t) => t.split('\n')[0])).toEqual(['Report layout', 'Scratch notes', 'Handbook']);
    await page.getByRole('button', { name: 'Detach Scratch notes' }).click();
    await expect.poll(async () => (await names()).map((t) => t.split('\n')[0])).toEqual(['Report layout', 'Handbook']);
    // The server holds the same order.
    const rest = await rig.restAs(people.alice);
    const list = await rest('GET', '/api/v1/portal/prompts');
    expect(list.body.items[0].attachments.map((a: { resource_id: string }) => a.resource_id)).toEqual([ids.layout, ids.handbook]);
    // Alice administers no persona: no scope choice is offered.
    expect(await page.getByRole('combobox', { name: 'Who can use it' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows deleted material as missing; the prompt keeps its text', async () => {
    const rest = await rig.restAs(people.alice);
    const deleted = await rest('DELETE', `/api/v1/resources/${ids.layout}`);
    expect(deleted.status).toBe(204);
    const { context, page } = await rig.open(people.alice);
    const prompt = (await rest('GET', '/api/v1/portal/prompts')).body.items[0];
    await page.goto(`${rig.url}/portal/prompts/${prompt.id}`);
    await expect.poll(() => page.getByRole('region', { name: 'Attachments' }).getByText('Missing: the file was deleted').count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Content' }).inputValue()).toBe('Write the weekly sales brief for {region}.');
    await context.close();
  });

  it('a persona administrator\'s promotion of a prompt with a private attachment is refused with the server\'s message', async () => {
    const own = ((await rig.upload(people.bob, { path: 'drafts', name: 'private.md', content: 'mine', displayName: 'Bob private' })) as { id: string }).id;
    const rest = await rig.restAs(people.bob);
    const created = await rest('POST', '/api/v1/portal/prompts', { name: 'team-pitch', content: 'Pitch it.' });
    await rest('POST', `/api/v1/portal/prompts/${created.body.id}/attachments`, { resource_id: own });
    const { context, page } = await rig.open(people.bob);
    await page.goto(`${rig.url}/portal/prompts/${created.body.id}`);
    const scope = page.getByRole('combobox', { name: 'Who can use it' });
    await expect.poll(() => scope.count()).toBe(1);
    await scope.selectOption('persona:sales');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^cannot promote the prompt to persona sales: resource "Bob private"/);
    expect((await rest('GET', `/api/v1/portal/prompts/${created.body.id}`)).body.scope).toBe('personal');
    await context.close();
  });

  it('has no serious or critical accessibility violation in either theme; looks right at 1280 and 1920', async () => {
    const rest = await rig.restAs(people.alice);
    const prompt = (await rest('GET', '/api/v1/portal/prompts')).body.items[0];
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { context, page } = await rig.open(people.alice, { theme, width, height: 900 });
        await page.goto(`${rig.url}/portal/prompts/${prompt.id}`);
        await expect.poll(() => page.locator('#prompt-title').innerText()).toBe('sales-brief');
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-40c-prompts-${theme}-${width}.png` });
        if (width === 1280) {
          await page.getByRole('button', { name: 'Attach resources…' }).click();
          await openFolder(page, 'Global', 'references');
          await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Detach Handbook' }).count()).toBe(1);
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: `/tmp/wt-40c-picker-${theme}.png` });
        }
        await context.close();
      }
    }
  });
});
