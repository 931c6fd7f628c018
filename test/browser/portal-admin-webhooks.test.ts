/**
 * Admin > Webhooks in a real browser (issue 39, "Webhooks"): the sources list and the create form
 * (every auth mode's fields, the api's own validation messages), a rotation with overlap set from
 * the form, the source page (requests by outcome, rejected requests, enable/disable, delete with
 * its removal state), a failing compaction shown failing and fixed by Retry from the page on real
 * Temporal, and the compacted window opened in the Parquet viewer by range requests. Real api,
 * Postgres, Temporal, DuckDB and storage (test/support/portal.ts); axe in both themes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDbEngine } from '../../shared/sql/index.js';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

const UI = 'http://temporal-ui.test:8233';

async function post(rig: PortalRig, name: string, headers: Record<string, string>, body: unknown) {
  const answer = await fetch(`${rig.url}/hooks/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return answer.status;
}

async function fill(page: Page, label: string, value: string) {
  await page.getByLabel(label, { exact: true }).fill(value);
}

describe.skipIf(!haveChromium)('portal: Admin > Webhooks', () => {
  let rig: PortalRig;

  beforeAll(async () => {
    rig = await startPortalRig({
      sql: true,
      temporalUiUrl: UI,
      // Windows end on the minute; the sweep looks every 2 s; a failed compaction waits 10 minutes for
      // its next try, so only a Retry brings it back within the test.
      extraYaml: 'webhooks:\n  compactor:\n    grace: 0s\n    poll: 2s\n    retry_backoff: 10m\n',
    });
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('the create form offers every auth mode with its fields and shows the api\'s own validation messages under the fields they name; a source is created', async () => {
    const { context, page } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/webhooks');
    await page.getByRole('link', { name: 'Webhooks' }).waitFor();
    await page.getByText('No webhook source yet.').waitFor();
    await page.getByRole('link', { name: 'New source' }).click();
    await page.getByRole('heading', { name: 'New webhook source' }).waitFor();

    // Each mode shows its own settings.
    await page.getByRole('radio', { name: 'HMAC signature' }).check();
    for (const label of ['Signature header', 'Algorithm', 'Encoding', 'Prefix', 'Signed', 'Timestamp header', 'Tolerance (seconds)', 'Signing secret']) {
      await expect.poll(() => page.getByLabel(label, { exact: true }).count(), { message: label }).toBe(1);
    }
    await page.getByRole('radio', { name: 'HTTP Basic' }).check();
    await expect.poll(() => page.getByLabel('User name', { exact: true }).count()).toBe(1);
    await expect.poll(() => page.getByLabel('Password', { exact: true }).count()).toBe(1);
    await page.getByRole('radio', { name: 'Path token' }).check();
    await page.getByText('Senders put the secret as the last path segment').waitFor();
    await page.getByRole('radio', { name: 'Header token' }).check();

    // Refused by the api: its messages, under the fields they name.
    await fill(page, 'Name', 'Bad Name');
    await page.getByLabel('Split', { exact: true }).fill('$.items[*]');
    await page.getByLabel('Rate limit burst', { exact: true }).fill('10');
    await page.getByRole('button', { name: 'Create source' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The api refused the source' });
    await alert.waitFor();
    const rest = await rig.restAs(people.admin);
    const refused = await rest('POST', '/api/v1/admin/webhooks/sources', {
      name: 'Bad Name',
      connection: 'local',
      enabled: true,
      auth: { mode: 'header_token', header: '' },
      config: { handshake: 'none', compact_every_minutes: 60, split: '$.items[*]', rate_limit_burst: 10, persona: 'admin' },
    });
    expect(refused.status).toBe(400);
    const apiMessage = (refused.body as { message: string }).message;
    for (const part of apiMessage.split('; ')) expect(await alert.textContent()).toContain(part);
    const nameRule = /name: ([^;]+)/.exec(apiMessage)![1]!;
    await expect.poll(() => page.getByText(nameRule, { exact: false }).count()).toBeGreaterThan(0);
    const splitRule = apiMessage.split('; ').find((p) => p.startsWith('config.split: '))!.slice('config.split: '.length);
    expect(await page.locator('.field', { has: page.getByLabel('Split', { exact: true }) }).textContent()).toContain(splitRule);

    await fill(page, 'Name', 'orders');
    await page.getByLabel('Split', { exact: true }).fill('$');
    await page.getByLabel('Rate limit burst', { exact: true }).fill('');
    await fill(page, 'Token header', 'X-Token');
    await fill(page, 'Token', 'first-token');
    await page.getByLabel('Window length (minutes)').selectOption('1');
    await page.getByLabel('Event id path', { exact: true }).fill('$.id');
    await page.getByRole('button', { name: 'Create source' }).click();
    await page.getByRole('heading', { name: 'orders', level: 1 }).waitFor();
    await page.getByText(`${rig.url}/hooks/orders`).waitFor();
    await page.getByText('webhook_orders', { exact: true }).first().waitFor();
    const stored = await rest('GET', '/api/v1/admin/webhooks/sources/orders');
    expect(stored.body).toMatchObject({ auth: { mode: 'header_token', header: 'X-Token', secret_set: true }, config: { split: '$', event_id_path: '$.id', compact_every_minutes: 1, persona: 'admin' } });
    expect(JSON.stringify(stored.body)).not.toContain('first-token');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a rotation with overlap set from the form: the new secret and the previous one are both accepted until the overlap ends', async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto('/portal/admin/webhooks/orders');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit orders' }).waitFor();
    await page.getByTestId('secret-state').getByText('set', { exact: true }).waitFor();
    // The stored secret is never in the page.
    expect(await page.content()).not.toContain('first-token');
    await page.getByRole('checkbox', { name: 'Set a new secret' }).check();
    await fill(page, 'New token', 'second-token');
    await fill(page, 'Rotation overlap (seconds)', '3600');
    const before = Date.now();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'orders', level: 1 }).waitFor();
    await page.getByRole('status').getByText('Source saved.').waitFor();

    const rest = await rig.restAs(people.admin);
    const view = (await rest('GET', '/api/v1/admin/webhooks/sources/orders')).body as { auth: { previous_secret_until: string } };
    const until = Date.parse(view.auth.previous_secret_until);
    expect(until).toBeGreaterThanOrEqual(before + 3_595_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3_605_000);
    expect(await post(rig, 'orders', { 'x-token': 'second-token' }, [{ id: 'rot-1' }])).toBe(202);
    expect(await post(rig, 'orders', { 'x-token': 'first-token' }, [{ id: 'rot-2' }])).toBe(202);
    expect(await post(rig, 'orders', { 'x-token': 'wrong-token' }, [{ id: 'rot-3' }])).toBe(401);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('secret-state').getByText('The previous secret is accepted until').waitFor();
    await context.close();
  });

  it('the source page: events and requests by outcome, the rejected requests; a failing compaction shown failing and fixed by Retry, the window opened in the Parquet viewer by range requests', async () => {
    const rest = await rig.restAs(people.admin);
    const created = await rest('POST', '/api/v1/admin/webhooks/sources', {
      name: 'clicks',
      connection: 'local',
      auth: { mode: 'header_token', header: 'X-Token', secret: 'click-token' },
      config: { split: '$', event_id_path: '$.id', compact_every_minutes: 1 },
    });
    expect(created.status).toBe(201);
    // A table made by hand where the source's view goes: the compaction cannot put the view back, so it fails.
    const services = rig.services!.webhooks!;
    const source = { name: 'clicks', connection: 'local' };
    const names = services.tables.names(source);
    const scratch = services.tables.scratch(source);
    const duckdb = services.tables.sql.connection('local').engine as DuckDbEngine;
    await scratch.dropView(names.view);
    await duckdb.exec(`CREATE TABLE ${scratch.relation(names.view)} (x INTEGER)`);

    expect(await post(rig, 'clicks', { 'x-token': 'click-token' }, [{ id: 'evt-1', kind: 'created' }, { id: 'evt-2', kind: 'paid' }])).toBe(202);
    expect(await post(rig, 'clicks', { 'x-token': 'nope' }, [{ id: 'evt-3' }])).toBe(401);
    const { context, page } = await rig.open(people.admin, { width: 1920 });
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/webhooks/clicks');
    await page.getByRole('heading', { name: 'clicks', level: 1 }).waitFor();
    // Counted per minute and written every few seconds: the page refreshes itself.
    const requests = page.getByRole('region', { name: 'Requests', exact: true });
    await expect.poll(async () => requests.getByRole('figure', { name: 'Requests by outcome, last hour' }).textContent(), { timeout: 30_000 }).toMatch(/Accepted1/);
    await expect.poll(async () => requests.textContent(), { timeout: 30_000 }).toMatch(/Events, last hour2/);
    expect(await requests.getByRole('figure', { name: 'Requests by outcome, last hour' }).textContent()).toMatch(/Unauthorized1/);
    const rejected = page.getByRole('region', { name: 'Rejected requests' });
    await rejected.getByRole('cell', { name: 'token does not match' }).waitFor();

    // The window ends on the minute; the sweep's compaction fails and waits 10 minutes for its next try.
    const windows = page.getByRole('region', { name: 'Windows', exact: true });
    const failure = windows.getByRole('group', { name: /Last failure: window/ });
    await failure.waitFor({ timeout: 120_000 });
    expect(await failure.textContent()).toMatch(/webhook_clicks/);
    const retry = failure.getByRole('button', { name: /^Retry window / });
    const windowName = (await retry.getAttribute('aria-label'))!.replace('Retry window ', '');
    const workflowLink = failure.getByRole('link', { name: /Compaction workflow/ });
    expect(await workflowLink.getAttribute('href')).toBe(`${UI}/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId="webhook-compact:clicks:${windowName}"`)}`);
    await windows.getByRole('row', { name: new RegExp(windowName) }).getByText(/failing \(1 attempt\)/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-webhook-source-failing-1920.png', fullPage: true });

    // Fixed, then retried from the page: compacted now, not in 10 minutes.
    await duckdb.exec(`DROP TABLE ${scratch.relation(names.view)}`);
    await retry.click();
    await page.getByRole('status').getByText(`Compaction started again for ${windowName}.`).waitFor();
    const parquetLink = windows.getByRole('link', { name: /Open the Parquet file/ });
    await parquetLink.waitFor({ timeout: 60_000 });
    await expect.poll(() => windows.getByRole('group', { name: /Last failure/ }).count()).toBe(0);
    expect(await windows.textContent()).toContain(windowName);

    const ranges: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/content') && response.request().headers().range) ranges.push(response.status());
    });
    await parquetLink.click();
    await page.getByRole('heading', { name: 'Rows' }).waitFor();
    const table = page.getByRole('region', { name: 'Rows' }).getByRole('table');
    await table.getByRole('cell', { name: 'evt-1', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'evt-2', exact: true }).waitFor();
    expect(await page.getByRole('region', { name: 'Rows' }).getByRole('status').textContent()).toBe('Rows 1–2 of 2 (page 1 of 1)');
    const schema = page.getByRole('region', { name: 'Schema' });
    for (const column of ['received_at', 'event_id', 'payload', 'dt', 'hour', 'minute']) await schema.getByRole('cell', { name: column, exact: true }).waitFor();
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((status) => status === 206)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-parquet-viewer-1920.png', fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 240_000);

  it('disable and enable from the page (a disabled source answers 404), and delete with its removal state', async () => {
    const rest = await rig.restAs(people.admin);
    const created = await rest('POST', '/api/v1/admin/webhooks/sources', { name: 'doomed', connection: 'local', auth: { mode: 'path_token', secret: 'path-secret-1' } });
    expect(created.status).toBe(201);
    const { context, page } = await rig.open(people.admin, { theme: 'dark' });
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/webhooks/doomed');
    await page.getByText(`the source's secret goes as the last path segment: ${rig.url}/hooks/doomed/{secret}`).waitFor();
    expect(await page.content()).not.toContain('path-secret-1');
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').getByText('Disabled: the source answers 404 until it is enabled.').waitFor();
    await page.locator('.admin-header').getByText('disabled', { exact: true }).waitFor();
    await expect.poll(() => post(rig, 'doomed/path-secret-1', {}, { a: 1 }), { timeout: 5_000 }).toBe(404);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('status').getByText('Enabled: the source receives events again.').waitFor();
    await expect.poll(() => post(rig, 'doomed/path-secret-1', {}, { a: 1 }), { timeout: 5_000 }).toBe(202);

    await page.goto('/portal/admin/webhooks');
    const row = page.getByRole('row', { name: /doomed/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${rig.url}/hooks/doomed`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-webhook-sources-dark-1280.png', fullPage: true });
    await row.getByRole('link', { name: 'doomed' }).click();

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete doomed?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete source' }).click();
    await page.getByRole('status').getByText('Deleted: the source receives nothing now and is being removed.').waitFor();
    // Removing, then gone once its removal workflow finished.
    await page.getByText(/There is no source named doomed|Being removed/).first().waitFor();
    await page.getByText('There is no source named doomed (any more)', { exact: false }).waitFor({ timeout: 90_000 });
    expect(await post(rig, 'doomed/path-secret-1', {}, { a: 1 })).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('axe: the list, the form and the source page in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await rig.open(people.admin, { theme, height: 2000 });
      for (const path of ['/portal/admin/webhooks', '/portal/admin/webhooks/new', '/portal/admin/webhooks/orders', '/portal/admin/webhooks/orders/edit']) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.locator('.loading').waitFor({ state: 'detached' });
        expect(await seriousViolations(page), `${path} ${theme}`).toEqual([]);
      }
      await page.goto('/portal/admin/webhooks/new');
      await page.getByRole('heading', { name: 'New webhook source' }).waitFor();
      await page.screenshot({ path: `/tmp/wt-39-webhook-form-${theme}-1280.png`, fullPage: true });
      await page.goto('/portal/admin/webhooks/orders');
      await page.getByRole('region', { name: 'Windows', exact: true }).waitFor();
      await page.screenshot({ path: `/tmp/wt-39-webhook-source-${theme}-1280.png`, fullPage: true });
      await context.close();
    }
  });
});
