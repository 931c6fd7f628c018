/**
 * JSON a caller sent, read under one nesting limit everywhere (HTTP bodies of every surface, MCP
 * over stdio, webhook bodies, endpoint bodies). JSON.parse itself reads any depth, but what
 * follows it recurses (JSON.stringify, schema validation, the sandbox's deep freeze) and overflows
 * the stack a few thousand levels down; so the text is measured first and refused before parsing.
 */

/**
 * The deepest array/object nesting accepted. Real payloads (webhook events, tool arguments inside
 * a JSON-RPC envelope, endpoint bodies) stay within a few dozen levels; every recursion that
 * follows is safe far beyond this.
 */
export const MAX_JSON_DEPTH = 128;

export type CallerJson = { ok: true; value: unknown } | { ok: false; error: 'invalid_json' | 'too_deep'; reason: string };

/**
 * Whether `text` nests arrays/objects deeper than `max`, counted outside strings. Stops at the
 * first level past it, so a hostile text costs no more than its first `max + 1` brackets.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  // Most texts open fewer brackets than the limit in all: counted by the engine's own search,
  // a few times faster than reading every character below.
  if (opensAtMost(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Whether `text` holds at most `max` of `[` and `{` together, inside strings or not. */
function opensAtMost(text: string, max: number): boolean {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++n > max) return false;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++n > max) return false;
  return true;
}

/** The refusal of a text past the limit; `what` names it for the caller ("body", "payload field"). */
export function tooDeepReason(what: string): string {
  return `${what} nests deeper than ${MAX_JSON_DEPTH} levels`;
}

/**
 * `text` parsed, or why not: too deep (checked first, before any parsing) or not JSON. Reasons
 * never quote the input (the parser's own message does).
 */
export function parseCallerJson(text: string, what = 'body'): CallerJson {
  if (nestsDeeperThan(text)) return { ok: false, error: 'too_deep', reason: tooDeepReason(what) };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'invalid_json', reason: `${what} is not valid JSON` };
  }
}
