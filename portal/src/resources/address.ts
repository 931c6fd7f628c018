/**
 * The file manager's addresses (spec document 2, "Portal addresses"), relative to /portal:
 *
 *   /resources                                  the top-level folders
 *   /resources/lib/global/<folder path>         a Global folder
 *   /resources/lib/person:<id>/<folder path>    a person's library (My Resources is one's own)
 *   /resources/lib/persona:<name>/<folder path> a persona's folder
 *   /resources/<id>, /admin/resources/<id>      one resource
 *
 * A folder is named as the api names it: `<library>/<folder path>` (library `global`,
 * `person:<subject>`, `persona:<name>`). A subject may hold any character, so the library segment
 * is percent-encoded; folder names never need it (lowercase letters, digits, hyphens).
 */

export interface FolderRef {
  /** `global`, `person:<subject>` or `persona:<name>`. */
  library: string;
  /** Folder path inside the library; '' at its root. */
  path: string;
}

/** The folder a `/resources/lib/*` splat names, or undefined when it names none. */
export function parseFolderSplat(splat: string): FolderRef | undefined {
  const [head, ...rest] = splat.split('/');
  if (!head) return undefined;
  let library: string;
  try {
    library = decodeURIComponent(head);
  } catch {
    return undefined;
  }
  if (library !== 'global' && !/^(person|persona):.+/.test(library)) return undefined;
  return { library, path: rest.filter((s) => s !== '').join('/') };
}

export function folderAddress(folder: FolderRef): string {
  const library = folder.library.startsWith('person:') ? `person:${encodeURIComponent(folder.library.slice(7))}` : folder.library;
  return `/resources/lib/${library}${folder.path ? `/${folder.path}` : ''}`;
}

export function resourceAddress(id: string, section: 'resources' | 'admin' = 'resources'): string {
  return `${section === 'admin' ? '/admin' : ''}/resources/${encodeURIComponent(id)}`;
}

/**
 * `<library>/<folder path>` as the list and facets routes take it: a subject or persona name is
 * percent-encoded there (it may hold `/`), as the api writes facet paths.
 */
export function apiFolderPath(folder: FolderRef): string {
  const colon = folder.library.indexOf(':');
  const library = colon < 0 ? folder.library : `${folder.library.slice(0, colon)}:${encodeURIComponent(folder.library.slice(colon + 1))}`;
  return folder.path ? `${library}/${folder.path}` : library;
}

/** The folder above, or undefined at a library's root. */
export function parentFolder(folder: FolderRef): FolderRef | undefined {
  if (folder.path === '') return undefined;
  const parts = folder.path.split('/');
  return { library: folder.library, path: parts.slice(0, -1).join('/') };
}

/** What a file manager address opens: the top-level folders, People (administrators), or a folder. */
export type ResourcesLocation = { kind: 'root' } | { kind: 'people' } | { kind: 'folder'; folder: FolderRef } | { kind: 'invalid' };

/** `/resources/lib/people`: the People folder, one folder per person (platform administrators). */
export const peopleAddress = '/resources/lib/people';

/** The location a `/resources` or `/resources/lib/*` address names (splat undefined: `/resources`). */
export function parseResourcesLocation(splat: string | undefined): ResourcesLocation {
  if (splat === undefined || splat.replace(/\/+$/, '') === '') return { kind: 'root' };
  if (splat.replace(/\/+$/, '') === 'people') return { kind: 'people' };
  const folder = parseFolderSplat(splat);
  return folder ? { kind: 'folder', folder } : { kind: 'invalid' };
}

/** A folder's key as the tree, the listing and the api name it: `<library>/<folder path>`. */
export function folderKey(folder: FolderRef): string {
  return apiFolderPath(folder);
}

/** The folder a key names (`<library>/<folder path>`, the library percent-encoded), or undefined. */
export function folderOfKey(key: string): FolderRef | undefined {
  const slash = key.indexOf('/');
  return parseFolderSplat(slash < 0 ? key : `${key.slice(0, slash)}/${key.slice(slash + 1)}`);
}

/** The last name of a folder path ('' at a library root). */
export function folderName(path: string): string {
  return path.split('/').pop() ?? '';
}

/** A folder path joined under a parent ('' = the library root). */
export function joinFolderPath(parent: string, name: string): string {
  return parent ? `${parent}/${name}` : name;
}
