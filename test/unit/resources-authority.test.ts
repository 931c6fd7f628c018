/** The authority table (spec document 2, Authentication) row by row, and actors from callers. */
import { describe, expect, it } from 'vitest';
import { agentOf, caller as c, config, person } from './resources-actors.js';
import { administers, may, resourceActor, type Library, type ResourceActor } from '../../shared/resources/index.js';


const alice = person('alice');
const bob = person('bob');
const salesMember = person('sam', ['sales']);
const salesAdmin = person('sally', ['persona-admin:sales']);
const platformAdmin = person('root', ['platform-admin']);
const local = resourceActor(c('local-operator', [], 'local'), { config, origin: 'person' });

const own: Library = { kind: 'person', subject: 'alice' };
const sales: Library = { kind: 'persona', name: 'sales' };
const global: Library = { kind: 'global' };

describe('resourceActor', () => {
  it('resolves membership, persona admin roles and platform admin', () => {
    expect(salesMember.personas).toEqual(['sales']);
    expect(salesAdmin.adminOfPersonas).toEqual(['sales']);
    expect(salesAdmin.personas).toEqual([]);
    expect(platformAdmin.platformAdmin).toBe(true);
    expect(alice.platformAdmin).toBe(false);
    expect(local.platformAdmin).toBe(true);
    expect(alice.writer).toEqual({ kind: 'person', subject: 'alice' });
    expect(agentOf('alice').writer).toEqual({ kind: 'agent_session', sessionId: 's1' });
    expect(resourceActor(c('a'), { config, origin: 'agent' }).writer).toEqual({ kind: 'agent_session', sessionId: 'stdio' });
  });
  it('counts every matched persona as membership, not only the active one', () => {
    const both = person('bo', ['sales', 'finance']);
    expect([...both.personas].sort()).toEqual(['finance', 'sales']);
  });
});

describe('authority table', () => {
  it('read: global everyone; persona its members; personal its owner', () => {
    expect(may(bob, 'read', { library: global })).toBe(true);
    expect(may(salesMember, 'read', { library: sales })).toBe(true);
    expect(may(bob, 'read', { library: sales })).toBe(false);
    expect(may(alice, 'read', { library: own })).toBe(true);
    expect(may(bob, 'read', { library: own })).toBe(false);
    // Membership-scoped even for administrators.
    expect(may(platformAdmin, 'read', { library: own })).toBe(false);
    expect(may(salesAdmin, 'read', { library: sales })).toBe(false);
  });
  it('dereference by id: readers and administrators of the library', () => {
    expect(may(platformAdmin, 'dereference', { library: own })).toBe(true);
    expect(may(salesAdmin, 'dereference', { library: sales })).toBe(true);
    expect(may(bob, 'dereference', { library: own })).toBe(false);
  });
  it('list: own, personas, global; administrators what they may write', () => {
    expect(may(alice, 'list', { library: own })).toBe(true);
    expect(may(alice, 'list', { library: global })).toBe(true);
    expect(may(salesMember, 'list', { library: sales })).toBe(true);
    expect(may(salesAdmin, 'list', { library: sales })).toBe(true);
    expect(may(bob, 'list', { library: own })).toBe(false);
    expect(may(bob, 'list', { library: sales })).toBe(false);
    expect(may(platformAdmin, 'list', { library: own })).toBe(true);
  });
  it('add: owner to own; persona-admin to the persona; platform admin anywhere', () => {
    expect(may(alice, 'add', { library: own })).toBe(true);
    expect(may(bob, 'add', { library: own })).toBe(false);
    expect(may(salesAdmin, 'add', { library: sales })).toBe(true);
    expect(may(salesMember, 'add', { library: sales })).toBe(false);
    expect(may(platformAdmin, 'add', { library: global })).toBe(true);
    expect(may(platformAdmin, 'add', { library: sales })).toBe(true);
    expect(may(platformAdmin, 'add', { library: own })).toBe(true);
    expect(may(alice, 'add', { library: global })).toBe(false);
    expect(may(local, 'add', { library: global })).toBe(true);
  });
  it('change: the uploader or an administrator of the library; platform admins any', () => {
    expect(may(salesMember, 'change', { library: sales, uploader: 'sam' })).toBe(true);
    expect(may(person('sue', ['sales']), 'change', { library: sales, uploader: 'sam' })).toBe(false);
    expect(may(salesAdmin, 'change', { library: sales, uploader: 'sam' })).toBe(true);
    expect(may(platformAdmin, 'change', { library: own, uploader: 'alice' })).toBe(true);
    expect(may(alice, 'change', { library: own, uploader: 'root' })).toBe(true);
    expect(may(bob, 'change', { library: global, uploader: 'root' })).toBe(false);
    // An uploader who can no longer read the library cannot change the file there.
    expect(may(bob, 'change', { library: sales, uploader: 'bob' })).toBe(false);
  });
  it('describe a folder: authority to add files there', () => {
    expect(may(salesAdmin, 'describe_folder', { library: sales })).toBe(true);
    expect(may(salesMember, 'describe_folder', { library: sales })).toBe(false);
  });
  it('move to a library: own, a persona one belongs to; platform admins everywhere; never agents', () => {
    expect(may(salesMember, 'move_to', { library: sales })).toBe(true);
    expect(may(alice, 'move_to', { library: own })).toBe(true);
    expect(may(alice, 'move_to', { library: sales })).toBe(false);
    expect(may(salesAdmin, 'move_to', { library: sales })).toBe(false);
    expect(may(alice, 'move_to', { library: global })).toBe(false);
    expect(may(platformAdmin, 'move_to', { library: global })).toBe(true);
    expect(may(platformAdmin, 'move_to', { library: { kind: 'person', subject: 'bob' } })).toBe(true);
    expect(may(agentOf('sam', ['sales']), 'move_to', { library: sales })).toBe(false);
    expect(may(agentOf('root', ['platform-admin']), 'move_to', { library: global })).toBe(false);
  });
  it('administrators of a library', () => {
    const admins = (a: ResourceActor, l: Library) => administers(a, l);
    expect(admins(alice, own)).toBe(true);
    expect(admins(salesAdmin, sales)).toBe(true);
    expect(admins(salesMember, sales)).toBe(false);
    expect(admins(alice, global)).toBe(false);
    expect(admins(platformAdmin, global)).toBe(true);
  });
});

describe('anonymous callers (issue 9: identities are unambiguous)', () => {
  it('own no personal library, not even the one named by their shared subject', () => {
    const anon = resourceActor(c('anonymous:anonymous', [], 'anonymous'), { config, origin: 'agent', sessionId: 's1' });
    const theirs: Library = { kind: 'person', subject: 'anonymous:anonymous' };
    for (const action of ['read', 'list', 'add', 'describe_folder', 'move_to'] as const) {
      expect(may(anon, action, { library: theirs }), action).toBe(false);
    }
    expect(may(anon, 'change', { library: theirs, uploader: 'anonymous:anonymous' })).toBe(false);
    expect(administers(anon, theirs)).toBe(false);
  });
});
