/**
 * The authority table through the service, each row with an allowed and a refused caller, on
 * both drivers; and the error-table rows about folders and referenced deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReferenceCounts } from '../../shared/resources/index.js';
import { resourceActor } from '../../shared/resources/index.js';
import {
  agent,
  body,
  caller,
  globalLib,
  person,
  personaLib,
  personLib,
  refused,
  startResourceEnv,
  text,
  type ResourceEnv,
} from './resources-core-fixtures.js';

describe.each(['s3', 'filesystem'] as const)('authority (%s)', (driver) => {
  let env: ResourceEnv;
  let n = 0;
  const counts = new Map<string, ReferenceCounts>();
  const released: string[] = [];
  const alice = () => person(env, 'alice');
  const bob = () => person(env, 'bob');
  const sam = () => person(env, 'sam', ['sales']); // sales member
  const sue = () => person(env, 'sue', ['sales']); // another sales member
  const sally = () => person(env, 'sally', ['persona-admin:sales']); // persona admin, not a member
  const root = () => person(env, 'root', ['platform-admin']);
  const name = () => `f-${++n}.txt`;
  const put = (who = alice(), library = personLib(who.subject), path = 'docs', file_name = name()) =>
    env.service.create(who, { library, path, file_name, if_exists: 'fail', origin: 'portal', body: body(`bytes ${file_name}`) }).then((r) => r.resource);

  beforeAll(async () => {
    env = await startResourceEnv(driver, {
      references: [
        {
          count: async (id) => counts.get(id) ?? {},
          released: async (id) => {
            released.push(id);
          },
        },
      ],
    });
  }, 120_000);
  afterAll(async () => env?.stop());

  it('read: global every caller; persona its members; personal its owner (membership-scoped resources/read)', async () => {
    const g = await put(root(), globalLib);
    expect(await text((await env.service.openContent(bob(), g.id, 'resources_read')).body)).toContain('bytes');
    const p = await put(sally(), personaLib('sales'));
    expect((await env.service.openContent(sam(), p.id, 'resources_read')).resource.id).toBe(p.id);
    await refused(env.service.openContent(bob(), p.id, 'resources_read'), 'not_found');
    const mine = await put(alice());
    expect((await env.service.openContent(alice(), mine.id, 'resources_read')).resource.id).toBe(mine.id);
    await refused(env.service.openContent(bob(), mine.id, 'resources_read'), 'not_found');
    // resources/read stays membership-scoped for administrators ...
    await refused(env.service.openContent(root(), mine.id, 'resources_read'), 'not_found');
    await refused(env.service.openContent(sally(), p.id, 'resources_read'), 'not_found');
  });

  it('by id (fetch, portal): administrators can dereference any named file; others cannot', async () => {
    const mine = await put(alice());
    expect((await env.service.get(root(), mine.id)).id).toBe(mine.id);
    expect((await env.service.openContent(root(), mine.id, 'search_fetch')).resource.id).toBe(mine.id);
    await refused(env.service.get(bob(), mine.id), 'not_found');
    await refused(env.service.openContent(bob(), mine.id, 'portal_download'), 'not_found');
    const p = await put(sally(), personaLib('sales'));
    expect((await env.service.get(sally(), p.id)).id).toBe(p.id);
    await refused(env.service.get(bob(), p.id), 'not_found');
    await refused(env.service.versions(bob(), p.id), 'not_found');
    await refused(env.service.usage(bob(), p.id), 'not_found');
    await refused(env.service.writers(bob(), p.id), 'not_found');
    await refused(env.service.usedBy(bob(), p.id), 'not_found');
    await refused(env.service.resolve(bob(), p.uri), 'not_found');
  });

  it('listing: own library, personas and global; an administrator what it may write; others refused', async () => {
    await put(alice(), personLib('alice'), 'listme');
    expect((await env.service.list(alice(), { path: 'personal/listme' })).items.length).toBe(1);
    expect((await env.service.list(root(), { path: 'person:alice/listme' })).items.length).toBe(1);
    await refused(env.service.list(bob(), { path: 'person:alice/listme' }), 'forbidden');
    await put(sally(), personaLib('sales'), 'listme');
    expect((await env.service.list(sam(), { path: 'persona:sales/listme' })).items.length).toBe(1);
    expect((await env.service.list(sally(), { path: 'persona:sales/listme' })).items.length).toBe(1);
    await refused(env.service.list(bob(), { path: 'persona:sales/listme' }), 'forbidden');
    expect((await env.service.list(bob(), { path: 'global' })).items).toBeDefined();
  });

  it('add: owner to own library, persona-admin to the persona, platform admin anywhere', async () => {
    expect((await put(alice())).library).toBe('person:alice');
    await refused(put(bob(), personLib('alice')), 'forbidden');
    expect((await put(sally(), personaLib('sales'))).library).toBe('persona:sales');
    const member = await refused(put(sam(), personaLib('sales')), 'forbidden');
    expect(member.message).toMatch(/persona-admin:<name>/);
    expect((await put(root(), globalLib)).library).toBe('global');
    expect((await put(root(), personaLib('finance'))).library).toBe('persona:finance');
    await refused(put(alice(), globalLib), 'forbidden');
    await refused(put(root(), personaLib('unknown')), 'invalid');
    // The stdio local operator is a platform administrator.
    const local = resourceActor(caller('local-operator', [], { authType: 'local' }), { config: env.config, origin: 'person' });
    expect((await put(local, globalLib)).uploader).toBe('local-operator');
    // New folder needs the same authority.
    await env.service.createFolder(sally(), personaLib('sales'), 'made/by-admin');
    await refused(env.service.createFolder(sam(), personaLib('sales'), 'made/by-member'), 'forbidden');
  });

  it('replace, edit, delete by id: the uploader or an administrator of the library; platform admins any', async () => {
    // Sam uploads to his own library and moves the file into sales (members may).
    const doc = await put(sam());
    await env.service.update(sam(), doc.id, { library: personaLib('sales') });
    expect((await env.service.replaceContent(sam(), doc.id, { body: body('by uploader'), origin: 'portal' })).version).toBe(2);
    await refused(env.service.replaceContent(sue(), doc.id, { body: body('by other member'), origin: 'portal' }), 'forbidden');
    await refused(env.service.update(sue(), doc.id, { description: 'x' }), 'forbidden');
    await refused(env.service.delete(sue(), doc.id, { force: false }), 'forbidden');
    await refused(env.service.restore(sue(), doc.id, 1), 'forbidden');
    expect((await env.service.update(sally(), doc.id, { description: 'by persona admin' })).description).toBe('by persona admin');
    expect((await env.service.replaceContent(root(), doc.id, { body: body('by platform admin'), origin: 'portal' })).version).toBe(3);
    // An owner administers a personal library: a file an admin put there is the owner's to change.
    const gift = await put(root(), personLib('alice'));
    expect((await env.service.update(alice(), gift.id, { tags: ['mine'] })).tags).toEqual(['mine']);
    await env.service.delete(sally(), doc.id, { force: false });
  });

  it('describe a folder: authority to add files there', async () => {
    await env.service.describeFolder(sally(), personaLib('sales'), 'playbooks', 'how we sell');
    await refused(env.service.describeFolder(sam(), personaLib('sales'), 'playbooks', 'nope'), 'forbidden');
    await env.service.describeFolder(alice(), personLib('alice'), 'notes/deep', 'mine');
    await refused(env.service.describeFolder(alice(), globalLib, 'x', 'nope'), 'forbidden');
    const facets = await env.service.facets(sam());
    expect(facets.find((f) => f.path === 'persona:sales/playbooks')).toMatchObject({ description: 'how we sell', count: 0, direct_count: 0, last_changed_at: null });
  });

  it('move to another library: own, member persona; platform admin global and persons; agents never', async () => {
    const doc = await put(sam());
    await refused(env.service.update(sam(), doc.id, { library: personaLib('finance') }), 'forbidden');
    await env.service.update(sam(), doc.id, { library: personaLib('sales') });
    await env.service.update(sam(), doc.id, { library: personLib('sam') });
    await refused(env.service.update(agent(env, 'sam', ['sales']), doc.id, { library: personaLib('sales') }), 'forbidden');
    await refused(env.service.update(agent(env, 'root', ['platform-admin']), doc.id, { library: globalLib }), 'forbidden');
    expect((await env.service.update(root(), doc.id, { library: globalLib })).library).toBe('global');
  });

  it('folder rule refusals name the rule broken', async () => {
    const bad = await refused(put(alice(), personLib('alice'), 'Reports'), 'invalid');
    expect(bad.message).toMatch(/folder name "Reports" breaks the rule: folder names are lowercase letters, digits and hyphens/);
    const deep = await refused(env.service.createFolder(alice(), personLib('alice'), 'a/b/c/d/e/f/g/h/i'), 'invalid');
    expect(deep.message).toMatch(/at most 8 folders deep/);
    const long = await refused(env.service.createFolder(alice(), personLib('alice'), `${'a'.repeat(150)}/${'b'.repeat(60)}`), 'invalid');
    expect(long.message).toMatch(/at most 200 characters/);
  });

  it('folders exist once created or filed into, stay when emptied, delete only when empty', async () => {
    const doc = await put(alice(), personLib('alice'), 'keep/inner');
    const held = await refused(env.service.deleteFolder(alice(), personLib('alice'), 'keep'), 'conflict');
    expect(held.message).toMatch(/still holds 1 file/);
    expect(held.details).toMatchObject({ count: 1 });
    await env.service.delete(alice(), doc.id, { force: false });
    const facets = await env.service.facets(alice());
    expect(facets.map((f) => f.path)).toEqual(expect.arrayContaining(['person:alice/keep', 'person:alice/keep/inner']));
    await refused(env.service.deleteFolder(bob(), personLib('alice'), 'keep'), 'forbidden');
    await env.service.deleteFolder(alice(), personLib('alice'), 'keep');
    const after = await env.service.facets(alice());
    expect(after.map((f) => f.path)).not.toContain('person:alice/keep');
    expect(after.map((f) => f.path)).not.toContain('person:alice/keep/inner');
    await refused(env.service.deleteFolder(alice(), personLib('alice'), 'keep'), 'not_found');
    await refused(env.service.deleteFolder(alice(), personLib('alice'), ''), 'invalid');
  });

  it('delete while assets, prompts or tables point at the file: refused with counts unless force', async () => {
    const doc = await put(alice());
    counts.set(doc.id, { assets: 2, prompts: 1, tables: 0 });
    expect(await env.service.usedBy(alice(), doc.id)).toEqual({ assets: 2, prompts: 1, tables: 0, referencing_assets: [], assets_not_shown: 0, public_link: false });
    const err = await refused(env.service.delete(alice(), doc.id, { force: false }), 'conflict');
    expect(err.message).toMatch(/used by 2 assets, 1 prompt and 0 registered tables/);
    expect(err.details).toMatchObject({ references: { assets: 2, prompts: 1, tables: 0 } });
    expect((await env.service.get(alice(), doc.id)).id).toBe(doc.id);
    await env.service.delete(alice(), doc.id, { force: true });
    await refused(env.service.get(alice(), doc.id), 'not_found');
    expect(released).toContain(doc.id);
  });
});
