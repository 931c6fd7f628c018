/**
 * The portal's knowledge review routes (issue 40: "a portal page lists insights for review"):
 * GET /api/v1/portal/admin/insights and POST …/{id}/approve | reject, for platform
 * administrators only, over the same store as apply_knowledge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { startKnowledgeRig, type KnowledgeRig } from './knowledge-fixtures.js';

let rig: KnowledgeRig;
let ids: { orders: string; customers: string };
const base = '/api/v1/portal/admin/insights';

beforeAll(async () => {
  rig = await startKnowledgeRig();
  const capture = async (category: string, insight_text: string, entity_urns: string[]) => (await rig.call('alice', 'capture_insight', { category, insight_text, entity_urns })).body.insight_id as string;
  ids = {
    orders: await capture('correction', 'orders.created_at is in UTC, not local shop time.', [U.orders]),
    customers: await capture('business_context', 'customers.country is where the invoice goes, not where goods ship.', [U.customers]),
  };
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

describe('GET /api/v1/portal/admin/insights', () => {
  it('lists pending insights oldest first, with who captured them, for an administrator', async () => {
    const r = await rig.rest('root', 'GET', base);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 2, offset: 0, limit: 20, next_offset: null });
    expect(r.body.insights.map((i: { id: string }) => i.id)).toEqual([ids.orders, ids.customers]);
    expect(r.body.insights[0]).toMatchObject({ status: 'pending', category: 'correction', entity_urns: [U.orders], captured_by: { subject: 'apikey:alice', persona: 'staff' }, times_captured: 1, allowed_actions: ['approve', 'reject'] });
  });

  it('filters by entity, category and status, and pages', async () => {
    expect((await rig.rest('root', 'GET', `${base}?entity=${encodeURIComponent(U.customers)}`)).body.insights.map((i: { id: string }) => i.id)).toEqual([ids.customers]);
    expect((await rig.rest('root', 'GET', `${base}?category=correction`)).body.total).toBe(1);
    expect((await rig.rest('root', 'GET', `${base}?status=rejected`)).body.total).toBe(0);
    expect((await rig.rest('root', 'GET', `${base}?limit=1`)).body).toMatchObject({ limit: 1, next_offset: 1 });
  });

  it('refuses a bad filter with 400 naming it', async () => {
    const r = await rig.rest('root', 'GET', `${base}?status=lost`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain('status');
  });

  it('is refused to a caller who is not an administrator (403), even one whose persona exposes apply_knowledge, and to none (401)', async () => {
    for (const user of ['alice', 'cora'] as const) {
      const r = await rig.rest(user, 'GET', base);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'forbidden', message: 'the admin API is for members of the persona "admin" (admin.persona)' });
    }
    expect((await fetch(`${rig.url}${base}`)).status).toBe(401);
    expect((await rig.rest('alice', 'POST', `${base}/${ids.orders}/approve`, {})).status).toBe(403);
    expect((await rig.db.query('SELECT status FROM knowledge_insights WHERE id = $1', [ids.orders])).rows[0].status).toBe('pending');
  });
});

describe('POST …/{id}/approve and …/{id}/reject', () => {
  it('approves with notes, recording the reviewer; a repeat answers changed: false', async () => {
    const r = await rig.rest('root', 'POST', `${base}/${ids.orders}/approve`, { review_notes: 'Confirmed in the loader code' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ changed: true, insight: { id: ids.orders, status: 'approved', review: { notes: 'Confirmed in the loader code', reviewed_by: 'apikey:root', reviewed_at: expect.any(String) }, allowed_actions: ['reject'] } });
    const again = await rig.rest('root', 'POST', `${base}/${ids.orders}/approve`, {});
    expect(again.body).toMatchObject({ changed: false, insight: { status: 'approved', review: { notes: 'Confirmed in the loader code' } } });
  });

  it('rejects without a body; approving a rejected insight is a 409', async () => {
    const r = await rig.rest('root', 'POST', `${base}/${ids.customers}/reject`);
    expect(r.body).toMatchObject({ changed: true, insight: { status: 'rejected', review: { notes: null }, allowed_actions: [] } });
    const conflict = await rig.rest('root', 'POST', `${base}/${ids.customers}/approve`, {});
    expect(conflict).toMatchObject({ status: 409, body: { error: 'conflict', message: `cannot approve ${ids.customers} (rejected): only pending insights can be approved` } });
  });

  it('an unknown insight is a 404; notes over 2000 characters a 400', async () => {
    expect(await rig.rest('root', 'POST', `${base}/nope/reject`, {})).toMatchObject({ status: 404, body: { error: 'not_found', message: 'no insight nope' } });
    expect((await rig.rest('root', 'POST', `${base}/${ids.orders}/reject`, { review_notes: 'x'.repeat(2001) })).status).toBe(400);
  });

  it('records each decision as an audit row of the administrator', async () => {
    const audit = await rig.db.query(`SELECT subject, parameters->>'action' AS action, parameters->'insight_ids' AS ids FROM audit_log WHERE tool = 'knowledge_change' ORDER BY occurred_at`);
    expect(audit.rows).toEqual([
      { subject: 'apikey:root', action: 'approve', ids: [ids.orders] },
      { subject: 'apikey:root', action: 'reject', ids: [ids.customers] },
    ]);
  });
});
