/**
 * Streams an upload into the object store: hashed (SHA-256, by the store), counted against the
 * upload ceiling (the store's `maxBytes`: an oversized body stores nothing), and sniffed for
 * executables on the way (ExecutableSniffer holds at most its first SNIFF_BYTES).
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { isObjstoreError, type ObjectStore } from '../objstore/index.js';
import { ExecutableSniffer } from './executables.js';
import { ResourceError } from './types.js';

/** Passes bytes through unchanged; fails the stream (so the store keeps nothing) once they are an executable. */
class SniffingStream extends Transform {
  readonly #sniffer = new ExecutableSniffer();
  refusal: string | undefined;

  constructor(private readonly fileName: string) {
    super();
  }

  #refuse(kind: string | undefined): Error | null {
    if (!kind) return null;
    this.refusal = `executables are refused: the content of "${this.fileName}" is ${kind}`;
    return new ResourceError('unsupported', this.refusal);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const err = this.#refuse(this.#sniffer.push(chunk));
    if (err) return done(err);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    done(this.#refuse(this.#sniffer.end()));
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
  const sniffer = new SniffingStream(opts.fileName);
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
