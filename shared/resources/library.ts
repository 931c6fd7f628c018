/**
 * Libraries in text form and as database keys. Text: `personal` (input only: the caller's own),
 * `person:<subject>`, `persona:<name>`, `global`. Database: (library_kind, library_key) =
 * ('person', subject) | ('persona', name) | ('global', '').
 * Listing and facet paths are `<library text>/<folder path>`; a subject or persona name holding a
 * slash is written percent-encoded there (`person:a%2Fb/reports`).
 */
import type { Library, LibraryText } from './types.js';

export type LibraryKind = Library['kind'];

export interface LibraryKey {
  kind: LibraryKind;
  key: string;
}

export function libraryKey(library: Library): LibraryKey {
  switch (library.kind) {
    case 'person':
      return { kind: 'person', key: library.subject };
    case 'persona':
      return { kind: 'persona', key: library.name };
    case 'global':
      return { kind: 'global', key: '' };
  }
}

export function libraryFromKey(kind: string, key: string): Library {
  if (kind === 'person') return { kind: 'person', subject: key };
  if (kind === 'persona') return { kind: 'persona', name: key };
  return { kind: 'global' };
}

/** The output text of a library (never `personal`: answers name the owner). */
export function formatLibrary(library: Library): LibraryText {
  switch (library.kind) {
    case 'person':
      return `person:${library.subject}`;
    case 'persona':
      return `persona:${library.name}`;
    case 'global':
      return 'global';
  }
}

export function sameLibrary(a: Library, b: Library): boolean {
  const x = libraryKey(a);
  const y = libraryKey(b);
  return x.kind === y.kind && x.key === y.key;
}

export class LibraryTextError extends Error {}

/**
 * Parses library text; `personal` becomes the caller's own library (`ownSubject`). Throws
 * LibraryTextError naming the accepted forms.
 */
export function parseLibrary(text: string, ownSubject: string): Library {
  const t = text.trim();
  if (t === 'personal' || t === '') return { kind: 'person', subject: ownSubject };
  if (t === 'global') return { kind: 'global' };
  const colon = t.indexOf(':');
  const kind = colon > 0 ? t.slice(0, colon) : '';
  const rest = colon > 0 ? t.slice(colon + 1) : '';
  if (kind === 'person' && rest !== '') return { kind: 'person', subject: rest };
  if (kind === 'persona' && rest !== '') return { kind: 'persona', name: rest };
  throw new LibraryTextError(`library "${text}" is not one of: personal, person:<subject>, persona:<name>, global`);
}

/** `<library text>/<folder path>` for listings and facets (the library alone at its root). */
export function formatLibraryPath(library: Library, folderPath: string): string {
  const lib = libraryKey(library);
  const head = lib.kind === 'global' ? 'global' : `${lib.kind}:${encodeURIComponent(lib.key)}`;
  return folderPath === '' ? head : `${head}/${folderPath}`;
}

/**
 * Splits `<library text>/<folder path>` into its library and folder path (not yet checked against
 * the folder rule). The library segment is percent-decoded.
 */
export function parseLibraryPath(path: string, ownSubject: string): { library: Library; folderPath: string } {
  const trimmed = path.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  const slash = trimmed.indexOf('/');
  const head = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const folderPath = slash < 0 ? '' : trimmed.slice(slash + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(head);
  } catch {
    throw new LibraryTextError(`library "${head}" is not valid percent-encoding`);
  }
  return { library: parseLibrary(decoded, ownSubject), folderPath };
}
