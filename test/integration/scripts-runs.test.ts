/**
 * Issue 16 items 1-5: a script's platform calls go through an MCP session as principal
 * script:<name> with its author's roles (refused and allowed tools audited under it), sql through
 * the embedded DuckDB, resource writes recorded as the script, the fetch allow-list, draft runs of
 * saved and unsaved sources over the tool and REST, their records and audit rows, and refusals.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manageScript, startRunsRig, type Json, type RunsRig } from './scripts-runs-fixtures.js';

let rig: RunsRig;
beforeAll(async () => {
  rig = await startRunsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

interface AuditRow {
  subject: string;
  auth_type: string;
  outcome: string;
  error_text: string | null;
  session_id: string | null;
  parameters: Json;
}

/** Audit rows of `tool` by `subject`, once `count` are written (the audit writer batches). */
async function auditRows(tool: string, subject: string, count: number): Promise<AuditRow[]> {
  const read = async () =>
    (await rig.db.query<AuditRow>('SELECT subject, auth_type, outcome, error_text, session_id, parameters FROM audit_log WHERE tool = $1 AND subject = $2 ORDER BY occurred_at, id', [tool, subject]))
      .rows;
  await expect.poll(async () => (await read()).length, { timeout: 10_000 }).toBe(count);
  return read();
}

async function create(user: 'alice' | 'lim' | 'bob', name: string, source: string): Promise<string> {
  const created = await rig.rest(user, 'POST', '/', { name, source });
  expect(created.status).toBe(201);
  return created.body.script.id;
}

describe('the principal script:<name>', () => {
  it("holds its author's roles: a tool the author's persona may not call is refused inside the script and audited under the script", async () => {
    const id = await create(
      'lim',
      'limited-job',
      `export async function main() {
        let refusal = null;
        try { await platform.sql('select 1', { connection: 'local' }); } catch (e) { refusal = e.message; }
        const info = await platform.call('platform_info', {});
        return { refusal, server: typeof info === 'object' };
      }`,
    );
    const run = await rig.rest('lim', 'POST', `/${id}/run`);
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ status: 'ok', result: { server: true } });
    expect(run.body.result.refusal).toMatch(/sql_query/);

    const refused = await auditRows('sql_query', 'script:limited-job', 1);
    expect(refused[0]).toMatchObject({ auth_type: 'script', outcome: 'denied', session_id: `script-run:${run.body.run_id}` });
    const allowed = await auditRows('platform_info', 'script:limited-job', 1);
    expect(allowed[0]).toMatchObject({ auth_type: 'script', outcome: 'ok' });
  });

  it('runs sql through the embedded DuckDB when the author may', async () => {
    const id = await create('alice', 'sql-job', `export async function main() { return platform.sql('select 40 + 2 as answer', { connection: 'local' }); }`);
    const run = await rig.rest('alice', 'POST', `/${id}/run`);
    expect(run.body.status).toBe('ok');
    expect(JSON.stringify(run.body.result)).toContain('42');
    expect((await auditRows('sql_query', 'script:sql-job', 1))[0]).toMatchObject({ outcome: 'ok', auth_type: 'script' });
  });

  it('records the script as the writer of the resources it writes, and reads them back', async () => {
    const id = await create(
      'alice',
      'writer-job',
      `export async function main() {
        const first = await platform.write_resource({ path: 'reports', file_name: 'daily.txt', content: 'one' });
        const second = await platform.write_resource({ path: 'reports', file_name: 'daily.txt', content: 'two' });
        const read = await platform.read_resource(second.resource.id);
        return { outcomes: [first.outcome, second.outcome], version: second.resource.version, content: read.content, id: second.resource.id };
      }`,
    );
    const run = await rig.rest('alice', 'POST', `/${id}/run`);
    expect(run.body).toMatchObject({ status: 'ok', result: { outcomes: ['created', 'revised'], version: 2, content: 'two' } });
    const { rows } = await rig.db.query<{ writer_kind: string; writer_id: string }>('SELECT writer_kind, writer_id FROM resource_writers WHERE resource_id = $1', [
      run.body.result.id,
    ]);
    expect(rows).toEqual([{ writer_kind: 'script', writer_id: id }]);
  });
});

describe('platform.fetch', () => {
  it('reaches a host on scripts.fetch.allow_hosts and refuses another, also behind a redirect', async () => {
    const base = `http://127.0.0.1:${rig.httpPort}`;
    const run = await rig.rest('alice', 'POST', '/run', {
      source: `export async function main() {
        const attempt = async (url) => { try { return await platform.fetch(url); } catch (e) { return { refused: e.message }; } };
        return {
          allowed: await attempt('${base}/hello'),
          other: await attempt('http://localhost:${rig.httpPort}/hello'),
          redirected: await attempt('${base}/to-localhost'),
        };
      }`,
    });
    expect(run.body.status).toBe('ok');
    const { allowed, other, redirected } = run.body.result;
    expect(allowed).toMatchObject({ status: 200, body: 'hello from the allowed host' });
    expect(allowed.headers['content-type']).toBe('text/plain');
    expect(other.refused).toMatch(/the host localhost is not on scripts\.fetch\.allow_hosts/);
    expect(redirected.refused).toMatch(/the host localhost is not on scripts\.fetch\.allow_hosts/);
  });

  it('follows a redirect to another allowed origin without the credentials written for the first (as browsers do)', async () => {
    const other = createServer((request, response) => response.end(`authorization: ${request.headers.authorization ?? 'none'}`));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${rig.httpPort}`;
      const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
      const run = await rig.rest('alice', 'POST', '/run', {
        source: `export async function main() {
          const init = { headers: { authorization: 'Bearer s3cret', 'x-kept': 'yes' } };
          return {
            same: (await platform.fetch('${base}/redirect?to=' + encodeURIComponent('/echo-auth'), init)).body,
            other: (await platform.fetch('${base}/redirect?to=' + encodeURIComponent('${elsewhere}'), init)).body,
          };
        }`,
      });
      expect(run.body).toMatchObject({ status: 'ok', result: { same: 'authorization: Bearer s3cret', other: 'authorization: none' } });
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

describe('draft runs', () => {
  it('runs a saved script over manage_script, recorded in script_runs and audited as one script_run row', async () => {
    const alice = await rig.connect('alice');
    await manageScript(alice, { action: 'create', script: 'tool-job', source: "export function main() { console.log('working'); return { done: true } }" });
    const run = await manageScript(alice, { action: 'run', script: 'tool-job' });
    expect(run.isError).toBe(false);
    expect(run.body).toMatchObject({ status: 'ok', result: { done: true }, console: 'working' });
    expect(run.body.duration_ms).toBeGreaterThanOrEqual(0);

    const { rows } = await rig.db.query('SELECT * FROM script_runs WHERE id = $1', [run.body.run_id]);
    expect(rows[0]).toMatchObject({
      script_name: 'tool-job',
      version: 1,
      trigger: 'draft',
      status: 'ok',
      console_excerpt: 'working',
      caller_subject: 'apikey:alice',
      principal: 'script:tool-job',
    });
    const audited = await rig.db.query<AuditRow>("SELECT subject, outcome, parameters FROM audit_log WHERE tool = 'script_run' AND parameters->>'run_id' = $1", [run.body.run_id]);
    expect(audited.rows).toHaveLength(1);
    expect(audited.rows[0]).toMatchObject({ subject: 'apikey:alice', outcome: 'ok' });
    expect(audited.rows[0]!.parameters).toMatchObject({ run_id: run.body.run_id, name: 'tool-job', version: 1, trigger: 'draft', principal: 'script:tool-job', status: 'ok' });
  });

  it('runs an unsaved source over the tool and REST, as the caller, and may call its own handle', async () => {
    const source = `export function handle(req) { return { echoed: req.body } }
      export function main() { return handle({ method: 'POST', path: '/x', body: 'ping' }) }`;
    const bob = await rig.connect('bob');
    const viaTool = await manageScript(bob, { action: 'run', source });
    expect(viaTool.body).toMatchObject({ status: 'ok', result: { echoed: 'ping' } });
    const viaRest = await rig.rest('bob', 'POST', '/run', { source });
    expect(viaRest).toMatchObject({ status: 200, body: { status: 'ok', result: { echoed: 'ping' } } });
    const { rows } = await rig.db.query('SELECT script_id, version, principal FROM script_runs WHERE id = $1', [viaRest.body.run_id]);
    expect(rows[0]).toEqual({ script_id: null, version: null, principal: 'apikey:bob' });
  });

  it('answers 503 with Retry-After when every run slot of the replica is taken, the run recorded as busy', async () => {
    const source = `export async function main() { return (await platform.fetch('http://127.0.0.1:${rig.httpPort}/hold')).body; }`;
    const id = await create('alice', 'holder', source);
    const holding = rig.holdRequests(4);
    // Two callers: one may hold only 3 of the 4 (scripts.max_runs_per_caller).
    const slots = [...Array.from({ length: 2 }, () => rig.rest('alice', 'POST', `/${id}/run`)), ...Array.from({ length: 2 }, () => rig.rest('bob', 'POST', '/run', { source }))];
    const release = await holding;
    const busy = await rig.rest('alice', 'POST', `/${id}/run`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body).toMatchObject({ status: 'busy', error: expect.stringMatching(/all 4 script runs of this replica are in use/) });
    release();
    for (const done of await Promise.all(slots)) expect(done).toMatchObject({ status: 200, body: { status: 'ok', result: 'released' } });
    const recorded = await rig.db.query(`SELECT status FROM script_runs WHERE id = $1`, [busy.body.run_id]);
    expect(recorded.rows).toEqual([{ status: 'busy' }]);
  });

  it('answers busy naming the cap when one caller already has scripts.max_runs_per_caller runs under way; another caller still runs', async () => {
    const id = await create('alice', 'holder-of-three', `export async function main() { return (await platform.fetch('http://127.0.0.1:${rig.httpPort}/hold')).body; }`);
    const holding = rig.holdRequests(3);
    const mine = Array.from({ length: 3 }, () => rig.rest('alice', 'POST', `/${id}/run`));
    const release = await holding;
    const refused = await rig.rest('alice', 'POST', '/run', { source: 'export function main() { return 1 }' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ status: 'busy', error: expect.stringContaining('already has 3 script runs under way on this replica, its most at once (scripts.max_runs_per_caller)') });
    expect(await rig.rest('bob', 'POST', '/run', { source: 'export function main() { return 2 }' })).toMatchObject({ status: 200, body: { status: 'ok', result: 2 } });
    release();
    for (const done of await Promise.all(mine)) expect(done).toMatchObject({ status: 200, body: { status: 'ok', result: 'released' } });
  });

  it('answers a failing script with its error, recorded as such', async () => {
    const run = await rig.rest('alice', 'POST', '/run', { source: "export function main() { throw new Error('broken on purpose') }" });
    expect(run.body).toMatchObject({ status: 'error' });
    expect(run.body.error).toMatch(/broken on purpose/);
    const { rows } = await rig.db.query('SELECT status, error FROM script_runs WHERE id = $1', [run.body.run_id]);
    expect(rows[0].status).toBe('error');
  });

  it('refuses a disabled script (409 with its state), a non-owner (403), a library and a source without main', async () => {
    const id = await create('alice', 'paused-job', 'export function main() { return 1 }');
    expect((await rig.rest('alice', 'POST', `/${id}/disable`)).status).toBe(200);
    expect(await rig.rest('alice', 'POST', `/${id}/run`)).toMatchObject({ status: 409, body: { error: 'state', state: 'disabled' } });
    const alice = await rig.connect('alice');
    const viaTool = await manageScript(alice, { action: 'run', script: 'paused-job' });
    expect(viaTool).toMatchObject({ isError: true, body: { error: 'state', state: 'disabled' } });

    const other = await create('alice', 'alices-job', 'export function main() { return 1 }');
    expect(await rig.rest('bob', 'POST', `/${other}/run`)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const library = await create('alice', 'some-lib', 'export const x = 1');
    expect(await rig.rest('alice', 'POST', `/${library}/run`)).toMatchObject({ status: 400, body: { error: 'invalid' } });
    expect(await rig.rest('alice', 'POST', '/run', { source: 'export function handle(req) { return 1 }' })).toMatchObject({ status: 400, body: { error: 'invalid' } });
    const { rows } = await rig.db.query('SELECT count(*)::int AS n FROM script_runs WHERE script_name IN ($1, $2)', ['paused-job', 'alices-job']);
    expect(rows[0].n).toBe(0);
  });
});

describe("the script page's runs: GET /api/v1/portal/scripts/{id}/runs", () => {
  it('lists runs newest first with status, duration, error and console, paged by cursor; the owner and administrators only', async () => {
    const id = await create('alice', 'listed-runs', "export function main() { console.log('tick'); if (globalThis.fail) throw new Error('no'); return 1 }");
    const first = await rig.rest('alice', 'POST', `/${id}/run`);
    const second = await rig.rest('alice', 'POST', `/${id}/run`);
    const third = await rig.rest('root', 'POST', `/${id}/run`);
    for (const run of [first, second, third]) expect(run.body.status).toBe('ok');
    const page = await rig.rest('alice', 'GET', `/${id}/runs?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.runs.map((r: Json) => r.id)).toEqual([third.body.run_id, second.body.run_id]);
    expect(page.body.runs[0]).toMatchObject({ version: 1, trigger: 'draft', status: 'ok', error: null, console: 'tick', started_by: 'apikey:root', principal: 'script:listed-runs', retry_of: null, scheduled_at: null });
    expect(page.body.runs[0].duration_ms).toBeGreaterThanOrEqual(0);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    const rest = await rig.rest('alice', 'GET', `/${id}/runs?limit=2&before=${page.body.next_cursor}`);
    expect(rest.body).toEqual({ runs: [expect.objectContaining({ id: first.body.run_id })], next_cursor: null });
    expect((await rig.rest('root', 'GET', `/${id}/runs`)).body.runs).toHaveLength(3);
    expect(await rig.rest('bob', 'GET', `/${id}/runs`)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await rig.rest('alice', 'GET', `/${id}/runs?before=garbage`)).toMatchObject({ status: 400, body: { error: 'invalid' } });
    expect((await rig.rest('alice', 'GET', '/no-such-script/runs')).status).toBe(404);
  });

  it("an administrator's retry of a failed scheduled run answers 503 where the api has no Temporal client (the route is always documented)", async () => {
    const id = await create('alice', 'scheduled-fail', 'export function main() { throw new Error("x") }');
    await rig.db.query(
      `INSERT INTO script_runs (id, script_id, script_name, version, trigger, scheduled_at, status, error, duration_ms, started_at, finished_at, caller_subject, principal)
       VALUES (gen_random_uuid()::text, $1, 'scheduled-fail', 1, 'schedule', now(), 'error', 'x', 3, now(), now(), 'script:scheduled-fail', 'script:scheduled-fail')`,
      [id],
    );
    const failed = (await rig.rest('root', 'GET', `/${id}/runs`)).body.runs[0];
    expect(failed).toMatchObject({ trigger: 'schedule', status: 'error' });
    expect(await rig.rest('alice', 'POST', `/${id}/runs/${failed.id}/retry`)).toMatchObject({ status: 403 });
    expect(await rig.rest('root', 'POST', `/${id}/runs/${failed.id}/retry`)).toMatchObject({ status: 503, body: { error: 'unavailable' } });
  });
});
