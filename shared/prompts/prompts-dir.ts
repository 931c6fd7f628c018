/**
 * `tuning.prompts_dir` (spec document 1: "Directory for prompt resources"): operator prompts kept
 * as files, one Markdown file per prompt (docs/prompts.md):
 *
 *   ---
 *   name: quarterly-review        # optional: the file name without .md
 *   description: Review a quarter
 *   arguments:
 *     - { name: quarter, description: e.g. 2025-Q3, required: true }
 *   ---
 *   Review {quarter}: …           # the content prompts/get returns, {arg} placeholders replaced
 *
 * The front matter has the fields of a server.prompts entry (the same schema validates both) and the
 * body is the content. Only `*.md` files directly in the directory are read; dotfiles and
 * subdirectories are left alone. Reading stays inside the directory: a symbolic link whose target
 * lies outside it is refused, as is a file over 64 KiB. Every problem is a start-up error naming
 * the file, so a bad file never leaves a prompt silently missing.
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, isAbsolute, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { operatorPromptSchema } from '../config/index.js';
import type { PromptDefinition } from '../mcp-content/index.js';
import { MAX_CONTENT_CHARS } from './rules.js';

export class PromptsDirError extends Error {
  constructor(message: string) {
    super(`tuning.prompts_dir: ${message}`);
    this.name = 'PromptsDirError';
  }
}

const MAX_FILE_BYTES = 64 * 1024;
const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** One file's prompt; throws PromptsDirError naming the file and the problem. */
export function parsePromptFile(fileName: string, text: string): PromptDefinition {
  const stem = fileName.replace(/\.md$/i, '');
  const match = frontMatter.exec(text);
  let head: unknown = {};
  if (match) {
    try {
      head = parseYaml(match[1] ?? '') ?? {};
    } catch (error) {
      throw new PromptsDirError(`${fileName}: the front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
    }
    if (typeof head !== 'object' || Array.isArray(head)) throw new PromptsDirError(`${fileName}: the front matter must be a YAML mapping`);
  }
  const body = (match ? text.slice(match[0].length) : text).trim();
  if ('content' in (head as object)) throw new PromptsDirError(`${fileName}: the content is the file's body, not a front matter field`);
  const parsed = operatorPromptSchema.safeParse({ name: stem, ...(head as object), content: body });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PromptsDirError(`${fileName}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  const p = parsed.data;
  if (p.content === '') throw new PromptsDirError(`${fileName}: the prompt has no content (the body after the front matter is empty)`);
  if (p.content.length > MAX_CONTENT_CHARS) throw new PromptsDirError(`${fileName}: the content is over ${MAX_CONTENT_CHARS} characters`);
  const seen = new Set<string>();
  for (const a of p.arguments) {
    if (seen.has(a.name)) throw new PromptsDirError(`${fileName}: duplicate argument name "${a.name}"`);
    seen.add(a.name);
  }
  return {
    name: p.name,
    content: p.content,
    ...(p.description ? { description: p.description } : {}),
    arguments: p.arguments.map((a) => ({ name: a.name, required: a.required, ...(a.description ? { description: a.description } : {}) })),
  };
}

/** Every prompt of the directory, by file name; throws PromptsDirError on the first problem. */
export async function loadPromptsDir(dir: string): Promise<PromptDefinition[]> {
  let root: string;
  try {
    root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new PromptsDirError(`${dir} is not a directory`);
  } catch (error) {
    if (error instanceof PromptsDirError) throw error;
    throw new PromptsDirError(`cannot read the directory ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const names = (await readdir(root)).filter((n) => !n.startsWith('.') && n.toLowerCase().endsWith('.md')).sort();
  const prompts: PromptDefinition[] = [];
  const byName = new Map<string, string>();
  for (const fileName of names) {
    const path = join(root, fileName);
    const link = await lstat(path);
    let target = path;
    if (link.isSymbolicLink()) {
      target = await realpath(path).catch(() => {
        throw new PromptsDirError(`${fileName}: a symbolic link whose target does not exist`);
      });
      if (!inside(root, target)) throw new PromptsDirError(`${fileName}: a symbolic link to ${target}, outside the directory`);
    }
    const info = await stat(target);
    if (info.isDirectory()) continue;
    if (!info.isFile()) throw new PromptsDirError(`${fileName}: not a regular file`);
    if (info.size > MAX_FILE_BYTES) throw new PromptsDirError(`${fileName}: ${info.size} bytes, over the ${MAX_FILE_BYTES}-byte limit of a prompt file`);
    const prompt = parsePromptFile(fileName, await readFile(target, 'utf8'));
    const other = byName.get(prompt.name);
    if (other) throw new PromptsDirError(`${fileName}: prompt name "${prompt.name}" is also ${other}'s`);
    byName.set(prompt.name, fileName);
    prompts.push(prompt);
  }
  return prompts;
}
