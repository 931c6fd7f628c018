/**
 * Loading platform.yaml: YAML → null cleanup → `${VAR}` expansion → schema
 * (defaults, derived defaults) → cross-key rules. Every problem is collected and
 * reported at once in one ConfigError; unknown keys are warnings.
 *
 * To report cross-key problems even when some values are invalid, invalid values
 * are removed (so their defaults apply) and the schema is run again; a cross-key
 * issue touching a removed key is dropped, since that key is already reported.
 */

import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { expandEnv, type Env, type RawIssue } from './env.js';
import { compactRemoved, formatPath, hasAt, isPlainObject, pathsOverlap, removeAt, type KeyPath } from './paths.js';
import { applyCrossKeyRules } from './rules.js';
import { platformConfigSchema, type PlatformConfig } from './schema.js';

export interface ConfigIssue {
  /** Key path like `server.streamable.session_timeout` or `auth.api_keys.keys[0].key`. */
  path: string;
  message: string;
}

export class ConfigError extends Error {
  readonly issues: ConfigIssue[];
  readonly file: string | undefined;

  constructor(issues: ConfigIssue[], file?: string) {
    const where = file === undefined ? 'configuration' : `configuration file ${file}`;
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super([`Invalid ${where} (${count}):`, ...issues.map((i) => `${i.path}: ${i.message}`)].join('\n'));
    this.name = 'ConfigError';
    this.issues = issues;
    this.file = file;
  }
}

export interface LoadedConfig {
  config: PlatformConfig;
  warnings: ConfigIssue[];
}

/** Parses platform.yaml text. Throws ConfigError listing every problem. */
export function parseConfig(yamlText: string, env: Env = process.env): LoadedConfig {
  return parse(yamlText, env, undefined);
}

/** Reads and parses a platform.yaml file; an unreadable file is a ConfigError naming it. */
export function loadConfigFile(file: string, env: Env = process.env): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'file not found' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new ConfigError([{ path: '(file)', message: `cannot read ${file}: ${reason}` }], file);
  }
  return parse(text, env, file);
}

/** Every default: the configuration of an empty file. */
export function defaultConfig(): PlatformConfig {
  return parseConfig('', {}).config;
}

// ---------------------------------------------------------------------------

const YAML_PATH = '(yaml)';
const MAX_ROUNDS = 10;

function parse(text: string, env: Env, file: string | undefined): LoadedConfig {
  const data = readYaml(text, file);
  dropNulls(data);
  const envIssues = expandEnv(data, env);
  // Kept before pruning: rules look at what the file said (e.g. an explicit `stateless: false`).
  const raw = structuredClone(data);

  const errors: RawIssue[] = [...envIssues];
  const warnings: RawIssue[] = [];
  const removed: KeyPath[] = envIssues.map((i) => i.path);
  const isUnder = (prefix: KeyPath, p: KeyPath) => prefix.length <= p.length && pathsOverlap(prefix, p);

  let working: unknown = data;
  let parsed: PlatformConfig | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = platformConfigSchema.safeParse(working, { error: fallbackMessage });
    if (result.success) {
      parsed = result.data;
      break;
    }
    let progressed = false;
    for (const issue of result.error.issues) {
      const at = issue.path as KeyPath;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          if (round === 0) warnings.push({ path: [...at, key], message: 'unknown key' });
          progressed = removeAt(working, [...at, key]) || progressed;
        }
        continue;
      }
      if (round === 0 && !envIssues.some((e) => isUnder(e.path, at))) errors.push({ path: at, message: issue.message });
      const target = existingPrefix(working, at);
      if (target.length > 0) {
        removed.push(target);
        progressed = removeAt(working, target) || progressed;
      }
    }
    working = compactRemoved(working);
    if (!progressed) break;
  }

  let config = parsed;
  if (parsed !== undefined) {
    const rules = applyCrossKeyRules(parsed, raw, env);
    const untouched = (i: RawIssue) =>
      !removed.some((r) => pathsOverlap(r, i.path) || (i.involves ?? []).some((k) => pathsOverlap(r, k)));
    errors.push(...rules.errors.filter(untouched));
    warnings.push(...rules.warnings.filter(untouched));
    config = rules.config;
  }

  if (errors.length > 0 || config === undefined) throw new ConfigError(errors.map(toIssue), file);
  return { config, warnings: warnings.map(toIssue) };
}

function toIssue(i: RawIssue): ConfigIssue {
  // `involves` is internal: the public issue is just where and what.
  return { path: formatPath(i.path), message: i.message };
}

function readYaml(text: string, file: string | undefined): Record<string, unknown> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, merge: true, uniqueKeys: true, lineCounter });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        const where = pos ? `line ${pos.line}, column ${pos.col}: ` : '';
        return { path: YAML_PATH, message: `${where}${e.message.split('\n')[0]}` };
      }),
      file,
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new ConfigError([{ path: YAML_PATH, message: (err as Error).message }], file);
  }
  if (data === null || data === undefined) return {};
  if (!isPlainObject(data)) {
    throw new ConfigError(
      [{ path: '(root)', message: `expected a mapping of sections (server:, auth:, ...), got ${Array.isArray(data) ? 'a list' : typeof data}` }],
      file,
    );
  }
  return data;
}

/** A key written with no value (`description:`) is treated as absent, so its default applies. */
function dropNulls(node: unknown): void {
  if (Array.isArray(node)) node.forEach(dropNulls);
  else if (isPlainObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (v === null) delete node[k];
      else dropNulls(v);
    }
  }
}

/** The longest prefix of path present in data (a missing required key points at its container). */
function existingPrefix(data: unknown, path: KeyPath): KeyPath {
  for (let n = path.length; n > 0; n--) {
    const prefix = path.slice(0, n);
    if (hasAt(data, prefix)) return prefix;
  }
  return [];
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`.slice(0, 60);
}

/** Messages for issues whose schema sets none (objects, lists, record keys). */
function fallbackMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'required';
    const want = issue.expected === 'object' ? 'a mapping' : issue.expected === 'array' ? 'a list' : issue.expected;
    return `expected ${want}, got ${describe(issue.input)}`;
  }
  if (issue.code === 'invalid_key') return 'invalid name: letters, digits, "_" and "-", starting with a letter or digit';
  return undefined;
}
