/**
 * The file manager's preview pane and thumbnails in a real browser (issue 36, "Preview pane"; spec
 * document 2, "Thumbnail" state table and "Thumbnail drawing rules"): the selected file's text in
 * the read-only editor, a picture as a picture, other types as their icon with Download; the
 * thumbnail's states — drawn (the light or dark variant following the theme toggle), drawing →
 * drawn without a reload, failed with the recorded reason and variant and Try again — and
 * Recapture offered exactly where the api accepts it. Real api, worker (the thumbnail workflow),
 * Postgres, Temporal and storage (test/support/portal.ts).
 */
import sharp from 'sharp';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { personAddress, selectForPreview } from './portal-resources-support.js';

type Json = Record<string, unknown>;

describe.skipIf(!haveChromium)('portal preview pane and thumbnails', () => {
  let rig: PortalRig;
  const ids: Record<string, string> = {};

  /** Waits until the api says the resource's thumbnail left the drawing states. */
  async function settled(id: string): Promise<Json> {
    const rest = await rig.restAs(people.alice);
    return vi.waitFor(
      async () => {
        const thumbnail = ((await rest('GET', `/api/v1/resources/${id}`)).body as Json).thumbnail as Json;
        if (!/^(drawn|failed|icon)$/.test(String(thumbnail.state))) throw new Error(`thumbnail still ${String(thumbnail.state)}`);
        return thumbnail;
      },
      { timeout: 60_000, interval: 250 },
    );
  }

  beforeAll(async () => {
    rig = await startPortalRig();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 60, b: 20 } } }).png().toBuffer();
    const files = [
      { name: 'notes.md', content: '# Quarterly notes\n\nRevenue grew in every region.\n', type: 'text/markdown' },
      { name: 'pixel.png', content: png, type: 'image/png' },
      { name: 'bundle.zip', content: Buffer.from('PK\u0003\u0004 not much of an archive, but a zip by its type'), type: 'application/zip' },
      { name: 'broken.png', content: 'this is no PNG at all', type: 'image/png' },
    ];
    for (const file of files) ids[file.name] = ((await rig.upload(people.alice, { path: 'preview', ...file })) as Json).id as string;
    // A persona's file: bob administers sales, alice is only a member (she may read it, not change it or add beside it).
    ids['team.md'] = ((await rig.upload(people.bob, { library: 'persona:sales', path: 'shared', name: 'team.md', content: '# Team\n', type: 'text/markdown' })) as Json)
      .id as string;
    await Promise.all(Object.values(ids).map((id) => settled(id)));
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('previews a text file: name, type, size, updated, and its text in the read-only editor', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'notes');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await expect.poll(() => pane.locator('dl').innerText()).toMatch(/Type\s+text\/markdown\s+Size\s+\d+ B\s+Updated\s+.+\s+Version\s+1/);
    const text = pane.getByRole('textbox', { name: 'Text of notes' });
    await text.waitFor();
    expect(await text.innerText()).toContain('Revenue grew in every region.');
    expect(await text.getAttribute('aria-readonly')).toBe('true');
    // Read-only: typing changes nothing.
    await text.click();
    await page.keyboard.type('xyz');
    expect(await text.innerText()).not.toContain('xyz');
    await expect.poll(() => pane.getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/api/v1/resources/${ids['notes.md']}/content`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows an image as the picture, from the content route', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    const contentReads: string[] = [];
    page.on('request', (request: Request) => {
      if (request.url().endsWith(`/api/v1/resources/${ids['pixel.png']}/content?purpose=preview`)) contentReads.push(request.url());
    });
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'pixel');
    const picture = page.getByRole('complementary', { name: 'Preview' }).getByRole('img', { name: 'pixel', exact: true });
    await picture.waitFor();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight])).toEqual([true, 40, 30]);
    expect(contentReads).toHaveLength(1);
    await page.screenshot({ path: '/tmp/wt-p3-preview-picture-light-1280.png' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows another type as its content-type icon with Download', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'bundle');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await pane.getByRole('img', { name: 'Archive icon' }).waitFor();
    await expect.poll(() => pane.getByRole('status').first().textContent()).toBe('No thumbnail for this type of file.');
    const download = pane.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('href')).toBe(`/api/v1/resources/${ids['bundle.zip']}/content`);
    expect(await download.getAttribute('download')).toBe('bundle.zip');
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('bundle.zip');
    // Neither the text nor a picture: no editor, no Edit source, no Recapture for an icon.
    expect(await pane.getByRole('textbox').count()).toBe(0);
    expect(await pane.getByRole('button', { name: /Recapture|Try again|Edit source/ }).count()).toBe(0);
    await context.close();
  });

  it('thumbnail drawn: the light or dark variant follows the theme toggle', async () => {
    const { context, page } = await rig.open(people.alice, { theme: 'light' });
    const problems = watchPageProblems(page);
    const variants: string[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/v1/resources/${ids['notes.md']}/thumbnail`) variants.push(url.searchParams.get('variant') ?? '');
    });
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'notes');
    const tile = page.getByRole('img', { name: 'Thumbnail of notes' });
    await expect.poll(() => tile.getAttribute('data-variant')).toBe('light');
    await expect.poll(() => page.getByText('Drawn from version 1').count()).toBe(1);
    // system (light) → light → dark
    await page.getByRole('button', { name: /^Theme: system/ }).click();
    await page.getByRole('button', { name: /^Theme: light/ }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await expect.poll(() => tile.getAttribute('data-variant')).toBe('dark');
    await expect.poll(() => tile.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(800);
    expect(variants[0]).toBe('light');
    expect(variants).toContain('dark');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('thumbnail drawing → drawn without a reload (Recapture; focus stays on the thumbnail)', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'notes');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    const recapture = pane.getByRole('button', { name: 'Recapture' });
    await recapture.waitFor();
    await recapture.press('Enter');
    // The answer is the drawing state: a spinner, no tile, no Recapture while the draw runs.
    await expect.poll(() => pane.getByRole('status').first().textContent()).toMatch(/^(Drawing|Waiting to draw) the thumbnail…$/);
    expect(await pane.getByRole('button', { name: /Recapture|Try again/ }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Thumbnail of notes');
    // Polled until it lands; no reload.
    await expect.poll(() => pane.getByRole('img', { name: 'Thumbnail of notes' }).count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => pane.getByRole('status').first().textContent()).toMatch(/^Drawn from version 1/);
    await recapture.waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('thumbnail stale: the old tile keeps showing, marked as updating, until the new one lands', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    // A stale tile lasts only as long as a draw (about a second here): the api's answers are shown
    // as they are while a new version's draw runs — the tile of version 1, the head at version 2.
    let stale = true;
    await page.route(`**/api/v1/resources/${ids['notes.md']}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Json;
      if (stale) Object.assign(body, { version: 2, thumbnail: { ...(body.thumbnail as Json), state: 'stale' } });
      await route.fulfill({ response, json: body });
    });
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'notes');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await pane.getByRole('img', { name: 'Thumbnail of notes' }).waitFor();
    await expect.poll(() => pane.getByRole('status').first().textContent()).toBe('Updating: this shows version 1; version 2 is being drawn.');
    expect(await pane.getByText('Updating', { exact: true }).count()).toBe(1);
    expect(await pane.getByRole('button', { name: /Recapture|Try again/ }).count()).toBe(0);
    // The resource is polled while stale: the drawn answer replaces the badge with no reload.
    stale = false;
    await expect.poll(() => pane.getByRole('status').first().textContent(), { timeout: 15_000 }).toMatch(/^Drawn from version 1/);
    expect(await pane.getByText('Updating', { exact: true }).count()).toBe(0);
    await pane.getByRole('button', { name: 'Recapture' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('thumbnail failed: the recorded reason and variant, and Try again', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'preview'));
    await selectForPreview(page, 'broken');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    const rest = await rig.restAs(people.alice);
    const failure = ((((await rest('GET', `/api/v1/resources/${ids['broken.png']}`)).body as Json).thumbnail as Json).failure as Json);
    expect(failure.variant).toBe('image');
    await expect.poll(() => pane.getByRole('status').first().textContent()).toBe(`The thumbnail could not be drawn (image variant): ${failure.reason as string}`);
    const tryAgain = pane.getByRole('button', { name: 'Try again' });
    await tryAgain.click();
    await expect.poll(() => pane.getByRole('status').first().textContent()).toMatch(/^(Drawing|Waiting to draw) the thumbnail…$/);
    await expect.poll(() => pane.getByRole('status').first().textContent(), { timeout: 60_000 }).toMatch(/^The thumbnail could not be drawn \(image variant\)/);
    await tryAgain.waitFor();
    await context.close();
  });

  it('offers Recapture only where the api accepts it: not to a member who may neither change the file nor add beside it', async () => {
    for (const [user, offered] of [
      [people.alice, false],
      [people.bob, true],
    ] as const) {
      const rest = await rig.restAs(user);
      const answer = (await rest('GET', `/api/v1/resources/${ids['team.md']}`)).body as Json;
      expect((answer.allowed_actions as Json).recapture).toBe(offered);
      const { context, page } = await rig.open(user);
      await page.goto('/portal/resources/lib/persona:sales/shared');
      await selectForPreview(page, 'team');
      const pane = page.getByRole('complementary', { name: 'Preview' });
      await pane.getByRole('img', { name: 'Thumbnail of team' }).waitFor();
      expect(await pane.getByRole('button', { name: 'Recapture' }).count()).toBe(offered ? 1 : 0);
      expect(await pane.getByRole('button', { name: 'Edit source' }).count()).toBe(offered ? 1 : 0);
      await context.close();
    }
    // And the api refuses alice's Recapture, as the missing button said.
    const refused = await (await rig.restAs(people.alice))('POST', `/api/v1/resources/${ids['team.md']}/thumbnail/recapture`);
    expect(refused.status).toBe(403);
  });

  it('below 1280 px the pane is hidden and reads no content', async () => {
    const { context, page } = await rig.open(people.alice, { width: 1200 });
    const reads: string[] = [];
    page.on('request', (request: Request) => {
      if (/\/api\/v1\/resources\/[^/]+\/(content|thumbnail)/.test(request.url())) reads.push(request.url());
    });
    await page.goto(personAddress(people.alice, 'preview'));
    const pane = page.getByRole('complementary', { name: 'Preview', includeHidden: true });
    await pane.waitFor({ state: 'attached' });
    expect(await pane.isVisible()).toBe(false);
    const listing = page.getByRole('region', { name: 'Files' }).or(page.locator('.listing')).first();
    await listing.getByRole('row', { name: 'notes' }).or(listing.getByRole('option', { name: 'notes' })).or(listing.getByRole('button', { name: 'notes', exact: true })).first().click();
    // Nothing is read while the pane is hidden (the network falls quiet without a content or tile read)…
    await page.waitForLoadState('networkidle');
    expect(reads).toEqual([]);
    // …and widening the window shows the pane with the selection.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('complementary', { name: 'Preview' }).getByRole('textbox', { name: 'Text of notes' }).waitFor();
    expect(reads.some((url) => url.endsWith(`/api/v1/resources/${ids['notes.md']}/content?purpose=preview`))).toBe(true);
    await context.close();
  });

  it('axe: no serious or critical violations in the preview pane, light and dark, at 1280 and 1920', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const [width, file] of [
        [1280, 'notes'],
        [1920, 'broken'],
      ] as const) {
        const { context, page } = await rig.open(people.alice, { theme, width, height: 1000 });
        const problems = watchPageProblems(page);
        await page.goto(personAddress(people.alice, 'preview'));
        await selectForPreview(page, file);
        const pane = page.getByRole('complementary', { name: 'Preview' });
        if (file === 'notes') {
          await pane.getByRole('textbox', { name: 'Text of notes' }).waitFor();
          await pane.getByRole('img', { name: 'Thumbnail of notes' }).waitFor();
        } else {
          await pane.getByRole('button', { name: 'Try again' }).waitFor();
          // Its bytes are no PNG: the picture says so instead of showing a broken image.
          await pane.getByText('This browser cannot show the picture').waitFor();
        }
        await page.screenshot({ path: `/tmp/wt-p3-preview-${file}-${theme}-${width}.png` });
        expect(await seriousViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  });
});
