/**
 * Splits newline-delimited JSON into its records whatever their line breaks (pure, streaming): a
 * record ends where its outermost object or array closes, so a record pretty-printed over several
 * lines is still one record, and the check knows it was spread. Strings are followed with their
 * escapes, so brackets inside them do not count.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { TableError } from './rules.js';

/** The most bytes one record may hold: a runaway (an unclosed bracket) is refused, not buffered. */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

export interface NdjsonRecord {
  value: Record<string, unknown>;
  /** Whether the record's text held a line break (it was spread over several lines). */
  spread: boolean;
}

/** Text in (line ends normalised to `\n`), one NdjsonRecord per record out (object mode). */
export class NdjsonSplitStream extends Transform {
  #text = '';
  #depth = 0;
  #inString = false;
  #escaped = false;
  #line = 1;
  #startLine = 1;

  constructor() {
    super({ decodeStrings: false, readableObjectMode: true });
  }

  override _transform(chunk: string | Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.#scan(String(chunk));
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.#text.trim() !== '') return done(new TableError('invalid', `the record starting on line ${this.#startLine} never ends (an object or array left open)`));
    done();
  }

  #scan(text: string): void {
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\n') this.#line++;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === '\\') this.#escaped = true;
        else if (c === '"') this.#inString = false;
        continue;
      }
      if (this.#depth === 0) {
        if (c === ' ' || c === '\t' || c === '\n') {
          from = i + 1;
          continue;
        }
        if (c !== '{') throw new TableError('invalid', `line ${this.#line} does not start a JSON object: each NDJSON record must be an object`);
        this.#startLine = this.#line;
        from = i;
        this.#text = '';
      }
      if (c === '"') this.#inString = true;
      else if (c === '{' || c === '[') this.#depth++;
      else if (c === '}' || c === ']') {
        this.#depth--;
        if (this.#depth === 0) {
          this.#emit(this.#text + text.slice(from, i + 1));
          this.#text = '';
          from = i + 1;
        }
      }
    }
    if (this.#depth > 0 || this.#inString) {
      this.#text += text.slice(from);
      if (this.#text.length > MAX_RECORD_CHARS) throw new TableError('invalid', `the record starting on line ${this.#startLine} is longer than ${MAX_RECORD_CHARS} characters`);
    }
  }

  #emit(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new TableError('invalid', `the record starting on line ${this.#startLine} is not valid JSON: ${(error as Error).message}`);
    }
    this.push({ value: value as Record<string, unknown>, spread: text.includes('\n') } satisfies NdjsonRecord);
  }
}
