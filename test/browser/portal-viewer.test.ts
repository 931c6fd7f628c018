/**
 * The public viewer in a real browser (spec document 1, "Public viewer behavior"; issue 38): a
 * stranger opens a public link without signing in and sees the asset rendered safely, the
 * implementor brand, the notice (its own, the built-in one, or none) and the expiry in relative
 * time (hidden with hide_expiration); light/dark follows the system with a toggle that persists; a
 * private share asks for sign-in and opens for the person it names only; a dead link says it opens
 * nothing. No CSP violation or page error; axe finds no serious or critical violation in either theme.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTICE } from '../../shared/assets/index.js';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { assetSeeder, type AssetSeeder } from './portal-assets-fixtures.js';

describe.skipIf(!haveChromium)('the public viewer', () => {
  let rig: PortalRig;
  let seed: AssetSeeder;
  let memo: string;

  beforeAll(async () => {
    rig = await startPortalRig({ portalYaml: 'implementor: { name: "Acme Analytics", url: "https://acme.example.test" }' });
    seed = assetSeeder(rig);
    memo = await seed.save(people.alice, {
      name: 'Quarterly memo',
      description: 'For the board',
      content: '# Results\n\nRevenue grew **12%**.\n\n| Region | Growth |\n| --- | --- |\n| North | 9% |\n\n<script>window.pwned = true</script><img src="https://tracker.example/p.png" alt="pixel">',
      content_type: 'text/markdown',
    });
  }, 180_000);

  afterAll(async () => rig?.stop());

  it('opens a public link for a stranger: the markdown rendered and sanitised, the notice, the expiry in relative time', async () => {
    const { path } = await seed.share(people.alice, memo, { expires_in: '50h', notice_text: 'Board members only.' });
    const { context, page } = await rig.open(undefined);
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}${path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Quarterly memo');
    const article = page.getByRole('article');
    await expect.poll(() => article.getByRole('heading', { name: 'Results' }).count()).toBe(1);
    expect(await article.getByRole('table').innerText()).toContain('North');
    expect(await page.getByRole('note', { name: 'Notice' }).innerText()).toBe('Board members only.');
    expect(await page.getByText(/^This link expires in 2 days$/).count()).toBe(1);
    // Sanitised: the script never ran, the outside image became its alt text.
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
    expect(await article.locator('img').count()).toBe(0);
    expect(await article.innerText()).toContain('[pixel]');
    expect(await page.title()).toBe('Quarterly memo');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the built-in confidentiality notice by default, none for "", and no expiry when hidden or unset', async () => {
    const defaults = await seed.share(people.alice, memo, { expires_in: '2h', hide_expiration: true });
    const none = await seed.share(people.alice, memo, { notice_text: '' });
    const { context, page } = await rig.open(undefined);
    await page.goto(`${rig.url}${defaults.path}`);
    await expect.poll(() => page.getByRole('note', { name: 'Notice' }).innerText()).toBe(DEFAULT_NOTICE);
    expect(await page.getByText(/expires/).count()).toBe(0);
    await page.goto(`${rig.url}${none.path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Quarterly memo');
    expect(await page.getByRole('note', { name: 'Notice' }).count()).toBe(0);
    expect(await page.getByText(/expires/).count()).toBe(0);
    await context.close();
  });

  it('follows the system theme; the toggle switches it and the choice persists across reloads', async () => {
    const { path } = await seed.share(people.alice, memo);
    const { context, page } = await rig.open(undefined, { theme: 'dark' });
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}${path}`);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    await expect.poll(theme).toBe('dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect.poll(theme).toBe('light');
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Quarterly memo');
    expect(await theme()).toBe('light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).press('Enter');
    await expect.poll(theme).toBe('dark');
    await page.reload();
    await expect.poll(theme).toBe('dark');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a private share asks a signed-out visitor to sign in, opens for the named person, and says it opens nothing to anyone else', async () => {
    const carol = `oidc:platform-dev#${people.carol.sub}`;
    const { path } = await seed.share(people.alice, memo, { shared_with_user_id: carol });
    const stranger = await rig.open(undefined);
    await stranger.page.goto(`${rig.url}${path}`);
    await expect.poll(() => stranger.page.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in to open this');
    expect(await stranger.page.locator('body').innerText()).toContain('one-time sign-in link');
    expect(await stranger.page.locator('body').innerText()).not.toContain('Quarterly memo');
    await stranger.context.close();

    const named = await rig.open(people.carol);
    await named.page.goto(`${rig.url}${path}`);
    await expect.poll(() => named.page.getByRole('heading', { level: 1 }).innerText()).toBe('Quarterly memo');
    await named.context.close();

    const other = await rig.open(people.bob);
    const answer = await other.page.goto(`${rig.url}${path}`);
    expect(answer?.status()).toBe(404);
    await expect.poll(() => other.page.getByRole('heading', { level: 1 }).innerText()).toBe('This link does not open anything');
    await other.context.close();
  });

  it('a revoked link, an expired one and an unknown one all say the same: it opens nothing', async () => {
    const revoked = await seed.share(people.alice, memo);
    await (await rig.restAs(people.alice))('DELETE', `/api/v1/portal/assets/${memo}/shares/${revoked.share.id}`);
    const expired = await seed.share(people.alice, memo, { expires_in: '1h' });
    await rig.db.query(`UPDATE asset_shares SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.share.id]);
    const { context, page } = await rig.open(undefined);
    const texts: string[] = [];
    for (const path of [revoked.path, expired.path, `/portal/view/${'Z'.repeat(43)}`]) {
      const answer = await page.goto(`${rig.url}${path}`);
      expect(answer?.status()).toBe(404);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('This link does not open anything');
      texts.push(await page.locator('main').innerText());
    }
    expect(new Set(texts).size).toBe(1);
    await context.close();
  });

  it('renders CSV as a table, SVG as an image, JSON as text, and JSX in the sandboxed frame', async () => {
    const csv = await seed.save(people.alice, { name: 'Regions', content: 'region,growth\nNorth,9%\n"South, East",4%\n', content_type: 'text/csv' });
    const svg = await seed.save(people.alice, { name: 'Logo drawing', content: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>parent.pwned=1</script><circle cx="5" cy="5" r="4" fill="teal"/></svg>', content_type: 'image/svg+xml' });
    const jsx = await seed.save(people.alice, {
      name: 'Counter',
      content: "import { useState } from 'react';\nexport default function App() { const [n, setN] = useState(2); return <button onClick={() => setN(n + 1)}>Count {n}</button>; }",
      content_type: 'text/jsx',
    });
    const { context, page } = await rig.open(undefined);
    const problems = watchPageProblems(page);
    await page.goto(`${rig.url}${(await seed.share(people.alice, csv)).path}`);
    await expect.poll(() => page.getByRole('columnheader').allInnerTexts()).toEqual(['region', 'growth']);
    expect(await page.getByRole('cell', { name: 'South, East' }).count()).toBe(1);

    await page.goto(`${rig.url}${(await seed.share(people.alice, svg)).path}`);
    const image = page.getByRole('img', { name: 'Logo drawing' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.goto(`${rig.url}${(await seed.share(people.alice, jsx)).path}`);
    const frame = page.frameLocator('iframe[title="Counter (sandboxed preview)"]');
    await expect.poll(() => frame.getByRole('button').innerText(), { timeout: 20_000 }).toBe('Count 2');
    await frame.getByRole('button').click();
    await expect.poll(() => frame.getByRole('button').innerText()).toBe('Count 3');
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('has no serious or critical accessibility violation in either theme; looks right at 1280 and 1920', async () => {
    const { path } = await seed.share(people.alice, memo, { expires_in: '3d' });
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { context, page } = await rig.open(undefined, { theme, width, height: 900 });
        await page.goto(`${rig.url}${path}`);
        await expect.poll(() => page.getByRole('heading', { name: 'Results' }).count()).toBe(1);
        if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-38-viewer-${theme}-${width}.png` });
        await context.close();
      }
    }
    const signIn = await seed.share(people.alice, memo, { shared_with_email: 'someone@example.test' });
    const { context, page } = await rig.open(undefined, { theme: 'dark' });
    await page.goto(`${rig.url}${signIn.path}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in to open this');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-38-viewer-sign-in-dark.png' });
    await context.close();
  });
});
