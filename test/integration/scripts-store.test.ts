/** The script model on real Postgres: versions, states, kinds, library imports, the binding hook, authority and audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptError, SCRIPT_AUDIT_TOOL } from '../../shared/scripts/index.js';
import { startScriptsRig, type ScriptsRig } from './scripts-fixtures.js';

let rig: ScriptsRig;
beforeAll(async () => {
  rig = await startScriptsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

const mainSource = (n: number) => `export function main() { return ${n} }`;

async function refused(promise: Promise<unknown>): Promise<ScriptError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ScriptError) return error;
    throw error;
  }
  throw new Error('expected a ScriptError');
}

describe('versions', () => {
  it('create writes version 1; a changed source the next; an unchanged one none', async () => {
    const alice = rig.actor('alice');
    const created = await rig.store.create(alice, { name: 'versioned', source: mainSource(1) });
    expect(created.outcome).toBe('created');
    expect(created.script).toMatchObject({ kind: 'script', state: 'active', current_version: 1, owner: { subject: 'apikey:alice' }, entry_points: ['main'] });

    const revised = await rig.store.update(alice, created.script.id, { source: mainSource(2) });
    expect(revised.outcome).toBe('revised');
    const unchanged = await rig.store.update(alice, 'versioned', { source: mainSource(2) });
    expect(unchanged.outcome).toBe('unchanged');

    const detail = await rig.store.get(alice, 'versioned');
    expect(detail.current_version).toBe(2);
    expect(detail.source).toBe(mainSource(2));
    expect(detail.versions.map((v) => v.number)).toEqual([2, 1]);
    expect(detail.versions[1]).toMatchObject({ author: { subject: 'apikey:alice' }, author_roles: ['staff'], kind: 'script' });
    expect(detail.versions[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await rig.store.get(alice, 'versioned', { version: 1 })).source).toBe(mainSource(1));
    expect((await refused(rig.store.get(alice, 'versioned', { version: 3 }))).code).toBe('not_found');
  });

  it("an administrator's version records the administrator and its roles", async () => {
    const { script } = await rig.store.create(rig.actor('alice'), { name: 'admin-edited', source: mainSource(1) });
    await rig.store.update(rig.actor('root'), script.id, { source: mainSource(9) });
    const detail = await rig.store.get(rig.actor('alice'), script.id);
    expect(detail.versions[0]).toMatchObject({ number: 2, author: { subject: 'apikey:root' }, author_roles: ['admin'] });
    expect(detail.owner.subject).toBe('apikey:alice');
  });

  it('names are unique (409) and checked; a syntax error is refused with line:column and writes nothing', async () => {
    expect((await refused(rig.store.create(rig.actor('bob'), { name: 'versioned', source: mainSource(1) }))).code).toBe('name_taken');
    expect((await refused(rig.store.create(rig.actor('bob'), { name: 'Bad Name', source: mainSource(1) }))).code).toBe('invalid');
    const syntax = await refused(rig.store.create(rig.actor('bob'), { name: 'broken', source: 'export function main( {' }));
    expect(syntax).toMatchObject({ code: 'syntax', details: { line: 1, column: 24 } });
    expect((await refused(rig.store.get(rig.actor('bob'), 'broken'))).code).toBe('not_found');
  });
});

describe('kinds and library imports', () => {
  it('a source exporting neither main nor handle is a library, and resolveLibrary answers its current version', async () => {
    const alice = rig.actor('alice');
    const { script } = await rig.store.create(alice, { name: 'formatting', source: 'export const fmt = (x) => `v1:${x}`' });
    expect(script.kind).toBe('library');
    await rig.store.update(alice, script.id, { source: 'export const fmt = (x) => `v2:${x}`' });
    expect(await rig.store.resolveLibrary('formatting')).toEqual({ id: script.id, name: 'formatting', version: 2, source: 'export const fmt = (x) => `v2:${x}`', imports: [] });
  });

  it('a script imports a library by name; an unknown name, a script or itself is refused at save', async () => {
    const bob = rig.actor('bob');
    const { script } = await rig.store.create(bob, { name: 'report', source: "import { fmt } from 'formatting'\nexport function main() { return fmt(1) }" });
    expect(script.imports).toEqual(['formatting']);
    expect((await refused(rig.store.create(bob, { name: 'typo', source: "import { fmt } from 'formating'\nexport function main() {}" }))).message).toMatch(
      /import "formating": no library named "formating"/,
    );
    expect((await refused(rig.store.create(bob, { name: 'uses-script', source: "import 'report'\nexport function main() {}" }))).message).toMatch(/"report" is a script/);
    expect((await refused(rig.store.create(bob, { name: 'selfish', source: "import 'selfish'" }))).message).toMatch(/cannot import itself/);
  });

  it('deprecated libraries still resolve; disabled and superseded ones do not (naming the replacement)', async () => {
    const alice = rig.actor('alice');
    await rig.store.create(alice, { name: 'dates-old', source: 'export const today = 1' });
    await rig.store.create(alice, { name: 'dates', source: 'export const today = 2' });
    await rig.store.changeState(alice, 'dates-old', 'deprecate');
    expect((await rig.store.resolveLibrary('dates-old')).version).toBe(1);
    await rig.store.changeState(alice, 'dates-old', 'disable');
    expect(await refused(rig.store.resolveLibrary('dates-old'))).toMatchObject({ code: 'state', message: 'the library "dates-old" is disabled' });
    await rig.store.changeState(alice, 'dates-old', 'supersede', 'dates');
    expect((await refused(rig.store.resolveLibrary('dates-old'))).message).toBe('the library "dates-old" is superseded; import "dates" instead');
  });

  it('a version pins every library it reaches, through other libraries too, at save; resolvePinned answers that version, never a later one', async () => {
    const alice = rig.actor('alice');
    const base = (await rig.store.create(alice, { name: 'pin-base', source: 'export const b = 1' })).script;
    const mid = (await rig.store.create(alice, { name: 'pin-mid', source: "export { b } from 'pin-base'" })).script;
    const { script } = await rig.store.create(rig.actor('bob'), { name: 'pin-user', source: "import { b } from 'pin-mid'\nexport function main() { return b }" });
    expect(script.versions[0]!.pins).toEqual([
      { library: 'pin-base', library_id: base.id, version: 1 },
      { library: 'pin-mid', library_id: mid.id, version: 1 },
    ]);
    await rig.store.update(alice, 'pin-base', { source: 'export const b = 2' });
    const pinned = { scriptId: script.id, version: 1 };
    expect(await rig.store.resolvePinned(pinned, 'pin-base')).toMatchObject({ version: 1, source: 'export const b = 1' });
    expect((await rig.store.resolveLibrary('pin-base')).version).toBe(2);
    expect(await refused(rig.store.resolvePinned(pinned, 'formatting'))).toMatchObject({ code: 'not_found' });
    // Imported through pin-mid, pin-base is in use by both.
    expect(await refused(rig.store.delete(alice, 'pin-base'))).toMatchObject({ code: 'in_use', details: { importers: ['pin-mid', 'pin-user'] } });
    // A library may not reach itself through others (every importer's run would fail on the cycle).
    expect((await refused(rig.store.update(alice, 'pin-base', { source: "export { b } from 'pin-mid'" }))).message).toBe('"pin-base" cannot import itself (through "pin-mid")');
  });

  it("a pinned library deleted once no current version pins it leaves older versions' pins empty, and they no longer resolve", async () => {
    const alice = rig.actor('alice');
    const bob = rig.actor('bob');
    await rig.store.create(alice, { name: 'pin-gone', source: 'export const g = 1' });
    const { script } = await rig.store.create(bob, { name: 'pin-old', source: "import { g } from 'pin-gone'\nexport function main() { return g }" });
    await rig.store.update(bob, 'pin-old', { source: 'export function main() { return 0 }' });
    await rig.store.delete(alice, 'pin-gone');
    const detail = await rig.store.get(bob, 'pin-old');
    expect(detail.versions.map((v) => v.pins)).toEqual([[], [{ library: 'pin-gone', library_id: null, version: null }]]);
    expect(await refused(rig.store.resolvePinned({ scriptId: script.id, version: 1 }, 'pin-gone'))).toMatchObject({
      code: 'state',
      message: 'the library "pin-gone" this version was saved against was deleted: save the script again',
    });
  });

  it('a library others import neither stops being a library nor is deleted', async () => {
    const alice = rig.actor('alice');
    const error = await refused(rig.store.update(alice, 'formatting', { source: 'export function main() {}' }));
    expect(error).toMatchObject({ code: 'in_use', details: { importers: ['report'] } });
    expect((await refused(rig.store.delete(alice, 'formatting'))).code).toBe('in_use');
  });
});

describe('states', () => {
  it('moves through the transition table and refuses the rest with 409 state', async () => {
    const alice = rig.actor('alice');
    await rig.store.create(alice, { name: 'stateful', source: mainSource(1) });
    await rig.store.create(alice, { name: 'successor', source: mainSource(2) });
    expect((await rig.store.changeState(alice, 'stateful', 'disable')).state).toBe('disabled');
    expect((await rig.store.changeState(alice, 'stateful', 'disable')).state).toBe('disabled');
    expect((await rig.store.changeState(alice, 'stateful', 'deprecate')).state).toBe('deprecated');
    expect((await rig.store.changeState(alice, 'stateful', 'enable')).state).toBe('active');
    const superseded = await rig.store.changeState(alice, 'stateful', 'supersede', 'successor');
    expect(superseded).toMatchObject({ state: 'superseded', superseded_by: { name: 'successor' } });
    expect((await refused(rig.store.changeState(alice, 'stateful', 'deprecate'))).code).toBe('state');
    // The replacement may not be deleted while it replaces something.
    expect((await refused(rig.store.delete(alice, 'successor'))).code).toBe('in_use');
    const enabled = await rig.store.changeState(alice, 'stateful', 'enable');
    expect(enabled.state).toBe('active');
    expect(enabled.superseded_by).toBeUndefined();
  });

  it('supersede needs an active replacement of the same kind', async () => {
    const alice = rig.actor('alice');
    expect((await refused(rig.store.changeState(alice, 'stateful', 'supersede', 'formatting'))).message).toMatch(/same kind/);
    expect((await refused(rig.store.changeState(alice, 'stateful', 'supersede', 'stateful'))).message).toMatch(/cannot supersede itself/);
    expect((await refused(rig.store.changeState(alice, 'stateful', 'supersede', 'nothing-here'))).code).toBe('not_found');
  });
});

/** Resolves once `n` other sessions of this database wait on a lock (pg_stat_activity says so). */
async function waitUntilLockWaiters(n: number): Promise<void> {
  for (;;) {
    const { rows } = await rig.db.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (rows[0]!.waiting >= n) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

describe('concurrent supersedes', () => {
  it('two scripts superseding each other at once: one wins, the other is refused, never a cycle', async () => {
    const alice = rig.actor('alice');
    await rig.store.create(alice, { name: 'twin-a', source: mainSource(1) });
    await rig.store.create(alice, { name: 'twin-b', source: mainSource(2) });
    // Hold both rows so the two requests start together: each waits until the holder lets go.
    const holder = await rig.db.connect();
    let results: PromiseSettledResult<unknown>[];
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT id FROM scripts WHERE name IN ('twin-a', 'twin-b') FOR UPDATE");
      const settled = Promise.allSettled([
        rig.store.changeState(alice, 'twin-a', 'supersede', 'twin-b'),
        rig.store.changeState(alice, 'twin-b', 'supersede', 'twin-a'),
      ]);
      await waitUntilLockWaiters(2);
      await holder.query('COMMIT');
      results = await settled;
    } finally {
      holder.release();
    }
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(rejected.reason).toMatchObject({ code: 'state' });
    const states = (await rig.store.list(alice)).filter((s) => s.name.startsWith('twin-')).map((s) => s.state).sort();
    expect(states).toEqual(['active', 'superseded']);
  });
});

describe('the endpoint binding hook', () => {
  it('a bound script must keep defining handle and is not deleted; both refusals name the endpoint', async () => {
    const alice = rig.actor('alice');
    const { script } = await rig.store.create(alice, { name: 'lookup', source: 'export function handle(req) { return { status: 200 } }' });
    // The endpoint issue writes bindings; here a row stands in for one.
    await rig.db.query('INSERT INTO endpoint_bindings (endpoint, script_id) VALUES ($1, $2)', ['partner-lookup', script.id]);
    const update = await refused(rig.store.update(alice, script.id, { source: mainSource(1) }));
    expect(update).toMatchObject({ code: 'bound', details: { endpoint: 'partner-lookup' } });
    expect(update.message).toMatch(/bound to the endpoint "partner-lookup"/);
    expect((await rig.store.update(alice, script.id, { source: 'export const handle = (req) => ({ status: 204 })' })).outcome).toBe('revised');
    expect(await refused(rig.store.delete(alice, script.id))).toMatchObject({ code: 'bound', details: { endpoint: 'partner-lookup' } });
    await rig.db.query('DELETE FROM endpoint_bindings WHERE script_id = $1', [script.id]);
    expect((await rig.store.delete(alice, script.id)).name).toBe('lookup');
    expect((await refused(rig.store.get(alice, script.id))).code).toBe('not_found');
  });
});

describe('authority', () => {
  it('another owner neither changes a script nor reads its source; an administrator does both', async () => {
    const { script } = await rig.store.create(rig.actor('alice'), { name: 'private-job', source: mainSource(1) });
    const bob = rig.actor('bob');
    expect((await refused(rig.store.update(bob, script.id, { source: mainSource(2) }))).code).toBe('forbidden');
    expect((await refused(rig.store.changeState(bob, script.id, 'disable'))).code).toBe('forbidden');
    expect((await refused(rig.store.delete(bob, script.id))).code).toBe('forbidden');
    const seen = await rig.store.get(bob, script.id);
    expect(seen.source).toBeUndefined();
    expect(seen.allowed_actions).toEqual({ change: false, read_source: false });
    expect((await rig.store.list(bob)).map((s) => s.name)).toContain('private-job');
    // A library's source is everyone's to read.
    expect((await rig.store.get(bob, 'formatting')).source).toMatch(/v2/);

    const root = rig.actor('root');
    expect((await rig.store.get(root, script.id)).source).toBe(mainSource(1));
    expect((await rig.store.changeState(root, script.id, 'disable')).state).toBe('disabled');
  });
});

describe('audit', () => {
  it('every change is a script_change audit row naming the script, the action and the states', async () => {
    const { script } = await rig.store.create(rig.actor('alice'), { name: 'audited', source: mainSource(1) });
    await rig.store.update(rig.actor('alice'), script.id, { source: mainSource(2) });
    await rig.store.changeState(rig.actor('root'), script.id, 'disable');
    await rig.store.delete(rig.actor('alice'), script.id);
    const { rows } = await rig.db.query<{ subject: string; parameters: Record<string, unknown> }>(
      "SELECT subject, parameters FROM audit_log WHERE tool = $1 AND parameters->>'script_id' = $2 ORDER BY occurred_at, id",
      [SCRIPT_AUDIT_TOOL, script.id],
    );
    expect(rows.map((r) => [r.subject, r.parameters.action, r.parameters.version ?? null, r.parameters.from ?? null, r.parameters.to ?? null])).toEqual([
      ['apikey:alice', 'create', 1, null, 'active'],
      ['apikey:alice', 'update', 2, null, null],
      ['apikey:root', 'disable', null, 'active', 'disabled'],
      ['apikey:alice', 'delete', null, 'disabled', null],
    ]);
  });
});
