/**
 * The details page of one resource (issue 36, "Details of one resource" and "Edit details"; spec
 * document 2, "Portal addresses", "Version", "Usage", "Move, rename, folder change") in a real
 * Chromium against the real api: every field, the copy buttons, version history and Restore, edit
 * details and moves (with the collision refused naming the file), controls offered exactly where
 * the api accepts them, usage after a portal download, the administrator section, reload / links /
 * Back on both addresses, and axe in both themes.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hitUrl, type SearchHit } from '../../shared/search/index.js';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';

interface Stored {
  id: string;
  uri: string;
  reference: string;
  library: string;
  path: string;
  version: number;
  display_name: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The value a details list shows for a term. */
const field = (page: Page, term: string) => page.locator(`.details-list dt:text-is("${term}") + dd`);
const detailsAddress = (id: string, section: 'resources' | 'admin' = 'resources') => `/portal/${section === 'admin' ? 'admin/' : ''}resources/${id}`;

describe.skipIf(!haveChromium)('portal: the details page of one resource', () => {
  let rig: PortalRig;
  let summary: Stored;

  beforeAll(async () => {
    // Audit on (usage), and a DuckDB connection whose scratch schema holds registered tables. The
    // rig's configuration ends inside its `toolkits:` block, so `sql:` indented joins it.
    rig = await startPortalRig({ extraYaml: '  sql:\n    warehouse: { engine: duckdb }\naudit: { enabled: true }\n' });
    summary = (await rig.upload(people.alice, {
      path: 'reports/q1',
      name: 'Quarterly Summary.md',
      content: '# Q1\n\nRevenue up.\n',
      type: 'text/markdown',
      tags: ['finance', 'q1'],
      description: 'The first quarter in one page.',
    })) as Stored;
  }, 180_000);

  afterAll(async () => {
    await rig?.stop();
  });

  async function openAs(user: (typeof people)[keyof typeof people], address: string, theme: 'light' | 'dark' = 'light') {
    const { context, page } = await rig.open(user, { theme });
    const problems = watchPageProblems(page);
    await page.goto(address);
    return { context, page, problems };
  }

  it('shows every field of an uploaded file, with Download and the breadcrumb to its folder (links, Back and reload work)', async () => {
    const { context, page, problems } = await openAs(people.alice, detailsAddress(summary.id));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Quarterly Summary');
    expect(await field(page, 'Display name').textContent()).toBe('Quarterly Summary');
    expect(await field(page, 'Description').textContent()).toBe('The first quarter in one page.');
    expect(await field(page, 'Tags').getByRole('listitem').allTextContents()).toEqual(['finance', 'q1']);
    expect(await field(page, 'Type').textContent()).toBe('text/markdown');
    expect(await field(page, 'Size').textContent()).toBe('18 B (18 bytes)');
    expect(await field(page, 'Uploader').textContent()).toBe(subjectOf(people.alice));
    expect(await field(page, 'Updated').locator('time').getAttribute('datetime')).toBe((await getResource(people.alice, summary.id)).updated_at);
    expect(await field(page, 'Search setting').textContent()).toBe('Default');
    expect(await field(page, 'Canonical URI').locator('code').textContent()).toBe(summary.uri);
    expect(await field(page, 'Reference').locator('code').textContent()).toBe(`mcp:resource:${summary.id}`);
    expect(await field(page, 'Folder').textContent()).toBe('My Resources / reports / q1');
    const download = page.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('href')).toBe(`/api/v1/resources/${summary.id}/content`);

    // The breadcrumb: Resources / My Resources / reports / q1 / the file; each folder its address.
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await crumbs.getByRole('listitem').allTextContents()).toEqual(['Resources', 'My Resources', 'reports', 'q1', 'Quarterly Summary.md']);
    const library = `person:${encodeURIComponent(subjectOf(people.alice))}`;
    expect(await crumbs.getByRole('link', { name: 'q1' }).getAttribute('href')).toBe(`/portal/resources/lib/${library}/reports/q1`);
    await crumbs.getByRole('link', { name: 'q1' }).click();
    await page.waitForURL(`${rig.url}/portal/resources/lib/${library}/reports/q1`);
    await page.goBack();
    await page.waitForURL(`${rig.url}${detailsAddress(summary.id)}`);
    await page.getByRole('heading', { name: 'Quarterly Summary', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Quarterly Summary', level: 1 }).waitFor();
    expect(await field(page, 'Reference').locator('code').textContent()).toBe(`mcp:resource:${summary.id}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies the canonical URI and the reference to the clipboard, saying Copied', async () => {
    const { context, page, problems } = await openAs(people.alice, detailsAddress(summary.id));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: rig.url });
    await page.getByRole('button', { name: 'Copy canonical URI' }).click();
    await expect.poll(() => field(page, 'Canonical URI').getByRole('status').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(summary.uri);
    // Keyboard: Tab to the reference's button, Enter.
    await page.getByRole('button', { name: 'Copy reference' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => field(page, 'Reference').getByRole('status').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`mcp:resource:${summary.id}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the version history after a revision, and Restore writes a new head with the restored bytes', async () => {
    const first = 'name,city\nAda,Paris\n';
    const second = 'name,city\nAda,Oslo\nGrace,Rome\n';
    const file = (await rig.upload(people.alice, { path: 'data', name: 'people.csv', content: first, type: 'text/csv' })) as Stored;
    const rest = await rig.restAs(people.alice);
    await replaceContent(people.alice, file.id, second, 'moved Ada to Oslo', 'text/csv');

    const { context, page, problems } = await openAs(people.alice, detailsAddress(file.id));
    const rows = page.getByRole('table', { name: 'Version history' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const head = rows.nth(0);
    expect(await head.getByRole('rowheader').textContent()).toBe('2current');
    expect(await head.textContent()).toContain(subjectOf(people.alice));
    expect(await head.textContent()).toContain('moved Ada to Oslo');
    expect(await head.textContent()).toContain(`${Buffer.byteLength(second)} B`);
    expect(await head.locator('code.sha').textContent()).toBe(sha256(second));
    expect(await rows.nth(1).locator('code.sha').textContent()).toBe(sha256(first));
    // Restore is offered on the older version only.
    expect(await page.getByRole('button', { name: /^Restore version/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).getByRole('rowheader').textContent()).toBe('3current');
    expect(await rows.nth(0).textContent()).toContain('Restored from version 1');
    expect(await rows.nth(0).locator('code.sha').textContent()).toBe(sha256(first));
    await expect.poll(() => page.locator('.details-header').getByText('version 3').count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: 'Version 1 restored as version 3.' }).count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Restore version 1');

    const content = await rest('GET', `/api/v1/resources/${file.id}/content`);
    expect(content.body).toBe(first);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Edit details changes each field, and focus returns to the Edit button', async () => {
    const file = (await rig.upload(people.alice, { path: 'notes', name: 'minutes.txt', content: 'Minutes.\n', tags: ['draft', 'team'], description: 'Old words.' })) as Stored;
    const { context, page, problems } = await openAs(people.alice, detailsAddress(file.id));
    const edit = page.getByRole('button', { name: 'Edit details' });
    await edit.click();
    const dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Display name' }).fill('Board minutes');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('What the board decided.\nSecond line.');
    await dialog.getByRole('button', { name: 'Remove tag draft' }).click();
    await dialog.getByRole('textbox', { name: 'New tag' }).fill('board');
    await dialog.getByRole('textbox', { name: 'New tag' }).press('Enter');
    expect(await dialog.getByRole('grid', { name: 'Tags' }).getByRole('row').allTextContents()).toEqual(['team', 'board']);
    await dialog.locator('label', { hasText: 'Details only' }).click();
    expect(await dialog.getByRole('radio', { name: /Details only/ }).isChecked()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Folder' }).fill('board/2026');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit details');

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Board minutes');
    expect(await field(page, 'Description').textContent()).toBe('What the board decided.\nSecond line.');
    expect(await field(page, 'Tags').getByRole('listitem').allTextContents()).toEqual(['team', 'board']);
    expect(await field(page, 'Search setting').textContent()).toBe('Details only');
    expect(await field(page, 'Folder').textContent()).toBe('My Resources / board / 2026');
    expect(await page.getByRole('status').filter({ hasText: 'Details saved; the file moved.' }).count()).toBe(1);
    const stored = await getResource(people.alice, file.id);
    expect(stored).toMatchObject({ display_name: 'Board minutes', description: 'What the board decided.\nSecond line.', tags: ['team', 'board'], search_setting: 'details_only', path: 'board/2026' });
    expect(stored.uri).toBe(`mcp://user/${encodeURIComponent(subjectOf(people.alice))}/board/2026/minutes.txt`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Edit details by keyboard alone: Enter opens it, Delete removes a tag, Enter saves, Escape cancels; focus returns to Edit', async () => {
    const file = (await rig.upload(people.alice, { path: 'notes', name: 'agenda.txt', content: 'Agenda.\n', tags: ['old', 'keep'] })) as Stored;
    const { context, page, problems } = await openAs(people.alice, detailsAddress(file.id));
    const edit = page.getByRole('button', { name: 'Edit details' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('agenda');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Team agenda');
    // Tab on to the tags, Delete removes the focused one.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('row');
    await page.keyboard.press('Delete');
    await expect.poll(() => dialog.getByRole('grid', { name: 'Tags' }).getByRole('row').allTextContents()).toEqual(['keep']);
    await dialog.getByRole('textbox', { name: 'Display name' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit details');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Team agenda');
    expect((await getResource(people.alice, file.id)).tags).toEqual(['keep']);

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Edit details');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('moves a file to another top-level folder the api offers; a collision is refused naming the colliding file', async () => {
    // Alice (a member of sales) may move her file into the sales persona's folder; Bob (its administrator) already filed one of the same name there.
    await rig.upload(people.bob, { library: 'persona:sales', path: 'playbooks', name: 'pitch.txt', content: 'Bob’s pitch.\n' });
    const clash = (await rig.upload(people.alice, { path: 'playbooks', name: 'pitch.txt', content: 'Alice’s pitch.\n' })) as Stored;
    const free = (await rig.upload(people.alice, { path: 'playbooks', name: 'close.txt', content: 'Closing.\n' })) as Stored;
    const moveTargets = (await (await rig.restAs(people.alice))('GET', `/api/v1/resources/${free.id}/move-targets`)).body as { libraries: string[] };
    expect(moveTargets.libraries).toEqual(['persona:sales']);

    const { context, page, problems } = await openAs(people.alice, detailsAddress(clash.id));
    await page.getByRole('button', { name: 'Edit details' }).click();
    let dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.getByRole('button', { name: /Top-level folder/ }).click();
    // Exactly the targets the api offers, besides where it is now.
    // Personas by their display names (GET /api/v1/resources/libraries).
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['My Resources (where it is now)', 'Sales (persona)']);
    await page.getByRole('option', { name: 'Sales (persona)' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('pitch.txt');
    expect(await dialog.isVisible()).toBe(true);
    expect((await getResource(people.alice, clash.id)).library).toBe(`person:${subjectOf(people.alice)}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(detailsAddress(free.id));
    await page.getByRole('button', { name: 'Edit details' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.getByRole('button', { name: /Top-level folder/ }).click();
    await page.getByRole('option', { name: 'Sales (persona)' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => field(page, 'Folder').textContent()).toBe('Sales / playbooks');
    expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Sales' }).getAttribute('href')).toBe('/portal/resources/lib/persona:sales');
    const moved = await getResource(people.alice, free.id);
    expect(moved).toMatchObject({ library: 'persona:sales', path: 'playbooks', uri: 'mcp://persona/sales/playbooks/close.txt' });
    // The mover is no longer the library's administrator, but stays the uploader: still offered Edit.
    expect(moved.allowed_actions.change).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a member who did not upload the file sees no Edit, Delete or Restore: the api refuses each', async () => {
    const file = (await rig.upload(people.bob, { library: 'persona:sales', path: 'price-lists', name: 'prices.txt', content: 'v1\n' })) as Stored;
    await replaceContent(people.bob, file.id, 'v2\n');

    const { context, page, problems } = await openAs(people.alice, detailsAddress(file.id));
    await page.locator('.versions-table tbody tr').nth(1).waitFor();
    expect(await page.getByRole('link', { name: 'Download' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Edit details' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Restore/ }).count()).toBe(0);
    const alice = await rig.restAs(people.alice);
    expect((await alice('PATCH', `/api/v1/resources/${file.id}`, { display_name: 'Mine now' })).status).toBe(403);
    expect((await alice('DELETE', `/api/v1/resources/${file.id}`)).status).toBe(403);
    expect((await alice('POST', `/api/v1/resources/${file.id}/versions/1/restore`)).status).toBe(403);
    expect(problems).toEqual([]);
    await context.close();

    // Bob, the persona's administrator, is offered all three.
    const asBob = await openAs(people.bob, detailsAddress(file.id));
    await asBob.page.getByRole('button', { name: 'Restore version 1' }).waitFor();
    expect(await asBob.page.getByRole('button', { name: 'Edit details' }).count()).toBe(1);
    expect(await asBob.page.getByRole('button', { name: 'Delete' }).count()).toBe(1);
    await asBob.context.close();
  });

  it('Delete asks first; a refusal (a registered table holds the file) is the server’s message, with Delete anyway; deleted, the page goes to the folder', async () => {
    const held = (await rig.upload(people.alice, { path: 'scratch', name: 'held.csv', content: 'n\n1\n', type: 'text/csv' })) as Stored;
    const alice = await rig.restAs(people.alice);
    expect((await alice('POST', `/api/v1/resources/${held.id}/tables`, {})).status).toBe(200);
    const { context, page, problems } = await openAs(people.alice, detailsAddress(held.id));
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete “held”?' });
    await confirm.waitFor();
    // Cancel keeps it.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Delete');
    expect((await getResource(people.alice, held.id)).id).toBe(held.id);

    await page.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('alert').waitFor();
    expect(await confirm.getByRole('alert').textContent()).toBe('"held.csv" is used by 0 assets, 0 prompts and 1 registered table; delete with force to delete it anyway');
    expect((await getResource(people.alice, held.id)).id).toBe(held.id);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Delete anyway');
    await confirm.getByRole('button', { name: 'Delete anyway' }).click();
    await page.waitForURL(`${rig.url}/portal/resources/lib/person:${encodeURIComponent(subjectOf(people.alice))}/scratch`);
    expect((await alice('GET', `/api/v1/resources/${held.id}`)).status).toBe(404);
    expect(((await alice('GET', `/api/v1/resources/${held.id}/tables`)).status)).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Usage counts a portal download by its door, with the last read; “Never read” on the api’s flag; without audit it says usage is not recorded', async () => {
    const file = (await rig.upload(people.alice, { path: 'usage', name: 'read-me.txt', content: 'Read me.\n' })) as Stored;
    const { context, page, problems } = await openAs(people.alice, detailsAddress(file.id));
    const usage = page.getByRole('region', { name: 'Usage' });
    await usage.getByText('No reads on record yet').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
    expect(await readFile((await download.path())!, 'utf8')).toBe('Read me.\n');
    await page.reload();
    const row = usage.getByRole('row', { name: /Portal downloads/ });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['1', '1']);
    expect(await usage.getByRole('row', { name: /Agents/ }).getByRole('cell').allTextContents()).toEqual(['0', '0']);
    expect(await usage.textContent()).toContain('Last read');
    expect(await usage.locator('time').count()).toBe(1);

    // A file at least 30 days old with no read on record: the api's never_read flag.
    const zeros = { resources_read: 0, search_fetch: 0, portal_download: 0, portal_preview: 0 };
    await page.route(`**/api/v1/resources/${file.id}/usage`, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ recorded: true, last_read_at: null, never_read: true, last_30_days: zeros, last_90_days: zeros, retention_days: 90 }) }),
    );
    await page.reload();
    await usage.getByText('Never read').waitFor();
    await page.unroute(`**/api/v1/resources/${file.id}/usage`);

    // With audit off the api answers {recorded: false, message}; the page says so instead of zeros.
    await page.route(`**/api/v1/resources/${file.id}/usage`, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ recorded: false, message: 'usage is not recorded: audit is off (audit.enabled)' }) }),
    );
    await page.reload();
    await usage.getByText('usage is not recorded: audit is off (audit.enabled)').waitFor();
    expect(await usage.getByRole('table').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the administrator section: an administrator sees the file and may move it to a person; others get what the api answers', async () => {
    const file = (await rig.upload(people.alice, { path: 'handover', name: 'handover.md', content: '# Handover\n', type: 'text/markdown' })) as Stored;
    // Bob has a file of his own, so the platform has seen him: a person files can move to.
    await rig.upload(people.bob, { path: 'inbox', name: 'hello.txt', content: 'hi\n' });
    const { context, page, problems } = await openAs(people.admin, detailsAddress(file.id, 'admin'));
    await page.getByRole('heading', { name: 'handover', level: 1 }).waitFor();
    expect(await page.getByText('Administrator section').count()).toBe(1);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await crumbs.getByRole('listitem').allTextContents()).toEqual(['Administration', 'Resources', 'People', subjectOf(people.alice), 'handover', 'handover.md']);
    expect(await field(page, 'Folder').textContent()).toBe(`People / ${subjectOf(people.alice)} / handover`);
    // Reload and Back on the admin address.
    await page.reload();
    await page.getByRole('heading', { name: 'handover', level: 1 }).waitFor();
    await crumbs.getByRole('link', { name: 'handover' }).click();
    await page.waitForURL(/\/portal\/resources\/lib\//);
    await page.goBack();
    await page.waitForURL(`${rig.url}${detailsAddress(file.id, 'admin')}`);
    await page.getByRole('heading', { name: 'handover', level: 1 }).waitFor();

    // Top-level folder: personas, global, and people found by search (paged by the api).
    await page.getByRole('button', { name: 'Edit details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit details' });
    await dialog.getByRole('button', { name: /Top-level folder/ }).click();
    await expect
      .poll(() => page.getByRole('option').allTextContents())
      .toEqual([`People: ${subjectOf(people.alice)} (where it is now)`, 'My Resources', 'Administrators (persona)', 'Sales (persona)', 'Support (persona)', 'Global', 'A person’s library (People)…']);
    await page.getByRole('option', { name: 'A person’s library (People)…' }).click();
    await dialog.getByRole('searchbox', { name: 'Find a person' }).fill('bob');
    const bobOption = dialog.getByRole('option', { name: subjectOf(people.bob) });
    await bobOption.click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await getResource(people.admin, file.id)).library).toBe(`person:${subjectOf(people.bob)}`);
    await expect.poll(() => crumbs.getByRole('listitem').nth(3).textContent()).toBe(subjectOf(people.bob));
    expect(problems).toEqual([]);
    await context.close();

    // Carol at the admin address of a file she may not open: the api's answer (not found), no controls.
    const asCarol = await openAs(people.carol, detailsAddress(file.id, 'admin'));
    await asCarol.page.getByRole('alert').waitFor();
    expect(await asCarol.page.getByRole('alert').textContent()).toMatch(/not found/i);
    expect(await asCarol.page.getByRole('button', { name: 'Edit details' }).count()).toBe(0);
    await asCarol.context.close();
    // Bob, whose file it now is, sees it at the admin address too: the page shows what the api answers.
    const asBob = await openAs(people.bob, detailsAddress(file.id, 'admin'));
    await asBob.page.getByRole('heading', { name: 'handover', level: 1 }).waitFor();
    expect(await asBob.page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem').allTextContents()).toEqual([
      'Administration',
      'Resources',
      'My Resources',
      'handover',
      'handover.md',
    ]);
    await asBob.context.close();
  });

  it('a search result links to /portal/resources/<id>, which opens the file', async () => {
    const file = (await rig.upload(people.alice, { path: 'glossary', name: 'glossary.md', content: '# Terms\n', type: 'text/markdown', description: 'zebracorn terminology' })) as Stored;
    const alice = await rig.restAs(people.alice);
    let hit: SearchHit | undefined;
    await expect
      .poll(async () => {
        const answer = (await alice('GET', '/api/v1/resources/search?q=zebracorn')).body as { items: SearchHit[] };
        hit = answer.items.find((h) => h.id === file.id);
        return hit !== undefined;
      })
      .toBe(true);
    const url = hitUrl(hit!, rig.url);
    expect(url).toBe(`${rig.url}/portal/resources/${file.id}`);
    const { context, page, problems } = await openAs(people.alice, url);
    await page.getByRole('heading', { name: 'glossary', level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Query as a table: Register; a new upload leaves the table "registered at an older revision"; Register again moves it', async () => {
    const orders = (await rig.upload(people.alice, { path: 'data', name: 'orders.csv', content: 'id,city\n1,Paris\n2,Oslo\n', type: 'text/csv' })) as Stored;
    const { context, page, problems } = await openAs(people.alice, detailsAddress(orders.id));
    const panel = page.getByRole('region', { name: 'Query as a table' });
    await panel.getByText('Not registered as a table.').waitFor();
    await panel.getByRole('button', { name: 'Register' }).click();
    await panel.getByText('Registered at the current revision (version 1)').waitFor();
    const answer = (await (await rig.restAs(people.alice))('GET', `/api/v1/resources/${orders.id}/tables`)).body as { tables: Array<{ table: string; status: string; version: number }> };
    expect(answer.tables).toEqual([expect.objectContaining({ table: 'sales_orders', status: 'current', version: 1 })]);
    expect(await panel.locator('.table-name code').textContent()).toBe('sales_orders');
    expect(await panel.getByRole('status').filter({ hasText: /^sales_orders: / }).count()).toBe(1);
    await expect.poll(() => page.locator('.used-by dt:text-is("Registered tables") + dd').textContent()).toBe('1');

    await replaceContent(people.alice, orders.id, 'id,city\n1,Paris\n2,Oslo\n3,Rome\n', 'a third order', 'text/csv');
    await page.reload();
    await panel.getByText('Registered at an older revision: version 1 (the file is at version 2)').waitFor();
    await panel.getByRole('button', { name: 'Register again' }).click();
    await panel.getByText('Registered at the current revision (version 2)').waitFor();
    expect(await panel.getByRole('button', { name: 'Register again' }).evaluate((b) => b === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();

    // A member of sales who did not upload a persona file is offered no Register (the api would refuse it).
    const leads = (await rig.upload(people.bob, { library: 'persona:sales', path: 'data', name: 'leads.csv', content: 'name\nAda\n', type: 'text/csv' })) as Stored;
    const asAlice = await openAs(people.alice, detailsAddress(leads.id));
    const alicePanel = asAlice.page.getByRole('region', { name: 'Query as a table' });
    await alicePanel.getByText('Not registered as a table.').waitFor();
    expect(await alicePanel.getByRole('button').count()).toBe(0);
    expect(await alicePanel.textContent()).toContain('only its uploader');
    expect((await (await rig.restAs(people.alice))('POST', `/api/v1/resources/${leads.id}/tables`, {})).status).toBe(403);
    await asAlice.context.close();
  });

  it('Query as a table: a file with line breaks in cells is refused naming rows and columns; "Save a corrected copy and register" corrects it', async () => {
    const notes = (await rig.upload(people.alice, { path: 'data', name: 'notes.csv', content: 'id,note,city\n1,"two\nlines",Paris\n2,fine,Oslo\n', type: 'text/csv' })) as Stored;
    const { context, page, problems } = await openAs(people.alice, detailsAddress(notes.id));
    const panel = page.getByRole('region', { name: 'Query as a table' });
    await panel.getByRole('button', { name: 'Register' }).click();
    const refusal = panel.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/1 row .*line break.*\(column note\)/);
    await panel.getByRole('button', { name: 'Save a corrected copy and register' }).click();
    await panel.getByText('Registered at the current revision (version 2)').waitFor();
    expect(await panel.getByText('Corrects the file').count()).toBeGreaterThan(0);
    expect(await panel.getByRole('button', { name: 'Save a corrected copy and register' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Register again');
    const versions = page.getByRole('table', { name: 'Version history' }).locator('tbody tr');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).textContent()).toContain('table-registration correction of version 1');
    const content = await (await rig.restAs(people.alice))('GET', `/api/v1/resources/${notes.id}/content`);
    expect(content.body).toBe('id,note,city\n1,two lines,Paris\n2,fine,Oslo\n');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('axe: no serious or critical violations on the page, its dialogs and its table panel, light and dark', async () => {
    const table = (await rig.upload(people.alice, { path: 'data', name: 'cities.csv', content: 'city\nParis\n', type: 'text/csv' })) as Stored;
    expect((await (await rig.restAs(people.alice))('POST', `/api/v1/resources/${table.id}/tables`, {})).status).toBe(200);
    for (const theme of ['light', 'dark'] as const) {
      const withTable = await openAs(people.alice, detailsAddress(table.id), theme);
      await withTable.page.getByRole('region', { name: 'Query as a table' }).getByText('Registered at the current revision (version 1)').waitFor();
      await withTable.page.getByRole('region', { name: 'Usage' }).getByRole('table').waitFor();
      expect(await seriousViolations(withTable.page), `${theme}: table panel`).toEqual([]);
      expect(withTable.problems).toEqual([]);
      await withTable.context.close();

      const { context, page, problems } = await openAs(people.alice, detailsAddress(summary.id), theme);
      await page.locator('.versions-table').waitFor();
      await page.getByRole('region', { name: 'Usage' }).getByRole('table').waitFor();
      expect(await seriousViolations(page), `${theme}: page`).toEqual([]);
      await page.getByRole('button', { name: 'Edit details' }).click();
      await page.getByRole('dialog', { name: 'Edit details' }).waitFor();
      expect(await seriousViolations(page), `${theme}: Edit details`).toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').waitFor();
      expect(await seriousViolations(page), `${theme}: Delete`).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  /** A new version through the replace route's form (a change summary field, then the file). */
  async function replaceContent(user: (typeof people)[keyof typeof people], id: string, content: string, summary?: string, type = 'text/plain') {
    const form = new FormData();
    if (summary) form.set('change_summary', summary);
    form.set('file', new Blob([content], { type }), 'ignored');
    const answer = await (await rig.restAs(user))('PUT', `/api/v1/resources/${id}/content`, form);
    expect(answer.status).toBe(200);
  }

  async function getResource(user: (typeof people)[keyof typeof people], id: string) {
    const answer = await (await rig.restAs(user))('GET', `/api/v1/resources/${id}`);
    expect(answer.status).toBe(200);
    return answer.body as Stored & { updated_at: string; description: string; tags: string[]; search_setting: string; allowed_actions: { change: boolean } };
  }
});
