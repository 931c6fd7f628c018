/**
 * Issue 40, "Prompts with attached resources": every manage_prompt command and its refusals, and
 * what the official MCP SDK client gets from prompts/list and prompts/get — the content with the
 * attachments as resource links in the authored order, missing material after a forced delete —
 * and the prompt counts of manage_resource delete (spec document 2, Errors).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startPromptsRig, subjectOf, type PromptsRig } from './prompts-fixtures.js';

let rig: PromptsRig;
let alice: Client;

beforeAll(async () => {
  rig = await startPromptsRig();
  alice = await rig.connect('alice');
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

describe('manage_prompt commands', () => {
  it('create, get, list, update, use and delete a personal prompt', async () => {
    const created = await rig.call('alice', 'manage_prompt', {
      command: 'create',
      name: 'weekly-summary',
      description: 'Summarise a week',
      content: 'Summarise the week of {week} for {team}.',
      arguments: [{ name: 'week', required: true }, { name: 'team' }],
    });
    expect(created.isError, created.text).toBe(false);
    const prompt = created.body.prompt;
    expect(prompt).toMatchObject({ name: 'weekly-summary', scope: 'personal', owner: { subject: subjectOf('alice') }, attachments: [], allowed_actions: { change: true, attach: true } });
    expect(prompt.arguments).toEqual([{ name: 'week', required: true }, { name: 'team', required: false }]);

    const got = await rig.call('alice', 'manage_prompt', { command: 'get', id: `mcp:prompt:${prompt.id}` });
    expect(got.body.prompt.content).toBe('Summarise the week of {week} for {team}.');

    const listed = await rig.call('alice', 'manage_prompt', { command: 'list' });
    expect(listed.body.prompts.map((p: { name: string }) => p.name)).toContain('weekly-summary');

    const updated = await rig.call('alice', 'manage_prompt', { command: 'update', name: 'weekly-summary', new_name: 'week-summary', content: 'Summarise {week}.' });
    expect(updated.isError, updated.text).toBe(false);
    expect(updated.body.prompt).toMatchObject({ id: prompt.id, name: 'week-summary', content: 'Summarise {week}.' });

    const missing = await rig.call('alice', 'manage_prompt', { command: 'use', name: 'week-summary' });
    expect(missing.body).toMatchObject({ status: 'resolved', content: 'Summarise {week}.', missing_arguments: ['week'], provenance: { kind: 'stored', scope: 'personal' } });
    const used = await rig.call('alice', 'manage_prompt', { command: 'use', name: 'week-summary', args: { week: '2025-W40' } });
    expect(used.body).toMatchObject({ status: 'resolved', content: 'Summarise 2025-W40.', missing_arguments: [] });

    const deleted = await rig.call('alice', 'manage_prompt', { command: 'delete', name: 'week-summary' });
    expect(deleted.body).toMatchObject({ deleted: true, id: prompt.id });
    const gone = await rig.call('alice', 'manage_prompt', { command: 'get', id: prompt.id });
    expect(gone).toMatchObject({ isError: true, body: { error: 'not_found' } });
  });

  it('refuses bad input and other people\'s prompts with clear errors', async () => {
    const badName = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'Bad Name', content: 'x' });
    expect(badName).toMatchObject({ isError: true, body: { error: 'invalid' } });
    expect(badName.text).toContain('lowercase letters');
    const noContent = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'empty', content: '   ' });
    expect(noContent.body.error).toBe('invalid');
    const dupArgs = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'dup-args', content: 'x', arguments: [{ name: 'a' }, { name: 'a' }] });
    expect(dupArgs.text).toContain('duplicate argument name "a"');
    const badArg = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'bad-arg', content: 'x', arguments: [{ name: '1st' }] });
    expect(badArg.body.error).toBe('invalid');

    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'mine-only', content: 'Private instructions' });
    const again = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'mine-only', content: 'again' });
    expect(again.body.error).toBe('conflict');
    // Reserved: a workflow prompt's name is never a stored prompt's.
    const reserved = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'explore-available-data', content: 'x' });
    expect(reserved).toMatchObject({ isError: true, body: { error: 'conflict' } });

    // Bob sees nothing of alice's personal prompt: not by name, not by id.
    const own = await rig.call('alice', 'manage_prompt', { command: 'get', name: 'mine-only' });
    const byId = await rig.call('bob', 'manage_prompt', { command: 'get', id: own.body.prompt.id });
    expect(byId.body.error).toBe('not_found');
    const del = await rig.call('bob', 'manage_prompt', { command: 'delete', id: own.body.prompt.id });
    expect(del.body.error).toBe('not_found');
    const byName = await rig.call('bob', 'manage_prompt', { command: 'use', name: 'mine-only' });
    expect(byName.body.error).toBe('not_found');

    // Scopes need authority: shared is for platform administrators, a persona for its persona-admin.
    const shared = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'for-all', content: 'x', scope: 'shared' });
    expect(shared.body.error).toBe('forbidden');
    const persona = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'for-analysts', content: 'x', scope: 'persona', persona: 'analyst' });
    expect(persona.body.error).toBe('forbidden');
    const unknown = await rig.call('carol', 'manage_prompt', { command: 'create', name: 'nowhere', content: 'x', scope: 'persona', persona: 'ghosts' });
    expect(unknown.text).toContain('persona "ghosts" is not configured');
    const noPersona = await rig.call('carol', 'manage_prompt', { command: 'create', name: 'nowhere', content: 'x', scope: 'persona' });
    expect(noPersona.body.error).toBe('invalid');
  });

  it('a placeholder-looking argument value is inserted as text, never expanded again', async () => {
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'echo', content: 'A={a} B={b}', arguments: [{ name: 'a' }, { name: 'b' }] });
    const used = await rig.call('alice', 'manage_prompt', { command: 'use', name: 'echo', args: { a: '{b}', b: 'x' } });
    expect(used.body.content).toBe('A={b} B=x');
  });
});

describe('attachments through the tool and the MCP prompt methods', () => {
  it('attach_resource in an authored order; prompts/get returns the content and resource links in that order', async () => {
    const first = await rig.upload('alice', { path: 'templates', name: 'layout.md' });
    const second = await rig.upload('alice', { path: 'references', name: 'glossary.md' });
    const third = await rig.upload('root', { library: 'global', name: 'brand.md' });
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'quarterly', description: 'Quarterly review', content: 'Review {quarter}.', arguments: [{ name: 'quarter', required: true }] });
    for (const id of [first, third]) {
      const r = await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'quarterly', reference: `mcp:resource:${id}` });
      expect(r.isError, r.text).toBe(false);
    }
    // Inserted between the two.
    const inserted = await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'quarterly', reference: `mcp:resource:${second}`, position: 1 });
    expect(inserted.body.prompt.attachments.map((a: { resource_id: string }) => a.resource_id)).toEqual([first, second, third]);

    const listed = await alice.listPrompts();
    const entry = listed.prompts.find((p) => p.name === 'quarterly');
    expect(entry).toMatchObject({ description: 'Quarterly review', arguments: [{ name: 'quarter', required: true }] });

    const got = await alice.getPrompt({ name: 'quarterly', arguments: { quarter: '2025-Q3' } });
    expect(got.messages[0]).toEqual({ role: 'user', content: { type: 'text', text: 'Review 2025-Q3.' } });
    const links = got.messages.slice(1).map((m) => m.content);
    expect(links.map((c) => c.type)).toEqual(['resource_link', 'resource_link', 'resource_link']);
    expect(links.map((c) => (c as { name: string }).name)).toEqual(['layout', 'glossary', 'brand']);
    // Each link reads through resources/read.
    const read = await alice.readResource({ uri: (links[1] as { uri: string }).uri });
    expect(read.contents[0]).toMatchObject({ text: 'glossary.md content' });

    // Reordering by attaching again moves; detaching keeps the rest in order.
    await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'quarterly', reference: `mcp:resource:${third}`, position: 0 });
    const detached = await rig.call('alice', 'manage_prompt', { command: 'detach_resource', name: 'quarterly', reference: `mcp:resource:${first}` });
    expect(detached.body.prompt.attachments.map((a: { resource_id: string; position: number }) => [a.resource_id, a.position])).toEqual([
      [third, 0],
      [second, 1],
    ]);
    const notAttached = await rig.call('alice', 'manage_prompt', { command: 'detach_resource', name: 'quarterly', reference: `mcp:resource:${first}` });
    expect(notAttached.body.error).toBe('not_found');

    // A required argument left out is a protocol error naming it.
    await expect(alice.getPrompt({ name: 'quarterly' })).rejects.toThrow(/missing required argument quarter/);
  });

  it('refuses attaching a resource the caller cannot open, and attaching to a prompt the caller cannot change', async () => {
    const bobsFile = await rig.upload('bob', { name: 'bob-notes.md' });
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'snoop', content: 'x' });
    const other = await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'snoop', reference: `mcp:resource:${bobsFile}` });
    expect(other).toMatchObject({ isError: true, body: { error: 'not_found' } });
    const unknown = await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'snoop', reference: 'mcp:resource:0190aaaa-0000-7000-8000-000000000000' });
    expect(unknown.body.error).toBe('not_found');
    const noRef = await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'snoop' });
    expect(noRef.body.error).toBe('invalid');
  });

  it('manage_resource delete counts the prompts pointing at the file and refuses without force; with force the prompt reports the material as missing', async () => {
    const file = await rig.upload('alice', { path: 'samples', name: 'sample.csv', content: 'a,b\n1,2\n' });
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'uses-sample-1', content: 'One' });
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'uses-sample-2', content: 'Two' });
    for (const name of ['uses-sample-1', 'uses-sample-2']) await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name, reference: `mcp:resource:${file}` });

    const usedBy = await rig.rest('alice', 'GET', `/api/v1/resources/${file}/used-by`);
    expect(usedBy.body.counts ?? usedBy.body).toMatchObject({ prompts: 2 });

    const refused = await rig.call('alice', 'manage_resource', { action: 'delete', reference: `mcp:resource:${file}` });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('2 prompts');
    expect(refused.body).toMatchObject({ references: { assets: 0, prompts: 2, tables: 0 } });

    const forced = await rig.call('alice', 'manage_resource', { action: 'delete', reference: `mcp:resource:${file}`, force: true });
    expect(forced.isError, forced.text).toBe(false);

    const got = await alice.getPrompt({ name: 'uses-sample-1' });
    expect(got.messages).toHaveLength(2);
    expect(got.messages[1]!.content).toEqual({ type: 'text', text: `Attached material missing: "sample" (mcp:resource:${file}) was deleted, so this prompt can no longer provide it.` });
    const view = await rig.call('alice', 'manage_prompt', { command: 'get', name: 'uses-sample-1' });
    expect(view.body.prompt.attachments).toEqual([{ resource_id: file, reference: `mcp:resource:${file}`, position: 0, name: 'sample', missing: true, readable: false }]);
    // A missing attachment can still be detached.
    const detached = await rig.call('alice', 'manage_prompt', { command: 'detach_resource', name: 'uses-sample-1', reference: `mcp:resource:${file}` });
    expect(detached.body.prompt.attachments).toEqual([]);
  });

  it('a portal delete of a file prompts depend on goes ahead, and the prompt keeps serving', async () => {
    const file = await rig.upload('alice', { name: 'portal-doomed.md' });
    await rig.call('alice', 'manage_prompt', { command: 'create', name: 'keeps-serving', content: 'Still here.' });
    await rig.call('alice', 'manage_prompt', { command: 'attach_resource', name: 'keeps-serving', reference: `mcp:resource:${file}` });
    const deleted = await rig.rest('alice', 'DELETE', `/api/v1/resources/${file}`);
    expect(deleted.status).toBe(204);
    const got = await alice.getPrompt({ name: 'keeps-serving' });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Still here.' });
    expect((got.messages[1]!.content as { text: string }).text).toContain('Attached material missing: "portal-doomed"');
  });
});

describe('prompts list_changed', () => {
  it('a committed change of stored prompts reaches other sessions as notifications/prompts/list_changed; listing again shows it', async () => {
    const bob = await rig.connect('bob');
    let notified = 0;
    bob.setNotificationHandler(PromptListChangedNotificationSchema, () => void notified++);
    // The session's standalone stream opens after initialize: a change before it is live reaches no one, so changes repeat (each a real one) until one is heard.
    for (let attempt = 0; notified === 0 && attempt < 20; attempt++) {
      const created = await rig.call('root', 'manage_prompt', { command: 'create', name: `shared-news-${attempt}`, content: 'News.', scope: 'shared' });
      expect(created.isError, created.text).toBe(false);
      const heardBy = Date.now() + 1_500;
      while (notified === 0 && Date.now() < heardBy) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(notified).toBeGreaterThan(0);
    const listed = await bob.listPrompts();
    expect(listed.prompts.map((p) => p.name)).toContain('shared-news-0');
  });

  it('a change committed on one replica reaches the sessions of another (Postgres LISTEN/NOTIFY), and a restored LISTEN connection tells them changes may have been missed', async () => {
    const replica = await rig.startReplica();
    try {
      const carol = await replica.connect('carol');
      let notified = 0;
      carol.setNotificationHandler(PromptListChangedNotificationSchema, () => void notified++);
      const heard = async (what: string) => {
        const by = Date.now() + 5_000;
        while (notified === 0 && Date.now() < by) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(notified, what).toBeGreaterThan(0);
      };
      // Written through the first replica only; repeated (each a real change) until carol's standalone stream is live.
      for (let attempt = 0; notified === 0 && attempt < 20; attempt++) {
        const created = await rig.call('root', 'manage_prompt', { command: 'create', name: `replica-news-${attempt}`, content: 'News.', scope: 'shared' });
        expect(created.isError, created.text).toBe(false);
        const by = Date.now() + 1_500;
        while (notified === 0 && Date.now() < by) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await heard('a change on the other replica');
      expect((await carol.listPrompts()).prompts.map((p) => p.name)).toContain('replica-news-0');

      // Every LISTEN connection of the prompt channel dropped: each replica reconnects and its sessions hear list_changed with no change made.
      notified = 0;
      const { rows } = await rig.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'platform-prompt-changes' AND datname = current_database()) t`,
      );
      expect(rows[0]!.n).toBe(2);
      await heard('a restored LISTEN connection');
    } finally {
      await replica.stop();
    }
  });
});
