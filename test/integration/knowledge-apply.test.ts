/**
 * apply_knowledge (issue 40 "Knowledge"; toolkits.md §4.1) through real MCP clients on the
 * production api role, writing to the DataHub GraphQL test server built on DataHub's real schema:
 * administrators only; the review queue grouped; approve/reject with notes; apply as a recorded
 * changeset whose rollback restores every prior value; a failed write leaves a clear partial state;
 * require_confirmation answers what would change until confirm: true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient, catalogOperations } from '../../shared/catalog/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { fixtureUrns as U } from '../support/datahub-fixtures.js';
import { startKnowledgeRig, type KnowledgeRig, type User } from './knowledge-fixtures.js';

let rig: KnowledgeRig;
let catalog: CatalogClient;

beforeAll(async () => {
  rig = await startKnowledgeRig();
  catalog = new CatalogClient({ name: 'check', url: rig.datahub.url, timeoutMs: 5000, log: silentLogger() });
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

const apply = (args: Record<string, unknown>, user: User = 'root') => rig.call(user, 'apply_knowledge', args);
const capture = async (args: Record<string, unknown>) => (await rig.call('alice', 'capture_insight', { category: 'correction', confidence: 'medium', ...args })).body.insight_id as string;
const rows = async (sql: string, params: unknown[] = []) => (await rig.db.query(sql, params)).rows;

describe('who may use apply_knowledge', () => {
  it.each(['cora', 'alice'] as const)('%s (a persona exposing it, but not an administrator) is refused and nothing is read or written', async (user) => {
    const before = rig.datahub.requests.length;
    const r = await apply({ action: 'apply', entity_urn: U.orders, changes: [{ change_type: 'add_tag', detail: 'PII' }] }, user);
    expect(r).toMatchObject({ isError: true, body: { error: 'forbidden' }, text: 'apply_knowledge is for platform administrators (members of the persona "admin")' });
    expect((await apply({ action: 'bulk_review' }, user)).body.error).toBe('forbidden');
    expect(rig.datahub.requests.length).toBe(before);
  });
});

describe('review', () => {
  let ids: { orders: string; ordersQuality: string; customers: string; none: string };

  beforeAll(async () => {
    ids = {
      orders: await capture({ insight_text: 'orders.status also takes the value cancelled since 2025.', entity_urns: [U.orders], confidence: 'high' }),
      ordersQuality: await capture({ category: 'data_quality', insight_text: 'About 2% of orders have a null customer_email.', entity_urns: [U.orders] }),
      customers: await capture({ category: 'business_context', insight_text: 'A customer is anyone who placed at least one order.', entity_urns: [U.customers], confidence: 'low' }),
      none: await capture({ category: 'usage_guidance', insight_text: 'Always filter sales tables by a date range to keep scans small.' }),
    };
    await rig.db.query(`UPDATE knowledge_insights SET created_at = now() - interval '10 days' WHERE id = $1`, [ids.customers]);
  });

  it('bulk_review groups the pending queue by entity, category, confidence and age', async () => {
    const r = await apply({ action: 'bulk_review' });
    expect(r.isError).toBe(false);
    expect(r.body).toMatchObject({
      total_pending: 4,
      by_entity: [
        { entity_urn: U.orders, count: 2, categories: ['correction', 'data_quality'] },
        { entity_urn: '', count: 1, categories: ['usage_guidance'] },
        { entity_urn: U.customers, count: 1, categories: ['business_context'] },
      ],
      by_entity_truncated: false,
      by_category: { correction: 1, data_quality: 1, business_context: 1, usage_guidance: 1 },
      by_confidence: { high: 1, medium: 2, low: 1 },
      by_age: { under_7d: 3, from_7_to_30d: 1, over_30d: 0 },
      oldest_pending_age_days: 10,
      pending_over_30d: 0,
    });
  });

  it('review lists pending insights oldest first, filtered by entity and category, paged', async () => {
    const all = await apply({ action: 'review' });
    expect(all.body.insights.map((i: { id: string }) => i.id)).toEqual([ids.customers, ids.orders, ids.ordersQuality, ids.none]);
    const orders = await apply({ action: 'review', entity_urn: U.orders, category: 'data_quality' });
    expect(orders.body).toMatchObject({ total: 1, insights: [{ id: ids.ordersQuality, captured_by: { subject: 'apikey:alice', persona: 'staff' } }] });
    const page = await apply({ action: 'review', limit: 3, offset: 0 });
    expect(page.body).toMatchObject({ total: 4, limit: 3, next_offset: 3 });
    const last = await apply({ action: 'review', limit: 3, offset: 3 });
    expect(last.body).toMatchObject({ insights: [{ id: ids.none }], next_offset: null });
  });

  it('approve and reject record the reviewer and notes; a repeat changes nothing; another state is a conflict', async () => {
    const approved = await apply({ action: 'approve', insight_id: ids.orders, review_notes: 'Checked with the shop team' });
    expect(approved.body).toEqual({ approved: [ids.orders], message: '1 insight(s) approved.' });
    const [row] = await rows('SELECT status, review_notes, reviewed_by, reviewed_at FROM knowledge_insights WHERE id = $1', [ids.orders]);
    expect(row).toMatchObject({ status: 'approved', review_notes: 'Checked with the shop team', reviewed_by: 'apikey:root', reviewed_at: expect.any(Date) });
    const again = await apply({ action: 'approve', insight_ids: [ids.orders] });
    expect(again.body).toEqual({ approved: [], already: [ids.orders], message: '0 insight(s) approved; 1 already approved.' });

    const rejected = await apply({ action: 'reject', insight_ids: [ids.customers, ids.none], review_notes: 'Not specific enough' });
    expect(rejected.body.rejected.sort()).toEqual([ids.customers, ids.none].sort());
    const conflict = await apply({ action: 'approve', insight_ids: [ids.ordersQuality, ids.customers] });
    expect(conflict).toMatchObject({ isError: true, body: { error: 'conflict', blocked: [{ id: ids.customers, status: 'rejected' }] } });
    expect(conflict.text).toBe(`cannot approve ${ids.customers} (rejected): only pending insights can be approved`);
    // All or nothing: the pending one named beside it was not approved either.
    expect((await rows('SELECT status FROM knowledge_insights WHERE id = $1', [ids.ordersQuality]))[0].status).toBe('pending');
  });

  it('an unknown insight is not found, and approve without an insight is refused', async () => {
    expect(await apply({ action: 'reject', insight_id: 'no-such-insight' })).toMatchObject({ isError: true, body: { error: 'not_found' }, text: 'no insight no-such-insight' });
    expect(await apply({ action: 'approve' })).toMatchObject({ isError: true, text: 'insight_id or insight_ids is required for action approve' });
  });

  it('every review decision is an audit row (knowledge_change) with the reviewer', async () => {
    const audit = await rows(`SELECT subject, parameters FROM audit_log WHERE tool = 'knowledge_change' AND parameters->>'action' IN ('approve', 'reject') ORDER BY occurred_at`);
    expect(audit.map((a) => [a.subject, a.parameters.action])).toEqual([
      ['apikey:root', 'approve'],
      ['apikey:root', 'reject'],
    ]);
  });
});

describe('apply and rollback', () => {
  it('applies an approved insight as a changeset (description, column tag, tag removal, term, documentation) and rolls every change back to its prior value', async () => {
    const insight = await capture({ insight_text: 'The orders table is the revenue source; its amount is USD after discounts.', entity_urns: [U.orders, U.dailyRevenue] });
    await apply({ action: 'approve', insight_id: insight });
    const before = { dataset: await catalog.getEditableState(U.orders), amount: await catalog.getEditableState(U.orders, 'amount') };
    expect(before.dataset).toEqual({ description: null, tags: [U.tagCertified], glossary_terms: [U.termOrder], links: [] });
    expect(before.amount).toEqual({ description: 'Order amount in USD, after discounts, before tax', tags: [U.tagFinance], glossary_terms: [], links: [] });

    const r = await apply({
      action: 'apply',
      entity_urn: U.orders,
      insight_ids: [insight],
      review_notes: 'Verified',
      changes: [
        { change_type: 'update_description', detail: 'Cleaned orders; the source of truth for revenue (USD after discounts).' },
        { change_type: 'add_tag', target: 'customer_email', detail: 'PII' },
        { change_type: 'remove_tag', detail: U.tagCertified },
        { change_type: 'add_glossary_term', detail: U.termRevenue },
        { change_type: 'add_documentation', target: 'https://wiki.example.com/orders', detail: 'Orders runbook' },
        { change_type: 'update_description', target: 'amount', detail: 'Amount in USD after discounts' },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.body).toMatchObject({ status: 'applied', changeset: { connection: 'hub', entity_urn: U.orders, insight_ids: [insight], review_notes: 'Verified', applied_by: { subject: 'apikey:root' } } });
    expect(r.body.changeset.changes.map((c: { status: string; prior: unknown }) => [c.status, c.prior])).toEqual([
      ['applied', { description: null }],
      ['applied', { present: false }],
      ['applied', { present: true }],
      ['applied', { present: false }],
      ['applied', { present: false }],
      ['applied', { description: 'Order amount in USD, after discounts, before tax' }],
    ]);
    // Written on the instance knowledge.apply.datahub_connection names, as DataHub's mutations.
    expect(await catalog.getEditableState(U.orders)).toEqual({
      description: 'Cleaned orders; the source of truth for revenue (USD after discounts).',
      tags: [],
      glossary_terms: [U.termOrder, U.termRevenue],
      links: [{ url: 'https://wiki.example.com/orders', label: 'Orders runbook' }],
    });
    expect((await catalog.getEditableState(U.orders, 'customer_email')).tags).toEqual([U.tagPii]);
    expect((await catalog.getEditableState(U.orders, 'amount')).description).toBe('Amount in USD after discounts');
    expect((await rows('SELECT status, changeset_id FROM knowledge_insights WHERE id = $1', [insight]))[0]).toEqual({ status: 'applied', changeset_id: r.body.changeset_id });

    const mutationsBefore = rig.datahub.mutations().length;
    const back = await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(back.body).toMatchObject({ status: 'rolled_back', changeset: { rolled_back_by: 'apikey:root' } });
    // Undone in reverse order, one mutation per change.
    expect(rig.datahub.mutations().slice(mutationsBefore).map((m) => m.operationName)).toEqual(['UpdateDescription', 'RemoveLink', 'RemoveTerm', 'AddTag', 'RemoveTag', 'UpdateDescription']);
    expect(await catalog.getEditableState(U.orders, 'amount')).toEqual(before.amount);
    expect((await catalog.getEditableState(U.orders, 'customer_email')).tags).toEqual([]);
    // No edited description before: restored as an empty edit, so the ingested one shows again.
    expect(await catalog.getEditableState(U.orders)).toEqual({ ...before.dataset, description: '', glossary_terms: [U.termOrder] });
    expect((await catalog.getEntity(U.orders)).description).toBe('Cleaned orders, one row per order, the source of truth for revenue');
    expect((await rows('SELECT status FROM knowledge_insights WHERE id = $1', [insight]))[0].status).toBe('rolled_back');

    const twice = await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(twice).toMatchObject({ isError: true, body: { error: 'conflict' } });
    expect(twice.text).toContain('is rolled_back');
    const audit = await rows(`SELECT parameters->>'action' AS action, parameters->>'status' AS status FROM audit_log WHERE tool = 'knowledge_change' AND parameters->>'changeset_id' = $1 ORDER BY occurred_at`, [r.body.changeset_id]);
    expect(audit).toEqual([
      { action: 'apply', status: 'applied' },
      { action: 'rollback', status: 'rolled_back' },
    ]);
  });

  it('an add of what is there already writes nothing, and its rollback writes nothing', async () => {
    const before = rig.datahub.mutations().length;
    const r = await apply({ action: 'apply', entity_urn: U.orders, changes: [{ change_type: 'add_glossary_term', detail: U.termOrder }] });
    expect(r.body.changeset.changes[0]).toMatchObject({ status: 'applied', prior: { present: true } });
    await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(rig.datahub.mutations().length).toBe(before);
    expect((await catalog.getEditableState(U.orders)).glossary_terms).toEqual([U.termOrder]);
  });

  it('a failed write stops the changeset: partial, naming what applied; its insights stay approved; rollback undoes what applied', async () => {
    const insight = await capture({ insight_text: 'customers.country holds ISO 3166 alpha-2 codes.', entity_urns: [U.customers] });
    await apply({ action: 'approve', insight_id: insight });
    const r = await apply({
      action: 'apply',
      entity_urn: U.customers,
      insight_ids: [insight],
      changes: [
        { change_type: 'update_description', target: 'country', detail: 'ISO 3166 alpha-2 country code' },
        { change_type: 'add_tag', target: 'country', detail: 'urn:li:tag:DoesNotExist' },
        { change_type: 'add_glossary_term', target: 'country', detail: U.termContact },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.body.error).toBe('partial');
    expect(r.text).toMatch(/^Changeset \S+ is partial: changes\[1\] failed: .*urn:li:tag:DoesNotExist does not exist\. Applied: changes\[0\]; not applied: the rest\./);
    expect(r.body.changeset.changes.map((c: { status: string }) => c.status)).toEqual(['applied', 'failed', 'planned']);
    expect((await catalog.getEditableState(U.customers, 'country')).description).toBe('ISO 3166 alpha-2 country code');
    expect((await rows('SELECT status, changeset_id FROM knowledge_insights WHERE id = $1', [insight]))[0]).toEqual({ status: 'approved', changeset_id: null });

    const back = await apply({ action: 'rollback', changeset_id: r.body.changeset.id });
    expect(back.body.changeset.changes.map((c: { status: string }) => c.status)).toEqual(['rolled_back', 'failed', 'planned']);
    expect(await catalog.getEditableState(U.customers, 'country')).toEqual({ description: '', tags: [], glossary_terms: [], links: [] });
    expect((await rows('SELECT status FROM knowledge_insights WHERE id = $1', [insight]))[0].status).toBe('approved');
  });

  it('a rollback whose undo fails stops as rollback_partial and continues when called again', async () => {
    const r = await apply({ action: 'apply', entity_urn: U.raw, changes: [{ change_type: 'add_tag', detail: 'Finance' }, { change_type: 'add_tag', detail: 'Sensitive' }] });
    rig.datahub.setFault('RemoveTag', { graphqlErrors: ['Failed to update resource: the catalog is read-only for maintenance'] });
    const stopped = await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(stopped).toMatchObject({ isError: true, body: { error: 'rollback_partial', changeset: { status: 'rollback_partial' } } });
    expect(stopped.text).toContain('undoing changes[1] failed');
    rig.datahub.setFault('RemoveTag', undefined);
    const done = await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(done.body.status).toBe('rolled_back');
    expect((await catalog.getEditableState(U.raw)).tags).toEqual([]);
  });

  it('a rollback does not overwrite a later edit by someone else unless forced', async () => {
    const r = await apply({ action: 'apply', entity_urn: U.dailyRevenue, changes: [{ change_type: 'update_description', detail: 'Revenue per calendar day' }] });
    // Someone edits the same description in the catalog afterwards.
    const edit = catalogOperations.updateDescriptionMutation;
    await catalog.mutate(edit, { input: { description: 'Revenue per day, edited by the data team', resourceUrn: U.dailyRevenue } });
    const refused = await apply({ action: 'rollback', changeset_id: r.body.changeset_id });
    expect(refused).toMatchObject({ isError: true, body: { error: 'rollback_partial' } });
    expect(refused.text).toContain('undoing changes[0] failed: the catalog was changed since it was applied');
    expect(refused.text).toContain('roll back with force: true');
    expect((await catalog.getEditableState(U.dailyRevenue)).description).toBe('Revenue per day, edited by the data team');
    const forced = await apply({ action: 'rollback', changeset_id: r.body.changeset_id, force: true });
    expect(forced.body.status).toBe('rolled_back');
    expect((await catalog.getEditableState(U.dailyRevenue)).description).toBe('');
  });

  it.each([
    [{ entity_urn: U.termEmail, changes: [{ change_type: 'add_tag', detail: 'PII' }] }, 'entity_urn must be a dataset URN'],
    [{ entity_urn: U.orders, changes: [{ change_type: 'add_documentation', target: 'javascript:alert(1)', detail: 'x' }] }, 'changes[0] (add_documentation): target: only http and https links are documentation (got javascript:)'],
    [{ entity_urn: U.orders, changes: [{ change_type: 'add_documentation', detail: 'Runbook' }] }, "changes[0] (add_documentation): target (the documentation's URL) is required"],
    [{ entity_urn: U.orders, changes: [{ change_type: 'add_tag', detail: 'urn:li:glossaryTerm:Commerce.Email' }] }, 'changes[0] (add_tag): detail must be a urn:li:tag:… URN or a name'],
    [{ entity_urn: U.orders, changes: [{ change_type: 'update_description', detail: '   ' }] }, 'changes[0] (update_description): detail is required'],
    [{ entity_urn: U.orders, changes: [] }, 'changes is required for action apply'],
    [{ changes: [{ change_type: 'add_tag', detail: 'PII' }] }, 'entity_urn is required for action apply'],
    [{ entity_urn: U.orders, changes: Array.from({ length: 21 }, () => ({ change_type: 'add_tag', detail: 'PII' })) }, 'changes: at most 20'],
  ])('refuses %j before anything is written or recorded', async (args, message) => {
    const before = { mutations: rig.datahub.mutations().length, changesets: (await rows('SELECT count(*)::int AS n FROM knowledge_changesets'))[0].n };
    const r = await apply({ action: 'apply', ...args });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(message);
    expect(rig.datahub.mutations().length).toBe(before.mutations);
    expect((await rows('SELECT count(*)::int AS n FROM knowledge_changesets'))[0].n).toBe(before.changesets);
  });

  it('only approved insights are applied: a pending one refuses the apply and nothing is written', async () => {
    const pending = await capture({ insight_text: 'staging.orders_clean drops test orders placed by employees.', entity_urns: [U.staging] });
    const before = rig.datahub.mutations().length;
    const r = await apply({ action: 'apply', entity_urn: U.staging, insight_ids: [pending], changes: [{ change_type: 'update_description', detail: 'Orders without test orders' }] });
    expect(r).toMatchObject({ isError: true, body: { error: 'conflict' }, text: `only approved insights are applied: ${pending} is pending` });
    expect(rig.datahub.mutations().length).toBe(before);
  });

  /**
   * What an apply that died mid-way leaves (as the apply records it: each change's prior value before
   * its write): changeset applying, changes[0] written but not yet marked applied, changes[1] with its
   * prior recorded but never written, changes[2] never reached. Its lock died with its connection.
   */
  async function diedMidApply(): Promise<string> {
    const id = `0192f000-0000-7000-8000-${String(Date.now()).padStart(12, '0')}`;
    await rig.db.query(
      `INSERT INTO knowledge_changesets (id, entity_urn, connection, status, insight_ids, applied_by, created_at) VALUES ($1, $2, 'hub', 'applying', '{}', 'apikey:root', now())`,
      [id, U.legacy],
    );
    await rig.db.query(
      `INSERT INTO knowledge_changes (changeset_id, position, change_type, target, detail, prior) VALUES
         ($1, 0, 'update_description', NULL, 'Orders before 2020', '{"description": ""}'),
         ($1, 1, 'add_tag', NULL, $2, '{"present": false}'),
         ($1, 2, 'add_tag', NULL, $3, NULL)`,
      [id, U.tagFinance, U.tagPii],
    );
    await catalog.mutate(catalogOperations.updateDescriptionMutation, { input: { description: 'Orders before 2020', resourceUrn: U.legacy } });
    return id;
  }

  it('a changeset whose apply died is rolled back: what it may have written is restored, what it never wrote left alone', async () => {
    const id = await diedMidApply();
    const back = await apply({ action: 'rollback', changeset_id: id });
    expect(back.isError, back.text).toBe(false);
    expect(back.body.changeset.status).toBe('rolled_back');
    expect(back.body.changeset.changes.map((c: { status: string }) => c.status)).toEqual(['rolled_back', 'rolled_back', 'planned']);
    expect(await catalog.getEditableState(U.legacy)).toMatchObject({ description: '', tags: [] });
  });

  it('a changeset being applied now is not taken over: its apply holds the lock until it ends', async () => {
    const id = await diedMidApply();
    // The applier's lock, as a live apply holds it on a connection of its own.
    const applier = await rig.db.connect();
    try {
      await applier.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`knowledge-changeset:${id}`]);
      const refused = await apply({ action: 'rollback', changeset_id: id });
      expect(refused).toMatchObject({ isError: true, body: { error: 'conflict' } });
      expect(refused.text).toContain('is being applied now');
      expect((await rows('SELECT status FROM knowledge_changesets WHERE id = $1', [id]))[0].status).toBe('applying');
    } finally {
      applier.release(true);
    }
    const back = await apply({ action: 'rollback', changeset_id: id });
    expect(back.body.changeset.status).toBe('rolled_back');
    expect((await catalog.getEditableState(U.legacy)).description).toBe('');
  });

  it('list_changesets lists an entity\'s changesets newest first with their changes', async () => {
    const r = await apply({ action: 'list_changesets', entity_urn: U.orders });
    expect(r.body.total).toBe(2);
    expect(r.body.changesets.map((c: { status: string; changes: unknown[] }) => [c.status, c.changes.length])).toEqual([
      ['rolled_back', 1],
      ['rolled_back', 6],
    ]);
  });
});

describe('require_confirmation', () => {
  let confirming: KnowledgeRig;
  beforeAll(async () => {
    confirming = await startKnowledgeRig({ requireConfirmation: true });
  }, 120_000);
  afterAll(async () => {
    await confirming?.stop();
  });

  it('an apply without confirm: true answers what would change and writes or records nothing; with it, writes', async () => {
    const args = {
      action: 'apply',
      entity_urn: U.dailyRevenue,
      changes: [
        { change_type: 'update_description', detail: 'Revenue per day in USD' },
        { change_type: 'add_tag', detail: 'Finance' },
      ],
    };
    const preview = await confirming.call('root', 'apply_knowledge', args);
    expect(preview.isError).toBe(false);
    expect(preview.body).toMatchObject({
      confirmation_required: true,
      connection: 'hub',
      changes: [
        { change_type: 'update_description', detail: 'Revenue per day in USD', current: { description: null }, writes: true },
        { change_type: 'add_tag', detail: 'urn:li:tag:Finance', current: { present: false }, writes: true },
      ],
    });
    expect(confirming.datahub.mutations()).toEqual([]);
    expect((await confirming.db.query('SELECT count(*)::int AS n FROM knowledge_changesets')).rows[0].n).toBe(0);
    const done = await confirming.call('root', 'apply_knowledge', { ...args, confirm: true });
    expect(done.body.status).toBe('applied');
    expect(confirming.datahub.mutations().map((m) => m.operationName)).toEqual(['UpdateDescription', 'AddTag']);
  });
});

describe('where knowledge cannot be written', () => {
  it.each([
    ['archive', 'catalog connection "archive" is read-only (toolkits.catalog.archive.read_only): knowledge cannot be applied to it'],
    ['none', 'no catalog to write to: configure a toolkits.catalog instance (and knowledge.apply.datahub_connection)'],
  ] as const)('datahub_connection %s: apply is refused before anything is recorded; the review still works', async (writeTo, message) => {
    const other = await startKnowledgeRig({ writeTo });
    try {
      const r = await other.call('root', 'apply_knowledge', { action: 'apply', entity_urn: U.orders, changes: [{ change_type: 'add_tag', detail: 'PII' }] });
      expect(r).toMatchObject({ isError: true, body: { error: 'unavailable' }, text: message });
      expect(other.datahub.requests).toEqual([]);
      expect((await other.db.query('SELECT count(*)::int AS n FROM knowledge_changesets')).rows[0].n).toBe(0);
      expect((await other.call('root', 'apply_knowledge', { action: 'bulk_review' })).body.total_pending).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
