/**
 * Reading a GraphQL answer as it streams by (pure): whether its top-level object holds a non-empty
 * `errors` list, without holding the answer. graphql_export stores the bytes as they arrive and
 * refuses the whole answer at its end when the upstream reported errors (the store then keeps
 * nothing), as it refuses an HTTP error status. A few hundred characters of the errors are kept,
 * to say what the upstream reported.
 */
import { graphqlErrorText } from '../catalog/index.js';

/** How much of the `errors` value is kept for the refusal message. */
const ERRORS_EXCERPT_CHARS = 2_000;
/** Top-level keys longer than this are not `errors` and are not kept whole. */
const MAX_KEY_CHARS = 64;

type Expect = 'value' | 'key' | 'colon' | 'other';

export class GraphqlAnswerScanner {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expect: Expect = 'value';
  #key: string | undefined;
  /** The top-level key whose value is being read. */
  #current: string | undefined;
  #errors: string | undefined;
  #sawObject = false;

  /** Feeds the next piece of the answer's text. */
  push(text: string): void {
    for (const ch of text) this.#step(ch);
  }

  #step(ch: string): void {
    const inErrors = this.#current === 'errors' && this.#depth >= 1 && this.#expect !== 'key' && this.#expect !== 'colon';
    if (inErrors && this.#errors !== undefined && this.#errors.length < ERRORS_EXCERPT_CHARS && (this.#depth > 1 || ch.trim() !== '')) {
      if (!(this.#depth === 1 && !this.#inString && (ch === ',' || ch === '}'))) this.#errors += ch;
    }
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (ch === '\\') this.#escaped = true;
      else if (ch === '"') {
        this.#inString = false;
        if (this.#depth === 1 && this.#expect === 'key') this.#expect = 'colon';
        return;
      }
      if (this.#depth === 1 && this.#expect === 'key' && this.#key !== undefined && this.#key.length <= MAX_KEY_CHARS) this.#key += ch;
      return;
    }
    switch (ch) {
      case '"':
        this.#inString = true;
        if (this.#depth === 1 && this.#expect === 'key') this.#key = '';
        return;
      case '{':
      case '[':
        if (this.#depth === 0 && ch === '{') {
          this.#sawObject = true;
          this.#expect = 'key';
        }
        this.#depth++;
        return;
      case '}':
      case ']':
        this.#depth--;
        return;
      case ':':
        if (this.#depth === 1 && this.#expect === 'colon') {
          this.#current = this.#key;
          this.#expect = 'value';
          if (this.#current === 'errors') this.#errors = '';
        }
        return;
      case ',':
        if (this.#depth === 1) {
          this.#expect = 'key';
          this.#current = undefined;
        }
        return;
      default:
        return;
    }
  }

  /**
   * At the end of the answer: the errors it reported (their excerpt, non-empty) or undefined.
   * `null` and `[]` are no errors; an answer that is not a JSON object counts as an error too.
   */
  errors(): string | undefined {
    if (!this.#sawObject) return 'the answer is not a JSON object';
    const excerpt = this.#errors?.trim();
    if (excerpt === undefined || excerpt === 'null' || excerpt.replace(/\s+/g, '') === '[]') return undefined;
    return excerpt;
  }
}

/** The messages of a GraphQL `errors` excerpt, when it parses; else the excerpt cut short. */
export function graphqlErrorMessages(excerpt: string): string {
  try {
    const parsed: unknown = JSON.parse(excerpt);
    if (Array.isArray(parsed)) {
      return parsed.map(graphqlErrorText).join('; ').slice(0, 500);
    }
  } catch {
    // cut short or malformed: the text as it came
  }
  return excerpt.slice(0, 500);
}
