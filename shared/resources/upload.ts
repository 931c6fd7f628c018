/**
 * Streams an upload into the object store: hashed (SHA-256, by the store), counted against the
 * upload ceiling (the store's `maxBytes`: an oversized body stores nothing), and sniffed for
 * executable headers on the way. Nothing is buffered beyond the first SNIFF_BYTES.
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { isObjstoreError, type ObjectStore } from '../objstore/index.js';
import { SNIFF_BYTES, sniffExecutable } from './executables.js';
import { ResourceError } from './types.js';

/** Passes bytes through unchanged, keeping a copy of the first SNIFF_BYTES to sniff once. */
class ExecutableSniffer extends Transform {
  #head: Buffer[] = [];
  #headBytes = 0;
  #decided = false;
  refusal: string | undefined;

  constructor(private readonly fileName: string) {
    super();
  }

  #decide(): Error | null {
    this.#decided = true;
    const kind = sniffExecutable(Buffer.concat(this.#head, this.#headBytes));
    this.#head = [];
    if (!kind) return null;
    this.refusal = `executables are refused: the content of "${this.fileName}" is ${kind}`;
    return new ResourceError('unsupported', this.refusal);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.#decided) {
      const take = Math.min(chunk.length, SNIFF_BYTES - this.#headBytes);
      this.#head.push(chunk.subarray(0, take));
      this.#headBytes += take;
      if (this.#headBytes >= SNIFF_BYTES) {
        const err = this.#decide();
        if (err) return done(err);
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.#decided ? null : this.#decide());
  }
}

export interface StoredUpload {
  size: number;
  sha256: string;
}

/**
 * Writes `body` to bucket/key. Throws ResourceError too_large (413) past `maxBytes` and
 * unsupported (415) for executable content; in both cases the store keeps nothing.
 */
export async function storeUpload(
  store: ObjectStore,
  target: { bucket: string; key: string },
  body: Readable,
  opts: { fileName: string; contentType: string; maxBytes: number },
): Promise<StoredUpload> {
  const sniffer = new ExecutableSniffer(opts.fileName);
  // pipeline forwards errors both ways and destroys both streams on failure.
  const source = pipeline(body, sniffer, () => {});
  try {
    const put = await store.putObject(target.bucket, target.key, source, { contentType: opts.contentType, maxBytes: opts.maxBytes });
    return { size: put.size, sha256: put.sha256 };
  } catch (err) {
    if (sniffer.refusal) throw new ResourceError('unsupported', sniffer.refusal);
    if (isObjstoreError(err) && err.code === 'EntityTooLarge') {
      throw new ResourceError('too_large', `file is larger than the upload limit of ${opts.maxBytes} bytes (resources.managed.max_upload_bytes); nothing was stored`, {
        limit: opts.maxBytes,
      });
    }
    throw err;
  }
}
