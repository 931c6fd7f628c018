/**
 * `${VAR}` expansion (spec document 1: "`${VAR_NAME}` is replaced from the environment").
 *
 * Expansion happens on the parsed YAML data, inside string scalars only, so a
 * variable's value is always one string: it can never add keys or change YAML
 * structure. Map keys are not expanded.
 *
 *   ${VAR}            value of VAR; an unset VAR is a configuration error naming the key
 *   ${VAR:-fallback}  value of VAR, or `fallback` when VAR is unset or empty (as in POSIX sh)
 *   $${VAR}           the literal text `${VAR}`
 *
 * A lone `$` not followed by `{` is kept as is.
 */

import { isPlainObject, type KeyPath } from './paths.js';

export interface RawIssue {
  path: KeyPath;
  message: string;
  /** Other keys the issue follows from; when one of them was invalid (and reported), this issue is dropped. */
  involves?: KeyPath[];
}

export type Env = Record<string, string | undefined>;

const REF = /\$\$\{|\$\{([^}]*)\}|\$\{/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Expands one string. Problems are returned, not thrown, so all of them can be reported at once. */
export function expandString(text: string, env: Env): { value: string; problems: string[] } {
  const problems: string[] = [];
  const value = text.replace(REF, (whole: string, inner: string | undefined) => {
    if (whole === '$${') return '${';
    if (inner === undefined) {
      problems.push('unterminated "${": expected ${NAME}');
      return whole;
    }
    const sep = inner.indexOf(':-');
    const name = sep === -1 ? inner : inner.slice(0, sep);
    if (!NAME.test(name)) {
      problems.push(`invalid variable reference "${whole}"`);
      return whole;
    }
    const current = env[name];
    if (sep !== -1) {
      const fallback = inner.slice(sep + 2);
      return current === undefined || current === '' ? fallback : current;
    }
    if (current === undefined) {
      problems.push(`environment variable ${name} is not set`);
      return whole;
    }
    return current;
  });
  return { value, problems };
}

/**
 * Expands every string scalar in data (mutating it in place). A string whose
 * expansion failed is removed, so later validation does not report it twice;
 * the returned issues name its key path.
 */
export function expandEnv(data: unknown, env: Env): RawIssue[] {
  const issues: RawIssue[] = [];
  const walk = (node: unknown, path: Array<string | number>): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        if (typeof item === 'string') {
          const r = expandString(item, env);
          for (const message of r.problems) issues.push({ path: [...path, i], message });
          node[i] = r.value;
        } else walk(item, [...path, i]);
      });
    } else if (isPlainObject(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (typeof item === 'string') {
          const r = expandString(item, env);
          for (const message of r.problems) issues.push({ path: [...path, key], message });
          if (r.problems.length > 0) delete node[key];
          else node[key] = r.value;
        } else walk(item, [...path, key]);
      }
    }
  };
  walk(data, []);
  return issues;
}
