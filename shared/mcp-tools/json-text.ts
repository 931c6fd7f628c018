/**
 * JSON text a tool already produced for part of its result, reused when the answer is serialised.
 *
 * A large result carries the same values twice: its text (the JSON of the structured object, for
 * sql_query) and `structuredContent`. The tool serialises them once for the text and remembers
 * that text here for the value (by identity: zod's validation of the result and enrichment's merge
 * copy `structuredContent`, not the arrays in it); the transports then splice it into the message
 * instead of serialising the same values again (`messageJson`). A remembered value must not change
 * afterwards: results are built for one answer and never edited once returned.
 */
import { randomBytes } from 'node:crypto';

const known = new WeakMap<object, string>();

/**
 * Remembers `text` as the JSON of `value`; `text` must be exactly `JSON.stringify(value)`.
 * Answers `value`.
 */
export function rememberJsonText<T extends object>(value: T, text: string): T {
  known.set(value, text);
  return value;
}

/**
 * Stands for a remembered value while the rest of the message is serialised, as the JSON string
 * `"<marker>"`. Random per process, so no value a caller supplies can be mistaken for it (a caller
 * cannot guess it; a string holding it inside other text is not the whole JSON string).
 */
const marker = `json-text:${randomBytes(16).toString('hex')}`;
const quotedMarker = JSON.stringify(marker);

/** A remembered value among the top-level values of `value` (a result's `structuredContent`). */
function holdsKnown(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null && known.has(field)) return true;
  }
  return false;
}

/**
 * `JSON.stringify(value)`, with the remembered values of the top level of `value` or of a JSON-RPC
 * response's `result.structuredContent` spliced in as their text (byte for byte the same answer).
 * Anything else is serialised as usual: a replacer would slow the serialisation of every other
 * message, so it is used only when there is something to splice.
 */
export function messageJson(value: unknown): string {
  const structured = (value as { result?: { structuredContent?: unknown } } | null)?.result?.structuredContent;
  if (!holdsKnown(value) && !holdsKnown(structured)) return JSON.stringify(value);
  const pieces: string[] = [];
  const json = JSON.stringify(value, (_key, field: unknown) => {
    if (typeof field !== 'object' || field === null) return field;
    const text = known.get(field);
    if (text === undefined) return field;
    pieces.push(text);
    return marker;
  });
  // The markers stand in the order the pieces were taken: each is the next occurrence.
  const parts: string[] = [];
  let from = 0;
  for (const piece of pieces) {
    const at = json.indexOf(quotedMarker, from);
    parts.push(json.slice(from, at), piece);
    from = at + quotedMarker.length;
  }
  parts.push(json.slice(from));
  return parts.join('');
}
