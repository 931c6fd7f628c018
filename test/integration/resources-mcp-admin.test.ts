/**
 * manage_resource and a platform administrator (spec document 2, "Authentication"): read and the
 * writes follow one rule, the by-id rule — an administrator reads a named file it may change, in
 * another person's library or a persona it does not belong to — while MCP resources/read stays
 * membership-scoped. The allowed actions in the tool's answers say the same, and an agent is
 * offered no move to another library.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceView } from '../../shared/resources/index.js';
import { manage, startResourcesMcp, type ResourcesMcp } from './resources-mcp-fixtures.js';

describe('manage_resource for a platform administrator', () => {
  let env: ResourcesMcp;
  let bobsFile: ResourceView;
  let analystFile: ResourceView;

  beforeAll(async () => {
    env = await startResourcesMcp();
    bobsFile = await env.seed('bob', { library: { kind: 'person', subject: 'apikey:bob' }, path: 'notes', file_name: 'plan.txt', content: 'bob\'s plan' });
    analystFile = await env.seed('carol', { library: { kind: 'persona', name: 'analyst' }, path: 'templates', file_name: 'report.md', content: 'analyst template' });
  }, 60_000);

  afterAll(async () => env?.stop());

  it.each([
    ['another person\'s library', () => bobsFile, 'bob\'s plan'],
    ['a persona it does not belong to', () => analystFile, 'analyst template'],
  ])('reads and updates by reference alike in %s', async (_where, file, content) => {
    const root = await env.connect('root');
    const { reference, uri } = file();

    const read = await manage(root, { action: 'read', reference });
    expect(read.isError).toBe(false);
    expect(read.body.content).toBe(content);
    expect(read.body.resource.allowed_actions).toMatchObject({ read: true, change: true, delete: true, move_targets: [], move_to_people: false });

    const updated = await manage(root, { action: 'update', reference, description: 'checked by root' });
    expect(updated.isError).toBe(false);
    expect(updated.body.resource.description).toBe('checked by root');

    // resources/read is membership-scoped: the administrator is not a member here.
    await expect(root.readResource({ uri })).rejects.toThrow(/not found/i);
  });

  it('refuses the same files to a caller who may neither read nor change them, read and write alike', async () => {
    const bob = await env.connect('bob');
    const read = await manage(bob, { action: 'read', reference: analystFile.reference });
    const update = await manage(bob, { action: 'update', reference: analystFile.reference, description: 'x' });
    expect(read.isError).toBe(true);
    expect(update.isError).toBe(true);
    expect(read.body.error).toBe('not_found');
    expect(update.body.error).toBe('not_found');
  });

  it('deletes what it reads', async () => {
    const root = await env.connect('root');
    const doomed = await env.seed('bob', { library: { kind: 'person', subject: 'apikey:bob' }, path: 'notes', file_name: 'old.txt', content: 'old' });
    expect((await manage(root, { action: 'read', reference: doomed.reference })).body.content).toBe('old');
    expect((await manage(root, { action: 'delete', reference: doomed.reference })).isError).toBe(false);
    expect((await manage(root, { action: 'read', reference: doomed.reference })).body.error).toBe('not_found');
  });
});
