/**
 * One pass over CSV or TSV text (pure, chunk by chunk, one character at a time): the shape the
 * checks need — records, records with a line break inside a quoted cell and in which columns,
 * lines ending in a lone carriage return, the header record's text — and the same text with every
 * line end outside quoted cells as `\n`, for the correction's parser. Quoting as csv-parse reads it
 * with `relax_quotes`: a `"` opens a quoted cell only at the start of a cell, `""` inside one is a
 * quote, and a quote elsewhere is a character. Empty lines are no record (csv-parse's
 * `skip_empty_lines`). Without a delimiter (NDJSON) nothing is quoted: only line ends are counted
 * and normalised.
 */

import { TableError } from './rules.js';

const enum State {
  CellStart,
  Unquoted,
  Quoted,
  QuoteSeen,
}

/** The longest header record kept (a file with no line end would otherwise be held whole). */
export const MAX_HEADER_CHARS = 1024 * 1024;

const LF = 10;
const CR = 13;
const QUOTE = 34;

export class CsvScanner {
  /** Data records (the header record is not one). */
  records = 0;
  brokenRecords = 0;
  crOnlyLines = 0;
  /** Indexes of the columns whose cells hold line breaks. */
  readonly brokenColumns = new Set<number>();
  /** The header record's text (without its line end), once it ended. */
  header: string | undefined;

  readonly #delimiter: number;
  #state = State.CellStart;
  #column = 0;
  #content = false;
  #broken = false;
  #pendingCr = false;
  #headerText = '';

  /** `delimiter`: `,` or `\t`; undefined for NDJSON. */
  constructor(delimiter: string | undefined) {
    this.#delimiter = delimiter === undefined ? -1 : delimiter.charCodeAt(0);
  }

  /** Scans `text`; answers it with line ends outside quoted cells as `\n`. */
  push(text: string): string {
    let out = '';
    let from = 0;
    let headerFrom = this.header === undefined ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#pendingCr) {
        this.#pendingCr = false;
        out += '\n';
        if (c === LF) {
          from = i + 1;
          continue;
        }
        this.crOnlyLines++;
      }
      if (this.#state === State.Quoted) {
        if (c === QUOTE) this.#state = State.QuoteSeen;
        else if ((c === LF || c === CR) && this.header !== undefined) {
          this.#broken = true;
          this.brokenColumns.add(this.#column);
        }
        continue;
      }
      if (c === QUOTE && this.#delimiter >= 0) {
        this.#content = true;
        // At a cell's start it opens a quoted cell; after a closing quote it is an escaped quote.
        if (this.#state === State.CellStart || this.#state === State.QuoteSeen) this.#state = State.Quoted;
        continue;
      }
      if (c === LF || c === CR) {
        if (headerFrom >= 0) this.#headerText += text.slice(headerFrom, i);
        this.#endRecord();
        // An empty line before the header: the header starts after it.
        headerFrom = this.header === undefined ? i + 1 : -1;
        if (c === CR) {
          out += text.slice(from, i);
          from = i + 1;
          this.#pendingCr = true;
        }
        continue;
      }
      this.#content = true;
      if (c === this.#delimiter) {
        this.#column++;
        this.#state = State.CellStart;
      } else this.#state = State.Unquoted;
    }
    if (headerFrom >= 0) this.#headerText += text.slice(headerFrom);
    if (this.#headerText.length > MAX_HEADER_CHARS) throw new TableError('invalid', `the header line is longer than ${MAX_HEADER_CHARS} characters: is this a CSV or TSV file?`);
    return out + text.slice(from);
  }

  /** The end of the text: a last record without its line end, a trailing lone carriage return. */
  end(): string {
    let out = '';
    if (this.#pendingCr) {
      this.#pendingCr = false;
      this.crOnlyLines++;
      out = '\n';
    }
    this.#endRecord();
    if (this.header === undefined && this.#headerText !== '') this.header = this.#headerText;
    return out;
  }

  #endRecord(): void {
    if (this.#content) {
      if (this.header === undefined) this.header = this.#headerText;
      else {
        this.records++;
        if (this.#broken) this.brokenRecords++;
      }
    } else if (this.header === undefined) this.#headerText = '';
    this.#state = State.CellStart;
    this.#column = 0;
    this.#content = false;
    this.#broken = false;
  }
}
