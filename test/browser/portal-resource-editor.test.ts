/**
 * The source editor in a real browser (issue 36, "Source editor"): a text-family file within the
 * inline preview bound opens in CodeMirror (loaded on demand: the initial route's JavaScript holds
 * none of it), Ctrl-S saves a new version whose change summary says it was edited in the portal,
 * unsaved changes are never discarded without asking, a newer version written meanwhile is not
 * overwritten silently, and Edit source is offered exactly where the api accepts the write. Real
 * api, Postgres, Temporal and storage (test/support/portal.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalDir } from '../../shared/toolchain/portal-build.js';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';
import { personAddress, selectForPreview } from './portal-resources-support.js';

type Json = Record<string, unknown>;

/** The editable text of the source editor (CodeMirror's content element, in its shadow root). */
function sourceText(page: Page, fileName: string) {
  return page.getByRole('dialog', { name: `Edit source: ${fileName}` }).getByRole('textbox', { name: `Source of ${fileName}` });
}

describe.skipIf(!haveChromium)('portal source editor', () => {
  let rig: PortalRig;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rig = await startPortalRig();
    const files = [
      { name: 'plan.md', content: '# Plan\n\nShip the portal.\n', type: 'text/markdown' },
      { name: 'draft.txt', content: 'first draft\n', type: 'text/plain' },
      { name: 'settings.json', content: '{\n  "retries": 3,\n  "region": "eu"\n}\n', type: 'application/json' },
      { name: 'shared.md', content: 'one\n', type: 'text/markdown' },
    ];
    for (const file of files) ids[file.name] = ((await rig.upload(people.alice, { path: 'editor', ...file })) as Json).id as string;
    ids['team.md'] = ((await rig.upload(people.bob, { library: 'persona:sales', path: 'shared', name: 'team.md', content: '# Team\n', type: 'text/markdown' })) as Json)
      .id as string;
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('the initial route carries no CodeMirror: the entry chunk is small and the editor loads when a text file is shown', async () => {
    const dist = join(portalDir, 'dist');
    const html = await readFile(join(dist, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]* src="\/portal\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const code = await readFile(join(dist, entry!));
    // PORTAL.md budget: the initial route ≤ 250 KB of JavaScript gzipped.
    expect(gzipSync(code, { level: 9 }).length).toBeLessThan(250 * 1024);
    // CodeMirror's own class names and messages are in its chunk, never in the entry.
    const text = code.toString('utf8');
    for (const marker of ['cm-content', 'cm-gutters', 'cm-scroller']) expect(text).not.toContain(marker);
    expect(html).not.toMatch(/modulepreload[^>]*codemirror/);
    const codemirror = (await readdir(join(dist, 'assets'))).filter((name) => name.startsWith('codemirror-') && name.endsWith('.js'));
    expect(codemirror).toHaveLength(1);
    expect(await readFile(join(dist, 'assets', codemirror[0]!), 'utf8')).toContain('cm-content');

    // In the browser: nothing of it is fetched until a text file is previewed.
    const { context, page } = await rig.open(people.alice);
    const scripts: string[] = [];
    page.on('request', (request: Request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(personAddress(people.alice, 'editor'));
    await page.getByRole('complementary', { name: 'Preview' }).waitFor();
    await page.getByText('Select a file to preview it.').waitFor();
    expect(scripts).toContain(`/portal/${entry}`);
    expect(scripts.filter((path) => path.includes('/codemirror-'))).toEqual([]);
    await selectForPreview(page, 'plan');
    await page.getByRole('textbox', { name: 'Text of plan' }).waitFor();
    expect(scripts).toContain(`/portal/assets/${codemirror[0]}`);
    await context.close();
  });

  it('opens from Edit source by keyboard, highlights by type, and Ctrl-S saves a new version "edited in the portal"', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    await page.goto(personAddress(people.alice, 'editor'));
    await selectForPreview(page, 'settings');
    const edit = page.getByRole('complementary', { name: 'Preview' }).getByRole('button', { name: 'Edit source' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const text = sourceText(page, 'settings.json');
    await text.waitFor();
    // Focus lands in the text; the JSON language colours its tokens.
    await expect.poll(() => text.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await expect.poll(() => text.locator('span').count()).toBeGreaterThan(2);
    // CodeMirror's own styles apply (its stylesheet is adopted by the shadow root), nothing blocked by the CSP.
    expect(await text.evaluate((el) => getComputedStyle(el.closest('.cm-editor')!).display)).toBe('flex');

    await page.keyboard.press('Control+End');
    await page.keyboard.type('// saved from the portal');
    await page.getByText('Unsaved changes').waitFor();
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByRole('dialog', { name: 'Edit source: settings.json' }).getByRole('status').textContent()).toBe('Saved as version 2.');
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    const rest = await rig.restAs(people.alice);
    const versions = ((await rest('GET', `/api/v1/resources/${ids['settings.json']}/versions`)).body as { items: Json[] }).items;
    expect(versions[0]).toMatchObject({ version: 2, change_summary: 'edited in the portal', origin: 'portal', content_type: 'application/json' });
    const content = await rest('GET', `/api/v1/resources/${ids['settings.json']}/content`);
    expect(content.body).toBe('{\n  "retries": 3,\n  "region": "eu"\n}\n// saved from the portal');

    // Saved: Escape closes without asking, focus returns to Edit source, and the pane shows the new version.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit source');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await expect.poll(() => pane.getByRole('textbox', { name: 'Text of settings' }).innerText()).toContain('// saved from the portal');
    await expect.poll(() => pane.locator('dl').innerText()).toMatch(/Version\s+2/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('warns before discarding unsaved changes (Escape, Back, Close, leaving the page) and keeps them on Keep editing', async () => {
    const { context, page } = await rig.open(people.alice);
    const problems = watchPageProblems(page);
    // Two addresses of the app in the history, so Back is a navigation inside the portal: the folder
    // is entered as the router's own history entry (its state carries the entry's index).
    await page.goto('/portal/resources');
    await page.evaluate((to) => {
      const index = (history.state as { idx?: number } | null)?.idx ?? 0;
      history.pushState({ usr: null, key: 'editor-test', idx: index + 1 }, '', to);
      dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
    }, personAddress(people.alice, 'editor'));
    await selectForPreview(page, 'draft');
    await page.getByRole('button', { name: 'Edit source' }).click();
    const text = sourceText(page, 'draft.txt');
    await text.waitFor();
    await text.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('second thoughts');

    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await confirm.waitFor();
    await page.screenshot({ path: '/tmp/wt-p3-editor-confirm.png' });
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await text.innerText()).toContain('second thoughts');
    await expect.poll(() => text.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);

    // Back asks in the portal's words; Keep editing stays at the address with the edits.
    await page.goBack();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect.poll(() => confirm.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(personAddress(people.alice, 'editor'));
    expect(await text.innerText()).toContain('second thoughts');

    // Leaving the page asks the browser's question.
    const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
    await page.close({ runBeforeUnload: true });
    expect(await asked).toBe('beforeunload');
    expect(page.isClosed()).toBe(false);

    await page.getByRole('dialog', { name: 'Edit source: draft.txt' }).getByRole('button', { name: 'Close' }).click();
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit source');

    // Nothing was written.
    const rest = await rig.restAs(people.alice);
    expect(((await rest('GET', `/api/v1/resources/${ids['draft.txt']}/versions`)).body as { items: Json[] }).items).toHaveLength(1);
    expect((await rest('GET', `/api/v1/resources/${ids['draft.txt']}/content`)).body).toBe('first draft\n');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('does not overwrite a version written meanwhile without asking: Save anyway writes above it', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto(personAddress(people.alice, 'editor'));
    await selectForPreview(page, 'shared');
    await page.getByRole('button', { name: 'Edit source' }).click();
    const text = sourceText(page, 'shared.md');
    await text.waitFor();
    await text.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('mine');

    // Someone (here alice herself, elsewhere) writes version 2 while the editor holds version 1.
    const rest = await rig.restAs(people.alice);
    const form = new FormData();
    form.set('file', new Blob(['two\n'], { type: 'text/markdown' }), 'shared.md');
    expect((await rest('PUT', `/api/v1/resources/${ids['shared.md']}/content`, form)).status).toBe(200);

    await page.keyboard.press('Control+s');
    const dialog = page.getByRole('dialog', { name: 'Edit source: shared.md' });
    await expect.poll(() => dialog.getByRole('alert').first().textContent()).toMatch(/changed since you opened it: it is now version 2/);
    await page.screenshot({ path: '/tmp/wt-p3-editor-conflict.png' });
    expect(((await rest('GET', `/api/v1/resources/${ids['shared.md']}/versions`)).body as { items: Json[] }).items).toHaveLength(2);
    await dialog.getByRole('button', { name: 'Save anyway' }).click();
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Saved as version 3.');
    expect((await rest('GET', `/api/v1/resources/${ids['shared.md']}/content`)).body).toBe('one\nmine');
    await context.close();
  });

  it('a member without change rights sees no Edit source (the api refuses the write)', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto('/portal/resources/lib/persona:sales/shared');
    await selectForPreview(page, 'team');
    const pane = page.getByRole('complementary', { name: 'Preview' });
    await pane.getByRole('textbox', { name: 'Text of team' }).waitFor();
    expect(await pane.getByRole('button', { name: 'Edit source' }).count()).toBe(0);
    const rest = await rig.restAs(people.alice);
    const form = new FormData();
    form.set('file', new Blob(['# Mine\n'], { type: 'text/markdown' }), 'team.md');
    expect((await rest('PUT', `/api/v1/resources/${ids['team.md']}/content`, form)).status).toBe(403);
    await context.close();
  });

  it('axe: no serious or critical violations with the editor open, light and dark, at 1280 and 1920', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { context, page } = await rig.open(people.alice, { theme, width, height: 1000 });
        const problems = watchPageProblems(page);
        await page.goto(personAddress(people.alice, 'editor'));
        await selectForPreview(page, 'plan');
        await page.getByRole('button', { name: 'Edit source' }).click();
        await sourceText(page, 'plan.md').waitFor();
        await page.keyboard.type('x');
        await page.getByText('Unsaved changes').waitFor();
        await page.screenshot({ path: `/tmp/wt-p3-editor-${theme}-${width}.png` });
        expect(await seriousViolations(page)).toEqual([]);
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  });
});
