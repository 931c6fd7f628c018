/** manage_script over MCP and /api/v1/portal/scripts over REST, end to end through the real api and its authentication. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SOURCE_BYTES } from '../../shared/scripts/index.js';
import { manageScript, startScriptsRig, type ScriptsRig } from './scripts-fixtures.js';

let rig: ScriptsRig;
beforeAll(async () => {
  rig = await startScriptsRig();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

describe('REST /api/v1/portal/scripts', () => {
  it('creates, lists, reads, revises, changes state and deletes by id', async () => {
    const created = await rig.rest('alice', 'POST', '/', { name: 'rest-job', source: 'export function main() { return 1 }' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ outcome: 'created', script: { name: 'rest-job', kind: 'script', state: 'active', current_version: 1 } });
    const id: string = created.body.script.id;

    const list = await rig.rest('bob', 'GET', '/');
    expect(list.status).toBe(200);
    expect(list.body.scripts.map((s: { name: string }) => s.name)).toContain('rest-job');

    const revised = await rig.rest('alice', 'PUT', `/${id}`, { source: 'export function main() { return 2 }' });
    expect(revised.status).toBe(200);
    expect(revised.body).toMatchObject({ outcome: 'revised', script: { current_version: 2 } });

    const first = await rig.rest('alice', 'GET', `/${id}?version=1`);
    expect(first.body).toMatchObject({ source_version: 1, source: 'export function main() { return 1 }' });
    expect(first.body.versions).toHaveLength(2);

    expect((await rig.rest('alice', 'POST', `/${id}/disable`)).body.state).toBe('disabled');
    expect((await rig.rest('alice', 'POST', `/${id}/deprecate`)).body.state).toBe('deprecated');
    expect((await rig.rest('alice', 'POST', `/${id}/enable`)).body.state).toBe('active');

    const deleted = await rig.rest('alice', 'DELETE', `/${id}`);
    expect(deleted.status).toBe(200);
    expect((await rig.rest('alice', 'GET', `/${id}`)).status).toBe(404);
  });

  it('answers each refusal with its status and {error, message}', async () => {
    const syntax = await rig.rest('alice', 'POST', '/', { name: 'bad-syntax', source: 'export function main() {\n  return )\n}' });
    expect(syntax.status).toBe(400);
    expect(syntax.body).toMatchObject({ error: 'syntax', line: 2, column: 10 });
    expect(syntax.body.message).toMatch(/^syntax error at 2:10/);

    const badImport = await rig.rest('alice', 'POST', '/', { name: 'bad-import', source: "import fs from 'node:fs'\nexport function main() {}" });
    expect(badImport).toMatchObject({ status: 400, body: { error: 'invalid', specifier: 'node:fs' } });

    const big = await rig.rest('alice', 'POST', '/', { name: 'big', source: `// ${'x'.repeat(MAX_SOURCE_BYTES)}` });
    expect(big).toMatchObject({ status: 413, body: { error: 'too_large' } });

    const owned = await rig.rest('alice', 'POST', '/', { name: 'owned', source: 'export function main() {}' });
    expect((await rig.rest('alice', 'POST', '/', { name: 'owned', source: 'export function main() {}' })).status).toBe(409);
    const id: string = owned.body.script.id;
    const forbidden = await rig.rest('bob', 'PUT', `/${id}`, { source: 'export function main() { return 1 }' });
    expect(forbidden).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await rig.rest('root', 'POST', `/${id}/supersede`, { superseded_by: id })).status).toBe(409);
    expect((await rig.rest('alice', 'GET', '/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
  });

  it("refuses callers whose persona does not allow manage_script, and requests without credentials", async () => {
    expect(await rig.rest('carol', 'GET', '/')).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const anonymous = await fetch(`${rig.api.url}/api/v1/portal/scripts/`);
    expect(anonymous.status).toBe(401);
  });

  it('documents the routes in OpenAPI', async () => {
    const doc = (await (await fetch(`${rig.api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/v1/portal/scripts']!)).toEqual(expect.arrayContaining(['post', 'get']));
    expect(Object.keys(doc.paths['/api/v1/portal/scripts/{id}']!)).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    for (const action of ['disable', 'enable', 'deprecate', 'supersede']) expect(doc.paths[`/api/v1/portal/scripts/{id}/${action}`]).toHaveProperty('post');
  });
});

describe('the manage_script tool', () => {
  it('creates and manages scripts by name, and the call is audited under the caller', async () => {
    const alice = await rig.connect('alice');
    const created = await manageScript(alice, { action: 'create', script: 'mcp-lib', source: 'export const greet = (n) => `hi ${n}`' });
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({ outcome: 'created', script: { name: 'mcp-lib', kind: 'library' } });
    const user = await manageScript(alice, { action: 'create', script: 'mcp-job', source: "import { greet } from 'mcp-lib'\nexport function main() { return greet('x') }" });
    expect(user.body.script.imports).toEqual(['mcp-lib']);
    expect((await manageScript(alice, { action: 'update', script: 'mcp-job', source: "import { greet } from 'mcp-lib'\nexport function main() { return greet('y') }" })).body.outcome).toBe('revised');
    expect((await manageScript(alice, { action: 'get', script: 'mcp-job' })).body.script.versions).toHaveLength(2);
    expect((await manageScript(alice, { action: 'list' })).body.scripts.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['mcp-lib', 'mcp-job']));
    expect((await manageScript(alice, { action: 'disable', script: 'mcp-job' })).body.script.state).toBe('disabled');

    const syntax = await manageScript(alice, { action: 'create', script: 'mcp-broken', source: 'export function main() {' });
    expect(syntax.isError).toBe(true);
    expect(syntax.body).toMatchObject({ error: 'syntax', line: 1 });

    const bob = await rig.connect('bob');
    const refused = await manageScript(bob, { action: 'delete', script: 'mcp-job' });
    expect(refused).toMatchObject({ isError: true, body: { error: 'forbidden' } });

    await rig.flushAudit();
    const { rows } = await rig.db.query<{ subject: string; outcome: string; parameters: Record<string, unknown> }>(
      "SELECT subject, outcome, parameters FROM audit_log WHERE tool = 'manage_script' ORDER BY occurred_at, id",
    );
    expect(rows[0]).toMatchObject({ subject: 'apikey:alice', outcome: 'ok', parameters: { action: 'create', script: 'mcp-lib' } });
    // The source is a content argument: recorded as its size and digest, never verbatim.
    expect(JSON.stringify(rows[0]!.parameters)).not.toContain('greet');
    expect(rows.some((r) => r.subject === 'apikey:bob' && r.outcome === 'error')).toBe(true);
  });

  it("is neither listed nor callable for a persona whose tools.allow does not allow it, and the refusal is audited", async () => {
    const carol = await rig.connect('carol');
    const { tools } = await carol.listTools();
    expect(tools.map((t) => t.name)).not.toContain('manage_script');
    await expect(manageScript(carol, { action: 'list' })).rejects.toThrow(/Unknown tool: manage_script/);
    await rig.flushAudit();
    const { rows } = await rig.db.query("SELECT outcome FROM audit_log WHERE tool = 'manage_script' AND subject = 'apikey:carol'");
    expect(rows).toEqual([{ outcome: 'denied' }]);
  });
});
