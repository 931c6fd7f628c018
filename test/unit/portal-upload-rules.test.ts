/**
 * The portal's upload rules (portal/src/resources/upload/rules.ts; spec document 2, "Upload rules
 * in the portal", "Limits"): system files left out, the default display name, the `{name}`
 * description template, directories becoming folders under the folder rule, images usable in
 * generated documents, and the limits refused up front naming the limit.
 */
import { describe, expect, it } from 'vitest';
import {
  archiveRefusal,
  batchRefusal,
  describeWith,
  displayNameOf,
  folderNameOf,
  folderOf,
  isDocumentImage,
  isSystemFile,
  isZipArchive,
  MAX_ARCHIVE_BYTES,
  MAX_BATCH_FILES,
  parseTags,
  sizeRefusal,
  systemFilesNote,
  timeLeft,
  UPLOAD_CONCURRENCY,
} from '../../portal/src/resources/upload/rules.js';

describe('system files (dotfiles, __MACOSX/, Thumbs.db) are left out of a batch', () => {
  it.each([
    ['.DS_Store', true],
    ['photos/.DS_Store', true],
    ['.git/config', true],
    ['__MACOSX/photos/._a.png', true],
    ['photos/__MACOSX/x', true],
    ['Thumbs.db', true],
    ['photos/thumbs.db', true],
    ['photos/a.png', false],
    ['Thumbs.db.txt', false],
    ['notes.env.txt', false],
    ['a/../b.txt', false],
  ])('%s → %s', (path, system) => expect(isSystemFile(path)).toBe(system));

  it('counts them in words', () => {
    expect(systemFilesNote(0)).toBe('');
    expect(systemFilesNote(1)).toBe('1 system file left out');
    expect(systemFilesNote(3)).toBe('3 system files left out');
  });
});

describe('display name and the {name} description template', () => {
  it('defaults the display name to the file name without its extension', () => {
    expect(displayNameOf('Quarterly report.pdf')).toBe('Quarterly report');
    expect(displayNameOf('archive.tar.gz')).toBe('archive.tar');
    expect(displayNameOf('README')).toBe('README');
  });
  it('puts each file’s display name for every {name}', () => {
    expect(describeWith('Logo {name} — see {name}', 'acme')).toBe('Logo acme — see acme');
    expect(describeWith('No placeholder', 'acme')).toBe('No placeholder');
  });
  it('reads tags comma-separated, dropping blanks and repeats', () => {
    expect(parseTags(' brand, logo ,,brand ')).toEqual(['brand', 'logo']);
  });
});

describe('directories become folders beneath the base folder (the folder name rule)', () => {
  it('lowers letters and turns other characters into one hyphen', () => {
    expect(folderNameOf('Brand Assets')).toBe('brand-assets');
    expect(folderNameOf('Café_2024 (final)')).toBe('cafe-2024-final');
    expect(folderNameOf('日本')).toBe('');
  });
  it('files a nested file under the base folder with each directory beneath', () => {
    expect(folderOf('visual/brand', ['Logos', 'Dark'])).toEqual({ ok: true, path: 'visual/brand/logos/dark' });
    expect(folderOf('', [])).toEqual({ ok: true, path: '' });
    expect(folderOf('/visual/', ['.', 'x'])).toEqual({ ok: true, path: 'visual/x' });
  });
  it('refuses a member outside its archive and a directory with nothing a folder name may hold', () => {
    expect(folderOf('visual', ['..', 'etc'])).toMatchObject({ ok: false, reason: expect.stringContaining('..') });
    expect(folderOf('visual', ['日本'])).toMatchObject({ ok: false, reason: expect.stringContaining('日本') });
  });
});

describe('images usable directly in generated documents', () => {
  it.each([
    ['a.png', 'image/png', true],
    ['a.jpg', '', true],
    ['a.JPEG', 'image/jpeg', true],
    ['a.gif', 'image/gif', true],
    ['a.webp', 'image/webp', true],
    ['a.avif', 'image/avif', true],
    ['a.svg', 'image/svg+xml', true],
    ['a.png', 'application/octet-stream', true],
    ['a.eps', 'application/postscript', false],
    ['a.pdf', 'application/pdf', false],
    ['a.tiff', 'image/tiff', false],
    ['a.bmp', '', false],
  ])('%s (%s) → %s', (name, type, usable) => expect(isDocumentImage(name, type)).toBe(usable));
  it('knows a zip archive by extension or media type', () => {
    expect(isZipArchive('photos.ZIP')).toBe(true);
    expect(isZipArchive('photos', 'application/x-zip-compressed')).toBe(true);
    expect(isZipArchive('photos.tar.gz', 'application/gzip')).toBe(false);
  });
});

describe('limits refused up front, naming the limit', () => {
  it('5,000 files per batch, 1 GiB per archive, four uploads at once', () => {
    expect(MAX_BATCH_FILES).toBe(5000);
    expect(MAX_ARCHIVE_BYTES).toBe(1073741824);
    expect(UPLOAD_CONCURRENCY).toBe(4);
    expect(batchRefusal(5000)).toBeUndefined();
    expect(batchRefusal(5001)).toBe('A batch takes at most 5,000 files; this one has 5,001. Upload it in parts.');
    expect(archiveRefusal('big.zip', MAX_ARCHIVE_BYTES)).toBeUndefined();
    expect(archiveRefusal('big.zip', MAX_ARCHIVE_BYTES + 1)).toContain('1 GiB');
  });
  it('a file past max_upload_bytes, stating the limit and the size', () => {
    expect(sizeRefusal(100, 100)).toBeUndefined();
    expect(sizeRefusal(101, 100)).toBe('larger than the upload limit of 100 bytes (101 bytes)');
  });
  it('time left at the rate so far', () => {
    expect(timeLeft(0, 100, 5000)).toBe('');
    expect(timeLeft(50, 100, 10_000)).toBe('about 10 s left');
    expect(timeLeft(10, 100, 60_000)).toBe('about 9 min left');
    expect(timeLeft(100, 100, 1000)).toBe('');
  });
});
