/**
 * Issue 40: the Attachment rule of spec document 2 — an attachment is at least as widely visible as
 * the prompt — as the matrix of private, persona and global resources × personal, persona and
 * shared prompts; promotion of a prompt carrying a narrower attachment refused naming it; who sees
 * which prompt on prompts/list; and the portal's REST routes with their refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPromptsRig, subjectOf, type PromptsRig, type User } from './prompts-fixtures.js';

let rig: PromptsRig;
const files: Record<'private' | 'persona' | 'otherPersona' | 'global', string> = { private: '', persona: '', otherPersona: '', global: '' };
/** Prompt ids by scope; each is changeable by carol (owner of personal, persona-admin of analyst) or root (shared). */
const prompts: Record<'personal' | 'persona' | 'shared', { id: string; by: User }> = {
  personal: { id: '', by: 'carol' },
  persona: { id: '', by: 'carol' },
  shared: { id: '', by: 'root' },
};

async function createPrompt(user: User, body: Record<string, unknown>) {
  const r = await rig.rest(user, 'POST', '/api/v1/portal/prompts', body);
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
}

beforeAll(async () => {
  rig = await startPromptsRig();
  files.private = await rig.upload('carol', { name: 'carol-private.md' });
  files.persona = await rig.upload('carol', { library: 'persona:analyst', name: 'analyst-notes.md' });
  files.otherPersona = await rig.upload('root', { library: 'persona:staff', name: 'staff-notes.md' });
  files.global = await rig.upload('root', { library: 'global', name: 'handbook.md' });
  prompts.personal.id = await createPrompt('carol', { name: 'carol-personal', content: 'Personal.' });
  prompts.persona.id = await createPrompt('carol', { name: 'analyst-prompt', content: 'For analysts.', scope: 'persona', persona: 'analyst' });
  prompts.shared.id = await createPrompt('root', { name: 'company-prompt', content: 'For everyone.', scope: 'shared' });
}, 120_000);

afterAll(async () => {
  await rig?.stop();
});

describe('the attachment visibility matrix (resource library × prompt scope)', () => {
  const matrix: Array<[keyof typeof files, keyof typeof prompts, boolean]> = [
    ['private', 'personal', true],
    ['private', 'persona', false],
    ['private', 'shared', false],
    ['persona', 'personal', false],
    ['persona', 'persona', true],
    ['persona', 'shared', false],
    ['otherPersona', 'persona', false],
    ['global', 'personal', true],
    ['global', 'persona', true],
    ['global', 'shared', true],
  ];
  it.each(matrix)('a %s resource on a %s prompt: accepted %s', async (file, scope, accepted) => {
    const { id, by } = prompts[scope];
    const r = await rig.rest(by, 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: files[file] });
    if (accepted) {
      expect(r.status, r.text).toBe(200);
      expect(r.body.attachments.map((a: { resource_id: string }) => a.resource_id)).toContain(files[file]);
      return;
    }
    // Refused naming the resource (the platform administrator may open every file, so it is named to them too).
    expect(r.status, r.text).toBe(409);
    expect(r.body).toMatchObject({ error: 'attachment_narrower', resource_id: files[file] });
    expect(r.body.message).toContain('(mcp:resource:');
    expect(r.body.message).toMatch(/carol-private|analyst-notes|staff-notes/);
  });
});

describe('promotion and scope changes', () => {
  it('refuses promoting a personal prompt that carries a private attachment, naming it; detached, the promotion goes ahead', async () => {
    const id = await createPrompt('carol', { name: 'to-promote', content: 'Soon for analysts.' });
    await rig.rest('carol', 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: files.global });
    const attached = await rig.rest('carol', 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: files.private });
    expect(attached.status).toBe(200);
    expect(attached.body.allowed_actions.scopes).toEqual(['persona:analyst']);

    const refused = await rig.rest('carol', 'PATCH', `/api/v1/portal/prompts/${id}`, { scope: 'persona', persona: 'analyst' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'attachment_narrower', resource_id: files.private, resource_name: 'carol-private' });
    expect(refused.body.message).toMatch(/^cannot promote the prompt to persona analyst: resource "carol-private"/);
    const unchanged = await rig.rest('carol', 'GET', `/api/v1/portal/prompts/${id}`);
    expect(unchanged.body.scope).toBe('personal');

    await rig.rest('carol', 'DELETE', `/api/v1/portal/prompts/${id}/attachments/${files.private}`);
    const promoted = await rig.rest('carol', 'PATCH', `/api/v1/portal/prompts/${id}`, { scope: 'persona', persona: 'analyst' });
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.body).toMatchObject({ scope: 'persona', persona: 'analyst', attachments: [{ resource_id: files.global }] });
  });

  it('refuses promoting a persona prompt with a persona attachment to shared, even for a platform administrator', async () => {
    const id = await createPrompt('carol', { name: 'analyst-only', content: 'x', scope: 'persona', persona: 'analyst' });
    await rig.rest('carol', 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: files.persona });
    const byCarol = await rig.rest('carol', 'PATCH', `/api/v1/portal/prompts/${id}`, { scope: 'shared' });
    expect(byCarol.status).toBe(403);
    const byRoot = await rig.rest('root', 'PATCH', `/api/v1/portal/prompts/${id}`, { scope: 'shared' });
    expect(byRoot.status).toBe(409);
    expect(byRoot.body).toMatchObject({ error: 'attachment_narrower', resource_id: files.persona });
  });

  it('moving to a scope needs the authority to create prompts there', async () => {
    const id = await createPrompt('alice', { name: 'alice-thing', content: 'x' });
    const r = await rig.rest('alice', 'PATCH', `/api/v1/portal/prompts/${id}`, { scope: 'persona', persona: 'analyst' });
    expect(r.status).toBe(403);
    const allowed = await rig.rest('alice', 'GET', `/api/v1/portal/prompts/${id}`);
    expect(allowed.body.allowed_actions).toEqual({ change: true, attach: true, scopes: [] });
  });
});

describe('who sees which prompt', () => {
  it('prompts/list: own personal prompts, the personas\' the caller belongs to, shared; never another person\'s', async () => {
    const names = async (user: User) => (await (await rig.connect(user)).listPrompts()).prompts.map((p) => p.name);
    const alice = await names('alice');
    expect(alice).toEqual(expect.arrayContaining(['alice-thing', 'analyst-prompt', 'company-prompt']));
    expect(alice).not.toContain('carol-personal');
    const bob = await names('bob');
    expect(bob).toContain('company-prompt');
    expect(bob).not.toContain('analyst-prompt');
    expect(bob).not.toContain('alice-thing');
    // Persona prompts reach members only: a persona-prompt's name asked by a non-member is unknown.
    const client = await rig.connect('bob');
    await expect(client.getPrompt({ name: 'analyst-prompt' })).rejects.toThrow(/unknown prompt: analyst-prompt/);
  });

  it('a personal prompt hides a shared one of the same name for its owner only', async () => {
    await createPrompt('root', { name: 'standup', content: 'Shared standup.', scope: 'shared' });
    await createPrompt('alice', { name: 'standup', content: 'My standup.' });
    const alice = await (await rig.connect('alice')).getPrompt({ name: 'standup' });
    expect(alice.messages[0]!.content).toMatchObject({ text: 'My standup.' });
    const bob = await (await rig.connect('bob')).getPrompt({ name: 'standup' });
    expect(bob.messages[0]!.content).toMatchObject({ text: 'Shared standup.' });
  });
});

describe('REST routes', () => {
  it('lists the caller\'s prompts and answers 404 for another person\'s, 401 without credentials', async () => {
    const mine = await rig.rest('carol', 'GET', '/api/v1/portal/prompts');
    expect(mine.status).toBe(200);
    expect(mine.body.items.every((p: { owner: { subject: string } }) => p.owner.subject === subjectOf('carol'))).toBe(true);
    const other = await rig.rest('bob', 'GET', `/api/v1/portal/prompts/${prompts.personal.id}`);
    expect(other.status).toBe(404);
    const change = await rig.rest('bob', 'PATCH', `/api/v1/portal/prompts/${prompts.personal.id}`, { content: 'hijack' });
    expect(change.status).toBe(404);
    const anonymous = await rig.rest(undefined, 'GET', '/api/v1/portal/prompts');
    expect(anonymous.status).toBe(401);
  });

  it('a member who may not change a persona prompt reads it but is refused edits and attachments', async () => {
    const read = await rig.rest('alice', 'GET', `/api/v1/portal/prompts/${prompts.persona.id}`);
    expect(read.status).toBe(200);
    expect(read.body.allowed_actions).toMatchObject({ change: false, attach: false });
    const edit = await rig.rest('alice', 'PATCH', `/api/v1/portal/prompts/${prompts.persona.id}`, { content: 'changed' });
    expect(edit.status).toBe(403);
    const attach = await rig.rest('alice', 'POST', `/api/v1/portal/prompts/${prompts.persona.id}/attachments`, { resource_id: files.global });
    expect(attach.status).toBe(403);
  });

  it('reorders attachments; an order that is not a permutation is refused', async () => {
    const id = await createPrompt('carol', { name: 'ordered', content: 'x' });
    const a = await rig.upload('carol', { name: 'a.md' });
    const b = await rig.upload('carol', { name: 'b.md' });
    for (const r of [a, b]) await rig.rest('carol', 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: r });
    const reordered = await rig.rest('carol', 'PUT', `/api/v1/portal/prompts/${id}/attachments`, { resource_ids: [b, a] });
    expect(reordered.status).toBe(200);
    expect(reordered.body.attachments.map((x: { resource_id: string }) => x.resource_id)).toEqual([b, a]);
    for (const bad of [[a], [a, a], [a, b, files.global]]) {
      const r = await rig.rest('carol', 'PUT', `/api/v1/portal/prompts/${id}/attachments`, { resource_ids: bad });
      expect(r.status).toBe(400);
    }
  });

  it('concurrent attaches each get their own position', async () => {
    const id = await createPrompt('carol', { name: 'busy', content: 'x' });
    const ids = await Promise.all(['c1.md', 'c2.md', 'c3.md', 'c4.md'].map((name) => rig.upload('carol', { name })));
    const answers = await Promise.all(ids.map((r) => rig.rest('carol', 'POST', `/api/v1/portal/prompts/${id}/attachments`, { resource_id: r })));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const final = await rig.rest('carol', 'GET', `/api/v1/portal/prompts/${id}`);
    expect(final.body.attachments.map((x: { position: number }) => x.position)).toEqual([0, 1, 2, 3]);
    expect(new Set(final.body.attachments.map((x: { resource_id: string }) => x.resource_id))).toEqual(new Set(ids));
  });

  it('person writes are audited', async () => {
    const rows = await rig.db.query<{ tool: string }>(`SELECT tool FROM audit_log WHERE tool LIKE 'portal_prompt_%'`);
    expect(new Set(rows.rows.map((r) => r.tool))).toEqual(new Set(['portal_prompt_create', 'portal_prompt_update', 'portal_prompt_attach', 'portal_prompt_detach', 'portal_prompt_reorder']));
  });
});
