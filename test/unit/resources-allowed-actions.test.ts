/**
 * The allowed actions answers carry, as pure rules (authority.ts): what agents, anonymous callers
 * and persona administrators are offered, and that a top-level folder is never described or deleted.
 * The route-by-route agreement is test/integration/resources-allowed-actions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { agentOf, caller as c, config, person } from './resources-actors.js';
import { folderActions, moveCandidates, resourceActions, resourceActor, type Library } from '../../shared/resources/index.js';

const own = (subject: string): Library => ({ kind: 'person', subject });
const sales: Library = { kind: 'persona', name: 'sales' };

describe('resourceActions', () => {
  it('offers an agent every change to its own file but no move to another library', () => {
    const actions = resourceActions(agentOf('alice', ['sales']), { library: own('alice'), uploader: 'alice' });
    expect(actions).toEqual({ read: true, change: true, delete: true, move_targets: [], move_to_people: false, recapture: true, register: true });
    // The same caller at the portal may move it into its persona.
    expect(resourceActions(person('alice', ['sales']), { library: own('alice'), uploader: 'alice' }).move_targets).toEqual(['persona:sales']);
  });

  it('offers a platform administrator every configured persona, global, its own library and people, agents excepted', () => {
    const root = person('root', ['platform-admin']);
    expect(moveCandidates(root).map((l) => (l.kind === 'persona' ? l.name : l.kind))).toEqual(['person', 'admin', 'finance', 'sales', 'global']);
    expect(resourceActions(root, { library: sales, uploader: 'sally' })).toMatchObject({
      move_targets: ['person:root', 'persona:admin', 'persona:finance', 'global'],
      move_to_people: true,
    });
    expect(resourceActions(agentOf('root', ['platform-admin']), { library: sales, uploader: 'sally' })).toMatchObject({ change: true, move_targets: [], move_to_people: false });
  });

  it('offers a persona administrator changes in its persona but moves only where it belongs', () => {
    const sally = person('sally', ['persona-admin:sales']);
    // Administers sales without belonging to it: may change a file there, and move it to its own library only.
    expect(resourceActions(sally, { library: sales, uploader: 'sam' })).toEqual({
      read: true,
      change: true,
      delete: true,
      move_targets: ['person:sally'],
      move_to_people: false,
      recapture: true,
      register: true,
    });
  });

  it('never offers an anonymous caller a library of its own', () => {
    const anonymous = resourceActor(c('anonymous:anonymous', [], 'anonymous'), { config, origin: 'person' });
    expect(moveCandidates(anonymous)).toEqual([{ kind: 'global' }]);
    expect(resourceActions(anonymous, { library: own('anonymous:anonymous'), uploader: 'anonymous:anonymous' }).read).toBe(false);
  });
});

describe('folderActions', () => {
  it('offers adding to a top-level folder, never describing or deleting it', () => {
    const alice = person('alice');
    expect(folderActions(alice, own('alice'), '')).toEqual({ list: true, add: true, describe: false, delete: false });
    expect(folderActions(alice, own('alice'), 'docs')).toEqual({ list: true, add: true, describe: true, delete: true });
  });

  it('offers a member listing only, and a stranger nothing', () => {
    expect(folderActions(person('sam', ['sales']), sales, 'docs')).toEqual({ list: true, add: false, describe: false, delete: false });
    expect(folderActions(person('bob'), sales, 'docs')).toEqual({ list: false, add: false, describe: false, delete: false });
  });
});
