/**
 * Reading archives member by member with bounded memory: zip through yauzl (random access, so the
 * archive is a local file: the central directory first, then each member's data decompressed as a
 * stream), tar and tar.gz through tar-stream (one pass over the file, gunzipped by node:zlib). Each
 * member is visited in archive order with a way to open its bytes; a member not opened is skipped
 * without decompressing it (zip) or drained (tar).
 */
import { createReadStream } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';

export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

/** What a member is: a regular file, a folder, or something extraction refuses (links, devices, encrypted data). */
export type MemberKind = 'file' | 'directory' | 'symlink' | 'hardlink' | 'device' | 'encrypted';

export interface ArchiveMember {
  /** The name as written in the archive (zip: decoded per its UTF-8 flag, else CP437). */
  name: string;
  kind: MemberKind;
  /** Uncompressed size the archive declares (zip: checked against the bytes while reading). */
  size: number;
  /** Compressed size (zip); tar members are not compressed one by one. */
  compressedSize?: number;
}

export type MemberVisitor = (member: ArchiveMember, open: () => Promise<Readable>) => Promise<void>;

/** The format a file name says, or undefined for anything else. */
export function archiveFormat(fileName: string): ArchiveFormat | undefined {
  const name = fileName.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar')) return 'tar';
  return undefined;
}

/** Visits every member of the archive at `path`, one at a time (the visitor's promise ends before the next member is read). */
export async function forEachMember(path: string, format: ArchiveFormat, visit: MemberVisitor): Promise<void> {
  if (format === 'zip') await forEachZipMember(path, visit);
  else await forEachTarMember(path, format === 'tar.gz', visit);
}

const S_IFMT = 0o170000;
const fileTypes: Record<number, MemberKind> = { 0o120000: 'symlink', 0o040000: 'directory', 0o020000: 'device', 0o060000: 'device', 0o010000: 'device', 0o140000: 'device' };

function zipKind(entry: yauzl.Entry, name: string): MemberKind {
  if (entry.isEncrypted()) return 'encrypted';
  // Unix mode bits in the high half of the external attributes (made by a Unix zip: version byte 3).
  const unixMode = entry.versionMadeBy >> 8 === 3 ? (entry.externalFileAttributes >>> 16) & S_IFMT : 0;
  const byMode = fileTypes[unixMode];
  if (byMode) return byMode;
  return name.endsWith('/') ? 'directory' : 'file';
}

async function forEachZipMember(path: string, visit: MemberVisitor): Promise<void> {
  // decodeStrings off: yauzl would rewrite backslashes and refuse `..` itself; the member rules judge the name as written.
  const zip = await yauzl.openPromise(path, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      const raw = entry.fileName as unknown as Buffer;
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, yauzl.parseExtraFields(entry.extraFieldRaw), true);
      const kind = zipKind(entry, name);
      await visit({ name, kind, size: entry.uncompressedSize, compressedSize: entry.compressedSize }, () => zip.openReadStreamPromise(entry));
    }
  } finally {
    zip.close();
  }
}

const tarKinds: Record<tar.Header['type'], MemberKind> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'hardlink',
  'character-device': 'device',
  'block-device': 'device',
  fifo: 'device',
};

async function forEachTarMember(path: string, gzipped: boolean, visit: MemberVisitor): Promise<void> {
  const extract = tar.extract();
  const source = createReadStream(path);
  const feed = gzipped ? pipeline(source, createGunzip(), extract, () => {}) : pipeline(source, extract, () => {});
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const kind = tarKinds[header.type] ?? 'device';
      // tar-stream's entries are streamx streams: the visitor gets a Node stream over it.
      await visit({ name: header.name, kind, size: header.size }, () => Promise.resolve(Readable.from(entry)));
      // Whatever the visitor left unread is drained, so the next header can be parsed.
      entry.resume();
    }
  } finally {
    feed.destroy();
    source.destroy();
  }
}
