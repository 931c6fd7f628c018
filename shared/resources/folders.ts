/**
 * The folder name rule (spec document 2, "Folder"): each folder name is lowercase letters, digits
 * and hyphens, starting with a letter or digit; a path is at most 8 folders deep and at most 200
 * characters. Pure functions; the refusal text names the rule broken.
 */

export const MAX_FOLDER_DEPTH = 8;
export const MAX_FOLDER_PATH_CHARS = 200;

const folderName = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Why `path` is not an acceptable folder path, or undefined when it is. '' (the library root) is
 * acceptable. Leading and trailing slashes are not stripped here: call normalizeFolderPath first.
 */
export function folderPathProblem(path: string): string | undefined {
  if (path === '') return undefined;
  if (path.length > MAX_FOLDER_PATH_CHARS) {
    return `folder path is ${path.length} characters; a path is at most ${MAX_FOLDER_PATH_CHARS} characters`;
  }
  const names = path.split('/');
  if (names.length > MAX_FOLDER_DEPTH) {
    return `folder path is ${names.length} folders deep; a path is at most ${MAX_FOLDER_DEPTH} folders deep`;
  }
  for (const name of names) {
    if (name === '') return `folder path "${path}" has an empty folder name; folder names are separated by single slashes`;
    if (!folderName.test(name)) {
      return `folder name "${name}" breaks the rule: folder names are lowercase letters, digits and hyphens, starting with a letter or digit`;
    }
  }
  return undefined;
}

/** Trims surrounding slashes and whitespace ('/a/b/' → 'a/b'); the rule still decides the rest. */
export function normalizeFolderPath(path: string | undefined): string {
  return (path ?? '').trim().replace(/^\/+/, '').replace(/\/+$/, '');
}

/** The folder itself and each ancestor, shallowest first: 'a/b/c' → ['a', 'a/b', 'a/b/c']; '' → []. */
export function folderAndAncestors(path: string): string[] {
  if (path === '') return [];
  const names = path.split('/');
  return names.map((_, i) => names.slice(0, i + 1).join('/'));
}

/** Whether `path` is `folder` itself or lies beneath it ('' contains everything). */
export function isWithin(path: string, folder: string): boolean {
  return folder === '' || path === folder || path.startsWith(`${folder}/`);
}
