/**
 * Managed resources through the MCP resources methods, with real MCP clients over Streamable
 * HTTP against the real api, ResourceService, Postgres and a filesystem object store:
 * resources/list (membership-scoped, paged), resources/templates/list, resources/read (by URI,
 * reference and alias; membership-scoped; text vs blob; inline limit) and custom resources.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { manage, startResourcesMcp, type ResourcesMcp } from './resources-mcp-fixtures.js';
import type { ResourceView } from '../../shared/resources/index.js';

async function readError(client: Client, uri: string): Promise<McpError> {
  const error = await client.readResource({ uri }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

async function listAll(client: Client): Promise<{ pages: Resource[][]; all: Resource[] }> {
  const pages: Resource[][] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    pages.push(page.resources);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, all: pages.flat() };
}

describe('managed resources over MCP resources/*', () => {
  let env: ResourcesMcp;
  let alicePersonal: ResourceView;
  let bobPersonal: ResourceView;
  let analystDoc: ResourceView;
  let globalImage: ResourceView;
  let staffDoc: ResourceView;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);

  beforeAll(async () => {
    env = await startResourcesMcp({
      pageSize: 2,
      maxReadBytes: 4096,
      extraYaml: `resources:
  custom:
    - { uri: "brand://style", name: Style guide, mime_type: text/markdown, content: "# Style" }
`,
    });
    alicePersonal = await env.seed('alice', { library: { kind: 'person', subject: 'apikey:alice' }, path: 'notes', file_name: 'todo.md', content: '# todo\n', description: 'my list' });
    bobPersonal = await env.seed('bob', { library: { kind: 'person', subject: 'apikey:bob' }, path: '', file_name: 'secret.txt', content: 'bob only' });
    analystDoc = await env.seed('root', { library: { kind: 'persona', name: 'analyst' }, path: 'templates', file_name: 'report.md', content: 'analyst template' });
    staffDoc = await env.seed('root', { library: { kind: 'persona', name: 'staff' }, path: 'references', file_name: 'guide.txt', content: 'staff guide' });
    globalImage = await env.seed('root', { library: { kind: 'global' }, path: 'visual', file_name: 'logo.png', content: png, content_type: 'image/png' });
  }, 60_000);

  afterAll(async () => env?.stop());

  it('lists the caller\'s own library, member personas and global, paged by cursor; custom resources and MCP Apps lead', async () => {
    const alice = await env.connect('alice');
    const { pages, all } = await listAll(alice);
    expect(all.map((r) => r.uri)).toEqual(['brand://style', 'ui://platform-info', alicePersonal.uri, analystDoc.uri, staffDoc.uri, globalImage.uri]);
    // Custom resources and apps ride on the first page; a page holds managed resources of one library.
    expect(pages.map((p) => p.length)).toEqual([3, 1, 1, 1]);
    const todo = all.find((r) => r.uri === alicePersonal.uri)!;
    expect(todo).toMatchObject({ name: 'todo', description: 'my list', size: 7 });
    expect(todo.mimeType).toMatch(/^text\/markdown/);
    expect(all.find((r) => r.uri === globalImage.uri)).toMatchObject({ mimeType: 'image/png', size: png.length });
    expect(alicePersonal.uri).toBe('mcp://user/apikey%3Aalice/notes/todo.md');
  });

  it('keeps administrators membership-scoped in resources/list (no other people\'s or non-member persona libraries)', async () => {
    const root = await env.connect('root');
    const uris = (await listAll(root)).all.map((r) => r.uri);
    expect(uris).toEqual(['brand://style', 'ui://platform-info', staffDoc.uri, globalImage.uri]);
    expect(uris).not.toContain(bobPersonal.uri);
    expect(uris).not.toContain(analystDoc.uri);
    // A persona administrator who is not a member does not see that persona's files either.
    const carol = await env.connect('carol');
    expect((await listAll(carol)).all.map((r) => r.uri)).toEqual(['brand://style', 'ui://platform-info', staffDoc.uri, globalImage.uri]);
  });

  it('refuses a cursor it did not issue', async () => {
    const alice = await env.connect('alice');
    await expect(alice.listResources({ cursor: 'not-a-cursor' })).rejects.toThrow(/invalid cursor/);
  });

  it('offers templates for mcp:resource:{id} and the canonical URI shapes', async () => {
    const alice = await env.connect('alice');
    const { resourceTemplates } = await alice.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'mcp:resource:{id}',
      'mcp://user/{subject}/{+path}',
      'mcp://persona/{name}/{+path}',
      'mcp://global/{+path}',
    ]);
  });

  it('reads by canonical URI and by reference: text as text, binary as base64 blob', async () => {
    const alice = await env.connect('alice');
    const byUri = await alice.readResource({ uri: alicePersonal.uri });
    expect(byUri.contents).toEqual([
      expect.objectContaining({ uri: alicePersonal.uri, text: '# todo\n', mimeType: alicePersonal.content_type }),
    ]);
    const byReference = await alice.readResource({ uri: analystDoc.reference });
    expect(byReference.contents[0]).toMatchObject({ uri: analystDoc.uri, text: 'analyst template' });
    const image = await alice.readResource({ uri: globalImage.uri });
    expect(image.contents[0]).toMatchObject({ uri: globalImage.uri, mimeType: 'image/png', blob: png.toString('base64') });
    expect(image.contents[0]).not.toHaveProperty('text');
  });

  it('stamps last read on a resources/read', async () => {
    const before = await env.db.query<{ last_read_at: Date | null }>('SELECT last_read_at FROM resources WHERE id = $1', [staffDoc.id]);
    expect(before.rows[0]!.last_read_at).toBeNull();
    const bob = await env.connect('bob');
    await bob.readResource({ uri: staffDoc.uri });
    const after = await env.db.query<{ last_read_at: Date | null }>('SELECT last_read_at FROM resources WHERE id = $1', [staffDoc.id]);
    expect(after.rows[0]!.last_read_at).toBeInstanceOf(Date);
  });

  it('answers a resource the caller may not read exactly like an unknown one (-32002)', async () => {
    const bob = await env.connect('bob');
    // Persona member reads; non-member gets not-found.
    const unknown = await readError(bob, 'mcp://persona/analyst/templates/missing.md');
    const nonMember = await readError(bob, analystDoc.uri);
    expect(unknown.code).toBe(-32002);
    expect(nonMember.code).toBe(-32002);
    expect(nonMember.message).toBe(unknown.message.replace('mcp://persona/analyst/templates/missing.md', analystDoc.uri));
    expect((await readError(bob, analystDoc.reference)).code).toBe(-32002);
    // Another person's personal library is hidden, by URI and by reference.
    expect((await readError(bob, alicePersonal.uri)).code).toBe(-32002);
    expect((await readError(bob, alicePersonal.reference)).code).toBe(-32002);
    // Malformed addresses too.
    expect((await readError(bob, 'mcp://nowhere/x')).code).toBe(-32002);
    expect((await readError(bob, 'mcp:resource:not-an-id')).code).toBe(-32002);
  });

  it('keeps administrators membership-scoped in resources/read', async () => {
    const root = await env.connect('root');
    expect((await readError(root, bobPersonal.uri)).code).toBe(-32002);
    expect((await readError(root, analystDoc.reference)).code).toBe(-32002);
    // A persona administrator without membership cannot read the persona's files over MCP.
    const carol = await env.connect('carol');
    expect((await readError(carol, analystDoc.uri)).code).toBe(-32002);
    // The owner still reads their own.
    const bob = await env.connect('bob');
    expect((await bob.readResource({ uri: bobPersonal.uri })).contents[0]).toMatchObject({ text: 'bob only' });
  });

  it('refuses content above the inline limit with an error naming the limit, without stamping last read', async () => {
    const big = await env.seed('alice', { library: { kind: 'person', subject: 'apikey:alice' }, path: 'data', file_name: 'big.csv', content: 'x,y\n'.repeat(2000) });
    const alice = await env.connect('alice');
    const error = await readError(alice, big.uri);
    expect(error.message).toContain('8000 bytes');
    expect(error.message).toContain('at most 4096 bytes');
    const row = await env.db.query<{ last_read_at: Date | null }>('SELECT last_read_at FROM resources WHERE id = $1', [big.id]);
    expect(row.rows[0]!.last_read_at).toBeNull();
  });

  it('resolves former addresses (aliases) after moves, and a live address wins over a vacated one', async () => {
    const alice = await env.connect('alice');
    const made = await manage(alice, { action: 'create', path: 'drafts', filename: 'plan.md', content: 'v1 plan' });
    expect(made.isError).toBe(false);
    const first = made.body.resource.uri as string;
    const moved = await manage(alice, { action: 'update', reference: made.body.resource.reference, path: 'plans' });
    expect(moved.isError).toBe(false);
    const second = moved.body.resource.uri as string;
    const again = await manage(alice, { action: 'update', reference: first, path: 'final' });
    expect(again.isError).toBe(false);
    const third = again.body.resource.uri as string;
    expect([first, second, third]).toEqual(['mcp://user/apikey%3Aalice/drafts/plan.md', 'mcp://user/apikey%3Aalice/plans/plan.md', 'mcp://user/apikey%3Aalice/final/plan.md']);
    for (const uri of [first, second, third]) {
      const read = await alice.readResource({ uri });
      expect(read.contents[0]).toMatchObject({ uri: third, text: 'v1 plan' });
    }
    // A new file at the first address takes it over.
    const newcomer = await manage(alice, { action: 'create', path: 'drafts', filename: 'plan.md', content: 'new plan' });
    expect(newcomer.isError).toBe(false);
    expect((await alice.readResource({ uri: first })).contents[0]).toMatchObject({ uri: first, text: 'new plan' });
    expect((await alice.readResource({ uri: second })).contents[0]).toMatchObject({ uri: third, text: 'v1 plan' });
    // Aliases stay membership-scoped: bob cannot follow alice's former address.
    const bob = await env.connect('bob');
    expect((await readError(bob, second)).code).toBe(-32002);
  });

  it('pages within a library with the service cursor (page size 2)', async () => {
    const library = { kind: 'person' as const, subject: 'apikey:bob' };
    await env.seed('bob', { library, path: 'a', file_name: 'a.txt', content: 'a' });
    await env.seed('bob', { library, path: 'b', file_name: 'b.txt', content: 'b' });
    const bob = await env.connect('bob');
    const { pages } = await listAll(bob);
    expect(pages.map((p) => p.map((r) => r.name))).toEqual([['Style guide', 'platform-info', 'a', 'b'], ['secret'], ['guide'], ['logo']]);
  });

  it('still serves custom resources exactly as before', async () => {
    const bob = await env.connect('bob');
    const read = await bob.readResource({ uri: 'brand://style' });
    expect(read.contents).toEqual([{ uri: 'brand://style', mimeType: 'text/markdown', text: '# Style' }]);
    expect((await readError(bob, 'brand://missing')).message).toContain('resource not found: brand://missing');
  });
});
