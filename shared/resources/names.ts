/** File names, display names and tags: pure rules for what a resource may be called. */
import { textProblem } from './text.js';

export const MAX_FILE_NAME_CHARS = 255;
export const MAX_TAGS = 50;
export const MAX_TAG_CHARS = 100;
export const MAX_DISPLAY_NAME_CHARS = 500;
export const MAX_DESCRIPTION_CHARS = 10_000;

/** Why `name` cannot be a file name, or undefined. A file name is one path segment. */
export function fileNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'file name must not be empty';
  if (name.length > MAX_FILE_NAME_CHARS) return `file name is ${name.length} characters; at most ${MAX_FILE_NAME_CHARS}`;
  if (name.includes('/') || name.includes('\\')) return `file name "${name}" must not contain a slash`;
  if (name === '.' || name === '..') return `file name "${name}" is not a file name`;
  const characters = textProblem(name, 'file name', 'name');
  if (characters) return characters;
  if (name !== name.trim()) return `file name "${name}" must not start or end with whitespace`;
  return undefined;
}

/** The extension, lower-cased, without the dot ('Report.DOCX' → 'docx'); '' when there is none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/**
 * Display name default (spec: "the file name without extension"). A dotfile keeps its name
 * ('.env' has no extension to drop), and only the last extension goes ('a.tar.gz' → 'a.tar').
 */
export function defaultDisplayName(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** Tags trimmed, empty ones dropped, duplicates removed (first kept); undefined when a rule is broken. */
export function normalizeTags(tags: readonly string[]): { tags: string[] } | { problem: string } {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag === '') continue;
    if (tag.length > MAX_TAG_CHARS) return { problem: `tag "${tag.slice(0, 20)}…" is ${tag.length} characters; at most ${MAX_TAG_CHARS}` };
    const characters = textProblem(tag, 'a tag', 'name');
    if (characters) return { problem: characters };
    if (!out.includes(tag)) out.push(tag);
  }
  if (out.length > MAX_TAGS) return { problem: `${out.length} tags; at most ${MAX_TAGS}` };
  return { tags: out };
}
