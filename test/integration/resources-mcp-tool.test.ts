/**
 * The manage_resource agent tool through real MCP clients (Streamable HTTP) against the real api,
 * ResourceService, Postgres and a filesystem object store: every action, the parameters the spec
 * names, agent writer records, and the refusals (address taken, cross-library move by an agent,
 * delete of a referenced file without force, authority, bad input).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { resourceActor, type ReferenceCounter } from '../../shared/resources/index.js';
import { callerOf, manage, startResourcesMcp, type ResourcesMcp } from './resources-mcp-fixtures.js';

describe('manage_resource over MCP', () => {
  let env: ResourcesMcp;
  /** Resource ids that "assets" point at, for the delete-with-references rule. */
  const referenced = new Set<string>();
  const released: string[] = [];
  const assets: ReferenceCounter = {
    count: async (id) => (referenced.has(id) ? { assets: 2, prompts: 1 } : {}),
    released: async (id) => void released.push(id),
  };

  beforeAll(async () => {
    env = await startResourcesMcp({ references: [assets], readInlineBytes: 64 });
  }, 60_000);

  afterAll(async () => env?.stop());

  it('is listed with its actions, the spec\'s parameters and a destructive annotation', async () => {
    const alice = await env.connect('alice');
    const { tools } = await alice.listTools();
    const tool = tools.find((t) => t.name === 'manage_resource')!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const props = tool.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(props.action!.enum).toEqual(['create', 'replace_content', 'update', 'delete', 'read', 'extract']);
    for (const name of ['reference', 'path', 'filename', 'if_exists', 'force', 'change_summary', 'members', 'library', 'content', 'content_base64']) {
      expect(props).toHaveProperty(name);
    }
    expect(tool.inputSchema.required).toEqual(['action']);
  });

  it('creates in the personal library by default and records the agent session as writer', async () => {
    const alice = await env.connect('alice');
    const made = await manage(alice, {
      action: 'create',
      path: 'templates',
      filename: 'brief.md',
      content: '# Brief\n',
      description: 'weekly brief',
      tags: ['weekly'],
    });
    expect(made.isError).toBe(false);
    expect(made.body.outcome).toBe('created');
    expect(made.body.resource).toMatchObject({
      library: 'person:apikey:alice',
      path: 'templates',
      file_name: 'brief.md',
      display_name: 'brief',
      description: 'weekly brief',
      tags: ['weekly'],
      version: 1,
      uri: 'mcp://user/apikey%3Aalice/templates/brief.md',
      uploader: 'apikey:alice',
    });
    expect(made.body.resource.reference).toBe(`mcp:resource:${made.body.resource.id}`);
    const sessionId = (alice.transport as StreamableHTTPClientTransport).sessionId;
    expect(sessionId).toBeTruthy();
    const writers = await env.service.writers(resourceActor(callerOf('alice'), { config: env.config, origin: 'person' }), made.body.resource.id);
    expect(writers).toEqual([expect.objectContaining({ kind: 'agent_session', id: sessionId, created: true })]);
  });

  it('refuses a create at a taken address without if_exists, and with if_exists=replace revises the same file', async () => {
    const alice = await env.connect('alice');
    const first = await manage(alice, { action: 'create', path: 'data', filename: 'daily.csv', content: 'a,b\n1,2\n', if_exists: 'replace' });
    expect(first.body.outcome).toBe('created');
    const taken = await manage(alice, { action: 'create', path: 'data', filename: 'daily.csv', content: 'a,b\n3,4\n' });
    expect(taken.isError).toBe(true);
    expect(taken.body.error).toBe('conflict');
    expect(taken.text).toContain('daily.csv');
    const second = await manage(alice, {
      action: 'create',
      path: 'data',
      filename: 'daily.csv',
      content: 'a,b\n3,4\n',
      if_exists: 'replace',
      change_summary: 'second export',
    });
    expect(second.isError).toBe(false);
    expect(second.body.outcome).toBe('revised');
    expect(second.body.resource).toMatchObject({ id: first.body.resource.id, version: 2, uri: first.body.resource.uri });
    const versions = await env.service.versions(resourceActor(callerOf('alice'), { config: env.config, origin: 'person' }), first.body.resource.id);
    expect(versions.map((v) => [v.version, v.change_summary])).toEqual([
      [2, 'second export'],
      [1, null],
    ]);
  });

  it('replaces content by reference and by address, keeping id, name and URI; reads it back', async () => {
    const alice = await env.connect('alice');
    const made = await manage(alice, { action: 'create', filename: 'notes.txt', content: 'one' });
    const ref = made.body.resource.reference as string;
    const byRef = await manage(alice, { action: 'replace_content', reference: ref, content: 'two', change_summary: 'typo' });
    expect(byRef.isError).toBe(false);
    expect(byRef.body.resource).toMatchObject({ id: made.body.resource.id, file_name: 'notes.txt', version: 2, uri: made.body.resource.uri, size: 3 });
    const byAddress = await manage(alice, { action: 'replace_content', library: 'personal', path: '', filename: 'notes.txt', content: 'three' });
    expect(byAddress.body.resource).toMatchObject({ id: made.body.resource.id, version: 3 });
    const byUri = await manage(alice, { action: 'replace_content', reference: made.body.resource.uri, content_base64: Buffer.from('four').toString('base64') });
    expect(byUri.body.resource.version).toBe(4);
    const read = await manage(alice, { action: 'read', reference: ref });
    expect(read.body).toMatchObject({ content: 'four', resource: { version: 4 } });
  });

  it('reads binary content as base64, and gives details only above the inline limit', async () => {
    const alice = await env.connect('alice');
    const bytes = Buffer.from([0, 1, 2, 0xff, 0xfe]);
    const bin = await manage(alice, { action: 'create', filename: 'blob.bin', content_base64: bytes.toString('base64'), content_type: 'application/octet-stream' });
    expect(bin.isError).toBe(false);
    const read = await manage(alice, { action: 'read', reference: bin.body.resource.reference });
    expect(read.body.content_base64).toBe(bytes.toString('base64'));
    expect(read.body).not.toHaveProperty('content');
    const big = await manage(alice, { action: 'create', filename: 'big.txt', content: 'z'.repeat(100) });
    const details = await manage(alice, { action: 'read', library: 'personal', filename: 'big.txt' });
    expect(details.body.resource.size).toBe(100);
    expect(details.body).not.toHaveProperty('content');
    expect(details.body.content_omitted).toContain(big.body.resource.uri);
  });

  it('updates details and moves within the library; refuses a move to another library', async () => {
    const alice = await env.connect('alice');
    const made = await manage(alice, { action: 'create', path: 'inbox', filename: 'spec.md', content: 'spec' });
    const ref = made.body.resource.reference as string;
    const updated = await manage(alice, { action: 'update', reference: ref, display_name: 'The spec', tags: ['a', 'b'], search_setting: 'details_only' });
    expect(updated.body.resource).toMatchObject({ display_name: 'The spec', tags: ['a', 'b'], search_setting: 'details_only', uri: made.body.resource.uri });
    const moved = await manage(alice, { action: 'update', reference: ref, path: 'specs/current', library: 'personal' });
    expect(moved.body.resource).toMatchObject({ path: 'specs/current', uri: 'mcp://user/apikey%3Aalice/specs/current/spec.md', id: made.body.resource.id });

    const crossLibrary = await manage(alice, { action: 'update', reference: ref, library: 'persona:analyst', path: 'specs' });
    expect(crossLibrary.isError).toBe(true);
    expect(crossLibrary.body.error).toBe('forbidden');
    expect(crossLibrary.text).toContain('agents cannot move resources between libraries');
    const toGlobal = await manage(alice, { action: 'update', reference: ref, library: 'global', display_name: 'x' });
    expect(toGlobal.isError).toBe(true);
    const unchanged = await manage(alice, { action: 'read', reference: ref });
    expect(unchanged.body.resource).toMatchObject({ library: 'person:apikey:alice', path: 'specs/current', display_name: 'The spec' });

    const nothing = await manage(alice, { action: 'update', reference: ref });
    expect(nothing).toMatchObject({ isError: true, body: { error: 'invalid' } });
  });

  it('describes a folder with path and description (no reference)', async () => {
    const alice = await env.connect('alice');
    const described = await manage(alice, { action: 'update', path: 'templates', description: 'Layouts deliverables follow' });
    expect(described.isError).toBe(false);
    expect(described.body.folder).toEqual({
      library: 'person:apikey:alice',
      path: 'templates',
      description: 'Layouts deliverables follow',
      allowed_actions: { list: true, add: true, describe: true, delete: true },
    });
    const row = await env.db.query<{ description: string }>(
      `SELECT description FROM resource_folders WHERE library_kind = 'person' AND library_key = 'apikey:alice' AND path = 'templates'`,
    );
    expect(row.rows[0]!.description).toBe('Layouts deliverables follow');
    // Authority to add files there: bob cannot describe a persona folder he does not administer.
    const bob = await env.connect('bob');
    const refused = await manage(bob, { action: 'update', library: 'persona:staff', path: 'references', description: 'x' });
    expect(refused).toMatchObject({ isError: true, body: { error: 'forbidden' } });
  });

  it('refuses deleting a referenced file with the counts, deletes it with force, and deletes an unreferenced one', async () => {
    const alice = await env.connect('alice');
    const kept = await manage(alice, { action: 'create', filename: 'logo.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"/>', content_type: 'image/svg+xml' });
    referenced.add(kept.body.resource.id);
    const refused = await manage(alice, { action: 'delete', reference: kept.body.resource.reference });
    expect(refused.isError).toBe(true);
    expect(refused.body).toMatchObject({ error: 'conflict', references: { assets: 2, prompts: 1, tables: 0 } });
    expect(refused.text).toContain('2 assets');
    const forced = await manage(alice, { action: 'delete', reference: kept.body.resource.reference, force: true });
    expect(forced.isError).toBe(false);
    expect(forced.body).toMatchObject({ deleted: true, resource: { id: kept.body.resource.id } });
    expect(released).toContain(kept.body.resource.id);
    const gone = await manage(alice, { action: 'read', reference: kept.body.resource.reference });
    expect(gone).toMatchObject({ isError: true, body: { error: 'not_found' } });

    await manage(alice, { action: 'create', path: 'tmp', filename: 'scratch.txt', content: 'x' });
    const plain = await manage(alice, { action: 'delete', path: 'tmp', filename: 'scratch.txt' });
    expect(plain.isError).toBe(false);
  });

  it('keeps to the authority rules: no writes into a persona library without persona-admin, no changes to others\' files', async () => {
    const bob = await env.connect('bob');
    const persona = await manage(bob, { action: 'create', library: 'persona:staff', filename: 'x.txt', content: 'x' });
    expect(persona).toMatchObject({ isError: true, body: { error: 'forbidden' } });
    const alice = await env.connect('alice');
    const hers = await manage(alice, { action: 'create', filename: 'private.txt', content: 'mine' });
    for (const action of ['replace_content', 'delete', 'read'] as const) {
      const answer = await manage(bob, { action, reference: hers.body.resource.reference, content: 'theirs' });
      expect(answer.isError).toBe(true);
      expect(['not_found', 'forbidden']).toContain(answer.body.error);
    }
    // A persona administrator may add to the persona's library.
    const carol = await env.connect('carol');
    const added = await manage(carol, { action: 'create', library: 'persona:analyst', path: 'templates', filename: 'q.md', content: 'q' });
    expect(added.body.resource).toMatchObject({ library: 'persona:analyst', uri: 'mcp://persona/analyst/templates/q.md' });
  });

  it('answers bad input as tool errors naming the problem', async () => {
    const alice = await env.connect('alice');
    expect((await manage(alice, { action: 'create', filename: 'a.txt' })).text).toContain('needs the file\'s content');
    expect((await manage(alice, { action: 'create', filename: 'a.txt', content: 'x', content_base64: 'eA==' })).text).toContain('not both');
    expect((await manage(alice, { action: 'create', filename: 'a.txt', content_base64: 'not base64!' })).text).toContain('not valid base64');
    expect((await manage(alice, { action: 'create', content: 'x' })).text).toContain('create needs filename');
    expect((await manage(alice, { action: 'create', library: 'team', filename: 'a.txt', content: 'x' })).text).toContain('personal, person:<subject>, persona:<name>, global');
    expect((await manage(alice, { action: 'create', path: 'Bad Folder', filename: 'a.txt', content: 'x' })).text).toContain('breaks the rule');
    expect((await manage(alice, { action: 'delete' })).text).toContain('needs its target');
    const extract = await manage(alice, { action: 'extract', reference: 'mcp:resource:x', members: '*.csv' });
    expect(extract).toMatchObject({ isError: true, body: { error: 'not_available' } });
    expect(extract.text).toContain('Temporal workers');
  });
});
