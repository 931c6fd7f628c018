/**
 * My assets and Shared with me in a real browser (issue 38, "Portal pages"): a person finds what
 * their agent saved, searches, previews it (the viewer's safe rendering), sees the resources it
 * uses linking to their pages, edits details, restores a version, shares it (every body option in
 * the dialog, the link shown once with Copy link), revokes, deletes; the person a private share
 * names finds it under Shared with me, read-only. axe in both themes; screenshots at 1280 and 1920.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';
import { assetSeeder, type AssetSeeder } from './portal-assets-fixtures.js';

describe.skipIf(!haveChromium)('the portal\'s assets pages', () => {
  let rig: PortalRig;
  let seed: AssetSeeder;
  let report: string;
  let resource: { id: string; uri: string };

  beforeAll(async () => {
    rig = await startPortalRig();
    seed = assetSeeder(rig);
    resource = (await rig.upload(people.alice, { name: 'palette.txt', content: 'blue, white', displayName: 'Brand palette' })) as { id: string; uri: string };
    report = await seed.save(people.alice, {
      name: 'Revenue report',
      description: 'Quarterly revenue by region',
      tags: ['finance'],
      content: `# Revenue\n\nColours from mcp:resource:${resource.id}.\n`,
      content_type: 'text/markdown',
    });
    await seed.save(people.alice, { name: 'Revenue report', asset_id: report, content: `# Revenue (v2)\n\nColours from mcp:resource:${resource.id}.\n`, content_type: 'text/markdown' });
    await seed.save(people.alice, { name: 'Churn table', content: 'month,churn\n2025-01,2.1\n', content_type: 'text/csv', tags: ['retention'] });
  }, 180_000);

  afterAll(async () => rig?.stop());

  it('My assets lists what the agent saved, searches it, and opens one: preview, the resource it uses, versions', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}/portal/resources`);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Assets' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('My assets');
    await expect.poll(() => page.getByRole('link', { name: 'Revenue report' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Churn table' }).count()).toBe(1);
    await page.getByRole('searchbox').fill('retention');
    const shown = async () => [await page.getByRole('link', { name: 'Revenue report' }).count(), await page.getByRole('link', { name: 'Churn table' }).count()];
    await expect.poll(shown).toEqual([0, 1]);
    expect(page.url()).toBe(`${rig.url}/portal/assets?q=retention`);
    await page.getByRole('searchbox').fill('');
    await expect.poll(shown).toEqual([1, 1]);
    await page.getByRole('link', { name: 'Revenue report' }).click();
    await expect.poll(() => page.locator('#asset-title').innerText()).toBe('Revenue report');
    await expect.poll(() => page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Revenue (v2)' }).count()).toBe(1);
    const uses = page.getByRole('link', { name: 'Brand palette' });
    expect(await uses.getAttribute('href')).toBe(`/portal/resources/${resource.id}`);
    // Versions: restore version 1; focus lands on the Versions heading.
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await expect.poll(() => page.getByText('Version 1 restored as version 3.').count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('versions-title');
    await expect.poll(() => page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: 'Revenue', exact: true }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits details from the keyboard; a refusal shows the server\'s message', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto(`${rig.url}/portal/assets/${report}`);
    await page.getByRole('button', { name: 'Edit details' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('name must not be empty');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Revenue report Q3');
    await dialog.getByRole('textbox', { name: 'Tags' }).fill('finance, q3');
    await dialog.getByRole('textbox', { name: 'Tags' }).press('Enter');
    await expect.poll(() => page.locator('#asset-title').innerText()).toBe('Revenue report Q3');
    expect(await page.getByText('finance, q3').count()).toBe(1);
    // Focus returns to the button that opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit details');
    await context.close();
  });

  it('the Share dialog creates a public link shown once with Copy link, a private share with every option; Revoke ends it', async () => {
    const { context, page } = await rig.open(people.alice);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.url });
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}/portal/assets/${report}`);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Link' });
    await expect.poll(() => link.inputValue()).toMatch(new RegExp(`^${rig.url}/portal/view/[A-Za-z0-9_-]{43}$`));
    const url = await link.inputValue();
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => dialog.getByRole('status').innerText()).toBe('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'Anyone with the link', exact: true }).count()).toBe(1);

    // A private share with every option of the body.
    await page.getByRole('button', { name: 'New share' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByText('A named person (signs in to open it)').click();
    await dialog.getByRole('textbox', { name: 'User id' }).fill(subjectOf(people.carol));
    await dialog.getByRole('textbox', { name: 'Email' }).fill('carol@example.test');
    await dialog.getByRole('button', { name: /Link expires/ }).click();
    await page.getByRole('option', { name: '30 days' }).click();
    await dialog.getByText('Hide the expiry from the viewer').click();
    await dialog.getByText('My own notice').click();
    await dialog.getByRole('textbox', { name: 'Notice text' }).fill('x'.repeat(501));
    await dialog.getByRole('button', { name: 'Create link' }).click();
    // The field says the rule (the api's limit, spec: at most 500 characters), and nothing is created.
    await expect.poll(() => dialog.getByText('The notice holds at most 500 characters.').count()).toBe(1);
    expect(await dialog.getByRole('textbox', { name: 'Link' }).count()).toBe(0);
    await dialog.getByRole('textbox', { name: 'Notice text' }).fill('Carol only.');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => dialog.getByText('Only the person named can open this link').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const rest = await rig.restAs(people.alice);
    const shares = (await rest('GET', `/api/v1/portal/assets/${report}/shares`)).body as { items: Array<Record<string, unknown>> };
    expect(shares.items[0]).toMatchObject({ shared_with_user_id: subjectOf(people.carol), shared_with_email: 'carol@example.test', hide_expiration: true, notice_text: 'Carol only.', public: false });
    expect(new Date(shares.items[0]!.expires_at as string).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);

    // Revoke the public link: focus lands on the Shares heading, the link opens nothing.
    await page.getByRole('button', { name: 'Revoke share: Anyone with the link' }).click();
    await expect.poll(() => page.getByText('Share revoked').count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('shares-title');
    expect((await fetch(url)).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Shared with me lists what a private share names the person in; its page is read-only', async () => {
    const { context, page } = await rig.open(people.carol);
    await page.goto(`${rig.url}/portal/assets/shared`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Shared with me');
    await page.getByRole('link', { name: 'Revenue report Q3' }).click();
    await expect.poll(() => page.locator('#asset-title').innerText()).toBe('Revenue report Q3');
    expect(await page.getByRole('link', { name: 'Download' }).count()).toBe(1);
    for (const name of ['Edit details', 'Share', 'Delete', 'Restore version 1']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    // Bob is named by nothing: the asset is not his to see.
    const bob = await rig.open(people.bob);
    await bob.page.goto(`${rig.url}/portal/assets/${report}`);
    await expect.poll(() => bob.page.getByRole('alert').innerText()).toBe('asset not found');
    await bob.context.close();
    await context.close();
  });

  it('deletes after confirming, returning to My assets with focus on its heading', async () => {
    const doomed = await seed.save(people.alice, { name: 'Scratch notes', content: 'temp', content_type: 'text/plain' });
    const { context, page } = await rig.open(people.alice);
    await page.goto(`${rig.url}/portal/assets/${doomed}`);
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${rig.url}/portal/assets`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('assets-title');
    await expect.poll(() => page.getByRole('link', { name: 'Churn table' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Scratch notes' }).count()).toBe(0);
    await context.close();
  });

  it('has no serious or critical accessibility violation in either theme; looks right at 1280 and 1920', async () => {
    const chart = await seed.save(people.alice, { name: 'Growth chart', content: '<h2 style="font-family:sans-serif">Growth</h2><svg width="300" height="120"><rect width="80" height="100" y="20" fill="#0b5cd6"/><rect x="100" width="80" height="60" y="60" fill="#6ea8ff"/></svg>', content_type: 'text/html' });
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { context, page } = await rig.open(people.alice, { theme, width, height: 900 });
        await page.goto(`${rig.url}/portal/assets`);
        await expect.poll(() => page.getByRole('link', { name: 'Growth chart' }).count()).toBe(1);
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-38-assets-list-${theme}-${width}.png` });
        await page.goto(`${rig.url}/portal/assets/${chart}`);
        await expect.poll(() => page.frameLocator('iframe').getByRole('heading', { name: 'Growth' }).count()).toBe(1);
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-38-asset-${theme}-${width}.png` });
        if (width === 1280) {
          await page.getByRole('button', { name: 'Share', exact: true }).click();
          await page.getByRole('dialog').getByText('A named person (signs in to open it)').click();
          expect(await seriousViolations(page)).toEqual([]);
          await page.screenshot({ path: `/tmp/wt-38-share-dialog-${theme}.png` });
        }
        await context.close();
      }
    }
  });
});
