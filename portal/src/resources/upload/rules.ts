/**
 * The upload rules of the portal (spec document 2, "Upload rules in the portal", "Limits"), as
 * plain functions the dialog, the queue and the unit tests share: which files a batch leaves out,
 * a file's default display name, the `{name}` description template, the folders a file's own
 * directories become, the images usable directly in generated documents, and the limits checked
 * before anything is sent (the server checks its own all the same).
 */

/** Files per batch upload. */
export const MAX_BATCH_FILES = 5000;
/** A zip archive unpacked in a batch: 1 GiB. */
export const MAX_ARCHIVE_BYTES = 1024 ** 3;
/** Uploads in flight at once. */
export const UPLOAD_CONCURRENCY = 4;

/**
 * System files a batch leaves out: dotfiles (and anything inside a dot-folder), anything under
 * `__MACOSX/`, and `Thumbs.db`. `path` is the file's path within the batch, `/`-separated.
 */
export function isSystemFile(path: string): boolean {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  return parts.some((p, i) => (p.startsWith('.') && p !== '..') || p === '__MACOSX' || (i === parts.length - 1 && p.toLowerCase() === 'thumbs.db'));
}

/** The display name a file gets by default: its name without the last extension. */
export function displayNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** A batch's description for one file: `{name}` stands for the file's display name. */
export function describeWith(template: string, displayName: string): string {
  return template.split('{name}').join(displayName);
}

/**
 * The folder a directory of the person's disk (or of an archive) becomes: the folder name rule
 * allows lowercase letters, digits and hyphens, starting with a letter or digit, so letters are
 * lowered and every other run of characters becomes one hyphen ("Brand Assets" → `brand-assets`).
 * '' when nothing of the name is left; the caller refuses that file, naming the directory.
 */
export function folderNameOf(directory: string): string {
  return directory
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

export type FolderOf = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The folder path a file is filed under: the batch's base folder, then each of its own directories
 * as a folder beneath it. A directory `..` (an archive naming a member outside itself) is refused.
 */
export function folderOf(base: string, directories: readonly string[]): FolderOf {
  const parts = base.split('/').map((p) => p.trim()).filter((p) => p !== '');
  for (const d of directories) {
    if (d === '' || d === '.') continue;
    if (d === '..') return { ok: false, reason: 'its path leads outside the folder it was chosen from (“..”)' };
    const name = folderNameOf(d);
    if (name === '') return { ok: false, reason: `the directory “${d}” has no letter or digit a folder name may hold` };
    parts.push(name);
  }
  return { ok: true, path: parts.join('/') };
}

const documentImageExtensions = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg']);
const documentImageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml']);

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * Images usable directly in generated documents: PNG, JPEG, GIF, WebP, AVIF, SVG (by media type,
 * else by extension). EPS, PDF and other art are stored as uploaded and are not marked.
 */
export function isDocumentImage(fileName: string, contentType = ''): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type ? documentImageTypes.has(type) || (type === 'application/octet-stream' && documentImageExtensions.has(extensionOf(fileName))) : documentImageExtensions.has(extensionOf(fileName));
}

/** A zip archive, unpacked in the browser: by extension (what a person sees), or by its zip media type. */
export function isZipArchive(fileName: string, contentType = ''): boolean {
  return extensionOf(fileName) === 'zip' || /^application\/(x-)?zip(-compressed)?$/i.test(contentType);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The refusal of a batch past 5,000 files (nothing of it is sent), or undefined. */
export function batchRefusal(files: number): string | undefined {
  return files > MAX_BATCH_FILES ? `A batch takes at most ${count(MAX_BATCH_FILES)} files; this one has ${count(files)}. Upload it in parts.` : undefined;
}

/** The refusal of a zip archive past 1 GiB (none of its members is sent), or undefined. */
export function archiveRefusal(name: string, bytes: number): string | undefined {
  return bytes > MAX_ARCHIVE_BYTES ? `The archive ${name} is ${count(bytes)} bytes; archives are unpacked up to 1 GiB (${count(MAX_ARCHIVE_BYTES)} bytes).` : undefined;
}

/** The refusal of a file past the upload ceiling (resources.managed.max_upload_bytes), or undefined. */
export function sizeRefusal(bytes: number, maxUploadBytes: number): string | undefined {
  return bytes > maxUploadBytes ? `larger than the upload limit of ${count(maxUploadBytes)} bytes (${count(bytes)} bytes)` : undefined;
}

/** “3 system files left out”, or '' when none. */
export function systemFilesNote(n: number): string {
  return n === 0 ? '' : `${count(n)} system ${n === 1 ? 'file' : 'files'} left out`;
}

/** Tags as typed: comma-separated, trimmed, blanks and repeats dropped. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
}

/** Seconds left at the rate so far ('' until there is a rate to go by). */
export function timeLeft(sentBytes: number, totalBytes: number, elapsedMs: number): string {
  if (sentBytes <= 0 || elapsedMs < 500 || sentBytes >= totalBytes) return '';
  const seconds = Math.ceil(((totalBytes - sentBytes) / sentBytes) * (elapsedMs / 1000));
  if (seconds < 60) return `about ${seconds} s left`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `about ${minutes} min left` : `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}
