/**
 * The text layer of the checks and the correction, as streaming transforms (pure: bytes in, text
 * out, counts kept):
 * - `TextDecodeStream`: UTF-8 where the bytes are valid UTF-8, each other byte read as Windows-1252
 *   (a superset of Latin-1's printable range), so a Latin-1 or Windows-1252 file becomes its text
 *   and a UTF-8 file with one stray byte keeps the rest of its characters;
 * - `LineEndStream`: every line end outside quoted cells becomes `\n` (`\r\n` and a lone `\r`),
 *   counting the lines that ended in a carriage return only; inside quotes nothing changes (a line
 *   break in a cell is the cell check's business).
 */
import { isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import { CsvScanner } from './csv-scanner.js';

/** Windows-1252's 0x80–0x9F (WHATWG index; the five unassigned bytes keep their C1 code points); 0xA0–0xFF are Latin-1's. */
const windows1252High = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const windows1252 = Array.from({ length: 128 }, (_, i) => (i < 32 ? windows1252High[i]! : String.fromCharCode(0x80 + i)));

/** How many bytes the UTF-8 sequence led by `lead` has; 0 for a byte that cannot lead one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** Whether `byte` may follow `lead` as the sequence's second byte (RFC 3629: no overlongs, no surrogates). */
function validSecond(lead: number, byte: number): boolean {
  if (lead === 0xe0) return byte >= 0xa0 && byte <= 0xbf;
  if (lead === 0xed) return byte >= 0x80 && byte <= 0x9f;
  if (lead === 0xf0) return byte >= 0x90 && byte <= 0xbf;
  if (lead === 0xf4) return byte >= 0x80 && byte <= 0x8f;
  return byte >= 0x80 && byte <= 0xbf;
}

/**
 * Decodes `bytes` (with `final`, to the end; else up to a sequence the next chunk may complete).
 * Answers the text, the bytes left for the next chunk, and how many bytes were not UTF-8.
 */
export function decodeUtf8OrWindows1252(bytes: Buffer, final: boolean): { text: string; rest: Buffer; invalid: number } {
  // Fast path: all valid, maybe cut inside a sequence at the end.
  let end = bytes.length;
  if (!final) {
    for (let back = 1; back <= Math.min(3, bytes.length); back++) {
      const lead = bytes[bytes.length - back]!;
      if (lead >= 0xc0) {
        if (sequenceLength(lead) > back) end = bytes.length - back;
        break;
      }
      if (lead < 0x80) break;
    }
  }
  if (isUtf8(bytes.subarray(0, end))) return { text: bytes.toString('utf8', 0, end), rest: bytes.subarray(end), invalid: 0 };
  let text = '';
  let invalid = 0;
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(lead);
    let ok = length > 1 && i + 1 < bytes.length ? validSecond(lead, bytes[i + 1]!) : length > 1;
    for (let k = 2; ok && k < length && i + k < bytes.length; k++) ok = bytes[i + k]! >= 0x80 && bytes[i + k]! <= 0xbf;
    if (ok && i + length > bytes.length) {
      if (!final) {
        text += bytes.toString('utf8', runStart, i);
        return { text, rest: bytes.subarray(i), invalid };
      }
      ok = false;
    }
    if (ok) {
      i += length;
      continue;
    }
    text += bytes.toString('utf8', runStart, i) + windows1252[lead - 0x80]!;
    invalid++;
    i++;
    runStart = i;
  }
  text += bytes.toString('utf8', runStart, i);
  return { text, rest: Buffer.alloc(0), invalid };
}

/** Decodes a file's bytes to text; a leading byte order mark is dropped (the text is UTF-8 without one). */
export class TextDecodeStream extends Transform {
  invalidBytes = 0;
  #rest: Buffer = Buffer.alloc(0);
  #started = false;

  constructor() {
    // Strings out as they are (object mode): the next stages read text, not bytes.
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const { text, rest, invalid } = decodeUtf8OrWindows1252(this.#rest.length ? Buffer.concat([this.#rest, chunk]) : chunk, false);
    this.#rest = Buffer.from(rest);
    this.invalidBytes += invalid;
    this.#emit(text);
    done();
  }

  #emit(text: string): void {
    const out = this.#withoutBom(text);
    if (out !== '') this.push(out);
  }

  #withoutBom(text: string): string {
    if (this.#started || text === '') return text;
    this.#started = true;
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  }

  override _flush(done: TransformCallback): void {
    const { text, invalid } = decodeUtf8OrWindows1252(this.#rest, true);
    this.invalidBytes += invalid;
    this.#emit(text);
    done();
  }
}

/**
 * Text with every line end outside quoted cells as `\n` (csv-scanner.ts: `\r\n` and a lone `\r`
 * outside quotes; NDJSON, `delimiter` undefined, has no raw line break inside a value, so every line
 * end), counting the lines that ended in a lone carriage return. Strings in, strings out.
 */
export class LineEndStream extends Transform {
  readonly scanner: CsvScanner;

  constructor(delimiter: string | undefined) {
    super({ objectMode: true });
    this.scanner = new CsvScanner(delimiter);
  }

  get crOnlyLines(): number {
    return this.scanner.crOnlyLines;
  }

  override _transform(chunk: string, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      done(null, this.scanner.push(chunk));
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    const rest = this.scanner.end();
    if (rest) this.push(rest);
    done();
  }
}
