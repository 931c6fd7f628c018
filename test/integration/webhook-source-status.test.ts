/**
 * The source page's routes over HTTP (api/admin/webhook-source-status.ts) on real services: the
 * figures of GET {prefix}/{name}/status — sender URL, table, request counts persisted by the
 * receivers of two apis on one database, last event, windows, rejections — and the admin retries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replicaId } from '../../cli/webhooks.js';
import { silentLogger } from '../../shared/logging/index.js';
import { WebhookReceiver, WebhookRequestCounts, webhookMetrics, type WindowKey } from '../../shared/webhooks/index.js';
import { temporalWorkflowUrl } from '../../shared/temporal/index.js';
import { startTestApi } from '../support/api.js';
import { ADMIN_KEY, START, startIngestRig, type IngestRig } from './webhook-ingest-fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const token = { mode: 'header_token', header: 'X-Token', secret: 'page-token' };
let rig: IngestRig;

beforeAll(async () => {
  rig = await startIngestRig();
});

afterAll(async () => {
  await rig?.stop();
});

const post = (name: string, secret = 'page-token', base?: string) =>
  rig.hook(`/hooks/${name}`, { headers: { 'x-token': secret, 'content-type': 'application/json' }, body: JSON.stringify({ id: Math.random() }) }, base);

async function status(name: string) {
  const answer = await rig.admin('GET', `/${name}/status`);
  expect(answer.status).toBe(200);
  return answer.json;
}

const counts = (given: Record<string, number>) => ({
  accepted: 0,
  unauthorized: 0,
  too_large: 0,
  rate_limited: 0,
  buffer_full: 0,
  write_failed: 0,
  unknown_source: 0,
  invalid_body: 0,
  ...given,
});

describe('webhook source page: GET {prefix}/{name}/status', () => {
  it('a new source: sender URL and table, no requests, no windows, its retention settings', async () => {
    rig.clock.now = START;
    await rig.createSource('page-new', token, { compact_every_minutes: 15, raw_retention_days: 3, compacted_retention_days: 0 });
    expect(await status('page-new')).toEqual({
      name: 'page-new',
      table: 'webhook_page_new',
      enabled: true,
      sender_url: `${rig.api.url}/hooks/page-new`,
      sender_url_note: null,
      requests: { last_hour: counts({}), last_day: counts({}) },
      events: { last_hour: 0, last_day: 0 },
      last_event_at: null,
      window_minutes: 15,
      last_compacted: null,
      windows_owed: { count: 0, oldest: [] },
      last_failure: null,
      retention: { oldest_window: null, raw_retention_days: 3, compacted_retention_days: 0 },
      rejections: [],
    });
    expect((await rig.admin('GET', '/nobody/status')).status).toBe(404);
    const anonymous = await fetch(`${rig.api.url}/api/v1/admin/webhooks/sources/page-new/status`);
    expect(anonymous.status).toBe(401);
  });

  it('a path_token source: the URL never carries the secret, the note says where it goes', async () => {
    await rig.createSource('page-path', { mode: 'path_token', secret: 'never-shown-abc' });
    const page = await status('page-path');
    expect(page.sender_url).toBe(`${rig.api.url}/hooks/page-path`);
    expect(page.sender_url_note).toBe(`the source's secret goes as the last path segment: ${rig.api.url}/hooks/page-path/{secret}`);
    expect(JSON.stringify(page)).not.toContain('never-shown-abc');
  });

  it('request counts by outcome from two receivers on one database, over the last hour and day; unknown names not kept', async () => {
    rig.clock.now = START;
    await rig.createSource('page-counts', token);
    // A second api whose receiver counts into the same table (another replica).
    const now = () => rig.clock.now;
    const otherCounts = new WebhookRequestCounts({ db: rig.db, log: silentLogger(), now });
    const otherReceiver = new WebhookReceiver({
      sources: rig.services.sources,
      rejections: rig.services.rejections,
      tables: rig.services.tables,
      windows: rig.services.windows,
      requestCounts: otherCounts,
      writeSegment: (key, body, signal) => rig.storage.connection.store.putObject(rig.storage.bucket, key, body, { signal }).then(() => undefined),
      replica: replicaId(),
      startMs: now(),
      writeTimeoutMs: 30_000,
      metrics: webhookMetrics(rig.metrics.registry),
      log: silentLogger(),
      now,
    });
    const other = await startTestApi({ config: rig.config, db: rig.db, webhooks: { ...rig.services, receiver: otherReceiver }, clock: now });
    try {
      for (const answer of await Promise.all([post('page-counts'), post('page-counts'), post('page-counts', 'wrong'), post('page-counts', undefined, other.url)])) {
        expect([202, 401]).toContain(answer.status);
      }
      expect((await post('page-counts', 'wrong', other.url)).status).toBe(401);
      expect((await rig.hook('/hooks/page-invented', { body: '{}' })).status).toBe(404);
      // Held in memory until a flush: nothing yet on the page.
      expect((await status('page-counts')).requests.last_day).toEqual(counts({}));
      await rig.services.requestCounts.flush();
    } finally {
      // The other replica stops: its drain writes what it counted.
      await other.stop();
    }
    let page = await status('page-counts');
    expect(page.requests).toEqual({ last_hour: counts({ accepted: 3, unauthorized: 2 }), last_day: counts({ accepted: 3, unauthorized: 2 }) });
    expect(page.events).toEqual({ last_hour: 3, last_day: 3 });
    expect(page.last_event_at).toBe(new Date(START).toISOString());
    expect(page.rejections).toHaveLength(2);
    expect(page.rejections[0]).toMatchObject({ outcome: 'unauthorized', reason: 'token does not match' });
    const sources = (await rig.db.query<{ source_id: string }>('SELECT DISTINCT source_id FROM webhook_request_counts')).rows.map((r) => r.source_id);
    expect(sources).not.toContain('');
    expect((await rig.db.query('SELECT 1 FROM webhook_request_counts WHERE source_id NOT IN (SELECT id FROM webhook_sources)')).rowCount).toBe(0);

    // Two hours on: gone from the last hour, still in the last day; a day and more on: gone.
    rig.clock.now = START + 2 * HOUR;
    page = await status('page-counts');
    expect(page.requests).toEqual({ last_hour: counts({}), last_day: counts({ accepted: 3, unauthorized: 2 }) });
    expect(page.events).toEqual({ last_hour: 0, last_day: 3 });
    rig.clock.now = START + 24 * HOUR + MINUTE;
    expect((await status('page-counts')).requests.last_day).toEqual(counts({}));
    // The next flush prunes rows older than a day and an hour.
    rig.clock.now = START + 26 * HOUR;
    expect((await post('page-counts')).status).toBe(202);
    await rig.services.requestCounts.flush();
    const minutes = (await rig.db.query<{ minute: Date }>('SELECT DISTINCT minute FROM webhook_request_counts')).rows.map((r) => r.minute.getTime());
    expect(minutes).toEqual([START + 26 * HOUR]);
    rig.clock.now = START;
  });
});

describe('webhook sources list: GET {prefix}?figures=true', () => {
  it('events counted apart from requests (a split request carries many), and each source listed with the figures its page shows', async () => {
    rig.clock.now = START;
    await rig.createSource('list-split', token, { split: '$', compact_every_minutes: 15 });
    const batch = await rig.hook('/hooks/list-split', { headers: { 'x-token': 'page-token', 'content-type': 'application/json' }, body: JSON.stringify([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }]) });
    expect(batch.json).toEqual({ accepted: 4 });
    expect((await post('list-split', 'wrong')).status).toBe(401);
    await rig.services.requestCounts.flush();
    expect((await status('list-split')).events).toEqual({ last_hour: 4, last_day: 4 });
    // The events row is never a request outcome.
    expect((await status('list-split')).requests.last_day).toEqual(counts({ accepted: 1, unauthorized: 1 }));

    const plain = await rig.admin('GET', '/');
    expect(plain.json.sources.every((s: { figures?: unknown }) => s.figures === undefined)).toBe(true);
    rig.clock.now = START + HOUR;
    const listed = await rig.admin('GET', '/?figures=true');
    expect(listed.status).toBe(200);
    const row = listed.json.sources.find((s: { name: string }) => s.name === 'list-split');
    expect(row.figures).toEqual({
      sender_url: `${rig.api.url}/hooks/list-split`,
      requests: { last_hour: counts({}), last_day: counts({ accepted: 1, unauthorized: 1 }) },
      events: { last_hour: 0, last_day: 4 },
      last_event_at: new Date(START).toISOString(),
      windows_owed: 1,
      last_failure: null,
    });
    expect(row.auth).toEqual(expect.objectContaining({ mode: 'header_token', secret_set: true }));
    expect(JSON.stringify(listed.json)).not.toContain('page-token');
    expect((await rig.admin('GET', '/?figures=maybe')).status).toBe(400);
    rig.clock.now = START;
  });

  it("links each window's compaction to the Temporal UI when the api knows its address", async () => {
    const view = await rig.createSource('page-linked', token, { compact_every_minutes: 15 });
    rig.clock.now = START;
    expect((await post('page-linked')).status).toBe(202);
    rig.clock.now = START + 45 * MINUTE;
    await rig.services.windows.failed({ sourceId: view.id, dt: '2026-03-02', hour: '10', minute: '15' }, { error: 'boom', attempt: 1, nextTryAtMs: rig.clock.now + HOUR, atMs: rig.clock.now });
    const ui = 'http://temporal-ui.test:8233';
    const linked = await startTestApi({
      config: rig.config,
      db: rig.db,
      webhooks: { ...rig.services, workflowUrl: (source, window) => temporalWorkflowUrl(ui, 'default', `webhook-compact:${source}:${window}`) },
      clock: () => rig.clock.now,
    });
    try {
      const answer = await fetch(`${linked.url}/api/v1/admin/webhooks/sources/page-linked/status`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      const page = await answer.json();
      const expected = `${ui}/namespaces/default/workflows?query=${encodeURIComponent('WorkflowId="webhook-compact:page-linked:2026-03-02T10:15"')}`;
      expect(page.windows_owed.oldest[0].workflow_url).toBe(expected);
      expect(page.last_failure.workflow_url).toBe(expected);
    } finally {
      await linked.stop();
      rig.clock.now = START;
    }
  });
});

describe('webhook source page: OpenAPI', () => {
  it('documents the status and retry routes with their answers', async () => {
    const document = (await (await fetch(`${rig.api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const base = '/api/v1/admin/webhooks/sources/{name}';
    expect(Object.keys(document.paths[`${base}/status`]!.get!.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(JSON.stringify(document.paths[`${base}/status`]!.get!.responses['200'])).toContain('windows_owed');
    expect(Object.keys(document.paths[`${base}/windows/{window}/retry`]!.post!.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
    expect(Object.keys(document.paths[`${base}/windows/retry-failing`]!.post!.responses)).toEqual(expect.arrayContaining(['200', '404']));
  });
});

describe('webhook source page: retrying windows', () => {
  async function sourceWithWindow(name: string): Promise<{ key: WindowKey; id: string }> {
    rig.clock.now = START;
    const view = await rig.createSource(name, token, { compact_every_minutes: 15 });
    expect((await post(name)).status).toBe(202);
    // 10:15–10:30; the page is read at 11:00.
    rig.clock.now = START + 45 * MINUTE;
    return { id: view.id, key: { sourceId: view.id, dt: '2026-03-02', hour: '10', minute: '15' } };
  }

  it('a failing window shows as failing and owed; a retry makes it due now and the page says so', async () => {
    const { key } = await sourceWithWindow('page-retry');
    const failedAt = rig.clock.now;
    await rig.services.windows.failed(key, { error: 'duckdb: out of memory', attempt: 2, nextTryAtMs: failedAt + 2 * MINUTE, atMs: failedAt });
    let page = await status('page-retry');
    expect(page.windows_owed).toEqual({ count: 1, oldest: [{ window: '2026-03-02T10:15', ended_at: new Date(START + 15 * MINUTE).toISOString(), attempts: 2, workflow_url: null }] });
    expect(page.last_failure).toEqual({
      window: '2026-03-02T10:15',
      reason: 'duckdb: out of memory',
      attempts: 2,
      failed_at: new Date(failedAt).toISOString(),
      next_try_at: new Date(failedAt + 2 * MINUTE).toISOString(),
      workflow_url: null,
    });
    expect(page.retention.oldest_window).toBe('2026-03-02T10:15');
    expect(await rig.services.windows.due({ nowMs: rig.clock.now, graceMs: 0, limit: 100 })).not.toContainEqual(expect.objectContaining({ source: 'page-retry' }));

    const retry = await rig.admin('POST', '/page-retry/windows/2026-03-02T10:15/retry');
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual({ retried: [{ window: '2026-03-02T10:15', attempts: 2, last_error: 'duckdb: out of memory' }] });
    page = await status('page-retry');
    expect(page.last_failure.next_try_at).toBeNull();
    expect(await rig.services.windows.due({ nowMs: rig.clock.now, graceMs: 0, limit: 100 })).toContainEqual(expect.objectContaining({ source: 'page-retry', minute: '15' }));

    // Compacted: the page shows it, and there is nothing left to retry.
    const { rows } = await rig.db.query<{ landed_seq: string }>('SELECT landed_seq FROM webhook_windows WHERE source_id = $1', [key.sourceId]);
    await rig.services.windows.compacted(key, { landedSeq: Number(rows[0]!.landed_seq), resourceId: 'res-1', version: 1, atMs: rig.clock.now });
    page = await status('page-retry');
    expect(page.last_compacted).toEqual({ window: '2026-03-02T10:15', compacted_at: new Date(rig.clock.now).toISOString(), resource_id: 'res-1', version: 1, workflow_url: null });
    expect(page.windows_owed.count).toBe(0);
    expect(page.last_failure).toBeNull();
    const conflict = await rig.admin('POST', '/page-retry/windows/2026-03-02T10:15/retry');
    expect([conflict.status, conflict.json.error]).toEqual([409, 'conflict']);
  });

  it('a retry without an administrator key is refused (401) before anything is read, and the failing window stays as it was', async () => {
    const { key } = await sourceWithWindow('page-retry-anon');
    await rig.services.windows.failed(key, { error: 'boom', attempt: 1, nextTryAtMs: rig.clock.now + 10 * MINUTE, atMs: rig.clock.now });
    for (const path of ['/page-retry-anon/windows/2026-03-02T10:15/retry', '/page-retry-anon/windows/retry-failing']) {
      const answer = await fetch(`${rig.api.url}/api/v1/admin/webhooks/sources${path}`, { method: 'POST' });
      expect(answer.status).toBe(401);
      const wrongKey = await fetch(`${rig.api.url}/api/v1/admin/webhooks/sources${path}`, { method: 'POST', headers: { authorization: 'Bearer not-a-key' } });
      expect(wrongKey.status).toBe(401);
    }
    const { rows } = await rig.db.query('SELECT attempts, next_try_at FROM webhook_windows WHERE source_id = $1', [key.sourceId]);
    expect(rows).toEqual([{ attempts: 1, next_try_at: new Date(rig.clock.now + 10 * MINUTE) }]);
  });

  it('404 for an unknown source or window, 400 for a malformed window', async () => {
    await sourceWithWindow('page-retry-404');
    expect((await rig.admin('POST', '/page-retry-404/windows/2026-03-02T11:00/retry')).status).toBe(404);
    expect((await rig.admin('POST', '/nobody/windows/2026-03-02T10:15/retry')).status).toBe(404);
    expect((await rig.admin('POST', '/nobody/windows/retry-failing')).status).toBe(404);
    const malformed = await rig.admin('POST', '/page-retry-404/windows/2026-03-02T25:00/retry');
    expect([malformed.status, malformed.json.error]).toEqual([400, 'invalid']);
  });

  it('retry-failing makes every failing window of the source due and lists them', async () => {
    const { key } = await sourceWithWindow('page-retry-all');
    expect((await rig.admin('POST', '/page-retry-all/windows/retry-failing')).json).toEqual({ retried: [] });
    await rig.services.windows.failed(key, { error: 'boom', attempt: 1, nextTryAtMs: rig.clock.now + HOUR, atMs: rig.clock.now });
    const answer = await rig.admin('POST', '/page-retry-all/windows/retry-failing');
    expect([answer.status, answer.json]).toEqual([200, { retried: [{ window: '2026-03-02T10:15', attempts: 1, last_error: 'boom' }] }]);
    expect(await rig.services.windows.due({ nowMs: rig.clock.now, graceMs: 0, limit: 100 })).toContainEqual(expect.objectContaining({ source: 'page-retry-all' }));
  });
});
