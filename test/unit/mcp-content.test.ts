import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCustomResource, renderPrompt, PromptArgumentError, ResourceNotFoundError } from '../../shared/mcp-content/index.js';

const prompt = {
  name: 'weekly',
  content: 'Report for {region} in {week}{suffix}. Keep {braces} literal.',
  arguments: [
    { name: 'region', required: true },
    { name: 'week', required: true },
    { name: 'suffix', required: false },
  ],
};

describe('renderPrompt', () => {
  it('substitutes arguments; optional ones left out become empty; unknown placeholders stay', () => {
    expect(renderPrompt(prompt, { region: 'EMEA', week: 'W12' })).toBe('Report for EMEA in W12. Keep {braces} literal.');
    expect(renderPrompt(prompt, { region: 'EMEA', week: 'W12', suffix: '!' })).toBe('Report for EMEA in W12!. Keep {braces} literal.');
  });

  it('names every missing required argument', () => {
    expect(() => renderPrompt(prompt, { region: 'EMEA' })).toThrow(new PromptArgumentError('prompt weekly: missing required argument week'));
    expect(() => renderPrompt(prompt, {})).toThrow('missing required arguments region, week');
  });
});

describe('readCustomResource', () => {
  it('returns inline content, and re-reads content_file on every request', async () => {
    expect(await readCustomResource({ uri: 'a://x', name: 'x', mime_type: 'text/plain', content: 'inline' })).toBe('inline');
    const dir = await mkdtemp(join(tmpdir(), 'res-'));
    const file = join(dir, 'doc.md');
    await writeFile(file, 'one');
    const resource = { uri: 'a://doc', name: 'doc', mime_type: 'text/markdown', content_file: file };
    expect(await readCustomResource(resource)).toBe('one');
    await writeFile(file, 'two');
    expect(await readCustomResource(resource)).toBe('two');
    await rm(dir, { recursive: true });
    await expect(readCustomResource(resource)).rejects.toBeInstanceOf(ResourceNotFoundError);
  });
});
