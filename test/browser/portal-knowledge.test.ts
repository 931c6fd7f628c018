/**
 * Admin > Knowledge in a real browser (issue 40: "a portal page lists insights for review"): the
 * pending insights an agent captured with what they are about and suggest; approve by keyboard with
 * notes (focus kept on what was done), the approved ones under their status with only Reject left;
 * the api's refusal shown in its words; agent text never rendered as markup; a person who is not an
 * administrator gets no link and the api's refusal; axe in both themes. Real api and Postgres
 * (test/support/portal.ts); insights captured through the real insight store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsightStore } from '../../shared/knowledge/index.js';
import { haveChromium, people, seriousViolations, startPortalRig, subjectOf, watchPageProblems, type PortalRig } from '../support/portal.js';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:trino,hive.sales.orders,PROD)';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:trino,hive.sales.customers,PROD)';
const AMOUNT = 'The amount column of orders is in US dollars after discounts, not in cents.';
const COUNTRY = 'customers.country is where the invoice goes, not where the goods ship.';
const MARKUP = 'Beware <img src=x onerror="window.__pwned=1"> in free-text notes of orders.';

describe.skipIf(!haveChromium)('portal: Admin > Knowledge', () => {
  let rig: PortalRig;
  let ids: { amount: string; country: string; markup: string };

  beforeAll(async () => {
    rig = await startPortalRig({ extraYaml: 'knowledge: { enabled: true, apply: { enabled: true } }\n' });
    const store = new InsightStore({ db: rig.db, config: rig.config });
    const agent = { subject: subjectOf(people.alice), email: 'alice@example.com', authType: 'browser_session', persona: 'sales', sessionId: 'session-1' };
    const capture = async (input: Parameters<InsightStore['capture']>[1]) => (await store.capture(agent, input)).insight.id;
    ids = {
      amount: await capture({
        category: 'correction',
        insight_text: AMOUNT,
        entity_urns: [ORDERS],
        related_columns: [{ urn: ORDERS, column: 'amount', relevance: 'direct' }],
        suggested_actions: [{ action_type: 'update_description', target: 'amount', detail: 'Order amount in USD after discounts' }],
        confidence: 'high',
        source: 'agent_discovery',
      }),
      country: await capture({ category: 'business_context', insight_text: COUNTRY, entity_urns: [CUSTOMERS], confidence: 'low' }),
      markup: await capture({ category: 'data_quality', insight_text: MARKUP, entity_urns: [CUSTOMERS, ORDERS] }),
    };
  }, 240_000);

  afterAll(async () => rig?.stop());

  it('lists the pending insights oldest first with what they are about, suggest and who captured them; no serious axe violation in either theme', async () => {
    for (const theme of ['light', 'dark'] as const) {
      for (const width of [1280, 1920]) {
        const { context, page } = await rig.open(people.admin, { theme, width });
        const problems = watchPageProblems(page);
        await page.goto('/portal/');
        await page.getByRole('link', { name: 'Knowledge' }).click();
        await page.getByRole('heading', { name: 'Knowledge', level: 1 }).waitFor();
        const cards = page.getByRole('list', { name: 'Insights' }).getByRole('article');
        await expect.poll(() => cards.count()).toBe(3);
        expect(await cards.nth(0).getByRole('heading', { level: 2 }).textContent()).toBe('Correction');
        const first = await cards.nth(0).textContent();
        for (const text of [AMOUNT, ORDERS, 'update_description', 'Order amount in USD after discounts', 'Columns: amount (direct)', 'high confidence', 'alice@example.com', 'persona sales']) expect(first).toContain(text);
        expect(await page.getByText('3 pending insights, 1–3 shown (oldest first)').count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: `/tmp/wt-40a-knowledge-${theme}-${width}.png`, fullPage: true });
        expect(problems).toEqual([]);
        await context.close();
      }
    }
  });

  it('agent text is shown as text, never as markup', async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto('/portal/admin/knowledge');
    await page.getByText(MARKUP).waitFor();
    expect(await page.getByRole('list', { name: 'Insights' }).getByRole('img').count()).toBe(0);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await context.close();
  });

  it('approves by keyboard with notes; focus lands on what was done; the insight is then listed as approved with only Reject offered', async () => {
    const { context, page } = await rig.open(people.admin);
    const problems = watchPageProblems(page);
    await page.goto('/portal/admin/knowledge');
    const approve = page.getByRole('button', { name: `Approve: ${AMOUNT.slice(0, 60)}` });
    await approve.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Approve this insight?' });
    await dialog.getByLabel('Review notes').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.type('Checked with the shop team');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const notice = page.getByRole('status').getByText('Correction insight approved.');
    await notice.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Correction insight approved.');
    await expect.poll(() => page.getByRole('list', { name: 'Insights' }).getByRole('article').count()).toBe(2);

    await page.getByLabel('Status').selectOption('approved');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 approved insight, 1–1 shown (oldest first)').waitFor();
    const card = page.getByRole('list', { name: 'Insights' }).getByRole('article');
    expect(await card.textContent()).toContain('Checked with the shop team');
    expect(await card.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await card.getByRole('button', { name: /^Reject/ }).waitFor();
    const rest = await rig.restAs(people.admin);
    const stored = await rest('GET', `/api/v1/portal/admin/insights?status=approved`);
    expect(stored.body.insights[0]).toMatchObject({ id: ids.amount, review: { notes: 'Checked with the shop team', reviewed_by: expect.stringContaining('ada') } });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("a decision the api refuses shows the api's message in the dialog", async () => {
    const { context, page } = await rig.open(people.admin);
    await page.goto('/portal/admin/knowledge');
    await page.getByRole('button', { name: `Approve: ${COUNTRY.slice(0, 60)}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve this insight?' });
    await dialog.getByLabel('Review notes').waitFor();
    // Someone else rejects it meanwhile.
    const rest = await rig.restAs(people.admin);
    expect((await rest('POST', `/api/v1/portal/admin/insights/${ids.country}/reject`, { review_notes: 'Duplicate of a wiki page' })).status).toBe(200);
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await dialog.getByRole('alert').getByText(`The api refused: cannot approve ${ids.country} (rejected): only pending insights can be approved`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('a person who is not an administrator gets no Knowledge link, and the page shows the api\'s refusal', async () => {
    const { context, page } = await rig.open(people.alice);
    await page.goto('/portal/');
    await page.getByRole('navigation').first().waitFor();
    expect(await page.getByRole('link', { name: 'Knowledge' }).count()).toBe(0);
    await page.goto('/portal/admin/knowledge');
    await page.getByText('This page is not available to you.').waitFor();
    await page.getByText('the admin API is for members of the persona "admin" (admin.persona)').waitFor();
    expect(await page.getByRole('button', { name: /^(Approve|Reject)/ }).count()).toBe(0);
    await context.close();
  });
});
