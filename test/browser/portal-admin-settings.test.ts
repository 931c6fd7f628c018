/**
 * Admin > Bot check and Admin > Secrets in a real browser (issue 39: "Bot-check settings form
 * (every field, provider choice with site key and secret name) and the secrets list (names,
 * allowed connections/personas; values write-only)"): the api's refusal of a hosted provider
 * without its key, a stored secret whose value never reaches the page, the hosted provider saved
 * with its site key and secret name, a secret's grants changed keeping its value, a secret deleted;
 * axe in both themes. Real api and Postgres (test/support/portal.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

type Json = Record<string, unknown>;
const VALUE = 'Turnstile-S3cret-never-shown';

describe.skipIf(!haveChromium)('portal: Admin > Bot check and Secrets', () => {
  let rig: PortalRig;

  beforeAll(async () => {
    rig = await startPortalRig();
  }, 240_000);

  afterAll(async () => rig?.stop());

  it("the bot-check form shows every field; a hosted provider without its site key and secret is refused with the api's message", async () => {
    const { context, page } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/bot-check');
    await page.getByRole('heading', { name: 'Bot check', level: 1 }).waitFor();
    expect(await page.getByLabel('Provider', { exact: true }).inputValue()).toBe('pow');
    expect(await page.getByLabel('Challenge lifetime (seconds)', { exact: true }).inputValue()).toBe('300');
    expect(await page.getByLabel('Difficulty (bits)', { exact: true }).inputValue()).toBe('16');
    expect(await page.getByLabel('Rate threshold (answers a minute)', { exact: true }).inputValue()).toBe('30');
    expect(await page.getByLabel('Maximum difficulty (bits)', { exact: true }).inputValue()).toBe('22');
    await page.getByLabel('Provider', { exact: true }).selectOption('none');
    await page.getByRole('checkbox', { name: 'Allow public endpoints without a check' }).waitFor();
    await page.getByLabel('Provider', { exact: true }).selectOption('hosted_a');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const rest = await rig.restAs(people.admin);
    const refused = await rest('PUT', '/api/v1/admin/settings/bot-check', {
      provider: 'hosted_a',
      allow_public_without_check: false,
      challenge_ttl_seconds: 300,
      difficulty: 16,
      rate_threshold: 30,
      max_difficulty: 22,
      site_key: null,
      secret_name: null,
    });
    expect(refused.status).toBe(400);
    await page.getByRole('alert').getByText(`The api refused the settings: ${(refused.body as Json).message as string}`).waitFor();
    expect(((await rest('GET', '/api/v1/admin/settings/bot-check')).body as Json).provider).toBe('pow');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a secret stored from the Secrets page never comes back; the hosted provider saved with its site key and secret name', async () => {
    const { context, page } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    const secretsSeen: string[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/api/')) secretsSeen.push(await response.text().catch(() => ''));
    });
    await page.goto('/portal/admin/secrets');
    await page.getByText('No stored secret.').waitFor();
    for (const [name, connections] of [
      ['turnstile-key', 'bot_check'],
      ['old-key', 'bot_check, reports'],
    ] as const) {
      await page.getByRole('button', { name: 'New secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'New secret' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Value', { exact: true }).fill(VALUE);
      await dialog.getByLabel('Allowed connections').fill(connections);
      await dialog.getByRole('button', { name: 'Store secret' }).click();
      await page.getByRole('status').getByText(`${name} stored.`).waitFor();
    }
    const row = page.getByRole('row', { name: /turnstile-key/ });
    expect(await row.textContent()).toContain('set (never shown)');
    expect(await row.textContent()).toContain('bot_check');
    expect(await page.content()).not.toContain(VALUE);

    // Grants changed, value kept (an empty value field keeps the stored one).
    await page.getByRole('button', { name: 'Change old-key' }).click();
    const change = page.getByRole('dialog', { name: 'Change old-key' });
    expect(await change.getByLabel('New value').inputValue()).toBe('');
    await change.getByLabel('Personas').fill('sales');
    await change.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('old-key changed.').waitFor();
    expect(await page.getByRole('row', { name: /old-key/ }).textContent()).toContain('sales');
    await page.getByRole('button', { name: 'Delete old-key' }).click();
    await page.getByRole('alertdialog', { name: 'Delete old-key?' }).getByRole('button', { name: 'Delete secret' }).click();
    await page.getByRole('status').getByText('old-key deleted.').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /old-key/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Bot check' }).click();
    await page.getByLabel('Provider', { exact: true }).selectOption('hosted_a');
    await page.getByLabel('Site key').fill('0x4AAAAAAA-site');
    await page.getByLabel('Secret name').selectOption('turnstile-key');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Saved: every replica uses these settings from its next request.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Bot check', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Provider', { exact: true }).inputValue()).toBe('hosted_a');
    expect(await page.getByLabel('Site key').inputValue()).toBe('0x4AAAAAAA-site');
    expect(await page.getByLabel('Secret name').inputValue()).toBe('turnstile-key');
    const rest = await rig.restAs(people.admin);
    expect((await rest('GET', '/api/v1/admin/settings/bot-check')).body).toMatchObject({ provider: 'hosted_a', site_key: '0x4AAAAAAA-site', secret_name: 'turnstile-key' });
    expect(secretsSeen.join('\n')).not.toContain(VALUE);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('by keyboard alone: a secret stored from its dialog, focus back on New secret; the bot-check form saved with Enter', async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto('/portal/admin/secrets');
    await page.getByRole('table').waitFor();
    const newSecret = page.getByRole('button', { name: 'New secret' });
    await newSecret.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New secret' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type') ?? document.activeElement?.tagName)).toBe('text');
    await page.keyboard.type('keyboard-key');
    await page.keyboard.press('Tab');
    await page.keyboard.type('typed-by-keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('bot_check');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('keyboard-key stored.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => newSecret.evaluate((button) => button === document.activeElement)).toBe(true);

    await page.goto('/portal/admin/bot-check');
    const provider = page.getByLabel('Provider', { exact: true });
    await provider.focus();
    await page.keyboard.type('Proof');
    await expect.poll(() => provider.inputValue()).toBe('pow');
    const lifetime = page.getByLabel('Challenge lifetime (seconds)', { exact: true });
    await lifetime.focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('600');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Saved: every replica uses these settings from its next request.').waitFor();
    const rest = await rig.restAs(people.admin);
    expect((await rest('GET', '/api/v1/admin/settings/bot-check')).body).toMatchObject({ provider: 'pow', challenge_ttl_seconds: 600 });
    await context.close();
  });

  it('axe: both pages in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await rig.open(people.admin, { theme });
      for (const path of ['/portal/admin/bot-check', '/portal/admin/secrets']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('form, table').first().waitFor();
        expect(await seriousViolations(page), `${path} ${theme}`).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-39-${path.split('/').pop()}-${theme}-1280.png`, fullPage: true });
      }
      await context.close();
    }
  });
});
