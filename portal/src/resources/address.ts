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

/** `<library>/<folder path>` as the list and facets routes take it. */
export function apiFolderPath(folder: FolderRef): string {
  return folder.path ? `${folder.library}/${folder.path}` : folder.library;
}

/** The folder above, or undefined at a library's root. */
export function parentFolder(folder: FolderRef): FolderRef | undefined {
  if (folder.path === '') return undefined;
  const parts = folder.path.split('/');
  return { library: folder.library, path: parts.slice(0, -1).join('/') };
}
