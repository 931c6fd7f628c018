/**
 * The portal app in a real browser (issue 36, "The app"): the newcomer's one-time link signs them
 * in and lands on Resources; a signed-out visitor of a `platform dev` portal is told where the link
 * is; the brand shows; light/dark follows the system and a toggle persists across reloads; no CSP
 * violation or page error; axe-core finds no serious or critical violation in either theme.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

describe.skipIf(!haveChromium)('the portal app', () => {
  let rig: PortalRig;

  beforeAll(async () => {
    rig = await startPortalRig();
  }, 180_000);

  afterAll(async () => rig?.stop());

  it('the one-time link signs the newcomer in and lands on Resources; the link then is spent', async () => {
    const { context, page } = await rig.open(undefined);
    const problems = watchPageProblems(page);
    const link = `${rig.url}${rig.signIn.link(people.admin)}`;
    await page.goto(link);
    await page.waitForURL(`${rig.url}/portal/resources`);
    const sidebar = page.getByRole('navigation', { name: 'Portal' });
    await expect.poll(() => sidebar.innerText()).toContain('Ada Admin');
    expect(await sidebar.innerText()).toContain('Test Portal');
    expect(await page.title()).toBe('Test Portal');
    await page.goto(link);
    expect(await page.locator('body').innerText()).toContain('already used or has expired');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a signed-out visitor is told where the sign-in link is, at any portal address', async () => {
    const { context, page } = await rig.open(undefined);
    await page.goto(`${rig.url}/portal/resources/lib/global`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in with the link from the terminal');
    await context.close();
  });

  it('follows the system theme, and a chosen theme persists across reloads', async () => {
    const { context, page } = await rig.open(people.alice, { theme: 'dark' });
    await page.goto(`${rig.url}/portal/resources`);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    await expect.poll(theme).toBe('dark');
    const button = page.getByRole('button', { name: /^Theme: system/ });
    await button.click();
    await expect.poll(theme).toBe('light');
    await page.reload();
    await expect.poll(theme).toBe('light');
    await page.getByRole('button', { name: /^Theme: light/ }).press('Enter');
    await expect.poll(theme).toBe('dark');
    await page.getByRole('button', { name: /^Theme: dark/ }).press('Enter');
    // Back to the system's choice, which is dark here.
    await expect.poll(() => page.getByRole('button', { name: /^Theme: system/ }).count()).toBe(1);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    await context.close();
  });

  for (const colour of ['light', 'dark'] as const) {
    it(`the signed-in shell has no serious or critical accessibility violation (${colour})`, async () => {
      const { context, page } = await rig.open(people.alice, { theme: colour });
      const problems = watchPageProblems(page);
      await page.goto(`${rig.url}/portal/resources`);
      await page.getByRole('navigation', { name: 'Portal' }).getByText('Alice Analyst').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
