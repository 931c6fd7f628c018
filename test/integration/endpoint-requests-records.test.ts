/**
 * Spec document 3, "Endpoint identity", "Audit row per endpoint request", "Failed-request record"
 * and "Metrics": a handler runs as script:<name> with its author's roles, its platform calls audited
 * under the request's session id; one audit row per request and no script run row; failed requests
 * kept with the script's error; the endpoint series and the HTTP series labelled by route template.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_ROUTE } from '../../shared/endpoints/index.js';
import { BOT_PASS, jsonOf, startEndpointRig, type EndpointRig, type Json } from './endpoint-requests-fixtures.js';

let rig: EndpointRig;

beforeAll(async () => {
  rig = await startEndpointRig();
});

afterAll(async () => {
  await rig?.stop();
});

async function auditRows(endpoint: string): Promise<Json[]> {
  await rig.api.endpointRecords!.flush();
  const { rows } = await rig.db.query('SELECT subject, email, auth_type, tool, parameters, outcome, error_text, session_id FROM audit_log WHERE tool = $1 ORDER BY occurred_at, id', [`endpoint:${endpoint}`]);
  return rows;
}

async function metricsText(): Promise<string> {
  return (await fetch(`${rig.api.url}/metrics`)).text();
}

/** The value of one series line, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('identity', () => {
  it("runs as script:<name> with its author's roles; platform calls are audited under the request's session id", async () => {
    const id = await rig.endpoint('who', "export async function handle(req) { const info = await platform.call('platform_info', {}); return { json: { ok: info !== null } } }", { auth_mode: 'signed_in' });
    const response = await rig.call('/endpoints/who', { user: 'bob' });
    expect(await jsonOf(response)).toEqual({ ok: true });
    const [row] = await auditRows('who');
    expect(row.session_id).toMatch(/^endpoint:who:[0-9a-f-]{36}$/);
    const calls = async () => (await rig.db.query("SELECT subject, auth_type, session_id, outcome FROM audit_log WHERE tool = 'platform_info' AND subject = 'script:who'")).rows;
    await expect.poll(calls, { timeout: 10_000 }).toHaveLength(1);
    expect((await calls())[0]).toEqual({ subject: 'script:who', auth_type: 'script', session_id: row.session_id, outcome: 'ok' });
    const runs = await rig.db.query('SELECT count(*)::int AS n FROM script_runs WHERE script_id = $1', [id]);
    expect(runs.rows[0].n).toBe(0);
  });

  // The handler reports the persona its platform calls act under (platform_info names it), or the refusal.
  const personaProbe = `export async function handle(req) {
    const caller = req.caller ? req.caller.user_id : null;
    try { const info = await platform.call('platform_info', {}); return { json: { caller, persona: info.persona ? info.persona.name : null } } }
    catch (e) { return { json: { caller, refused: true } } }
  }`;

  it("runs with the author's roles, not the caller's: no caller on a public endpoint, a caller whose persona may not call the tool on a signed_in one", async () => {
    // alice (staff) authored both; staff allows platform_info.
    await rig.endpoint('author-public', personaProbe, { open_reads: true });
    const anonymous = await rig.call('/endpoints/author-public');
    expect([anonymous.status, await jsonOf(anonymous)]).toEqual([200, { caller: null, persona: 'staff' }]);
    await rig.endpoint('author-members', personaProbe, { auth_mode: 'signed_in' });
    // carol's persona (clerk) does not allow platform_info: the handler's call succeeds all the same.
    const clerk = await rig.call('/endpoints/author-members', { user: 'carol' });
    expect([clerk.status, await jsonOf(clerk)]).toEqual([200, { caller: 'apikey:carol', persona: 'staff' }]);
  });

  it("runs with the roles of the current version's author: a new version saved by another user with other roles changes them", async () => {
    // carol (clerk: no platform_info) writes version 1.
    const created = await rig.rest('carol', 'POST', '', { name: 'author-changes', source: personaProbe });
    expect(created.status).toBe(201);
    const id = created.body.script.id as string;
    await rig.bind(id, 'author-changes', { auth_mode: 'signed_in' });
    // alice's persona (staff) allows platform_info, but the handler acts with carol's roles: refused.
    const asAlice = await rig.call('/endpoints/author-changes', { user: 'alice' });
    expect([asAlice.status, await jsonOf(asAlice)]).toEqual([200, { caller: 'apikey:alice', refused: true }]);
    // root, an administrator (roles [admin]), saves version 2: from now on the handler holds root's roles.
    const saved = await rig.rest('root', 'PUT', `/${id}`, { source: `${personaProbe}\n// reviewed` });
    expect(saved.status).toBe(200);
    const asCarol = await rig.call('/endpoints/author-changes', { user: 'carol' });
    expect([asCarol.status, await jsonOf(asCarol)]).toEqual([200, { caller: 'apikey:carol', persona: 'admin' }]);
    const calls = async () => (await rig.db.query("SELECT outcome FROM audit_log WHERE tool = 'platform_info' AND subject = 'script:author-changes' ORDER BY occurred_at, id")).rows.map((r) => r.outcome);
    await expect.poll(calls, { timeout: 10_000 }).toEqual(['denied', 'ok']);
  });

  it('refuses platform.export and platform.publish_data inside a handler', async () => {
    await rig.endpoint('exporter', `export async function handle() {
      const tried = [];
      for (const call of [() => platform.export({ destination: 'resources', path: 'x', filename: 'y.csv' }, { url: 'http://127.0.0.1/' }), () => platform.publish_data({ name: 'n' }, [])]) {
        try { await call(); tried.push('ran') } catch (e) { tried.push(e.message) }
      }
      return { json: tried };
    }`, { open_reads: true });
    const tried = (await jsonOf(await rig.call('/endpoints/exporter'))) as string[];
    expect(tried).toHaveLength(2);
    for (const message of tried) expect(message).toMatch(/not available inside a handler/);
  });
});

describe('records', () => {
  it('writes one audit row per request: endpoint, script, version, method, status, auth mode, caller', async () => {
    const id = await rig.endpoint('audited', 'export function handle(req) { return { status: 201, json: req.method } }', { methods: ['POST'], auth_mode: 'signed_in' });
    await rig.rest('alice', 'PUT', `/${id}`, { source: 'export function handle(req) { return { status: 202, json: req.method } }' });
    expect((await rig.call('/endpoints/audited', { method: 'POST', user: 'alice' })).status).toBe(202);
    expect((await rig.call('/endpoints/audited', { method: 'POST' })).status).toBe(401);
    const rows = await auditRows('audited');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      subject: 'apikey:alice',
      auth_type: 'apikey',
      tool: 'endpoint:audited',
      outcome: 'ok',
      error_text: null,
      parameters: {
        source: 'endpoint',
        event_kind: 'endpoint_request',
        endpoint: 'audited',
        script: 'audited',
        script_id: id,
        version: 2,
        method: 'POST',
        status: 202,
        auth_mode: 'signed_in',
        caller: { user_id: 'apikey:alice', email: null, auth_type: 'apikey' },
      },
    });
    expect(rows[1]).toMatchObject({ subject: 'anonymous:anonymous', auth_type: 'anonymous', outcome: 'denied', parameters: { status: 401, caller: null } });
    expect(rows[0].session_id).not.toBe(rows[1].session_id);
  });

  it('keeps a failed request (500, 503, 504) with status, the script error and duration, never a refusal', async () => {
    const id = await rig.endpoint('fails', "export function handle(req) { if (req.query.slow) for (;;) {} throw new Error('the database said no') }", { methods: ['GET', 'POST'], timeout_seconds: 1 });
    expect((await rig.call('/endpoints/fails', { headers: { 'x-bot-check': BOT_PASS } })).status).toBe(500);
    expect((await rig.call('/endpoints/fails?slow=1', { headers: { 'x-bot-check': BOT_PASS } })).status).toBe(504);
    expect((await rig.call('/endpoints/fails', { method: 'POST' })).status).toBe(403);
    await rig.rest('alice', 'POST', `/${id}/disable`);
    expect((await rig.call('/endpoints/fails', { headers: { 'x-bot-check': BOT_PASS } })).status).toBe(503);
    await rig.api.endpointRecords!.flush();
    const { rows } = await rig.db.query('SELECT script_id, version, method, status, error, duration_ms, session_id FROM endpoint_failures WHERE endpoint = $1 ORDER BY occurred_at', ['fails']);
    expect(rows.map((r) => r.status)).toEqual([500, 504, 503]);
    expect(rows[0]).toMatchObject({ script_id: id, version: 1, method: 'GET', error: expect.stringMatching(/the database said no/) });
    expect(rows[1].duration_ms).toBeGreaterThanOrEqual(1000);
    expect(rows[2].error).toMatch(/is disabled/);
    const audited = await auditRows('fails');
    expect(audited.map((r) => [r.parameters.status, r.outcome])).toEqual([[500, 'error'], [504, 'error'], [403, 'denied'], [503, 'error']]);
    expect(audited[0].session_id).toBe(rows[0].session_id);
  });

  it('writes no row for a name no endpoint has', async () => {
    expect((await rig.call('/endpoints/nobody-here')).status).toBe(404);
    expect(await auditRows('nobody-here')).toEqual([]);
  });

  it('writes a row for a request to a disabled endpoint, answered 404 as an unknown name is, without its CORS', async () => {
    const id = await rig.endpoint('switched-off', 'export function handle() { return { json: 1 } }', { open_reads: true, allowed_origins: ['https://app.example'] });
    await rig.db.query("UPDATE endpoint_bindings SET enabled = false WHERE endpoint = 'switched-off'");
    const answer = await rig.call('/endpoints/switched-off', { headers: { origin: 'https://app.example' } });
    expect([answer.status, (await jsonOf(answer)).error, answer.headers.get('access-control-allow-origin')]).toEqual([404, 'not_found', null]);
    const rows = await auditRows('switched-off');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'denied', parameters: { endpoint: 'switched-off', script_id: id, version: 1, method: 'GET', status: 404, auth_mode: 'public', caller: null } });
  });
});

describe('metrics', () => {
  const route = `http_server_request_duration_seconds_count{route="${ENDPOINT_ROUTE}"}`;
  const limited = 'http_rate_limited_total{limiter="endpoint"}';

  it('counts requests a handler ran for by endpoint and status class, every request by route template, rate limits by limiter', async () => {
    await rig.endpoint('counted', "export function handle(req) { if (req.query.fail) throw new Error('x'); return { json: 1 } }", { open_reads: true, rate_limit: 3 });
    const before = await metricsText();
    const statuses = [];
    for (const path of ['/endpoints/counted', '/endpoints/counted?fail=1', '/endpoints/counted', '/endpoints/counted', '/endpoints/never-bound-name', '/endpoints/counted/extra'])
      statuses.push((await rig.call(path)).status);
    expect(statuses).toEqual([200, 500, 200, 429, 404, 404]);
    const after = await metricsText();
    expect(sample(after, 'endpoint_requests_total{endpoint="counted",status_class="2xx"}')).toBe(2);
    expect(sample(after, 'endpoint_requests_total{endpoint="counted",status_class="5xx"}')).toBe(1);
    expect(sample(after, 'endpoint_request_duration_seconds_count{endpoint="counted"}')).toBe(3);
    expect(sample(after, route) - sample(before, route)).toBe(6);
    expect(sample(after, limited) - sample(before, limited)).toBe(1);
    expect(after).not.toContain('never-bound-name');
    expect(after).not.toContain('/endpoints/counted');
  });

  it('counts every request refused before the handler (404, 405, 401, 403, 413, 429) under the route template, and a caller_rate_limit 429 as limiter="endpoint"', async () => {
    await rig.endpoint('refusing-members', 'export function handle() { return { json: 1 } }', { methods: ['POST'], auth_mode: 'signed_in', caller_rate_limit: 1, max_body_bytes: 8 });
    await rig.endpoint('refusing-public', 'export function handle() { return { json: 1 } }', { methods: ['POST'], rate_limit: 1, allowed_origins: ['https://app.example'] });
    const refusals: Array<[string, number, () => Promise<Response>]> = [
      ['unknown name', 404, () => rig.call('/endpoints/nobody-bound-this')],
      ['path past the template', 404, () => rig.call('/endpoints/refusing-members/extra', { method: 'POST', user: 'alice' })],
      ['method not answered', 405, () => rig.call('/endpoints/refusing-members', { user: 'alice' })],
      ['anonymous on signed_in', 401, () => rig.call('/endpoints/refusing-members', { method: 'POST' })],
      ['preflight from an unlisted origin', 403, () => rig.call('/endpoints/refusing-public', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } })],
      ['bot check refused', 403, () => rig.call('/endpoints/refusing-public', { method: 'POST', headers: { 'x-bot-check': 'not-the-answer' } })],
      // rate_limit 1: the refusal above took this network's one refusal token for the endpoint.
      ['refused past its network\'s refusals', 429, () => rig.call('/endpoints/refusing-public', { method: 'POST', headers: { 'x-bot-check': 'not-the-answer' } })],
      // alice's one caller token is spent here: the body is checked after caller_rate_limit.
      ['body past max_body_bytes', 413, () => rig.call('/endpoints/refusing-members', { method: 'POST', user: 'alice', body: 'x'.repeat(64) })],
      ['past caller_rate_limit', 429, () => rig.call('/endpoints/refusing-members', { method: 'POST', user: 'alice', body: 'x' })],
    ];
    for (const [what, status, request] of refusals) {
      const before = await metricsText();
      const response = await request();
      expect(response.status, what).toBe(status);
      await response.arrayBuffer();
      const after = await metricsText();
      expect(sample(after, route) - sample(before, route), what).toBe(1);
      expect(sample(after, limited) - sample(before, limited), what).toBe(status === 429 ? 1 : 0);
    }
    const text = await metricsText();
    expect(text).not.toContain('nobody-bound-this');
    expect(text).not.toContain('/endpoints/refusing');
    // None of them ran a handler.
    expect(text).not.toContain('endpoint_requests_total{endpoint="refusing');
  });
});
