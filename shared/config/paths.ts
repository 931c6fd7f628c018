/**
 * Key paths as users read them: `server.streamable.session_timeout`,
 * `auth.api_keys.keys[0].key`, `personas.role_mapping.user_personas["ann@example.com"]`.
 * Also small helpers to read and remove values in the plain YAML data by path.
 */

export type KeyPath = ReadonlyArray<string | number>;

const PLAIN_KEY = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      if (PLAIN_KEY.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out === '' ? '(root)' : out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function getAt(root: unknown, path: KeyPath): unknown {
  let cur: unknown = root;
  for (const part of path) {
    if (Array.isArray(cur) && typeof part === 'number') cur = cur[part];
    else if (isPlainObject(cur) && typeof part === 'string') cur = cur[part];
    else return undefined;
  }
  return cur;
}

export function hasAt(root: unknown, path: KeyPath): boolean {
  if (path.length === 0) return true;
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') return last < parent.length && parent[last] !== REMOVED;
  if (isPlainObject(parent) && typeof last === 'string') return Object.prototype.hasOwnProperty.call(parent, last);
  return false;
}

/** Placeholder for a removed array element; arrays are compacted once all removals are done. */
export const REMOVED: unique symbol = Symbol('removed');

/** Removes the value at path (an array element is marked, see compactRemoved). Returns whether something was removed. */
export function removeAt(root: unknown, path: KeyPath): boolean {
  if (!hasAt(root, path) || path.length === 0) return false;
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (Array.isArray(parent) && typeof last === 'number') parent[last] = REMOVED;
  else if (isPlainObject(parent) && typeof last === 'string') delete parent[last];
  return true;
}

/** Drops the REMOVED markers left by removeAt, at every depth. */
export function compactRemoved(value: unknown): unknown {
  if (Array.isArray(value)) {
    const kept = value.filter((v) => v !== REMOVED);
    for (let i = 0; i < kept.length; i++) kept[i] = compactRemoved(kept[i]);
    return kept;
  }
  if (isPlainObject(value)) {
    for (const k of Object.keys(value)) value[k] = compactRemoved(value[k]);
  }
  return value;
}

/** True when a is b or one is an ancestor of the other. */
export function pathsOverlap(a: KeyPath, b: KeyPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
