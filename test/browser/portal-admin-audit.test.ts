/**
 * Admin > Audit in a real browser (issue 39, "Audit"): the audit trail paged newest first, filtered
 * by user and tool (the filters kept in the address), parameters shown with secrets redacted, pages
 * by the api's cursor, and the filtered range exported as CSV; axe in both themes. Rows come from
 * what people do through the portal's api (uploads, downloads, script changes) and from the audit
 * writer itself. Real api and Postgres (test/support/portal.ts).
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRow, insertAuditRows } from '../../shared/audit/index.js';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';

type Json = Record<string, unknown>;

describe.skipIf(!haveChromium)('portal: Admin > Audit', () => {
  let rig: PortalRig;

  beforeAll(async () => {
    rig = await startPortalRig({ extraYaml: 'audit:\n  enabled: true\n  log_tool_calls: true\n' });
    // Alice reads her file twice (portal downloads); Bob changes a script (script_change rows).
    const file = (await rig.upload(people.alice, { path: 'audit', name: 'notes.txt', content: 'hello' })) as Json;
    const alice = await rig.restAs(people.alice);
    for (let i = 0; i < 2; i++) expect((await alice('GET', `/api/v1/resources/${file.id as string}/content`)).status).toBe(200);
    const bob = await rig.restAs(people.bob);
    const created = await bob('POST', '/api/v1/portal/scripts', { name: 'bobs-job', source: 'export function main() { return 1 }' });
    expect(created.status).toBe(201);
    expect((await bob('POST', `/api/v1/portal/scripts/${((created.body as Json).script as Json).id as string}/disable`)).status).toBe(200);
    // A tool call written with a secret argument, and many calls of one key to page through.
    const now = Date.now();
    await insertAuditRows(rig.db, [
      auditRow({ occurredAt: now - 1000, subject: 'apikey:ci', authType: 'apikey', tool: 'sql_query', parameters: { sql: 'SELECT 1', token: 'tok-should-never-show' }, durationMs: 12, outcome: 'ok' }, now),
      ...Array.from({ length: 60 }, (_, i) => auditRow({ occurredAt: now - 60_000 - i * 1000, subject: 'apikey:pager', authType: 'apikey', tool: 'objstore_list_buckets', parameters: { n: i }, durationMs: i, outcome: i % 10 === 0 ? 'error' : 'ok', ...(i % 10 === 0 ? { errorText: `boom ${i}` } : {}) }, now)),
    ]);
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('filtered by user and tool: only those rows, the filters kept in the address; parameters with secrets redacted', async () => {
    const { context, page } = await rig.open(people.admin, { width: 1920, height: 1200 });
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/audit');
    await page.getByRole('heading', { name: 'Audit', level: 1 }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'sql_query' }).waitFor();

    await page.getByLabel('User', { exact: true }).fill('alice');
    await page.getByLabel('Tool or event', { exact: true }).fill('portal_download');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?user=alice&tool=portal_download');
    await expect.poll(async () => (await table.getByRole('row').count()) - 1).toBe(2);
    for (const text of await table.locator('tbody tr').allTextContents()) {
      expect(text).toContain(subjectOf(people.alice));
      expect(text).toContain('portal_download');
    }
    // The address is the filtered view.
    await page.reload();
    await expect.poll(async () => (await page.getByRole('table').getByRole('row').count()) - 1).toBe(2);
    expect(await page.getByLabel('User', { exact: true }).inputValue()).toBe('alice');

    await page.getByLabel('User', { exact: true }).fill('bob');
    await page.getByLabel('Tool or event', { exact: true }).fill('script_change');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => table.textContent()).toContain('bobs-job');
    expect((await table.getByRole('row').count()) - 1).toBe(2);
    expect(await table.textContent()).not.toContain('portal_download');

    await page.getByLabel('User', { exact: true }).fill('apikey:ci');
    await page.getByLabel('Tool or event', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await table.getByText(/^sql: SELECT 1/).click();
    expect((await table.getByRole('row').count()) - 1).toBe(1);
    expect(await table.locator('pre.params').textContent()).toContain('"token": "[redacted]"');
    expect(await page.content()).not.toContain('tok-should-never-show');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/wt-39-audit-1920.png' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("pages by the api's cursor, and exports the filtered range as CSV", async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto('/portal/admin/audit?user=pager&outcome=ok');
    const table = page.getByRole('table');
    await expect.poll(async () => (await table.getByRole('row').count()) - 1).toBe(50);
    const first = await table.locator('tbody tr').first().textContent();
    await page.getByRole('button', { name: 'Older' }).click();
    await expect.poll(async () => (await table.getByRole('row').count()) - 1).toBe(4);
    await page.getByRole('status').getByText(/^Page 2/).waitFor();
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Newer' }).click();
    await expect.poll(() => table.locator('tbody tr').first().textContent()).toBe(first);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-[\d-]+\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('occurred_at,subject,email,auth_type,persona,tool,outcome,duration_ms,error_text,session_id,resource_id,parameters,id');
    expect(lines).toHaveLength(1 + 54);
    expect(lines.slice(1).every((line) => line.includes(',apikey:pager,') && line.includes(',objstore_list_buckets,ok,'))).toBe(true);
    await context.close();
  });

  it('axe in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await rig.open(people.admin, { theme });
      await page.goto('/portal/admin/audit');
      await page.getByRole('table').waitFor();
      expect(await seriousViolations(page), theme).toEqual([]);
      await page.screenshot({ path: `/tmp/wt-39-audit-${theme}-1280.png` });
      await context.close();
    }
  });
});
