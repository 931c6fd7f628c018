/**
 * The allowed actions answers carry, as pure rules (authority.ts): what agents, anonymous callers
 * and persona administrators are offered, and that a top-level folder is never described or deleted.
 * The route-by-route agreement is test/integration/resources-allowed-actions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { agentOf, caller as c, config, person } from './resources-actors.js';
import { folderActions, INLINE_PREVIEW_BYTES, moveCandidates, resourceActions, resourceActor, type Library } from '../../shared/resources/index.js';

const own = (subject: string): Library => ({ kind: 'person', subject });
const sales: Library = { kind: 'persona', name: 'sales' };

describe('resourceActions', () => {
  it('offers an agent every change to its own file but no move to another library', () => {
    const actions = resourceActions(agentOf('alice', ['sales']), { library: own('alice'), uploader: 'alice' });
    expect(actions).toEqual({ read: true, change: true, delete: true, move_targets: [], move_to_people: false, recapture: true, register: true, edit_source: false });
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
      edit_source: false,
    });
  });

  it('offers the source editor on a text-family file within the inline preview limit to whoever may change it (spec: Save in the source editor)', () => {
    const alice = person('alice');
    const file = (content_type: string, file_name: string, size = 10) => ({ library: own('alice'), uploader: 'alice', file: { content_type, file_name, size } });
    for (const [type, name] of [
      ['text/plain', 'notes.txt'],
      ['text/markdown', 'README.md'],
      ['text/csv', 'rows.csv'],
      ['application/json', 'a.json'],
      ['application/octet-stream', 'query.sql'],
      ['application/x-yaml', 'conf.yaml'],
      ['image/svg+xml', 'logo.svg'],
      ['application/ld+json', 'ld.json'],
    ]) {
      expect(resourceActions(alice, file(type!, name!)).edit_source, `${type} ${name}`).toBe(true);
    }
    for (const [type, name] of [
      ['image/png', 'a.png'],
      ['application/pdf', 'a.pdf'],
      ['application/zip', 'a.zip'],
      ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.docx'],
    ]) {
      expect(resourceActions(alice, file(type!, name!)).edit_source, `${type} ${name}`).toBe(false);
    }
    expect(resourceActions(alice, file('text/plain', 'big.txt', INLINE_PREVIEW_BYTES)).edit_source).toBe(true);
    expect(resourceActions(alice, file('text/plain', 'big.txt', INLINE_PREVIEW_BYTES + 1)).edit_source).toBe(false);
    // Without the change rule, never.
    expect(resourceActions(person('sam', ['sales']), { library: sales, uploader: 'sally', file: { content_type: 'text/plain', file_name: 'a.txt', size: 1 } }).edit_source).toBe(false);
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
