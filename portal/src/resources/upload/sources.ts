/**
 * What a batch is made of: files picked (the file picker, the folder picker's relative paths),
 * dropped (folders walked through webkitGetAsEntry), and the members of zip archives among them,
 * unpacked in the browser by @zip.js/zip.js. The archive is read from its File by range (its
 * central directory first, then one member at a time when that member is sent), so a 1 GiB archive
 * never sits in memory whole; only the member being sent does, as a Blob.
 */
import { archiveRefusal, displayNameOf, isDocumentImage, isSystemFile, isZipArchive, sizeRefusal } from './rules';

/** A file as picked, with the directories it sits in within what was picked (a dropped or chosen folder's own name first). */
export interface Picked {
  file: File;
  dirs: string[];
}

/** One file of a batch. */
export interface BatchItem {
  id: number;
  /** Where it came from, as shown: its directories and name (an archive's members under the archive's name). */
  shown: string;
  /** The directories that become folders beneath the base folder. */
  dirs: string[];
  fileName: string;
  displayName: string;
  size: number;
  type: string;
  /** Usable directly in generated documents (PNG, JPEG, GIF, WebP, AVIF, SVG). */
  image: boolean;
  /** Refused before sending (past max_upload_bytes, an archive past 1 GiB or unreadable), in words. */
  refusal?: string;
  /** The bytes to send: the picked File, or the archive member unpacked at that moment. */
  read(): Promise<Blob>;
}

export interface BatchPart {
  items: BatchItem[];
  /** System files left out. */
  system: number;
}

/** Files of a file input: the folder picker names each file's path within the chosen folder. */
export function pickedFromInput(files: FileList | readonly File[]): Picked[] {
  return Array.from(files, (file) => ({ file, dirs: file.webkitRelativePath ? file.webkitRelativePath.split('/').slice(0, -1) : [] }));
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every file beneath a dropped entry; a directory is read until it answers no more entries (it answers in chunks). */
async function walk(entry: FileSystemEntry, dirs: string[], out: Picked[]): Promise<void> {
  if (entry.isFile) {
    out.push({ file: await fileOf(entry as FileSystemFileEntry), dirs });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const inside = [...dirs, entry.name];
  for (let chunk = await readEntries(reader); chunk.length > 0; chunk = await readEntries(reader)) {
    for (const child of chunk) await walk(child, inside, out);
  }
}

/**
 * The files of a drop, folders walked. The entries are taken while the drop event runs (the
 * DataTransfer is emptied once it ends); the walk itself goes on after.
 */
export function pickedFromDrop(data: DataTransfer): Promise<Picked[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(data.items)) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    const file = entry ? null : item.getAsFile();
    if (entry) entries.push(entry);
    else if (file) loose.push(file);
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(data.files));
  return (async () => {
    const out: Picked[] = loose.map((file) => ({ file, dirs: [] }));
    for (const entry of entries) await walk(entry, [], out);
    return out;
  })();
}

let nextId = 1;

function item(fields: Omit<BatchItem, 'id' | 'displayName' | 'image' | 'shown'> & { shown?: string }, maxUploadBytes: number): BatchItem {
  const refusal = fields.refusal ?? sizeRefusal(fields.size, maxUploadBytes);
  return {
    ...fields,
    id: nextId++,
    shown: fields.shown ?? [...fields.dirs, fields.fileName].join('/'),
    displayName: displayNameOf(fields.fileName),
    image: isDocumentImage(fields.fileName, fields.type),
    ...(refusal ? { refusal } : {}),
  };
}

/** zip.js, loaded the first time an archive is picked (it is not needed to show a folder). */
async function zipLibrary() {
  const zip = await import('@zip.js/zip.js/lib/zip-core-native.js');
  // No web workers: the page's CSP allows no worker script from a blob. Members are inflated by the
  // browser's own DecompressionStream, off the main thread's JavaScript.
  zip.configure({ useWebWorkers: false });
  return zip;
}

/** The members of one archive as batch items (their folders kept), its system files counted. */
async function unpack(archive: Picked, maxUploadBytes: number): Promise<BatchPart> {
  const shownArchive = [...archive.dirs, archive.file.name].join('/');
  const tooBig = archiveRefusal(archive.file.name, archive.file.size);
  const refused = (refusal: string): BatchPart => ({
    items: [item({ dirs: archive.dirs, fileName: archive.file.name, size: archive.file.size, type: archive.file.type, refusal, read: async () => archive.file }, maxUploadBytes)],
    system: 0,
  });
  if (tooBig) return refused(tooBig);
  const zip = await zipLibrary();
  let entries;
  try {
    entries = await new zip.ZipReader(new zip.BlobReader(archive.file)).getEntries();
  } catch (e) {
    return refused(`the archive could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const part: BatchPart = { items: [], system: 0 };
  for (const entry of entries) {
    if (entry.directory) continue;
    const path = entry.filename.replace(/\\/g, '/');
    if (isSystemFile(path)) {
      part.system++;
      continue;
    }
    const segments = path.split('/');
    const fileName = segments.pop()!;
    part.items.push(
      item(
        {
          shown: `${shownArchive}/${path}`,
          dirs: [...archive.dirs, ...segments],
          fileName,
          size: entry.uncompressedSize,
          type: '',
          // The member is inflated from the archive's File only when it is sent.
          read: () => entry.getData(new zip.BlobWriter()),
          ...(entry.encrypted ? { refusal: 'the member is encrypted; unpack the archive yourself and upload its files' } : {}),
        },
        maxUploadBytes,
      ),
    );
  }
  return part;
}

/**
 * Picked files as batch items: system files left out and counted, zip archives unpacked into their
 * members, each file past max_upload_bytes refused up front.
 */
export async function batchOf(picked: readonly Picked[], maxUploadBytes: number): Promise<BatchPart> {
  const part: BatchPart = { items: [], system: 0 };
  for (const p of picked) {
    if (isSystemFile([...p.dirs, p.file.name].join('/'))) {
      part.system++;
      continue;
    }
    if (isZipArchive(p.file.name, p.file.type)) {
      const members = await unpack(p, maxUploadBytes);
      part.items.push(...members.items);
      part.system += members.system;
      continue;
    }
    part.items.push(item({ dirs: p.dirs, fileName: p.file.name, size: p.file.size, type: p.file.type, read: async () => p.file }, maxUploadBytes));
  }
  return part;
}
