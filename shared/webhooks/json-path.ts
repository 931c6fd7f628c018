/**
 * The JSON path of document 3's webhook source settings (`split`, `event_id_path`,
 * `event_type_path`, `key_path`): `$` for the document, then any chain of `.name`,
 * `['name']` (or `["name"]`) for a member and `[n]` for an array element, e.g.
 * `$.data.items[0]['x-y']`. Nothing else (no wildcards, filters, slices or negative indexes),
 * so a path names at most one value and reading it is a plain walk.
 */

export type JsonPathStep = { readonly kind: 'member'; readonly name: string } | { readonly kind: 'index'; readonly index: number };

export interface JsonPath {
  /** The path as written, for messages. */
  readonly text: string;
  readonly steps: readonly JsonPathStep[];
}

export class JsonPathError extends Error {
  constructor(text: string, position: number, problem: string) {
    super(`invalid JSON path ${JSON.stringify(text)} at character ${position + 1}: ${problem}`);
    this.name = 'JsonPathError';
  }
}

/** `.name` takes an identifier; any other member name is written `['name']`. */
const DOT_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const INDEX = /^(0|[1-9][0-9]*)\]/;
const GRAMMAR = "a path is $ followed by .name, ['name'] or [n], e.g. $.data.items[0]['x-y']";

/** Parses a path, throwing a JsonPathError that says where and what is wrong. */
export function parseJsonPath(text: string): JsonPath {
  if (!text.startsWith('$')) throw new JsonPathError(text, 0, `expected $ (${GRAMMAR})`);
  const steps: JsonPathStep[] = [];
  let at = 1;
  while (at < text.length) {
    const rest = text.slice(at);
    if (rest.startsWith('.')) {
      const name = DOT_NAME.exec(rest.slice(1));
      if (!name) throw new JsonPathError(text, at + 1, "expected a name of letters, digits and _ after '.' (write other names as ['name'])");
      steps.push({ kind: 'member', name: name[0] });
      at += 1 + name[0].length;
    } else if (rest.startsWith("['") || rest.startsWith('["')) {
      const { name, length } = readQuotedName(text, at + 1);
      steps.push({ kind: 'member', name });
      at += 1 + length;
    } else if (rest.startsWith('[')) {
      const index = INDEX.exec(rest.slice(1));
      if (!index?.[1]) throw new JsonPathError(text, at + 1, "expected a quoted name or an index (0, 1, …) followed by ']' after '['");
      const n = Number(index[1]);
      if (!Number.isSafeInteger(n)) throw new JsonPathError(text, at + 1, 'index is too large');
      steps.push({ kind: 'index', index: n });
      at += 1 + index[0].length;
    } else {
      throw new JsonPathError(text, at, `expected '.' or '[' (${GRAMMAR})`);
    }
  }
  return { text, steps };
}

/**
 * A quoted member name starting at `start` (the quote) and closed by the same quote and `]`;
 * `\` escapes the quote or itself. Returns the name and the characters consumed.
 */
function readQuotedName(text: string, start: number): { name: string; length: number } {
  const quote = text[start];
  let name = '';
  let at = start + 1;
  while (at < text.length) {
    const c = text[at];
    if (c === '\\') {
      const next = text[at + 1];
      if (next !== quote && next !== '\\') throw new JsonPathError(text, at, `'\\' may only escape ${quote} or '\\'`);
      name += next;
      at += 2;
    } else if (c === quote) {
      if (text[at + 1] !== ']') throw new JsonPathError(text, at + 1, `expected ']' after the closing ${quote}`);
      return { name, length: at + 2 - start };
    } else {
      name += c;
      at += 1;
    }
  }
  throw new JsonPathError(text, start, `unterminated name: expected a closing ${quote}]`);
}

/**
 * The value the path names, or undefined when it is absent: a member of something other than
 * an object, an index of something other than an array, or past its end.
 */
export function readJsonPath(value: unknown, path: JsonPath): unknown {
  let current: unknown = value;
  for (const step of path.steps) {
    if (step.kind === 'member') {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      if (!Object.hasOwn(current, step.name)) return undefined;
      current = (current as Record<string, unknown>)[step.name];
    } else {
      if (!Array.isArray(current) || step.index >= current.length) return undefined;
      current = current[step.index] as unknown;
    }
  }
  return current;
}
