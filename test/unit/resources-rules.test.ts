/** Pure rules of managed resources: folder names, names, libraries, addresses, executables, cursors, content types. */
import { describe, expect, it } from 'vitest';
import {
  bareMediaType,
  canonicalUri,
  chooseContentType,
  decodeCursor,
  defaultDisplayName,
  encodeCursor,
  executableByName,
  extensionOf,
  fileNameProblem,
  folderAndAncestors,
  folderPathProblem,
  formatLibrary,
  formatLibraryPath,
  isWithin,
  normalizeFolderPath,
  normalizeTags,
  parseCanonicalUri,
  parseLibrary,
  parseLibraryPath,
  parseReference,
  referenceOf,
  sniffExecutable,
  SNIFF_BYTES,
} from '../../shared/resources/index.js';

describe('folder name rule', () => {
  it('accepts lowercase letters, digits and hyphens starting with a letter or digit', () => {
    for (const ok of ['', 'data', 'templates/q1-2024', '2024/reports', 'a/b/c/d/e/f/g/h', 'x-']) expect(folderPathProblem(ok)).toBeUndefined();
  });
  it('names the rule broken for a bad folder name', () => {
    for (const bad of ['Data', 'my_folder', '-lead', 'a b', 'é', 'a.b']) {
      expect(folderPathProblem(bad)).toMatch(/folder names are lowercase letters, digits and hyphens, starting with a letter or digit/);
    }
    expect(folderPathProblem('ok/Bad')).toContain('"Bad"');
  });
  it('names the depth rule at nine folders', () => {
    expect(folderPathProblem('a/b/c/d/e/f/g/h/i')).toMatch(/9 folders deep; a path is at most 8 folders deep/);
  });
  it('names the length rule past 200 characters', () => {
    const long = `${'a'.repeat(100)}/${'b'.repeat(100)}`;
    expect(long.length).toBe(201);
    expect(folderPathProblem(long)).toMatch(/201 characters; a path is at most 200 characters/);
    expect(folderPathProblem(`${'a'.repeat(100)}/${'b'.repeat(99)}`)).toBeUndefined();
  });
  it('refuses empty folder names', () => {
    expect(folderPathProblem('a//b')).toMatch(/empty folder name/);
  });
  it('normalizes surrounding slashes and lists ancestors', () => {
    expect(normalizeFolderPath('/a/b/')).toBe('a/b');
    expect(normalizeFolderPath(undefined)).toBe('');
    expect(folderAndAncestors('a/b/c')).toEqual(['a', 'a/b', 'a/b/c']);
    expect(folderAndAncestors('')).toEqual([]);
    expect(isWithin('a/b', 'a')).toBe(true);
    expect(isWithin('ab', 'a')).toBe(false);
    expect(isWithin('x', '')).toBe(true);
  });
});

describe('names', () => {
  it('defaults the display name to the file name without extension', () => {
    expect(defaultDisplayName('Quarterly Report.docx')).toBe('Quarterly Report');
    expect(defaultDisplayName('archive.tar.gz')).toBe('archive.tar');
    expect(defaultDisplayName('README')).toBe('README');
    expect(defaultDisplayName('.env')).toBe('.env');
  });
  it('checks file names', () => {
    expect(fileNameProblem('report.pdf')).toBeUndefined();
    expect(fileNameProblem('')).toMatch(/empty/);
    expect(fileNameProblem('a/b.txt')).toMatch(/slash/);
    expect(fileNameProblem('..')).toMatch(/not a file name/);
    expect(fileNameProblem('a\nb')).toMatch(/control/);
    expect(fileNameProblem('x'.repeat(256))).toMatch(/at most 255/);
    expect(extensionOf('A.DOCX')).toBe('docx');
    expect(extensionOf('.env')).toBe('');
  });
  it('normalizes tags', () => {
    expect(normalizeTags([' a ', 'b', 'a', ''])).toEqual({ tags: ['a', 'b'] });
    expect(normalizeTags(Array.from({ length: 51 }, (_, i) => `t${i}`))).toHaveProperty('problem');
  });
});

describe('libraries', () => {
  it('parses and formats library text', () => {
    expect(parseLibrary('personal', 'alice')).toEqual({ kind: 'person', subject: 'alice' });
    expect(parseLibrary('person:bob', 'alice')).toEqual({ kind: 'person', subject: 'bob' });
    expect(parseLibrary('persona:sales', 'alice')).toEqual({ kind: 'persona', name: 'sales' });
    expect(parseLibrary('global', 'alice')).toEqual({ kind: 'global' });
    expect(() => parseLibrary('team:x', 'alice')).toThrow(/personal, person:<subject>, persona:<name>, global/);
    expect(() => parseLibrary('persona:', 'alice')).toThrow();
    expect(formatLibrary({ kind: 'person', subject: 'alice' })).toBe('person:alice');
    expect(formatLibrary({ kind: 'persona', name: 'sales' })).toBe('persona:sales');
    expect(formatLibrary({ kind: 'global' })).toBe('global');
  });
  it('splits listing paths, percent-decoding the library segment', () => {
    expect(parseLibraryPath('global/templates/q1', 'me')).toEqual({ library: { kind: 'global' }, folderPath: 'templates/q1' });
    expect(parseLibraryPath('personal', 'me')).toEqual({ library: { kind: 'person', subject: 'me' }, folderPath: '' });
    expect(parseLibraryPath('person:a%2Fb/data', 'me')).toEqual({ library: { kind: 'person', subject: 'a/b' }, folderPath: 'data' });
    expect(formatLibraryPath({ kind: 'person', subject: 'a/b' }, 'data')).toBe('person:a%2Fb/data');
    expect(formatLibraryPath({ kind: 'global' }, '')).toBe('global');
  });
});

describe('addresses', () => {
  it('builds canonical URIs per library, without a folder segment at the root', () => {
    expect(canonicalUri({ kind: 'person', subject: 'alice' }, 'templates/q1', 'Report.docx')).toBe('mcp://user/alice/templates/q1/Report.docx');
    expect(canonicalUri({ kind: 'persona', name: 'sales' }, '', 'deck.pptx')).toBe('mcp://persona/sales/deck.pptx');
    expect(canonicalUri({ kind: 'global' }, 'data', 'a b#?.csv')).toBe('mcp://global/data/a%20b%23%3F.csv');
    expect(canonicalUri({ kind: 'person', subject: 'auth0|x/y' }, '', 'f')).toBe('mcp://user/auth0%7Cx%2Fy/f');
  });
  it('parses canonical URIs back', () => {
    for (const [lib, path, name] of [
      [{ kind: 'person', subject: 'auth0|x/y' }, 'a/b', 'f g.txt'],
      [{ kind: 'persona', name: 'sales' }, '', 'deck.pptx'],
      [{ kind: 'global' }, 'data', 'x%y.csv'],
    ] as const) {
      expect(parseCanonicalUri(canonicalUri(lib, path, name))).toEqual({ library: lib, folderPath: path, fileName: name });
    }
    expect(parseCanonicalUri('mcp://team/x')).toBeUndefined();
    expect(parseCanonicalUri('mcp://user/alice')).toBeUndefined();
    expect(parseCanonicalUri('https://x')).toBeUndefined();
    expect(parseCanonicalUri('mcp://global/a//b')).toBeUndefined();
  });
  it('builds and parses references', () => {
    expect(referenceOf('0190-x')).toBe('mcp:resource:0190-x');
    expect(parseReference('mcp:resource:abc')).toBe('abc');
    expect(parseReference('mcp:resource:')).toBeUndefined();
    expect(parseReference('mcp://global/x')).toBeUndefined();
  });
});

function pe(): Buffer {
  const b = Buffer.alloc(SNIFF_BYTES);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
}

describe('executable refusal', () => {
  it('refuses by extension and names it', () => {
    expect(executableByName('setup.EXE')).toMatch(/executable extension \.exe/);
    for (const f of ['a.dll', 'a.msi', 'a.bat', 'a.ps1', 'a.sh', 'a.so', 'a.dylib', 'a.jar', 'a.apk', 'a.dmg', 'a.deb']) expect(executableByName(f)).toBeDefined();
    for (const f of ['a.py', 'a.mjs', 'a.md', 'a.csv', 'a.pdf', 'a.png', 'a.zip', 'Makefile', 'a.bin']) expect(executableByName(f)).toBeUndefined();
  });
  it('refuses by MIME type, ignoring parameters', () => {
    expect(executableByName('payload', 'application/x-msdownload')).toMatch(/executable type application\/x-msdownload/);
    expect(executableByName('payload', 'Application/X-Executable; foo=bar')).toBeDefined();
    expect(executableByName('payload', 'text/plain')).toBeUndefined();
    expect(bareMediaType('Text/Plain; charset=utf-8')).toBe('text/plain');
  });
  it('sniffs PE, ELF, Mach-O and class files; leaves shebangs and MZ text alone', () => {
    expect(sniffExecutable(pe())).toMatch(/Windows executable/);
    expect(sniffExecutable(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]))).toMatch(/ELF/);
    expect(sniffExecutable(Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0]))).toMatch(/Mach-O/);
    expect(sniffExecutable(Buffer.from([0xfe, 0xed, 0xfa, 0xce]))).toMatch(/Mach-O/);
    expect(sniffExecutable(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]))).toMatch(/universal binary or Java class/);
    expect(sniffExecutable(Buffer.from('#!/usr/bin/env python3\nprint(1)\n'))).toBeUndefined();
    expect(sniffExecutable(Buffer.from('MZ,Mozambique\nZA,South Africa\n'.repeat(10)))).toBeUndefined();
    expect(sniffExecutable(Buffer.from([0x7f, 0x45]))).toBeUndefined();
    expect(sniffExecutable(Buffer.from('%PDF-1.7'))).toBeUndefined();
  });
});

describe('cursors', () => {
  it('round-trips and rejects foreign cursors', () => {
    const pos = { sort: 'updated' as const, path: 'global/a', direct: true, key: '2024-01-01T00:00:00.000000Z', id: '01900000-0000-7000-8000-000000000000' };
    expect(decodeCursor(encodeCursor(pos))).toEqual(pos);
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(Buffer.from('["bogus","",0,"",""]').toString('base64url'))).toBeUndefined();
  });

  it('last_read keys: a timestamp or -infinity (never read), nothing else', () => {
    const id = '01900000-0000-7000-8000-000000000000';
    for (const key of ['-infinity', '2024-01-01T00:00:00.000000Z']) {
      const pos = { sort: 'last_read_asc' as const, path: '', direct: false, key, id };
      expect(decodeCursor(encodeCursor(pos))).toEqual(pos);
    }
    for (const key of ['infinity', '', 'yesterday', '2024-02-30T00:00:00.000000Z']) {
      expect(decodeCursor(encodeCursor({ sort: 'last_read', path: '', direct: false, key, id }))).toBeUndefined();
    }
  });
});

describe('content types', () => {
  it('prefers the declared type unless generic, else the extension', () => {
    expect(chooseContentType('a.csv', undefined)).toBe('text/csv');
    expect(chooseContentType('a.csv', 'application/octet-stream')).toBe('text/csv');
    expect(chooseContentType('a.csv', 'text/plain')).toBe('text/plain');
    expect(chooseContentType('noext', undefined)).toBe('application/octet-stream');
  });
});
