/**
 * Issue 9, pure rules of managed resources: which characters each text field may hold (item 5,
 * "a NUL or other disallowed control character"), the content-type rule (item 3), the executable
 * refusal's name and byte checks (item 5, "the executable refusal cannot be dodged"), and cursors
 * forged to reach a query.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  encodeCursor,
  EXECUTABLE_EXTENSIONS,
  ExecutableSniffer,
  executableByName,
  fileNameProblem,
  mediaTypeProblem,
  normalizeTags,
  sniffExecutable,
  storedNames,
  SNIFF_BYTES,
  textProblem,
  type TextKind,
} from '../../shared/resources/index.js';
import { requestTypeProblem, servedContentType } from '../../api/resources/http-rules.js';

const kinds: TextKind[] = ['name', 'line', 'text'];
const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('issue 9 item 5: control characters in text fields', () => {
  it('refuses NUL, the other C0 controls, DEL and C1 controls in every kind of field, naming the character', () => {
    for (const kind of kinds) {
      for (const ch of ['\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f']) {
        const problem = textProblem(`a${ch}b`, 'description', kind);
        expect(problem, `${kind} ${ch.charCodeAt(0)}`).toMatch(/must not contain control characters/);
        expect(problem).toContain(`U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')} at position 2`);
      }
    }
  });
  it('allows tab and line breaks only in prose (descriptions, change summaries)', () => {
    for (const ch of ['\t', '\n', '\r']) {
      expect(textProblem(`line one${ch}line two`, 'description', 'text')).toBeUndefined();
      expect(textProblem(`a${ch}b`, 'display name', 'name')).toMatch(/control characters/);
      expect(textProblem(`a${ch}b`, 'library', 'line')).toMatch(/control characters/);
    }
  });
  it('refuses bidirectional controls in names, allows them in prose', () => {
    for (const ch of bidi) {
      expect(textProblem(`invoice${ch}fdp.txt`, 'file name', 'name')).toMatch(/bidirectional control characters/);
      expect(textProblem(`שלום ${ch}world`, 'description', 'text')).toBeUndefined();
    }
  });
  it('refuses unpaired surrogates everywhere; real astral characters and other scripts are fine', () => {
    for (const kind of kinds) {
      expect(textProblem('a\ud800b', 'tag', kind)).toMatch(/unpaired surrogate/);
      expect(textProblem('a\udc00', 'tag', kind)).toMatch(/unpaired surrogate/);
      expect(textProblem('rapport 📊 日本語 عربى', 'tag', kind)).toBeUndefined();
    }
  });
  it('applies to file names and tags', () => {
    expect(fileNameProblem('a\u0000.txt')).toMatch(/U\+0000/);
    expect(fileNameProblem('a\u0085.txt')).toMatch(/U\+0085/);
    expect(fileNameProblem('photo\u202egnp.txt')).toMatch(/bidirectional/);
    expect(normalizeTags(['ok', 'b\u0000d'])).toEqual({ problem: expect.stringMatching(/U\+0000/) });
    expect(normalizeTags(['a\u202eb'])).toEqual({ problem: expect.stringMatching(/bidirectional/) });
  });
});

describe('issue 9 item 3: content types are clean media types', () => {
  it('accepts media types with parameters', () => {
    for (const ok of ['text/plain', 'text/plain; charset=utf-8', 'text/plain;charset="utf-8"', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/csv;', ' image/png ']) {
      expect(mediaTypeProblem(ok), ok).toBeUndefined();
    }
  });
  it('refuses control characters (named) and anything that is not type/subtype', () => {
    expect(mediaTypeProblem('text/plain\u0000')).toMatch(/control characters \(U\+0000/);
    expect(mediaTypeProblem('text/html\r\nSet-Cookie: a=b')).toMatch(/control characters/);
    expect(mediaTypeProblem('text/plain\u0085')).toMatch(/control characters/);
    for (const bad of ['text', 'text/html<script>', 'text/plain; x', 'tëxt/plain', '/plain', `text/${'x'.repeat(300)}`]) expect(mediaTypeProblem(bad), bad).toBeDefined();
  });
});

describe('issue 9 item 3: the type a download is served with', () => {
  it('is the recorded type when it is a media type, else octet-stream', () => {
    expect(servedContentType('text/html; charset=utf-8')).toBe('text/html; charset=utf-8');
    expect(servedContentType('image/png\u0001')).toBe('application/octet-stream');
    expect(servedContentType('text/html\r\nX-Injected: 1')).toBe('application/octet-stream');
  });
  it('names the problem of a raw body\'s Content-Type header', () => {
    expect(requestTypeProblem({ headers: { 'content-type': 'text/plain\u0085' } })).toMatch(/U\+0085/);
    expect(requestTypeProblem({ headers: { 'content-type': 'text/plain' } })).toBeUndefined();
    expect(requestTypeProblem({ headers: {} })).toBeUndefined();
  });
});

describe('issue 9 item 5: the executable refusal cannot be dodged by the name', () => {
  it('judges the name as Windows stores it: trailing dots and spaces dropped, NTFS stream suffixes cut', () => {
    expect(storedNames('x.exe.')).toContain('x.exe');
    expect(storedNames('x.exe::$DATA')).toContain('x.exe');
    for (const name of ['x.exe.', 'x.exe..', 'x.exe ', 'x.exe . .', 'x.exe::$DATA', 'x.exe:stream', 'x.exe.:zone', 'X.EXE::$data', 'notes.txt:payload.exe']) {
      expect(executableByName(name), name).toMatch(/executables are refused.*\.exe/);
    }
    expect(executableByName('x.exe.')).toContain('(stored as "x.exe")');
  });
  it('refuses the script, installer, shortcut, macro and disk-image types', () => {
    const listed = ['js', 'jse', 'wsf', 'msc', 'scf', 'url', 'chm', 'xll', 'iso', 'img', 'docm', 'xlsm', 'pptm', 'vbs', 'vbe', 'ps1', 'psm1', 'bat', 'cmd', 'com', 'scr', 'pif',
      'cpl', 'hta', 'msi', 'msp', 'mst', 'jar', 'lnk', 'reg', 'inf', 'appx', 'msix', 'appref-ms', 'gadget', 'application', 'vb', 'ws', 'wsc', 'wsh', 'sct', 'dll', 'sys', 'drv',
      'ocx', 'ps1xml', 'psc1', 'msh', 'msh1', 'msh2', 'mshxml', 'msh1xml', 'msh2xml', 'dotm', 'xltm', 'potm', 'ppsm', 'sldm', 'xlam', 'ppam', 'vhd', 'vhdx', 'dmg', 'pkg', 'sh', 'deb', 'rpm'];
    for (const ext of listed) {
      expect(executableByName(`file.${ext}`), ext).toMatch(new RegExp(`executable extension \\.${ext.replace('-', '\\-')}`));
      expect(EXECUTABLE_EXTENSIONS).toContain(ext);
    }
  });
  it('leaves macro-free documents, data and source files alone', () => {
    for (const f of ['a.docx', 'a.xlsx', 'a.pptx', 'a.pdf', 'a.csv', 'a.json', 'a.py', 'a.mjs', 'a.ts', 'a.sql', 'a.md', 'a.txt', 'a.zip', 'a.png', 'a.svg', 'a.html', 'exe', 'a.exe.txt']) {
      expect(executableByName(f), f).toBeUndefined();
    }
  });
  it('refuses macro-enabled and disk-image MIME types whatever the name', () => {
    expect(executableByName('book.xlsx', 'application/vnd.ms-excel.sheet.macroEnabled.12')).toMatch(/executable type/);
    expect(executableByName('disk.bin', 'application/x-iso9660-image')).toMatch(/executable type/);
    expect(executableByName('help.bin', 'application/vnd.ms-htmlhelp')).toMatch(/executable type/);
  });
  it('documents every refused extension in docs/resources.md', () => {
    const doc = readFileSync(new URL('../../docs/resources.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### Refused extensions'));
    for (const ext of EXECUTABLE_EXTENSIONS) expect(section, ext).toContain(`.${ext}\``);
  });
});

/** An MZ header whose e_lfanew is `at`, a PE signature there, `size` bytes in all. */
function peAt(at: number, size = at + 512): Buffer {
  const b = Buffer.alloc(size, 0x41);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(at, 0x3c);
  if (at + 4 <= size) b.write('PE\0\0', at, 'latin1');
  return b;
}

function sniffInChunks(bytes: Buffer, chunk: number): string | undefined {
  const sniffer = new ExecutableSniffer();
  for (let i = 0; i < bytes.length; i += chunk) {
    const verdict = sniffer.push(bytes.subarray(i, i + chunk));
    if (verdict) return verdict;
  }
  return sniffer.end();
}

describe('issue 9 item 5: a PE header is followed wherever e_lfanew points', () => {
  const sizes = [1, 7, 1000, 4096, 65_536, 1 << 20];
  it('finds a PE signature beyond the sniffed window, whatever the chunking', () => {
    for (const at of [0x80, SNIFF_BYTES - 2, SNIFF_BYTES, 70_000, 300_000]) {
      const bytes = peAt(at);
      if (at + 4 > SNIFF_BYTES) expect(sniffExecutable(bytes.subarray(0, SNIFF_BYTES))).toBeUndefined();
      for (const chunk of sizes) expect(sniffInChunks(bytes, chunk), `${at}/${chunk}`).toBe('a Windows executable (PE)');
    }
  });
  it('finds a tiny PE whose header overlaps the DOS header (e_lfanew = 4)', () => {
    const tiny = Buffer.alloc(268);
    tiny.write('MZ\0\0PE\0\0', 0, 'latin1');
    tiny.writeUInt32LE(4, 0x3c);
    expect(sniffExecutable(tiny)).toMatch(/PE/);
    expect(sniffInChunks(tiny, 3)).toMatch(/PE/);
  });
  it('leaves MZ text and a signature offset past the end of the file alone', () => {
    expect(sniffInChunks(Buffer.from('MZ,Mozambique\nZA,South Africa\n'.repeat(400)), 1000)).toBeUndefined();
    expect(sniffInChunks(peAt(10_000, 8_000), 512)).toBeUndefined();
    const wrong = peAt(9_000);
    wrong.write('PX', 9_000, 'latin1');
    expect(sniffInChunks(wrong, 4096)).toBeUndefined();
  });
  it('still sniffs ELF, Mach-O and class files in a stream', () => {
    expect(sniffInChunks(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(10_000)]), 1)).toMatch(/ELF/);
    expect(sniffInChunks(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]), 3)).toMatch(/Java class/);
  });
});

describe('cursors forged to reach a query are refused', () => {
  const id = '01900000-0000-7000-8000-000000000000';
  const forge = (sort: string, key: string, idText = id) => Buffer.from(JSON.stringify([sort, 'global', 0, key, idText]), 'utf8').toString('base64url');
  it('refuses keys the sort never issues and ids that are no UUIDs', () => {
    expect(decodeCursor(forge('size', '12'))).toBeDefined();
    expect(decodeCursor(forge('size', 'abc'))).toBeUndefined();
    expect(decodeCursor(forge('size_desc', '1'.repeat(30)))).toBeUndefined();
    expect(decodeCursor(forge('updated', '2025-02-28T10:00:00.000000Z'))).toBeDefined();
    expect(decodeCursor(forge('updated', '2025-02-30T10:00:00.000000Z'))).toBeUndefined();
    expect(decodeCursor(forge('updated_asc', 'yesterday'))).toBeUndefined();
    expect(decodeCursor(forge('name', 'a\u0000b'))).toBeUndefined();
    expect(decodeCursor(forge('name', 'report'))).toBeDefined();
    expect(decodeCursor(forge('name', 'report', 'not-a-uuid'))).toBeUndefined();
    expect(decodeCursor(encodeCursor({ sort: 'name', path: 'global', direct: false, key: 'x', id }))).toBeDefined();
  });
});
