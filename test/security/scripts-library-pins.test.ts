/**
 * A run executes only code its principal approved (docs/scripts.md, "Imports"; docs/security.md):
 * a saved version imports the library versions pinned at its save, so a library's author cannot
 * change what runs with an importer's roles. The attack end to end, through the real api role and
 * its ScriptRunner: a non-administrator edits a library after an administrator saved a script
 * importing it; the administrator's scheduled, draft and endpoint runs keep executing the pinned
 * code and never read another user's private file, until the administrator re-saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys, startRunsRig, type Json, type RunsRig } from '../integration/scripts-runs-fixtures.js';

let rig: RunsRig;
beforeAll(async () => {
  rig = await startRunsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

const SECRET = 'bob-private-salary-91000';
const harmless = "export async function peek() { return 'v1: harmless'; }";
/** A library version that reads `reference` with whatever roles the run holds. */
const snooping = (reference: string) =>
  `export async function peek() {
    try { return 'v2: ' + (await platform.read_resource(${JSON.stringify(reference)})).content; }
    catch (e) { return 'v2 refused: ' + e.message; }
  }`;
const importer = `import { peek } from 'helpers';
export async function main() { return peek(); }
export async function handle(req) { return { status: 200, body: await peek() }; }`;

async function created(user: 'alice' | 'root', name: string, source: string): Promise<Json> {
  const answer = await rig.rest(user, 'POST', '/', { name, source });
  expect(answer.status).toBe(201);
  return answer.body.script;
}

async function endpointAnswer(): Promise<string> {
  const response = await fetch(`${rig.api.url}/endpoints/nightly`, { headers: { authorization: `Bearer ${keys.root}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('a run executes only the library code its principal approved', () => {
  let reference: string;
  let library: Json;
  let script: Json;

  it("a library edited after an administrator saved its importer: the administrator's runs execute the pinned version and read nobody's private file", async () => {
    const bob = await rig.connect('bob');
    const file = await bob.callTool({ name: 'manage_resource', arguments: { action: 'create', path: 'private', filename: 'salary.txt', content: SECRET } });
    reference = (file.structuredContent as Json).resource.reference;
    expect(reference).toBeTruthy();

    library = await created('alice', 'helpers', harmless);
    script = await created('root', 'nightly', importer);
    // The save answers the pin: the version of helpers the administrator approved.
    expect(script.versions[0].pins).toEqual([{ library: 'helpers', library_id: library.id, version: 1 }]);
    const bound = await rig.rest('root', 'PUT', `/${script.id}/endpoint`, { endpoint: 'nightly', auth_mode: 'signed_in' });
    expect(bound.status).toBe(200);

    const edited = await rig.rest('alice', 'PUT', `/${library.id}`, { source: snooping(reference) });
    expect(edited.body).toMatchObject({ outcome: 'revised', script: { current_version: 2 } });

    const scheduled = await rig.api.scriptRunner!.runScheduled(script.id, new Date('2026-01-01T03:00:00Z'));
    expect(scheduled).toMatchObject({ status: 'ok', result: 'v1: harmless' });
    const draft = await rig.rest('root', 'POST', `/${script.id}/run`);
    expect(draft.body).toMatchObject({ status: 'ok', result: 'v1: harmless' });
    expect(await endpointAnswer()).toBe('v1: harmless');

    const reads = await rig.db.query("SELECT 1 FROM audit_log WHERE subject = 'script:nightly' AND tool = 'manage_resource'");
    expect(reads.rowCount).toBe(0);
  });

  it('the administrator re-saving the same source is the upgrade: it pins the new library version, which then runs', async () => {
    const upgraded = await rig.rest('root', 'PUT', `/${script.id}`, { source: importer });
    expect(upgraded.body).toMatchObject({ outcome: 'revised', script: { current_version: 2 } });
    expect(upgraded.body.script.versions[0].pins).toEqual([{ library: 'helpers', library_id: library.id, version: 2 }]);
    expect(upgraded.body.script.versions[1].pins).toEqual([{ library: 'helpers', library_id: library.id, version: 1 }]);
    // Nothing changed since: saving again writes nothing.
    expect((await rig.rest('root', 'PUT', `/${script.id}`, { source: importer })).body.outcome).toBe('unchanged');

    const scheduled = await rig.api.scriptRunner!.runScheduled(script.id, new Date('2026-01-02T03:00:00Z'));
    expect(scheduled).toMatchObject({ status: 'ok', result: `v2: ${SECRET}` });
    expect(await endpointAnswer()).toBe(`v2: ${SECRET}`);
  });

  it("an owner upgrading the imports of a version an administrator saved does so with the owner's own roles, not the administrator's", async () => {
    const owned = await created('alice', 'alice-job', importer.replace(/export async function handle[^\n]*\n?/, ''));
    // The administrator saves a version of alice's script while helpers is at version 2 ...
    const source = `${importer.split('\n')[0]}\nexport async function main() { return peek(); } // reviewed`;
    const approved = await rig.rest('root', 'PUT', `/${owned.id}`, { source });
    expect(approved.body.script.versions[0]).toMatchObject({ author: { subject: 'apikey:root' }, author_roles: ['admin'] });
    // ... then helpers changes, and alice re-saves the same source to move onto it.
    await rig.rest('alice', 'PUT', `/${library.id}`, { source: snooping(reference).replace("'v2: '", "'v3: '").replace("'v2 refused: '", "'v3 refused: '") });
    const upgraded = await rig.rest('alice', 'PUT', `/${owned.id}`, { source });
    expect(upgraded.body.outcome).toBe('revised');
    expect(upgraded.body.script.versions[0]).toMatchObject({ author: { subject: 'apikey:alice' }, author_roles: ['staff'], pins: [{ library: 'helpers', version: 3 }] });
    const run = await rig.api.scriptRunner!.runScheduled(owned.id, new Date('2026-01-04T03:00:00Z'));
    expect(run).toMatchObject({ status: 'ok', result: expect.stringMatching(/^v3 refused: /) });
  });

  it("disabling a pinned library still stops its importers (the kill switch), and a pinned library is not deleted", async () => {
    expect((await rig.rest('alice', 'POST', `/${library.id}/disable`)).status).toBe(200);
    const stopped = await rig.api.scriptRunner!.runScheduled(script.id, new Date('2026-01-03T03:00:00Z'));
    expect(stopped).toMatchObject({ status: 'error', error: expect.stringContaining('the library "helpers" is disabled') });
    expect((await rig.rest('alice', 'POST', `/${library.id}/enable`)).status).toBe(200);
    const deleted = await rig.rest('alice', 'DELETE', `/${library.id}`);
    expect(deleted).toMatchObject({ status: 409, body: { error: 'in_use', importers: ['alice-job', 'nightly'] } });
  });
});
