/**
 * capture_insight (issue 40 "Knowledge"; toolkits.md §4.1, the old capture_insight shape) and
 * platform_info's knowledge features, through real MCP clients on the production api role:
 * stored pending with who captured it and the calls it came from; every limit refused with its
 * message; near-duplicates about an overlapping entity reported, not stored twice; the tool
 * absent with knowledge off or a persona without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { startKnowledgeRig, type KnowledgeRig } from './knowledge-fixtures.js';

let rig: KnowledgeRig;

beforeAll(async () => {
  rig = await startKnowledgeRig();
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

const rows = async (sql: string, params: unknown[] = []) => (await rig.db.query(sql, params)).rows;

describe('capture_insight', () => {
  it('stores a pending insight with its entities, columns, actions, confidence, source, captor and calls, and answers {insight_id, status: "pending", message}', async () => {
    const r = await rig.call('alice', 'capture_insight', {
      category: 'correction',
      insight_text: 'The amount column of orders is in US dollars after discounts, not in cents.',
      entity_urns: [U.orders],
      related_columns: [{ urn: U.orders, column: 'amount', relevance: 'direct' }],
      suggested_actions: [{ action_type: 'update_description', target: 'amount', detail: 'Order amount in USD after discounts' }],
      confidence: 'high',
      source: 'agent_discovery',
      call_ids: ['call-1', 'call-2'],
    });
    expect(r.isError).toBe(false);
    expect(r.body).toEqual({ insight_id: expect.any(String), status: 'pending', message: 'Insight recorded for review (pending).' });
    const [row] = await rows('SELECT * FROM knowledge_insights WHERE id = $1', [r.body.insight_id]);
    expect(row).toMatchObject({
      status: 'pending',
      category: 'correction',
      entity_urns: [U.orders],
      related_columns: [{ urn: U.orders, column: 'amount', relevance: 'direct' }],
      suggested_actions: [{ action_type: 'update_description', target: 'amount', detail: 'Order amount in USD after discounts' }],
      confidence: 'high',
      source: 'agent_discovery',
      captured_by: 'apikey:alice',
      persona: 'staff',
      call_ids: ['call-1', 'call-2'],
      times_captured: 1,
    });
    expect(row.session_id).toEqual(expect.any(String));
  });

  it('defaults confidence to medium and source to user', async () => {
    const r = await rig.call('alice', 'capture_insight', { category: 'usage_guidance', insight_text: 'Join daily_revenue on day, never on a timestamp column.', entity_urns: [U.dailyRevenue] });
    const [row] = await rows('SELECT confidence, source FROM knowledge_insights WHERE id = $1', [r.body.insight_id]);
    expect(row).toEqual({ confidence: 'medium', source: 'user' });
  });

  it.each([
    [{ category: 'gossip' }, 'category must be one of correction, business_context, data_quality, usage_guidance, relationship, enhancement'],
    [{ insight_text: 'too short' }, 'insight_text must be at least 10 characters'],
    [{ insight_text: 'x'.repeat(4001) }, 'insight_text must be at most 4000 characters'],
    [{ entity_urns: Array.from({ length: 11 }, (_, i) => `urn:li:dataset:${i}`) }, 'entity_urns: at most 10'],
    [{ entity_urns: ['orders'] }, 'entity_urns: each must be a catalog URN (urn:li:<type>:<key>)'],
    [{ related_columns: Array.from({ length: 21 }, (_, i) => ({ urn: U.orders, column: `c${i}` })) }, 'related_columns: at most 20'],
    [{ suggested_actions: Array.from({ length: 6 }, () => ({ action_type: 'add_tag', detail: 'PII' })) }, 'suggested_actions: at most 5'],
    [{ suggested_actions: [{ action_type: 'drop_table', detail: 'x' }] }, 'change_type must be one of update_description, add_tag, remove_tag, add_glossary_term, add_documentation'],
    [{ confidence: 'certain' }, 'confidence must be one of high, medium, low'],
    [{ call_ids: Array.from({ length: 21 }, (_, i) => `c${i}`) }, 'call_ids: at most 20'],
  ])('refuses %j with a clear message and stores nothing', async (bad, message) => {
    const before = await rows('SELECT count(*)::int AS n FROM knowledge_insights');
    const r = await rig.call('alice', 'capture_insight', { category: 'data_quality', insight_text: 'Some rows of orders_legacy have a negative total.', ...bad });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(await rows('SELECT count(*)::int AS n FROM knowledge_insights')).toEqual(before);
  });

  it('refuses a text of punctuation only (fewer than 10 letters or digits)', async () => {
    const r = await rig.call('alice', 'capture_insight', { category: 'enhancement', insight_text: '!!!!!!!!!!!!!!! ?? ab' });
    expect(r).toMatchObject({ isError: true, body: { error: 'invalid' }, text: 'insight_text must hold at least 10 letters or digits' });
  });

  it('a near-duplicate about an overlapping entity is reported and not stored twice (the existing insight is counted again)', async () => {
    const text = 'Customers in the EU are stored with country code EL for Greece, not GR.';
    const first = await rig.call('alice', 'capture_insight', { category: 'data_quality', insight_text: text, entity_urns: [U.customers] });
    const again = await rig.call('bob', 'capture_insight', {
      category: 'data_quality',
      insight_text: 'customers in the EU are stored with country-code "EL" for Greece -- not GR!',
      entity_urns: [U.customers, U.orders],
    });
    expect(again.isError).toBe(false);
    expect(again.body).toMatchObject({ insight_id: first.body.insight_id, status: 'pending', duplicate: true });
    expect(again.body.message).toBe(`Not stored again: insight ${first.body.insight_id} (pending) already says this (captured 2 times).`);
    expect(await rows('SELECT count(*)::int AS n FROM knowledge_insights WHERE entity_urns && $1', [[U.customers]])).toEqual([{ n: 1 }]);
  });

  it('the same words about another entity are a new insight', async () => {
    const text = 'Rows before 2020 were loaded twice and must be deduplicated by order_id.';
    const a = await rig.call('alice', 'capture_insight', { category: 'data_quality', insight_text: text, entity_urns: [U.raw] });
    const b = await rig.call('alice', 'capture_insight', { category: 'data_quality', insight_text: text, entity_urns: [U.staging] });
    expect(b.body.insight_id).not.toBe(a.body.insight_id);
    expect(b.body.duplicate).toBeUndefined();
  });

  it('a similar (not duplicate) insight is stored and names the close ones with their scores', async () => {
    const a = await rig.call('alice', 'capture_insight', {
      category: 'business_context',
      insight_text: 'Revenue in daily_revenue excludes refunds issued after the day closes.',
      entity_urns: [U.legacy],
    });
    const b = await rig.call('alice', 'capture_insight', {
      category: 'business_context',
      insight_text: 'Revenue in daily_revenue excludes refunds and chargebacks issued after month end.',
      entity_urns: [U.legacy],
    });
    expect(b.body.insight_id).not.toBe(a.body.insight_id);
    expect(b.body.similar_existing).toEqual([{ id: a.body.insight_id, score: expect.any(Number), status: 'pending' }]);
    expect(b.body.similar_existing[0].score).toBeGreaterThanOrEqual(0.5);
    expect(b.body.similar_existing[0].score).toBeLessThan(0.8);
  });

  it('two agents capturing the same insight at the same moment store it once', async () => {
    const args = { category: 'relationship', insight_text: 'orders.customer_email joins customers.email case-insensitively.', entity_urns: [U.dataProduct] };
    const [a, b] = await Promise.all([rig.call('alice', 'capture_insight', args), rig.call('bob', 'capture_insight', args)]);
    expect(a.body.insight_id).toBe(b.body.insight_id);
    expect(await rows('SELECT times_captured FROM knowledge_insights WHERE id = $1', [a.body.insight_id])).toEqual([{ times_captured: 2 }]);
  });

  it('a persona whose tools exclude capture_insight neither sees nor calls it', async () => {
    const client = await rig.connect('lena');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('capture_insight');
    await expect(client.callTool({ name: 'capture_insight', arguments: { category: 'correction', insight_text: 'A sufficiently long text.' } })).rejects.toThrow(/Unknown tool: capture_insight/);
  });
});

describe('platform_info features', () => {
  it('reports knowledge_capture, and knowledge_apply with the catalog and the review queue to an administrator', async () => {
    const pending = (await rows(`SELECT count(*)::int AS n FROM knowledge_insights WHERE status = 'pending'`))[0].n;
    const admin = await rig.call('root', 'platform_info', {});
    expect(admin.body.features).toEqual({
      semantic_enrichment: false,
      query_enrichment: false,
      storage_enrichment: false,
      audit_logging: true,
      knowledge_capture: true,
      knowledge_apply: { enabled: true, datahub_connection: 'hub', review_queue: { pending, oldest_pending_age_days: 0, pending_over_30d: 0 } },
      managed_resources: false,
    });
    expect(admin.body.toolkits).toContain('knowledge');
  });

  it('counts pending insights older than 30 days as review debt', async () => {
    const r = await rig.call('alice', 'capture_insight', { category: 'enhancement', insight_text: 'Legacy totals should carry the currency next to them.', entity_urns: [U.legacy, U.raw] });
    await rig.db.query(`UPDATE knowledge_insights SET created_at = now() - interval '45 days' WHERE id = $1`, [r.body.insight_id]);
    const admin = await rig.call('root', 'platform_info', {});
    expect(admin.body.features.knowledge_apply.review_queue).toMatchObject({ oldest_pending_age_days: 45, pending_over_30d: 1 });
  });

  it('shows no review queue to a caller who is not an administrator', async () => {
    const staff = await rig.call('alice', 'platform_info', {});
    expect(staff.body.features.knowledge_apply).toEqual({ enabled: true, datahub_connection: 'hub' });
  });
});

describe('knowledge switched off', () => {
  it('knowledge.enabled false: no capture_insight, no apply_knowledge, no review routes, features say so', async () => {
    const off = await startKnowledgeRig({ enabled: false, apply: false });
    try {
      const client = await off.connect('root');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('capture_insight');
      expect(names).not.toContain('apply_knowledge');
      const info = await off.call('root', 'platform_info', {});
      expect(info.body.features).toMatchObject({ knowledge_capture: false, knowledge_apply: { enabled: false } });
      expect((await off.rest('root', 'GET', '/api/v1/portal/admin/insights')).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it('knowledge.apply.enabled false: capture_insight only', async () => {
    const captureOnly = await startKnowledgeRig({ apply: false });
    try {
      const names = (await (await captureOnly.connect('root')).listTools()).tools.map((t) => t.name);
      expect(names).toContain('capture_insight');
      expect(names).not.toContain('apply_knowledge');
      const info = await captureOnly.call('root', 'platform_info', {});
      expect(info.body.features).toMatchObject({ knowledge_capture: true, knowledge_apply: { enabled: false } });
      expect(info.body.features.knowledge_apply.review_queue).toBeUndefined();
    } finally {
      await captureOnly.stop();
    }
  });
});
