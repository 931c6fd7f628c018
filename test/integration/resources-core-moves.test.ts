/**
 * The spec's "Move, rename, folder change" table (except subtree renames, which come with the
 * jobs issue): library change, folder change, a combined change (one URI, one alias, one event),
 * collisions naming the colliding file, agents refused; aliases after two moves and a new
 * resource at a vacated address winning; resolve by reference, URI, alias and library path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agent,
  body,
  globalLib,
  person,
  personaLib,
  personLib,
  refused,
  startResourceEnv,
  text,
  type ResourceEnv,
} from './resources-core-fixtures.js';

describe.each(['s3', 'filesystem'] as const)('moves (%s)', (driver) => {
  let env: ResourceEnv;
  let n = 0;
  const sam = () => person(env, 'sam', ['sales']);
  const root = () => person(env, 'root', ['platform-admin']);
  const make = async (path = 'inbox', name = `doc-${++n}.md`, who = sam()) =>
    (await env.service.create(who, { library: personLib(who.subject), path, file_name: name, if_exists: 'fail', origin: 'portal', body: body(`content of ${name}`) })).resource;
  const aliases = async (id: string) => (await env.db.query<{ uri: string }>('SELECT uri FROM resource_aliases WHERE resource_id = $1 ORDER BY vacated_at', [id])).rows.map((r) => r.uri);
  const moveEvents = async (id: string) =>
    (await env.db.query<{ actor: string; details: Record<string, { library: string; path: string; uri: string }> }>(
      `SELECT actor, details FROM resource_events WHERE resource_id = $1 AND kind = 'moved' ORDER BY id`,
      [id],
    )).rows;

  beforeAll(async () => {
    env = await startResourceEnv(driver);
  }, 120_000);
  afterAll(async () => env?.stop());

  it('library A → B: row rewritten; id, bytes, versions and uploader unchanged; URI prefix rewritten; alias; one event', async () => {
    const doc = await make();
    await env.service.replaceContent(sam(), doc.id, { body: body('v2'), origin: 'portal' });
    const moved = await env.service.update(sam(), doc.id, { library: personaLib('sales') });
    expect(moved).toMatchObject({ id: doc.id, library: 'persona:sales', path: 'inbox', uploader: 'sam', version: 2, uri: `mcp://persona/sales/inbox/${doc.file_name}` });
    expect(await aliases(doc.id)).toEqual([doc.uri]);
    const events = await moveEvents(doc.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: 'sam',
      details: { from: { library: 'person:sam', path: 'inbox', uri: doc.uri }, to: { library: 'persona:sales', path: 'inbox', uri: moved.uri } },
    });
    expect((await env.service.versions(sam(), doc.id)).map((v) => v.version)).toEqual([2, 1]);
    expect(await text((await env.service.openContent(sam(), doc.id, 'resources_read')).body)).toBe('v2');
  });

  it('folder F → G: URI path rewritten, old address aliased, target folders recorded', async () => {
    const doc = await make('drafts');
    const moved = await env.service.update(sam(), doc.id, { path: 'final/2024' });
    expect(moved.uri).toBe(`mcp://user/sam/final/2024/${doc.file_name}`);
    expect(await aliases(doc.id)).toEqual([doc.uri]);
    const folders = await env.db.query<{ path: string }>(`SELECT path FROM resource_folders WHERE library_key = 'sam' ORDER BY path`);
    expect(folders.rows.map((r) => r.path)).toEqual(expect.arrayContaining(['drafts', 'final', 'final/2024']));
    expect((await moveEvents(doc.id))).toHaveLength(1);
  });

  it('a combined library and folder change → one URI rewrite, one alias, one audit event', async () => {
    const doc = await make('a');
    const moved = await env.service.update(sam(), doc.id, { library: personaLib('sales'), path: 'b/c', description: 'with an edit' });
    expect(moved).toMatchObject({ uri: `mcp://persona/sales/b/c/${doc.file_name}`, description: 'with an edit' });
    expect(await aliases(doc.id)).toEqual([doc.uri]);
    const events = await moveEvents(doc.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toMatchObject({ from: { library: 'person:sam', path: 'a' }, to: { library: 'persona:sales', path: 'b/c' } });
  });

  it('a move onto an existing file is refused naming the colliding file; nothing changes', async () => {
    const name = `clash-${++n}.md`;
    const there = await make('target', name);
    const mover = await make('source', name);
    const err = await refused(env.service.update(sam(), mover.id, { path: 'target', description: 'not applied' }), 'conflict');
    expect(err.message).toContain(`"${name}"`);
    expect(err.message).toContain(there.uri);
    expect(err.details).toMatchObject({ existing: { id: there.id, uri: there.uri } });
    expect(await env.service.get(sam(), mover.id)).toEqual(mover);
    expect(await aliases(mover.id)).toEqual([]);
    expect(await moveEvents(mover.id)).toEqual([]);
    // Across libraries too.
    const global = (await env.service.create(root(), { library: globalLib, path: 'target', file_name: `g-${name}`, if_exists: 'fail', origin: 'portal', body: body('g') })).resource;
    const mine = await env.service.create(root(), { library: personLib('root'), path: 'target', file_name: `g-${name}`, if_exists: 'fail', origin: 'portal', body: body('m') });
    const cross = await refused(env.service.update(root(), mine.resource.id, { library: globalLib }), 'conflict');
    expect(cross.message).toContain(global.uri);
  });

  it('agents cannot move resources between libraries, but can change folders where files are', async () => {
    const doc = await make();
    const err = await refused(env.service.update(agent(env, 'sam', ['sales']), doc.id, { library: personaLib('sales') }), 'forbidden');
    expect(err.message).toMatch(/agents cannot move resources between libraries/);
    const refiled = await env.service.update(agent(env, 'sam', ['sales']), doc.id, { path: 'by-agent' });
    expect(refiled.path).toBe('by-agent');
  });

  it('after two moves all three addresses resolve; a new resource at a vacated address wins', async () => {
    const doc = await make('one');
    const second = await env.service.update(sam(), doc.id, { path: 'two' });
    const third = await env.service.update(sam(), doc.id, { library: personaLib('sales'), path: 'three' });
    for (const uri of [doc.uri, second.uri, third.uri]) expect((await env.service.resolve(sam(), uri)).id).toBe(doc.id);
    expect((await env.service.resolve(sam(), doc.reference)).id).toBe(doc.id);
    expect((await env.service.resolve(sam(), doc.id)).id).toBe(doc.id);
    expect((await env.service.resolve(sam(), `persona:sales/three/${doc.file_name}`)).id).toBe(doc.id);
    expect((await env.service.resolve(sam(), `personal/one/${doc.file_name}`)).id).toBe(doc.id); // alias via library path
    const newcomer = await make('one', doc.file_name);
    expect(newcomer.uri).toBe(doc.uri);
    expect((await env.service.resolve(sam(), doc.uri)).id).toBe(newcomer.id);
    expect((await env.service.resolve(sam(), second.uri)).id).toBe(doc.id);
    // An equivalent spelling of the URI resolves to the same address.
    expect((await env.service.resolve(sam(), second.uri.replace('doc-', 'doc%2D'))).id).toBe(doc.id);
    await refused(env.service.resolve(sam(), 'mcp://user/sam/nowhere/none.md'), 'not_found');
    await refused(env.service.resolve(sam(), 'mcp://bogus/x'), 'invalid');
  });

  it('moving back to an earlier address keeps every address resolvable', async () => {
    const doc = await make('here');
    const away = await env.service.update(sam(), doc.id, { path: 'there' });
    const back = await env.service.update(sam(), doc.id, { path: 'here' });
    expect(back.uri).toBe(doc.uri);
    expect((await env.service.resolve(sam(), away.uri)).id).toBe(doc.id);
    expect((await aliases(doc.id)).sort()).toEqual([doc.uri, away.uri].sort());
  });

  it('the move target must be offered to the caller', async () => {
    const doc = await make();
    await refused(env.service.update(sam(), doc.id, { library: personaLib('finance') }), 'forbidden');
    await refused(env.service.update(sam(), doc.id, { library: globalLib }), 'forbidden');
    await refused(env.service.update(sam(), doc.id, { library: personLib('bob') }), 'forbidden');
    await refused(env.service.update(sam(), doc.id, { path: 'Bad_Folder' }), 'invalid');
    // A platform administrator may move to global and to a named person's library, on any route:
    // a person the platform has seen (bob has a file), never an unseen one.
    await refused(env.service.update(root(), doc.id, { library: personLib('nobody-seen') }), 'invalid');
    await make('inbox', `bob-${++n}.md`, person(env, 'bob'));
    const toBob = await env.service.update(root(), doc.id, { library: personLib('bob') });
    expect(toBob).toMatchObject({ library: 'person:bob', uploader: 'sam' });
    const toGlobal = await env.service.update(root(), doc.id, { library: globalLib });
    expect(toGlobal.library).toBe('global');
    await refused(env.service.update(root(), doc.id, { library: personaLib('nope') }), 'invalid');
  });
});
