/**
 * Admin > Scripts in a real browser (issue 39, "Scripts and endpoints"): the scripts list and a new
 * script, the source saved in the editor with the api's refusals (a syntax error with its line and
 * column; a bound script losing handle naming its endpoint), versions and their diff, a draft run's
 * console output and result, runs, the schedule (a cron Temporal refuses, pause and resume), and
 * the endpoint binding (refused with the api's message, bound with its fields, its failed requests,
 * disabled). Real api, Postgres, Temporal and the script sandbox; axe in both themes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, people, seriousViolations, startPortalRig, watchPageProblems, type PortalRig } from '../support/portal.js';

type Json = Record<string, unknown>;

/**
 * Replaces the editor's text (CodeMirror, in its shadow root) by pasting it over everything, as a
 * person would: CodeMirror takes a paste as one change. (Chromium's own insertText edits the
 * contenteditable's DOM, with a style attribute the portal's CSP refuses, before CodeMirror reads it.)
 */
async function setSource(page: Page, name: string, text: string) {
  const editor = page.getByRole('textbox', { name: `Source of ${name}` });
  await editor.click();
  await page.keyboard.press('Control+a');
  await editor.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

async function tab(page: Page, name: RegExp | string) {
  await page.getByRole('tab', { name }).click();
}

describe.skipIf(!haveChromium)('portal: Admin > Scripts', () => {
  let rig: PortalRig;
  let nightly = '';

  beforeAll(async () => {
    rig = await startPortalRig();
  }, 240_000);

  afterAll(async () => rig?.stop());

  it("the scripts list and a new script; the source saved with the api's refusal of a syntax error; versions and their diff", async () => {
    const { context, page } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/scripts');
    await page.getByText('No script yet.').waitFor();
    await page.getByRole('button', { name: 'New script' }).click();
    const dialog = page.getByRole('dialog', { name: 'New script' });
    await dialog.getByLabel('Name').fill('nightly');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'nightly', level: 1 }).waitFor();
    nightly = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('textbox', { name: 'Source of nightly' }).waitFor();

    const broken = 'export function main() {\n  return 1 +\n}\n';
    await setSource(page, 'nightly', broken);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const rest = await rig.restAs(people.admin);
    const refused = await rest('PUT', `/api/v1/portal/scripts/${nightly}`, { source: broken });
    expect(refused.status).toBe(400);
    const { message, line, column } = refused.body as { message: string; line: number; column: number };
    await page.getByRole('alert').getByText(`Not saved: ${message} (line ${line}, column ${column})`).waitFor();

    await setSource(page, 'nightly', "export async function main() {\n  console.log('nightly run');\n  return { rows: 3 };\n}\n");
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved as version 2.').waitFor();
    await page.getByText('version 2', { exact: false }).first().waitFor();

    await tab(page, /^Versions/);
    const versions = page.getByRole('tabpanel');
    await versions.getByRole('row', { name: /^2 \(current\)/ }).waitFor();
    await versions.getByRole('row', { name: /^1 / }).waitFor();
    const diff = page.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await diff.waitFor();
    await expect.poll(() => diff.textContent()).toContain("console.log('nightly run');");
    expect(await diff.locator('.diff-del').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("console.log('hello');")]));
    expect(await diff.locator('.diff-add').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('return { rows: 3 };')]));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a draft run's console output and result; the saved version's run listed under Runs", async () => {
    const { context, page } = await rig.open(people.admin, { width: 1920, height: 1400 });
    const problems = watchPageProblems(page);
    await page.goto(`/portal/admin/scripts/${nightly}`);
    await page.getByRole('textbox', { name: 'Source of nightly' }).waitFor();
    await setSource(page, 'nightly', "export function main() {\n  console.log('draft says hi');\n  console.warn('careful');\n  return { answer: 42 };\n}\n");
    await page.getByRole('button', { name: 'Run draft' }).click();
    const result = page.getByRole('region', { name: 'Draft run of the text in the editor (as you)' });
    await result.waitFor();
    expect(await result.getByLabel('Console output').textContent()).toBe('draft says hi\n[warn] careful');
    expect(JSON.parse((await result.getByLabel('Result').textContent())!)).toEqual({ answer: 42 });
    expect(await result.textContent()).toMatch(/Statusok/);
    // The saved version (2) is untouched by a draft run; run it too.
    await page.getByRole('button', { name: 'Run saved version' }).click();
    const saved = page.getByRole('region', { name: 'Run of version 2 (as script:nightly)' });
    await saved.waitFor();
    expect(await saved.getByLabel('Console output').textContent()).toBe('nightly run');
    await page.screenshot({ path: '/tmp/wt-39-script-source-1920.png' });

    await tab(page, 'Runs');
    const runs = page.getByRole('tabpanel');
    const row = runs.getByRole('row').filter({ hasText: 'draft' }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/draft2ok/);
    await row.getByText('Console').click();
    await row.getByText('nightly run').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the schedule: a cron Temporal refuses is shown as the api words it; a schedule set, paused and resumed', async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto(`/portal/admin/scripts/${nightly}?tab=schedule`);
    const panel = page.getByRole('tabpanel');
    await panel.getByText('No schedule: the script runs only when someone runs it.').waitFor();
    await panel.getByLabel('Cron', { exact: true }).fill('99 3 * * *');
    await panel.getByRole('button', { name: 'Save schedule' }).click();
    const rest = await rig.restAs(people.admin);
    const refused = await rest('PUT', `/api/v1/portal/scripts/${nightly}/schedule`, { cron: '99 3 * * *', time_zone: 'UTC' });
    expect(refused.status).toBe(400);
    await panel.getByRole('alert').getByText(`Refused: ${(refused.body as Json).message as string}`).waitFor();

    await panel.getByLabel('Cron', { exact: true }).fill('0 6 * * 1-5');
    await panel.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
    await panel.getByRole('button', { name: 'Save schedule' }).click();
    await panel.getByRole('status').getByText('Schedule saved.').waitFor();
    await panel.getByText('0 6 * * 1-5', { exact: true }).waitFor();
    await panel.getByText('running', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Pause' }).click();
    await panel.getByText('paused', { exact: true }).waitFor();
    expect((await rest('GET', `/api/v1/portal/scripts/${nightly}/schedule`)).body).toMatchObject({ cron: '0 6 * * 1-5', time_zone: 'Europe/Berlin', paused: true });
    await panel.getByRole('button', { name: 'Resume' }).click();
    await panel.getByText('running', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("the endpoint binding: refused with the api's message, bound with its fields, its failed requests listed, disabled; a bound script losing handle is refused naming its endpoint", async () => {
    const rest = await rig.restAs(people.admin);
    const { context, page } = await rig.open(people.admin, { height: 1400 });
    const problems = watchPageProblems(page);

    // A script without handle(req) cannot be bound: the api says why, the page shows it.
    await page.goto(`/portal/admin/scripts/${nightly}?tab=endpoint`);
    let panel = page.getByRole('tabpanel');
    await panel.getByText(/Not bound/).waitFor();
    await panel.getByLabel('Endpoint name').fill('nightly');
    await panel.getByRole('button', { name: 'Bind', exact: true }).click();
    const refused = await rest('PUT', `/api/v1/portal/scripts/${nightly}/endpoint`, { endpoint: 'nightly', methods: ['GET'], path: '', auth_mode: 'signed_in', open_reads: false, allowed_origins: [] });
    expect(refused.status).toBe(400);
    await panel.getByRole('alert').getByText(`The api refused the binding: ${(refused.body as Json).message as string}`).waitFor();

    const created = await rest('POST', '/api/v1/portal/scripts', {
      name: 'lookup',
      source: "export function handle(req) {\n  if (req.query.fail) throw new Error('lookup exploded');\n  return { json: { ok: true } };\n}\n",
    });
    expect(created.status).toBe(201);
    const id = ((created.body as Json).script as Json).id as string;
    await page.goto(`/portal/admin/scripts/${id}?tab=endpoint`);
    panel = page.getByRole('tabpanel');
    await panel.getByLabel('Endpoint name').fill('lookup');
    await panel.getByLabel('Path template').fill('/{item}');
    await panel.getByRole('checkbox', { name: 'POST' }).check();
    await panel.getByLabel('Timeout (seconds)').fill('5');
    await panel.getByLabel('Allowed origins').fill('https://App.example.com:443');
    await panel.getByRole('button', { name: 'Bind', exact: true }).click();
    await panel.getByRole('status').getByText('Bound to /endpoints/lookup.').waitFor();
    await panel.getByRole('heading', { name: '/endpoints/lookup/{item}' }).waitFor();
    expect((await rest('GET', `/api/v1/portal/scripts/${id}/endpoint`)).body).toMatchObject({
      binding: { endpoint: 'lookup', path: '/{item}', methods: ['GET', 'POST'], auth_mode: 'signed_in', timeout_seconds: 5, allowed_origins: ['https://app.example.com'], enabled: true },
    });
    expect((await rest('GET', '/endpoints/lookup/one')).status).toBe(200);
    expect((await rest('GET', '/endpoints/lookup/two?fail=1')).status).toBe(500);
    const failures = page.getByRole('region', { name: 'Failed requests, last seven days' });
    // Listed once written (the page reads the binding again every 15 s).
    await failures.getByRole('cell', { name: /lookup exploded/ }).waitFor({ timeout: 30_000 });
    expect(await failures.getByRole('row').nth(1).textContent()).toMatch(/GET500/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-script-endpoint-1280.png', fullPage: true });

    // The bound script must keep handle(req): the api refuses naming the endpoint.
    await tab(page, 'Source');
    await setSource(page, 'lookup', 'export function main() { return 1 }\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const bound = await rest('PUT', `/api/v1/portal/scripts/${id}`, { source: 'export function main() { return 1 }\n' });
    expect([bound.status, (bound.body as Json).error]).toEqual([409, 'bound']);
    expect((bound.body as Json).message).toContain('lookup');
    await page.getByRole('alert').getByText(`Not saved: ${(bound.body as Json).message as string}`).waitFor();

    await tab(page, 'Endpoint');
    panel = page.getByRole('tabpanel');
    await panel.getByRole('button', { name: 'Disable endpoint' }).click();
    await panel.getByRole('status').getByText('Disabled: /endpoints/lookup answers 404.').waitFor();
    await expect.poll(async () => (await rest('GET', '/endpoints/lookup/one')).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('axe: the list and every tab of a script page in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await rig.open(people.admin, { theme, height: 1200 });
      await page.goto('/portal/admin/scripts');
      await page.getByRole('table').waitFor();
      expect(await seriousViolations(page), `list ${theme}`).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-39-scripts-${theme}-1280.png` });
      for (const name of ['source', 'versions', 'runs', 'schedule', 'endpoint']) {
        await page.goto(`/portal/admin/scripts/${nightly}?tab=${name}`);
        await page.getByRole('tabpanel').waitFor();
        await page.locator('.loading').waitFor({ state: 'detached' });
        if (name === 'source') await page.locator('.code-view[data-ready]').waitFor();
        expect(await seriousViolations(page), `${name} ${theme}`).toEqual([]);
        if (name === 'versions' || name === 'source') await page.screenshot({ path: `/tmp/wt-39-script-${name}-${theme}-1280.png` });
      }
      await context.close();
    }
  });
});
