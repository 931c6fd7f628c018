/**
 * Where an archive member goes, and whether it may (pure rules, docs/resources.md "Extracting
 * archives"). A member name is judged as written in the archive: absolute paths, drive letters,
 * backslashes, `.`/`..` segments and control characters are refused (path traversal, and names
 * that mean different things on different systems); each folder segment is sanitised to the folder
 * rule (lower-cased, every run of other characters a hyphen: `Q3 Reports` → `q3-reports`; a segment
 * with nothing left is refused); the file name is kept as written and must pass the file-name rule.
 */
import picomatch from 'picomatch';
import { folderPathProblem } from '../folders.js';
import { fileNameProblem } from '../names.js';

/** Where an extracted member is filed. */
export interface MemberTarget {
  /** Folder path in the archive's library. */
  folderPath: string;
  fileName: string;
}

export type MemberRule = { ok: true; target: MemberTarget } | { ok: false; problem: string };

/** Why a member name is a path traversal (or otherwise unsafe as a path), or undefined. */
export function memberNameProblem(name: string): string | undefined {
  if (name === '') return 'the member has no name';
  if (name.includes('\\')) return 'backslashes are refused in member names (a path separator on Windows)';
  if (name.startsWith('/')) return 'absolute member paths are refused';
  if (/^[A-Za-z]:/.test(name)) return 'drive letters are refused in member names';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control characters are refused in member names';
  const segments = name.replace(/\/+$/, '').split('/');
  if (segments.some((s) => s === '..')) return '`..` segments are refused in member names (path traversal)';
  if (segments.some((s) => s === '.' || s === '')) return 'empty and `.` segments are refused in member names';
  return undefined;
}

/** A folder name from an archive's folder name, or a file name's stem: the folder rule's characters only. */
export function sanitiseFolderName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The folder named for an archive (`Q3 Data.tar.gz` → `q3-data`), for `folder: "named"`. */
export function archiveFolderName(fileName: string): string {
  const stem = fileName.replace(/\.(zip|tar|tgz|tar\.gz)$/i, '');
  return sanitiseFolderName(stem);
}

/** Where member `name` goes under `base` (a folder path, '' for a library root), or why it may not. */
export function memberTarget(name: string, base: string): MemberRule {
  const problem = memberNameProblem(name);
  if (problem) return { ok: false, problem };
  const segments = name.split('/');
  const fileName = segments.pop()!;
  const nameProblem = fileNameProblem(fileName);
  if (nameProblem) return { ok: false, problem: nameProblem };
  const folders: string[] = [];
  for (const segment of segments) {
    const folder = sanitiseFolderName(segment);
    if (folder === '') return { ok: false, problem: `folder "${segment}" has no letter or digit to keep as a folder name` };
    folders.push(folder);
  }
  const folderPath = [base, ...folders].filter((s) => s !== '').join('/');
  const pathProblem = folderPathProblem(folderPath);
  if (pathProblem) return { ok: false, problem: pathProblem };
  return { ok: true, target: { folderPath, fileName } };
}

/** The member selector of `members` (one glob or several; none: every member). Globs match the whole member path; `*` stays inside a folder, `**` crosses them. */
export function memberMatcher(globs: readonly string[] | undefined): (name: string) => boolean {
  if (globs === undefined || globs.length === 0) return () => true;
  return picomatch([...globs], { dot: true });
}
