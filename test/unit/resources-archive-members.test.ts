/**
 * Archive members (issue 19, Build 2; docs/resources.md "Extracting archives"): the member-name
 * rules (path traversal, absolute paths, backslashes, drive letters refused), folder names
 * sanitised to the folder rule, member globs, and the readers' view of zip and tar members
 * (kinds: files, folders, symbolic and hard links).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  archiveFolderName,
  archiveFormat,
  defaultExtractRequestId,
  forEachMember,
  memberMatcher,
  memberTarget,
  renamedPath,
  renameTargetProblem,
  requestIdProblem,
  type ArchiveMember,
} from '../../shared/resources/index.js';
import { writeTar, writeZip } from '../support/archives.js';

describe('archive member rules', () => {
  it('refuses path traversal, absolute paths, backslashes, drive letters and empty segments', () => {
    for (const name of ['../evil.txt', 'a/../../evil.txt', '/etc/passwd', 'a\\b.txt', 'C:/x.txt', 'c:x.txt', 'a//b.txt', './a.txt', 'a/./b.txt', 'a\u0001b.txt']) {
      const rule = memberTarget(name, '');
      expect(rule.ok, name).toBe(false);
    }
    expect(memberTarget('../evil.txt', 'docs')).toMatchObject({ ok: false, problem: expect.stringContaining('path traversal') });
  });

  it('files members under the base folder, folder names sanitised to the folder rule, file names kept', () => {
    expect(memberTarget('Q3 Reports/Data_Set/Sales Q3.CSV', 'inbox')).toEqual({ ok: true, target: { folderPath: 'inbox/q3-reports/data-set', fileName: 'Sales Q3.CSV' } });
    expect(memberTarget('top.txt', '')).toEqual({ ok: true, target: { folderPath: '', fileName: 'top.txt' } });
    expect(memberTarget('___/x.txt', '')).toMatchObject({ ok: false, problem: expect.stringContaining('no letter or digit') });
    expect(memberTarget('a/b/c/d/e/f/g/h/i/x.txt', '')).toMatchObject({ ok: false, problem: expect.stringContaining('8 folders deep') });
  });

  it('names the folder for an archive after its stem', () => {
    expect(archiveFolderName('Q3 Data.tar.gz')).toBe('q3-data');
    expect(archiveFolderName('bundle.ZIP')).toBe('bundle');
    expect(archiveFormat('x.tgz')).toBe('tar.gz');
    expect(archiveFormat('x.docx')).toBeUndefined();
  });

  it('selects members by glob: * stays in a folder, ** crosses folders; several globs or none', () => {
    const csv = memberMatcher(['data/**/*.csv']);
    expect(csv('data/2024/q1/a.csv')).toBe(true);
    expect(csv('data/a.txt')).toBe(false);
    expect(memberMatcher(['*.md'])('docs/a.md')).toBe(false);
    expect(memberMatcher(['*.md', 'docs/*'])('docs/a.txt')).toBe(true);
    expect(memberMatcher(undefined)('anything')).toBe(true);
  });
});

describe('request ids and rename targets', () => {
  it('derives the same default request id for the same call, another for a new archive version, caller or selection', () => {
    const id = defaultExtractRequestId('alice', { id: 'r1', version: 1 }, { destination: 'beside' });
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(requestIdProblem(id)).toBeUndefined();
    expect(defaultExtractRequestId('alice', { id: 'r1', version: 1 }, { destination: 'beside' })).toBe(id);
    expect(defaultExtractRequestId('alice', { id: 'r1', version: 2 }, { destination: 'beside' })).not.toBe(id);
    expect(defaultExtractRequestId('bob', { id: 'r1', version: 1 }, { destination: 'beside' })).not.toBe(id);
    expect(defaultExtractRequestId('alice', { id: 'r1', version: 1 }, { destination: 'beside', members: ['*.csv'] })).not.toBe(id);
    expect(requestIdProblem('a:b')).toBeDefined();
    expect(requestIdProblem('x'.repeat(65))).toBeDefined();
  });

  it('maps paths beneath a renamed folder, and refuses a target inside the folder', () => {
    expect(renamedPath('reports', 'reports', 'archive/reports')).toBe('archive/reports');
    expect(renamedPath('reports/q1/jan', 'reports', 'archive/reports')).toBe('archive/reports/q1/jan');
    expect(renamedPath('a/b/b', 'a/b', 'a')).toBe('a/b');
    expect(renameTargetProblem('docs', 'docs/inner')).toContain('inside itself');
    expect(renameTargetProblem('docs', 'docs')).toBeDefined();
    expect(renameTargetProblem('docs', 'docs-old')).toBeUndefined();
    expect(renameTargetProblem('a/b', 'a')).toBeUndefined();
  });
});

describe('archive readers', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'archive-readers-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function members(path: string, format: 'zip' | 'tar' | 'tar.gz'): Promise<Array<ArchiveMember & { text?: string }>> {
    const seen: Array<ArchiveMember & { text?: string }> = [];
    await forEachMember(path, format, async (member, open) => {
      if (member.kind !== 'file') return void seen.push(member);
      const chunks: Buffer[] = [];
      for await (const chunk of await open()) chunks.push(chunk as Buffer);
      seen.push({ ...member, text: Buffer.concat(chunks).toString() });
    });
    return seen;
  }

  it('zip: files with their bytes, folders, symbolic links by mode, names as written (backslash and ..)', async () => {
    const path = join(dir, 'a.zip');
    await writeZip(
      path,
      [
        { name: 'docs/', directory: true },
        { name: 'docs/a.txt', data: 'alpha' },
        { name: 'link', data: 'docs/a.txt', mode: 0o120777 },
        { name: 'aa/evil.txt', data: 'x' },
        { name: 'a_b.txt', data: 'y' },
      ],
      { 'aa/evil.txt': '../evil.txt', a_b: 'a\\b' },
    );
    const seen = await members(path, 'zip');
    expect(seen.map((m) => [m.name, m.kind, m.text])).toEqual([
      ['docs/', 'directory', undefined],
      ['docs/a.txt', 'file', 'alpha'],
      ['link', 'symlink', undefined],
      ['../evil.txt', 'file', 'x'],
      ['a\\b.txt', 'file', 'y'],
    ]);
  });

  it('tar and tar.gz: files, folders, symbolic and hard links', async () => {
    const entries = [
      { name: 'docs', type: 'directory' as const },
      { name: 'docs/a.txt', data: 'alpha' },
      { name: 'sym', type: 'symlink' as const },
      { name: 'hard', type: 'link' as const },
      { name: 'b.txt', data: 'beta' },
    ];
    for (const gzip of [false, true]) {
      const path = join(dir, gzip ? 'a.tar.gz' : 'a.tar');
      await writeTar(path, entries, gzip);
      const seen = await members(path, gzip ? 'tar.gz' : 'tar');
      expect(seen.map((m) => [m.name, m.kind, m.text])).toEqual([
        ['docs', 'directory', undefined],
        ['docs/a.txt', 'file', 'alpha'],
        ['sym', 'symlink', undefined],
        ['hard', 'hardlink', undefined],
        ['b.txt', 'file', 'beta'],
      ]);
    }
  });
});
