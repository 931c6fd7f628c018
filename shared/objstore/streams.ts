/** Stream helpers: on-the-fly digests and byte counting with a ceiling. */
import { createHash, type Hash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { ObjstoreError } from './errors.js';

/**
 * A pass-through that hashes (SHA-256, and MD5 when asked: the filesystem driver's ETag) and
 * counts what flows through it, failing with EntityTooLarge once more than `maxBytes` passed.
 */
export class DigestStream extends Transform {
  readonly #sha256: Hash = createHash('sha256');
  readonly #md5: Hash | undefined;
  readonly #maxBytes: number | undefined;
  #size = 0;
  #sha256Hex: string | undefined;
  #md5Hex: string | undefined;

  constructor(opts: { md5?: boolean; maxBytes?: number } = {}) {
    super();
    this.#md5 = opts.md5 ? createHash('md5') : undefined;
    this.#maxBytes = opts.maxBytes !== undefined && opts.maxBytes > 0 ? opts.maxBytes : undefined;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.#size += chunk.length;
    try {
      assertWithinLimit(this.#size, this.#maxBytes);
    } catch (error) {
      done(error as Error);
      return;
    }
    this.#sha256.update(chunk);
    this.#md5?.update(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.#sha256Hex = this.#sha256.digest('hex');
    this.#md5Hex = this.#md5?.digest('hex');
    done();
  }

  /** Bytes seen so far (not named `size`: lib-storage would read that as a known body length). */
  get byteCount(): number {
    return this.#size;
  }

  /** Hex SHA-256; available once the stream has ended. */
  get sha256(): string {
    if (this.#sha256Hex === undefined) throw new Error('digest read before the stream ended');
    return this.#sha256Hex;
  }

  get md5(): string {
    if (this.#md5Hex === undefined) throw new Error('md5 was not requested or the stream has not ended');
    return this.#md5Hex;
  }
}

/** EntityTooLarge once `size` passes `maxBytes` (unset or 0: no limit). */
export function assertWithinLimit(size: number, maxBytes: number | undefined): void {
  if (maxBytes !== undefined && maxBytes > 0 && size > maxBytes) throw new ObjstoreError('EntityTooLarge', `object is larger than the limit of ${maxBytes} bytes`);
}

/** A Readable over a body given as a stream, bytes or a string (UTF-8). */
export function toReadable(body: Readable | Uint8Array | string): Readable {
  if (body instanceof Readable) return body;
  // One chunk, not an iterable of numbers.
  return Readable.from([bytesOf(body)], { objectMode: false });
}

/** A body given as bytes or a string (UTF-8) as a Buffer over the same memory. */
export function bytesOf(body: Uint8Array | string): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Reads a stream to the end (or until `limit` bytes, then destroys it). For small bodies only. */
export async function readAll(stream: Readable, limit = Number.POSITIVE_INFINITY): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let cut = false;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    if (total + buf.length > limit) {
      chunks.push(buf.subarray(0, limit - total));
      total = limit;
      cut = true;
      break;
    }
    chunks.push(buf);
    total += buf.length;
  }
  if (cut) stream.destroy();
  return { bytes: Buffer.concat(chunks, total), cut };
}
