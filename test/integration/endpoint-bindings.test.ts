/**
 * Issue 17, Build item 1 (spec document 3, "Endpoint binding", "Endpoint and script", "Scripted
 * endpoints" tool commands and routes, "Failed-request record"): bindings set, read, listed,
 * enabled and disabled through the manage_script tool and REST /api/v1/portal/scripts/{id}/endpoint
 * of the production api role, each rule on both surfaces, and the script model's binding hook
 * (save without handle, delete) against real bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHousekeepingActivities } from '../../activities/housekeeping.js';
import { EndpointStore, recordEndpointFailure } from '../../shared/endpoints/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { ScriptError, scriptActor } from '../../shared/scripts/index.js';
import { manageScript, startBindingsRig, type BindingsRig, type Json, type User } from './endpoint-bindings-fixtures.js';

let rig: BindingsRig;
beforeAll(async () => {
  rig = await startBindingsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

const HANDLER = 'export function handle(req) { return { json: { ok: true } } }';

async function create(user: User, name: string, source = HANDLER): Promise<string> {
  const created = await rig.rest(user, 'POST', '/', { name, source });
  expect(created.status).toBe(201);
  return created.body.script.id;
}

/** script_change audit rows of a script's endpoint actions, oldest first. */
async function endpointChanges(scriptId: string): Promise<Array<{ subject: string; parameters: Json }>> {
  const { rows } = await rig.db.query<{ subject: string; parameters: Json }>(
    "SELECT subject, parameters FROM audit_log WHERE tool = 'script_change' AND parameters->>'script_id' = $1 AND parameters->>'action' LIKE 'endpoint_%' ORDER BY occurred_at, id",
    [scriptId],
  );
  return rows;
}

describe('setting a binding (administrators, every surface)', () => {
  it('an administrator binds over REST with every default, reads it back, and the change is audited', async () => {
    const id = await create('alice', 'rest-bound');
    const set = await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'rest-bound', auth_mode: 'signed_in' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      endpoint: 'rest-bound',
      script: { id, name: 'rest-bound' },
      methods: ['GET'],
      path: '',
      auth_mode: 'signed_in',
      open_reads: false,
      timeout_seconds: 10,
      max_memory_bytes: 64 * 1024 * 1024,
      max_body_bytes: 1024 * 1024,
      allowed_origins: [],
      rate_limit: 600,
      caller_rate_limit: 120,
      enabled: true,
      created_by: 'apikey:root',
      updated_by: 'apikey:root',
    });
    const read = await rig.rest('alice', 'GET', `/${id}/endpoint`);
    expect(read).toMatchObject({ status: 200, body: { binding: { endpoint: 'rest-bound' }, failures: [] } });
    const changes = await endpointChanges(id);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      subject: 'apikey:root',
      parameters: { action: 'endpoint_set', name: 'rest-bound', endpoint: 'rest-bound', binding: { methods: ['GET'], auth_mode: 'signed_in', timeout_seconds: 10 } },
    });
  });

  it('endpoint_set on a bound script replaces its binding (renamed, defaults for fields left out), keeping who created it', async () => {
    const id = await create('alice', 'tool-bound');
    const root = await rig.connect('root');
    const first = await manageScript(root, {
      action: 'endpoint_set',
      name: 'tool-bound',
      endpoint: 'tool-first',
      methods: ['get', 'post'],
      path: '/items/{id}',
      auth_mode: 'public',
      open_reads: true,
      timeout_seconds: 60,
      max_memory_bytes: 32 * 1024 * 1024,
      max_body_bytes: 10 * 1024 * 1024,
      allowed_origins: ['https://App.example.com'],
      rate_limit: 50,
      caller_rate_limit: 5,
    });
    expect(first.isError).toBe(false);
    expect(first.body.binding).toMatchObject({
      endpoint: 'tool-first',
      methods: ['GET', 'POST'],
      path: '/items/{id}',
      auth_mode: 'public',
      open_reads: true,
      timeout_seconds: 60,
      max_memory_bytes: 32 * 1024 * 1024,
      max_body_bytes: 10 * 1024 * 1024,
      allowed_origins: ['https://app.example.com'],
      rate_limit: 50,
      caller_rate_limit: 5,
    });
    const second = await manageScript(root, { action: 'endpoint_set', script: id, endpoint: 'tool-second', auth_mode: 'signed_in', methods: ['PUT'] });
    expect(second.body.binding).toMatchObject({ endpoint: 'tool-second', methods: ['PUT'], path: '', auth_mode: 'signed_in', timeout_seconds: 10, allowed_origins: [], rate_limit: 600 });
    expect(second.body.binding.created_at).toBe(first.body.binding.created_at);
    const { rows } = await rig.db.query('SELECT endpoint FROM endpoint_bindings WHERE script_id = $1', [id]);
    expect(rows).toEqual([{ endpoint: 'tool-second' }]);
    expect((await endpointChanges(id)).map((c) => c.parameters.endpoint)).toEqual(['tool-first', 'tool-second']);
  });

  it('refuses the owner (and everyone else who is not an administrator) on both surfaces: 403', async () => {
    const id = await create('alice', 'owner-refused');
    expect(await rig.rest('alice', 'PUT', `/${id}/endpoint`, { endpoint: 'owner-refused', auth_mode: 'signed_in' })).toMatchObject({
      status: 403,
      body: { error: 'forbidden', message: expect.stringMatching(/only platform administrators set/) },
    });
    const alice = await rig.connect('alice');
    expect(await manageScript(alice, { action: 'endpoint_set', name: 'owner-refused', endpoint: 'owner-refused', auth_mode: 'signed_in' })).toMatchObject({
      isError: true,
      body: { error: 'forbidden' },
    });
    const bob = await rig.connect('bob');
    expect((await manageScript(bob, { action: 'endpoint_set', name: 'owner-refused', endpoint: 'owner-refused', auth_mode: 'signed_in' })).body.error).toBe('forbidden');
    expect((await rig.db.query('SELECT 1 FROM endpoint_bindings WHERE script_id = $1', [id])).rowCount).toBe(0);
  });

  it('refuses a script run, whatever its roles: it may read a binding but not set it or turn it on or off', async () => {
    const targetId = await create('alice', 'script-target');
    await rig.rest('root', 'PUT', `/${targetId}/endpoint`, { endpoint: 'script-target', auth_mode: 'signed_in' });
    // An administrator's script: its principal script:binder holds the admin role.
    const binder = await create(
      'root',
      'binder',
      `export async function main() {
        const attempt = async (args) => { try { return { ok: await platform.call('manage_script', args) }; } catch (e) { return { refused: e.message }; } };
        return {
          set: await attempt({ action: 'endpoint_set', name: 'script-target', endpoint: 'from-a-script', auth_mode: 'signed_in' }),
          disable: await attempt({ action: 'endpoint_disable', name: 'script-target' }),
          read: await attempt({ action: 'endpoint_list', name: 'script-target' }),
        };
      }`,
    );
    const run = await rig.rest('root', 'POST', `/${binder}/run`);
    expect(run.body.status).toBe('ok');
    expect(run.body.result.set.refused).toMatch(/a script run may read a binding but may not set it/);
    expect(run.body.result.disable.refused).toMatch(/may not disable it/);
    expect(run.body.result.read.ok.binding).toMatchObject({ endpoint: 'script-target', enabled: true });
    const { rows } = await rig.db.query('SELECT endpoint, enabled FROM endpoint_bindings WHERE script_id = $1', [targetId]);
    expect(rows).toEqual([{ endpoint: 'script-target', enabled: true }]);
  });

  it('binds only a script whose current version defines handle(req), never a library: 400 naming why', async () => {
    const lib = await create('alice', 'bind-lib', 'export const x = 1');
    expect(await rig.rest('root', 'PUT', `/${lib}/endpoint`, { endpoint: 'bind-lib', auth_mode: 'signed_in' })).toMatchObject({
      status: 400,
      body: { error: 'invalid', message: expect.stringMatching(/"bind-lib" is a library/) },
    });
    await create('alice', 'bind-main', 'export function main() { return 1 }');
    const root = await rig.connect('root');
    expect(await manageScript(root, { action: 'endpoint_set', name: 'bind-main', endpoint: 'bind-main', auth_mode: 'signed_in' })).toMatchObject({
      isError: true,
      body: { error: 'invalid', message: expect.stringMatching(/"bind-main" does not define handle\(req\)/) },
    });
  });

  it('keeps endpoint names unique across the deployment: 409 naming the script holding it', async () => {
    const holder = await create('alice', 'name-holder');
    const other = await create('bob', 'name-wanter');
    expect((await rig.rest('root', 'PUT', `/${holder}/endpoint`, { endpoint: 'shared-name', auth_mode: 'signed_in' })).status).toBe(200);
    expect(await rig.rest('root', 'PUT', `/${other}/endpoint`, { endpoint: 'shared-name', auth_mode: 'signed_in' })).toMatchObject({
      status: 409,
      body: { error: 'name_taken', endpoint: 'shared-name', script: { id: holder, name: 'name-holder' }, message: expect.stringMatching(/already bound to the script "name-holder"/) },
    });
    const root = await rig.connect('root');
    expect((await manageScript(root, { action: 'endpoint_set', name: 'name-wanter', endpoint: 'shared-name', auth_mode: 'signed_in' })).body).toMatchObject({ error: 'name_taken' });
    // Setting the holder's own binding again under its name is a replace, not a clash.
    expect((await rig.rest('root', 'PUT', `/${holder}/endpoint`, { endpoint: 'shared-name', auth_mode: 'signed_in', methods: ['POST'] })).status).toBe(200);
  });

  it('gives a name two scripts ask for at once to exactly one of them', async () => {
    const ids = await Promise.all(['race-a', 'race-b', 'race-c'].map((name) => create('alice', name)));
    const answers = await Promise.all(ids.map((id) => rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'raced', auth_mode: 'signed_in' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.script;
    for (const lost of answers.filter((a) => a.status === 409)) expect(lost.body).toMatchObject({ error: 'name_taken', script: winner });
  });

  it('refuses a public endpoint while the bot check cannot protect it (the injected refusal), and binds it once allowed', async () => {
    const id = await create('alice', 'public-one');
    rig.publicRefusal.current = "the bot check's provider is none: set bot_check.allow_public_without_check to allow it";
    try {
      expect(await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'public-one', auth_mode: 'public' })).toMatchObject({
        status: 400,
        body: { error: 'invalid', field: 'auth_mode', message: expect.stringMatching(/a public endpoint is refused: the bot check's provider is none/) },
      });
      const root = await rig.connect('root');
      expect((await manageScript(root, { action: 'endpoint_set', name: 'public-one', endpoint: 'public-one', auth_mode: 'public' })).body.error).toBe('invalid');
      // A signed_in endpoint does not ask.
      expect((await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'public-one', auth_mode: 'signed_in' })).status).toBe(200);
    } finally {
      rig.publicRefusal.current = undefined;
    }
    expect((await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'public-one', auth_mode: 'public' })).body.auth_mode).toBe('public');
  });

  it('without bot-check settings to ask, refuses every public endpoint (fail closed)', async () => {
    const id = await create('alice', 'public-closed');
    const store = new EndpointStore({ db: rig.db, config: rig.config });
    const admin = scriptActor({ subject: 'apikey:root', roles: ['admin'], authType: 'apikey' }, rig.config);
    await expect(store.set(admin, id, { endpoint: 'public-closed', auth_mode: 'public' })).rejects.toThrow(/no bot-check settings/);
    await expect(store.set(admin, id, { endpoint: 'public-closed', auth_mode: 'signed_in' })).resolves.toMatchObject({ endpoint: 'public-closed' });
  });

  it('checks owner_email together with name: the owner\'s email (any case) binds, another is 400', async () => {
    const id = await create('alice', 'by-email');
    const root = await rig.connect('root');
    const args = { action: 'endpoint_set', name: 'by-email', endpoint: 'by-email', auth_mode: 'signed_in' };
    expect((await manageScript(root, { ...args, owner_email: 'alice@example.org' })).body).toMatchObject({ error: 'invalid', message: expect.stringMatching(/has no email on record/) });
    await rig.db.query("UPDATE scripts SET owner_email = 'alice@example.org' WHERE id = $1", [id]);
    expect((await manageScript(root, { ...args, owner_email: 'bob@example.org' })).body).toMatchObject({ error: 'invalid', field: 'owner_email' });
    expect((await manageScript(root, { ...args, owner_email: 'Alice@Example.org' })).body.binding).toMatchObject({ endpoint: 'by-email' });
  });

  it('answers a field outside its rule with 400 naming the field, on both surfaces', async () => {
    const id = await create('alice', 'bad-fields');
    expect(await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'bad-fields', auth_mode: 'signed_in', timeout_seconds: 61 })).toMatchObject({
      status: 400,
      body: { error: 'invalid', field: 'timeout_seconds' },
    });
    expect((await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'Bad', auth_mode: 'signed_in' })).body.field).toBe('endpoint');
    expect((await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'bad-fields' })).status).toBe(400);
    const root = await rig.connect('root');
    expect((await manageScript(root, { action: 'endpoint_set', name: 'bad-fields', endpoint: 'bad-fields', auth_mode: 'signed_in', methods: ['HEAD'] })).body).toMatchObject({
      error: 'invalid',
      field: 'methods',
    });
    expect((await manageScript(root, { action: 'endpoint_set', endpoint: 'bad-fields', auth_mode: 'signed_in' })).body.message).toMatch(/endpoint_set needs name/);
  });
});

describe('enabling and disabling', () => {
  it('moves enabled ⇄ disabled by administrators only, audits each move once, and leaves the script untouched', async () => {
    const id = await create('alice', 'switched');
    await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'switched', auth_mode: 'signed_in' });
    expect(await rig.rest('alice', 'POST', `/${id}/endpoint/disable`)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const disabled = await rig.rest('root', 'POST', `/${id}/endpoint/disable`);
    expect(disabled).toMatchObject({ status: 200, body: { endpoint: 'switched', enabled: false } });
    expect((await rig.rest('root', 'POST', `/${id}/endpoint/disable`)).body.enabled).toBe(false);
    // A set keeps a disabled endpoint disabled.
    expect((await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'switched', auth_mode: 'signed_in', methods: ['POST'] })).body.enabled).toBe(false);
    const root = await rig.connect('root');
    expect((await manageScript(root, { action: 'endpoint_enable', name: 'switched' })).body.binding).toMatchObject({ enabled: true });
    const alice = await rig.connect('alice');
    expect((await manageScript(alice, { action: 'endpoint_disable', name: 'switched' })).body.error).toBe('forbidden');
    expect((await rig.rest('alice', 'GET', `/${id}`)).body.state).toBe('active');
    expect((await endpointChanges(id)).map((c) => c.parameters.action)).toEqual(['endpoint_set', 'endpoint_disable', 'endpoint_set', 'endpoint_enable']);
  });

  it('answers 404 for an unbound script', async () => {
    const id = await create('alice', 'never-bound');
    expect(await rig.rest('root', 'POST', `/${id}/endpoint/enable`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await rig.rest('alice', 'GET', `/${id}/endpoint`)).toMatchObject({ status: 404, body: { error: 'not_found', message: '"never-bound" is not bound to an endpoint' } });
  });
});

describe('reading and listing', () => {
  it("endpoint_list without name: every binding the caller's scripts have; with owner_email, an administrator lists that owner's", async () => {
    const mine = await create('alice', 'list-alice');
    const theirs = await create('bob', 'list-bob');
    const roots = await create('root', 'list-root');
    await rig.rest('root', 'PUT', `/${mine}/endpoint`, { endpoint: 'list-alice', auth_mode: 'signed_in' });
    await rig.rest('root', 'PUT', `/${theirs}/endpoint`, { endpoint: 'list-bob', auth_mode: 'signed_in' });
    await rig.rest('root', 'PUT', `/${roots}/endpoint`, { endpoint: 'list-root', auth_mode: 'signed_in' });
    // API keys carry no email: the owners' emails as a sign-in would have recorded them.
    await rig.db.query(`UPDATE scripts SET owner_email = 'Alice@Example.com' WHERE id = $1`, [mine]);
    const list = async (user: User, args: Record<string, string> = {}) => manageScript(await rig.connect(user), { action: 'endpoint_list', ...args });
    const names = async (user: User, args: Record<string, string> = {}) => (await list(user, args)).body.bindings.map((b: Json) => b.endpoint) as string[];
    // Other tests of this file bind scripts of their own: only these three are looked for.
    const ours = async (user: User, args: Record<string, string> = {}) => (await names(user, args)).filter((name) => ['list-alice', 'list-bob', 'list-root'].includes(name));
    expect(await ours('alice')).toEqual(['list-alice']);
    expect(await ours('bob')).toEqual(['list-bob']);
    // An administrator's own scripts only: binding others' scripts does not make them the administrator's.
    expect(await ours('root')).toEqual(['list-root']);
    const byEmail = await list('root', { owner_email: 'alice@example.com' });
    expect(byEmail.body).toEqual({ bindings: [expect.objectContaining({ endpoint: 'list-alice' })] });
    const listed = await names('alice');
    expect(listed).toEqual([...listed].sort());
    expect((await list('bob', { owner_email: 'alice@example.com' })).body.error).toBe('forbidden');
  });

  it("lists a binding's failed requests newest first, only those of the last seven days, to the owner and administrators", async () => {
    const id = await create('alice', 'failing');
    await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'failing', auth_mode: 'signed_in' });
    const now = Date.now();
    const fail = (status: number, error: string, agoMs: number, endpoint = 'failing') =>
      recordEndpointFailure(rig.db, { endpoint, scriptId: id, version: 1, method: 'GET', status, error, durationMs: 12.4, sessionId: `endpoint:failing:${status}`, occurredAt: new Date(now - agoMs) });
    const day = 24 * 60 * 60 * 1000;
    await fail(500, 'older', 2 * day);
    await fail(504, 'newest', 60_000);
    await fail(503, 'middle', day);
    await fail(500, 'expired', 7 * day + 60_000);
    await fail(500, 'another endpoint', 1000, 'someone-else');

    const read = await rig.rest('alice', 'GET', `/${id}/endpoint`);
    expect(read.status).toBe(200);
    expect(read.body.failures.map((f: Json) => [f.status, f.error])).toEqual([
      [504, 'newest'],
      [503, 'middle'],
      [500, 'older'],
    ]);
    expect(read.body.failures[0]).toMatchObject({ endpoint: 'failing', script_id: id, version: 1, method: 'GET', duration_ms: 12, session_id: 'endpoint:failing:504' });
    const root = await rig.connect('root');
    const listed = await manageScript(root, { action: 'endpoint_list', name: 'failing' });
    expect(listed.body.binding.endpoint).toBe('failing');
    expect(listed.body.failures.map((f: Json) => f.error)).toEqual(['newest', 'middle', 'older']);

    expect(await rig.rest('bob', 'GET', `/${id}/endpoint`)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await manageScript(await rig.connect('bob'), { action: 'endpoint_list', name: 'failing' })).body.error).toBe('forbidden');

    // Housekeeping removes the records past their seven days, and only those.
    const activities = createHousekeepingActivities({ db: rig.db, log: silentLogger() });
    expect(await activities.purgeEndpointFailures({ name: 'purgeEndpointFailures' })).toEqual({ removed: 1 });
    const left = await rig.db.query<{ error: string }>(`SELECT error FROM endpoint_failures WHERE endpoint IN ('failing', 'someone-else') ORDER BY error`);
    expect(left.rows.map((r) => r.error)).toEqual(['another endpoint', 'middle', 'newest', 'older']);
  });
});

describe("the script model's binding hook against real bindings", () => {
  it('refuses saving a bound script without handle (409 naming the endpoint) and deleting it while bound', async () => {
    const id = await create('alice', 'hooked', `export function main() { return 1 }\n${HANDLER}`);
    await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'hook-endpoint', auth_mode: 'signed_in' });
    expect(await rig.rest('alice', 'PUT', `/${id}`, { source: 'export function main() { return 2 }' })).toMatchObject({
      status: 409,
      body: { error: 'bound', endpoint: 'hook-endpoint', message: expect.stringMatching(/bound to the endpoint "hook-endpoint": its source must keep defining handle/) },
    });
    expect((await rig.rest('alice', 'PUT', `/${id}`, { source: `export function main() { return 2 }\n${HANDLER}` })).status).toBe(200);
    const alice = await rig.connect('alice');
    expect(await manageScript(alice, { action: 'delete', script: 'hooked' })).toMatchObject({ isError: true, body: { error: 'bound', endpoint: 'hook-endpoint' } });
    expect((await rig.rest('alice', 'DELETE', `/${id}`)).status).toBe(409);
  });

  it('unbinds by an administrator only (tool endpoint_remove or DELETE …/endpoint), audited, after which the name is free and the script can be deleted', async () => {
    const id = await create('alice', 'unbound-later');
    await rig.rest('root', 'PUT', `/${id}/endpoint`, { endpoint: 'unbind-me', auth_mode: 'signed_in' });
    expect(await rig.rest('alice', 'DELETE', `/${id}/endpoint`)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const alice = await rig.connect('alice');
    expect(await manageScript(alice, { action: 'endpoint_remove', name: 'unbound-later' })).toMatchObject({ isError: true, body: { error: 'forbidden' } });
    expect(await rig.rest('root', 'DELETE', `/${id}/endpoint`)).toMatchObject({ status: 200, body: { endpoint: 'unbind-me', script: { id } } });
    expect(await rig.rest('root', 'DELETE', `/${id}/endpoint`)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await rig.rest('alice', 'GET', `/${id}/endpoint`)).status).toBe(404);
    expect((await endpointChanges(id)).map((c) => c.parameters.action)).toEqual(['endpoint_set', 'endpoint_remove']);
    // The name is free for another script; the unbound one can be deleted.
    const other = await create('alice', 'takes-the-name');
    const root = await rig.connect('root');
    expect(await manageScript(root, { action: 'endpoint_set', name: 'takes-the-name', endpoint: 'unbind-me', auth_mode: 'signed_in' })).toMatchObject({ isError: false });
    expect(await manageScript(root, { action: 'endpoint_remove', name: 'takes-the-name' })).toMatchObject({ isError: false, body: { removed: { endpoint: 'unbind-me', script: { id: other } } } });
    expect((await rig.rest('alice', 'DELETE', `/${id}`)).status).toBe(200);
  });
});

describe('surfaces', () => {
  it('documents the routes in OpenAPI and the commands in the tool', async () => {
    const doc = (await (await fetch(`${rig.api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/portal/scripts/{id}/endpoint']!)).toEqual(expect.arrayContaining(['get', 'put']));
    for (const action of ['enable', 'disable']) expect(doc.paths[`/api/v1/portal/scripts/{id}/endpoint/${action}`]).toHaveProperty('post');
    const { tools } = await (await rig.connect('alice')).listTools();
    const tool = tools.find((t) => t.name === 'manage_script')!;
    expect(tool.description).toMatch(/endpoint_set/);
    expect(JSON.stringify(tool.inputSchema)).toContain('endpoint_disable');
  });

  it('refuses a non-administrator before looking the script up, and tells an administrator of an unknown script (404)', async () => {
    const store = new EndpointStore({ db: rig.db, config: rig.config });
    const owner = scriptActor({ subject: 'apikey:alice', roles: ['staff'], authType: 'apikey' }, rig.config);
    const refusal = await store.set(owner, 'no-such-script', { endpoint: 'x', auth_mode: 'signed_in' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ScriptError);
    expect((refusal as ScriptError).code).toBe('forbidden');
    const root = await rig.connect('root');
    expect((await manageScript(root, { action: 'endpoint_enable', name: 'no-such-script' })).body).toMatchObject({ error: 'not_found', message: 'no script named "no-such-script"' });
  });
});
