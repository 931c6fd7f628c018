/**
 * Issue 40: the prompts that live in configuration and code (spec document 1): the auto-registered
 * workflow prompts (registered when their tools are, offered to callers who may call them), the
 * rule that an operator prompt overrides a workflow prompt of the same name, and
 * `tuning.prompts_dir` — its files loaded as operator prompts, confined to the directory, every bad
 * file a start-up error naming it.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPromptsDir, PromptsDirError } from '../../shared/prompts/index.js';
import { startPromptsRig, type PromptsRig } from './prompts-fixtures.js';

let dir: string;
let rig: PromptsRig;

const quarterly = `---
description: Review a quarter
arguments:
  - { name: quarter, description: "e.g. 2025-Q3", required: true }
---
Review {quarter} against the plan.
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prompts-dir-'));
  const prompts = join(dir, 'prompts');
  await mkdir(prompts);
  await writeFile(join(prompts, 'quarterly-review.md'), quarterly);
  await writeFile(join(prompts, 'plain.md'), 'No front matter: the whole file is the content.\n');
  await writeFile(join(prompts, 'notes.txt'), 'not a prompt file');
  await writeFile(join(prompts, '.hidden.md'), 'left alone');
  await mkdir(join(prompts, 'drafts'));
  await writeFile(join(prompts, 'drafts', 'draft.md'), 'subdirectories are not read');
  rig = await startPromptsRig({
    server: `  prompts:
    - name: trace-data-lineage
      description: Our own lineage routine
      content: Use the lineage runbook for {dataset}.
      arguments: [{ name: dataset, required: true }]`,
    toolkits: `  sql:
    local: { engine: duckdb, path: ${JSON.stringify(join(dir, 'local.duckdb'))} }
  catalog:
    nowhere: { url: "http://127.0.0.1:9/graphql", timeout: 2s }`,
    extra: `tuning:
  prompts_dir: ${JSON.stringify(prompts)}`,
  });
}, 120_000);

afterAll(async () => {
  await rig?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('workflow prompts and the operator override', () => {
  it('registers the workflow prompts whose tools are registered; an operator prompt of the same name replaces one', async () => {
    const alice = await rig.connect('alice');
    const { prompts } = await alice.listPrompts();
    const names = prompts.map((p) => p.name);
    // Operator prompts first (server.prompts, then prompts_dir by file name), then workflow prompts.
    expect(names.slice(0, 3)).toEqual(['trace-data-lineage', 'plain', 'quarterly-review']);
    expect(names).toEqual(expect.arrayContaining(['explore-available-data', 'query-with-context']));
    // save_artifact is not registered here (portal off): the report prompt is not offered.
    expect(names).not.toContain('create-a-report');
    expect(names.filter((n) => n === 'trace-data-lineage')).toHaveLength(1);
    const lineage = await alice.getPrompt({ name: 'trace-data-lineage', arguments: { dataset: 'orders' } });
    expect(lineage.description).toBe('Our own lineage routine');
    expect(lineage.messages[0]!.content).toEqual({ type: 'text', text: 'Use the lineage runbook for orders.' });
    const explore = await alice.getPrompt({ name: 'explore-available-data', arguments: { topic: 'churn' } });
    expect((explore.messages[0]!.content as { text: string }).text).toMatch(/^Find the data available about churn\./);
  });

  it('offers a workflow prompt only to callers who may call its tools', async () => {
    const lena = await rig.connect('lena');
    const names = (await lena.listPrompts()).prompts.map((p) => p.name);
    expect(names).toContain('trace-data-lineage');
    expect(names).not.toContain('explore-available-data');
    await expect(lena.getPrompt({ name: 'explore-available-data', arguments: { topic: 'x' } })).rejects.toThrow(/unknown prompt/);
  });

  it('a stored prompt may not take an operator prompt\'s name', async () => {
    const r = await rig.call('alice', 'manage_prompt', { command: 'create', name: 'quarterly-review', content: 'mine' });
    expect(r).toMatchObject({ isError: true, body: { error: 'conflict' } });
    const used = await rig.call('alice', 'manage_prompt', { command: 'use', name: 'quarterly-review', args: { quarter: '2025-Q3' } });
    expect(used.body).toMatchObject({ status: 'resolved', content: 'Review 2025-Q3 against the plan.', provenance: { kind: 'operator' } });
  });
});

describe('tuning.prompts_dir', () => {
  it('serves each Markdown file as a prompt: front matter fields, the body as content, the file name as default name', async () => {
    const alice = await rig.connect('alice');
    const entry = (await alice.listPrompts()).prompts.find((p) => p.name === 'quarterly-review');
    expect(entry).toEqual({ name: 'quarterly-review', description: 'Review a quarter', arguments: [{ name: 'quarter', description: 'e.g. 2025-Q3', required: true }] });
    const plain = await alice.getPrompt({ name: 'plain' });
    expect(plain.messages[0]!.content).toEqual({ type: 'text', text: 'No front matter: the whole file is the content.' });
    const names = (await alice.listPrompts()).prompts.map((p) => p.name);
    expect(names).not.toContain('notes');
    expect(names).not.toContain('draft');
    expect(names).not.toContain('.hidden');
  });

  async function problem(files: Record<string, string>, setup?: (d: string) => Promise<void>): Promise<string> {
    const d = await mkdtemp(join(dir, 'case-'));
    for (const [name, text] of Object.entries(files)) await writeFile(join(d, name), text);
    await setup?.(d);
    const error = await loadPromptsDir(d).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PromptsDirError);
    return (error as Error).message;
  }

  it('every bad file is an error naming it', async () => {
    expect(await problem({ 'a.md': '---\nname: [unclosed\n---\nbody' })).toMatch(/^tuning\.prompts_dir: a\.md: the front matter is not valid YAML/);
    expect(await problem({ 'b.md': '---\n- a list\n---\nbody' })).toBe('tuning.prompts_dir: b.md: the front matter must be a YAML mapping');
    expect(await problem({ 'c.md': '---\ndescription: no body\n---\n' })).toMatch(/c\.md: the prompt has no content/);
    expect(await problem({ 'd.md': '---\ncolour: red\n---\nbody' })).toMatch(/^tuning\.prompts_dir: d\.md: .*colour/);
    expect(await problem({ 'e.md': '---\ncontent: inline\n---\nbody' })).toBe('tuning.prompts_dir: e.md: the content is the file\'s body, not a front matter field');
    expect(await problem({ 'f.md': 'one', 'g.md': '---\nname: f\n---\ntwo' })).toBe('tuning.prompts_dir: g.md: prompt name "f" is also f.md\'s');
    expect(await problem({ 'h.md': '---\narguments: [{ name: x }, { name: x }]\n---\nbody {x}' })).toBe('tuning.prompts_dir: h.md: duplicate argument name "x"');
    expect(await problem({ 'i.md': 'x'.repeat(70 * 1024) })).toMatch(/i\.md: 71680 bytes, over the 65536-byte limit/);
  });

  it('stays inside the directory: a symbolic link out of it is refused; one inside is read', async () => {
    const outside = join(dir, 'outside-secret.md');
    await writeFile(outside, 'secret');
    expect(await problem({}, (d) => symlink(outside, join(d, 'escape.md')))).toBe(`tuning.prompts_dir: escape.md: a symbolic link to ${outside}, outside the directory`);
    expect(await problem({}, (d) => symlink(join(d, 'nowhere.md'), join(d, 'dangling.md')))).toBe('tuning.prompts_dir: dangling.md: a symbolic link whose target does not exist');
    const d = await mkdtemp(join(dir, 'inside-'));
    await mkdir(join(d, 'store'));
    await writeFile(join(d, 'store', 'kept.txt'), 'Kept inside.');
    await symlink(join(d, 'store', 'kept.txt'), join(d, 'linked.md'));
    expect(await loadPromptsDir(d)).toEqual([{ name: 'linked', content: 'Kept inside.', arguments: [] }]);
  });

  it('a missing directory, or a name a server.prompts entry has, stops the start naming the key', async () => {
    expect(await loadPromptsDir(join(dir, 'absent')).catch((e: Error) => e.message)).toBe(`tuning.prompts_dir: cannot read the directory ${join(dir, 'absent')} (ENOENT)`);
    const d = await mkdtemp(join(dir, 'clash-'));
    await writeFile(join(d, 'dup.md'), 'from the directory');
    await expect(
      startPromptsRig({ server: '  prompts: [{ name: dup, content: from the config }]', extra: `tuning:\n  prompts_dir: ${JSON.stringify(d)}` }),
    ).rejects.toThrow('tuning.prompts_dir: prompt name "dup" is also a server.prompts entry\'s');
  });
});
