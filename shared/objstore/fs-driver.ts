/**
 * The filesystem driver: the embedded object store under the data dir (layout in fs-layout.ts;
 * sidecars in fs-sidecar.ts, listing in fs-listing.ts, fsync and error mapping in fs-io.ts).
 *
 * Crash safety: bytes are written to `<root>/.tmp`, fsynced, moved beside the sidecar under a
 * fresh unique name, and only then does the sidecar — written the same way — replace the old one
 * with one atomic rename. A crash therefore leaves either the old object or the new one, never a
 * half one; at worst an unreferenced temp or data file. Readers open the data file the sidecar
 * names; an open file stays readable after a concurrent overwrite unlinks it.
 *
 * Conditional writes: checked under an in-process per-key lock; `if-none-match: *` is also atomic
 * across processes (the sidecar is linked into place, which fails when one exists).
 */
import { hash, randomBytes } from 'node:crypto';
import { constants as fsConstants, createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ObjstoreError } from './errors.js';
import { errno, fsyncDir, KeyedMutex, mapFsError, syncFile, writeFileSynced } from './fs-io.js';
import { compareKeys, dataName, locateKey, sidecarName, type KeyLocation } from './fs-layout.js';
import { listBucket } from './fs-listing.js';
import { checkConditions, readSidecar, sidecarHead, type Sidecar } from './fs-sidecar.js';
import { buildPresignedUrl, derivePresignKey, verifyPresigned, type ParsedPresignedRequest, type PresignVerdict } from './presign-token.js';
import { assertBucketName, assertContentType, assertKey, assertMetadataSize, normalizeMetadata, quoteEtag } from './rules.js';
import { assertWithinLimit, bytesOf, DigestStream, toReadable } from './streams.js';
import {
  systemClock,
  type BucketInfo,
  type Clock,
  type Conditions,
  type CopyOptions,
  type CopyResult,
  type DeleteResult,
  type GetOptions,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectHead,
  type ObjectStore,
  type PresignOptions,
  type PresignResult,
  type PutOptions,
  type PutResult,
} from './types.js';

export interface FilesystemPresignOptions {
  /** The connection (instance) name that appears in the URL path. */
  connection: string;
  /** Public base URL of the api (e.g. `https://data.example.com`); a function when known only after listen. */
  baseUrl: string | (() => string);
  /** Secret the URLs are signed with (a signing key is derived from it). */
  key: Uint8Array;
}

export interface FilesystemStoreOptions {
  /** Directory holding one sub-directory per bucket. Created when missing. */
  root: string;
  clock?: Clock;
  /** Needed for presign(); without it presigning fails with a clear error. */
  presign?: FilesystemPresignOptions;
}

const tmpDirName = '.tmp';
const bucketMarker = '.bucket.json';
const staleTempMs = 60 * 60_000;
const defaultContentType = 'application/octet-stream';

/** A put's checks of its key and attributes; answers its normalised metadata. */
function putMetadata(key: string, opts: PutOptions): Record<string, string> {
  assertKey(key);
  assertContentType(opts.contentType);
  const metadata = normalizeMetadata(opts.metadata);
  assertMetadataSize(metadata);
  return metadata;
}

export class FilesystemObjectStore implements ObjectStore {
  readonly driver = 'filesystem' as const;
  readonly root: string;
  readonly #tmp: string;
  readonly #clock: Clock;
  readonly #presign: (FilesystemPresignOptions & { signingKey: Buffer }) | undefined;
  readonly #locks = new KeyedMutex();
  #initialized: Promise<void> | undefined;

  constructor(opts: FilesystemStoreOptions) {
    this.root = opts.root;
    this.#tmp = join(opts.root, tmpDirName);
    this.#clock = opts.clock ?? systemClock;
    this.#presign = opts.presign ? { ...opts.presign, signingKey: derivePresignKey(opts.presign.key) } : undefined;
  }

  /** Creates the root and temp directories, and clears temp files a crash left behind. */
  #init(): Promise<void> {
    this.#initialized ??= (async () => {
      await mkdir(this.#tmp, { recursive: true });
      const cutoff = Date.now() - staleTempMs;
      for (const name of await readdir(this.#tmp)) {
        const path = join(this.#tmp, name);
        try {
          if ((await stat(path)).mtimeMs < cutoff) await rm(path, { force: true });
        } catch {
          // another process cleaned it first
        }
      }
    })().catch((err: unknown) => {
      this.#initialized = undefined;
      throw mapFsError(err, 'initialising the store root');
    });
    return this.#initialized;
  }

  #bucketDir(bucket: string): string {
    return join(this.root, bucket);
  }

  #objectDir(bucket: string, loc: KeyLocation): string {
    return join(this.#bucketDir(bucket), ...loc.dirs);
  }

  async #requireBucket(bucket: string): Promise<void> {
    assertBucketName(bucket);
    try {
      if ((await stat(this.#bucketDir(bucket))).isDirectory()) return;
    } catch (err) {
      if (errno(err) !== 'ENOENT' && errno(err) !== 'ENOTDIR') throw mapFsError(err, 'reading the bucket');
    }
    throw new ObjstoreError('NoSuchBucket', `bucket not found: ${bucket}`);
  }


  /** The current sidecar of a key, or NoSuchKey / NoSuchBucket. */
  async #current(bucket: string, key: string): Promise<{ sc: Sidecar; dir: string }> {
    assertBucketName(bucket);
    assertKey(key);
    const loc = locateKey(key);
    const dir = this.#objectDir(bucket, loc);
    const sc = await readSidecar(join(dir, sidecarName(loc.leaf)));
    if (!sc) {
      await this.#requireBucket(bucket);
      throw new ObjstoreError('NoSuchKey', `object not found: ${bucket}/${key}`);
    }
    return { sc, dir };
  }

  /** Opens the bytes of the current version; retries when an overwrite races the open. */
  async #openCurrent(bucket: string, key: string): Promise<{ sc: Sidecar; dir: string; handle: FileHandle }> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { sc, dir } = await this.#current(bucket, key);
      try {
        return { sc, dir, handle: await open(join(dir, sc.data), 'r') };
      } catch (err) {
        if (errno(err) !== 'ENOENT') throw mapFsError(err, 'opening the object');
      }
    }
    throw new ObjstoreError('ServiceUnavailable', `object ${bucket}/${key} is being rewritten too often to read; try again`);
  }

  async listBuckets(): Promise<BucketInfo[]> {
    await this.#init();
    const out: BucketInfo[] = [];
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      try {
        assertBucketName(entry.name);
      } catch {
        continue; // a directory that is not a bucket
      }
      out.push({ name: entry.name, createdAt: await this.#bucketCreated(entry.name) });
    }
    return out.sort((a, b) => compareKeys(a.name, b.name));
  }

  async #bucketCreated(bucket: string): Promise<Date> {
    try {
      const marker = JSON.parse(await readFile(join(this.#bucketDir(bucket), bucketMarker), 'utf8')) as { created_at?: string };
      if (marker.created_at) return new Date(marker.created_at);
    } catch {
      // created by hand: fall back to the directory's own time
    }
    const info = await stat(this.#bucketDir(bucket));
    return info.birthtimeMs > 0 ? info.birthtime : info.mtime;
  }

  async bucketExists(bucket: string): Promise<boolean> {
    assertBucketName(bucket);
    try {
      await this.#requireBucket(bucket);
      return true;
    } catch (err) {
      if (err instanceof ObjstoreError && err.code === 'NoSuchBucket') return false;
      throw err;
    }
  }

  async createBucket(bucket: string): Promise<void> {
    assertBucketName(bucket);
    await this.#init();
    try {
      await mkdir(this.#bucketDir(bucket));
    } catch (err) {
      if (errno(err) === 'EEXIST') throw new ObjstoreError('BucketAlreadyExists', `bucket already exists: ${bucket}`);
      throw mapFsError(err, 'creating the bucket');
    }
    await writeFile(join(this.#bucketDir(bucket), bucketMarker), JSON.stringify({ created_at: this.#clock().toISOString() }));
    await fsyncDir(this.root);
  }

  async ensureBucket(bucket: string): Promise<void> {
    try {
      await this.createBucket(bucket);
    } catch (err) {
      if (!(err instanceof ObjstoreError && err.code === 'BucketAlreadyExists')) throw err;
    }
  }

  async deleteBucket(bucket: string): Promise<void> {
    await this.#requireBucket(bucket);
    const page = await this.listObjects(bucket, { maxKeys: 1 });
    if (page.objects.length > 0 || page.commonPrefixes.length > 0) {
      throw new ObjstoreError('BucketNotEmpty', `bucket ${bucket} is not empty`);
    }
    await rm(this.#bucketDir(bucket), { recursive: true, force: true });
  }

  async headObject(bucket: string, key: string, opts: Conditions = {}): Promise<ObjectHead> {
    const { sc } = await this.#current(bucket, key);
    checkConditions(sc, opts, `${bucket}/${key}`, false);
    return sidecarHead(bucket, sc);
  }

  async getObject(bucket: string, key: string, opts: GetOptions = {}): Promise<GetResult> {
    const { sc, handle } = await this.#openCurrent(bucket, key);
    try {
      checkConditions(sc, opts, `${bucket}/${key}`, false);
      const head = sidecarHead(bucket, sc);
      if (!opts.range) {
        const body = handle.createReadStream({ autoClose: true, ...(opts.signal ? { signal: opts.signal } : {}) });
        return { head, body, contentLength: sc.size };
      }
      const start = opts.range.start;
      const end = Math.min(opts.range.end ?? sc.size - 1, sc.size - 1);
      if (!Number.isSafeInteger(start) || start < 0 || start >= sc.size || end < start) {
        throw new ObjstoreError('InvalidRange', `range ${start}-${opts.range.end ?? ''} is outside ${bucket}/${key} (${sc.size} bytes)`);
      }
      const body = handle.createReadStream({ start, end, autoClose: true, ...(opts.signal ? { signal: opts.signal } : {}) });
      return { head, body, range: { start, end }, contentLength: end - start + 1 };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async putObject(bucket: string, key: string, body: Readable | Uint8Array | string, opts: PutOptions = {}): Promise<PutResult> {
    if (!(body instanceof Readable)) return this.#putBytes(bucket, key, bytesOf(body), opts);
    const source = toReadable(body);
    let metadata: Record<string, string>;
    try {
      metadata = await this.#admitPut(bucket, key, opts);
    } catch (err) {
      source.destroy();
      throw err;
    }
    const { loc, id, tmpData } = this.#newPut(key);
    const digest = new DigestStream({ md5: true, ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}) });
    try {
      await pipeline(source, digest, createWriteStream(tmpData, { flags: 'wx' }), ...(opts.signal ? [{ signal: opts.signal }] : []));
      await syncFile(tmpData);
    } catch (err) {
      source.destroy();
      await rm(tmpData, { force: true });
      throw mapFsError(err, 'writing the object');
    }
    const sidecar = this.#newSidecar(key, loc, id, { size: digest.byteCount, md5: digest.md5, sha256: digest.sha256 }, opts.contentType, metadata);
    await this.#commit(bucket, loc, tmpData, sidecar, opts);
    return { etag: sidecar.etag, size: sidecar.size, sha256: sidecar.sha256 };
  }

  /** A put's checks before any byte is written; answers its normalised metadata. */
  async #admitPut(bucket: string, key: string, opts: PutOptions): Promise<Record<string, string>> {
    const metadata = putMetadata(key, opts);
    await this.#requireBucket(bucket);
    await this.#init();
    return metadata;
  }

  /** Where a new version of `key` is written first, under a fresh unique id. */
  #newPut(key: string): { loc: KeyLocation; id: string; tmpData: string } {
    const id = randomBytes(8).toString('hex');
    return { loc: locateKey(key), id, tmpData: join(this.#tmp, id) };
  }

  #newSidecar(key: string, loc: KeyLocation, id: string, bytes: { size: number; md5: string; sha256: string }, contentType: string | undefined, metadata: Record<string, string>): Sidecar {
    return {
      v: 1,
      key,
      size: bytes.size,
      etag: quoteEtag(bytes.md5),
      sha256: bytes.sha256,
      content_type: contentType || defaultContentType,
      last_modified: this.#clock().toISOString(),
      metadata,
      data: dataName(loc.leaf, id),
    };
  }

  /**
   * A body already in memory: digested in one go and written with one call, its fsync included,
   * while the sidecar is written and the current one read (no stream machinery, and half the
   * waits of the stream path: a webhook segment is written this way on every flush).
   */
  async #putBytes(bucket: string, key: string, bytes: Buffer, opts: PutOptions): Promise<PutResult> {
    assertWithinLimit(bytes.length, opts.maxBytes);
    const metadata = putMetadata(key, opts);
    assertBucketName(bucket);
    await this.#init();
    if (opts.signal?.aborted) throw new ObjstoreError('ServiceUnavailable', 'the request was aborted', { cause: opts.signal.reason });
    const { loc, id, tmpData } = this.#newPut(key);
    const digests = { size: bytes.length, md5: hash('md5', bytes, 'hex'), sha256: hash('sha256', bytes, 'hex') };
    const sidecar = this.#newSidecar(key, loc, id, digests, opts.contentType, metadata);
    const writeData = () =>
      writeFile(tmpData, bytes, { flag: 'wx', flush: true, ...(opts.signal ? { signal: opts.signal } : {}) }).catch((err: unknown) => {
        throw mapFsError(err, 'writing the object');
      });
    // The bucket is checked while the bytes are written (a missing one still writes nothing in it).
    await this.#commit(bucket, loc, tmpData, sidecar, opts, { writeData, checkBucket: true });
    return { etag: sidecar.etag, size: sidecar.size, sha256: sidecar.sha256 };
  }

  /**
   * Moves the written bytes beside the sidecar and swaps the sidecar in (see the file comment).
   * The bytes are at `tmpData`, synced, or `writeData` puts them there while the sidecar is
   * written: nothing is moved before both are on disk. `checkBucket`: the bucket is checked here,
   * while they are written (the caller has not).
   */
  async #commit(bucket: string, loc: KeyLocation, tmpData: string, sidecar: Sidecar, cond: Conditions, how: { writeData?: () => Promise<void>; checkBucket?: boolean } = {}): Promise<void> {
    const dir = this.#objectDir(bucket, loc);
    const scPath = join(dir, sidecarName(loc.leaf));
    const target = `${bucket}/${sidecar.key}`;
    const createOnly = cond.ifNoneMatch?.trim() === '*';
    await this.#locks.run(`${bucket}\n${sidecar.key}`, async () => {
      let placed = false;
      const tmpSidecar = `${tmpData}.json`;
      // The sidecar's bytes do not depend on what is there now: written while that is read.
      const written = how.writeData ? how.writeData() : Promise.resolve();
      const sidecarWritten = writeFileSynced(tmpSidecar, JSON.stringify(sidecar));
      // A create-only write needs nothing of the current object: the link below refuses one that
      // exists, atomically (an if-match still reads it).
      const currentRead = createOnly && cond.ifMatch === undefined ? undefined : readSidecar(scPath);
      const bucketChecked = how.checkBucket ? this.#requireBucket(bucket) : undefined;
      try {
        const [current] = await Promise.all([currentRead, written, sidecarWritten, bucketChecked]);
        checkConditions(current, cond, target, true);
        await this.#placeInto(bucket, dir, tmpData, sidecar.data);
        placed = true;
        if (createOnly) {
          try {
            await link(tmpSidecar, scPath);
          } catch (err) {
            if (errno(err) === 'EEXIST') throw new ObjstoreError('PreconditionFailed', `precondition failed for ${target}: the object exists`);
            throw err;
          }
          // The temporary name goes while the directory is synced: neither waits for the other.
          await Promise.all([rm(tmpSidecar, { force: true }), fsyncDir(dir)]);
        } else {
          await rename(tmpSidecar, scPath);
          await fsyncDir(dir);
        }
        if (current && current.data !== sidecar.data) await rm(join(dir, current.data), { force: true });
      } catch (err) {
        // Both writes are over before their files are removed: a late one would leave a stray file.
        await Promise.allSettled([written, sidecarWritten]);
        await rm(tmpData, { force: true });
        await rm(tmpSidecar, { force: true });
        if (placed) await rm(join(dir, sidecar.data), { force: true });
        throw mapFsError(err, 'committing the object');
      }
    });
  }

  /**
   * Renames into the key's directory; when that is missing, mkdir -p inside an existing bucket and
   * again (retried when a delete prunes the folder meanwhile). Most puts land in a directory that
   * exists: one call, no check of the bucket (a removed bucket has no directories left).
   */
  async #placeInto(bucket: string, dir: string, from: string, name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await rename(from, join(dir, name));
        return;
      } catch (err) {
        if (errno(err) !== 'ENOENT' || attempt >= 5) throw err;
      }
      // The key's directory is missing (its first object, or emptied and removed meanwhile): made
      // again only inside a bucket that still exists.
      await this.#requireBucket(bucket);
      await mkdir(dir, { recursive: true });
    }
  }

  async listObjects(bucket: string, opts: ListOptions = {}): Promise<ListPage> {
    await this.#requireBucket(bucket);
    return listBucket(this.#bucketDir(bucket), opts);
  }

  async copyObject(source: { bucket: string; key: string }, dest: { bucket: string; key: string }, opts: CopyOptions = {}): Promise<CopyResult> {
    assertKey(dest.key);
    assertBucketName(dest.bucket);
    const destLoc = locateKey(dest.key);
    assertContentType(opts.contentType);
    const metadata = opts.metadata !== undefined ? normalizeMetadata(opts.metadata) : undefined;
    if (metadata) assertMetadataSize(metadata);
    await this.#init();
    const id = randomBytes(8).toString('hex');
    const tmpData = join(this.#tmp, id);
    let src: Sidecar | undefined;
    for (let attempt = 0; attempt < 8 && !src; attempt++) {
      const { sc, dir } = await this.#current(source.bucket, source.key);
      if (opts.sourceIfMatch !== undefined) checkConditions(sc, { ifMatch: opts.sourceIfMatch }, `${source.bucket}/${source.key}`, false);
      try {
        // A reflink where the filesystem supports it, else a kernel-side copy.
        await copyFile(join(dir, sc.data), tmpData, fsConstants.COPYFILE_FICLONE);
        src = sc;
      } catch (err) {
        if (errno(err) !== 'ENOENT') throw mapFsError(err, 'copying the object');
      }
    }
    if (!src) throw new ObjstoreError('ServiceUnavailable', `object ${source.bucket}/${source.key} is being rewritten too often to copy; try again`);
    try {
      await syncFile(tmpData);
      await this.#requireBucket(dest.bucket);
    } catch (err) {
      await rm(tmpData, { force: true });
      throw mapFsError(err, 'copying the object');
    }
    const lastModified = this.#clock();
    const sidecar: Sidecar = {
      ...src,
      key: dest.key,
      content_type: opts.contentType ?? src.content_type,
      metadata: metadata ?? src.metadata,
      last_modified: lastModified.toISOString(),
      data: dataName(destLoc.leaf, id),
    };
    await this.#commit(dest.bucket, destLoc, tmpData, sidecar, {});
    return { etag: sidecar.etag, lastModified };
  }

  async deleteObject(bucket: string, key: string): Promise<DeleteResult> {
    assertBucketName(bucket);
    assertKey(key);
    const loc = locateKey(key);
    const dir = this.#objectDir(bucket, loc);
    const scPath = join(dir, sidecarName(loc.leaf));
    return this.#locks.run(`${bucket}\n${key}`, async () => {
      const sc = await readSidecar(scPath);
      if (!sc) {
        await this.#requireBucket(bucket);
        return { existed: false };
      }
      try {
        await unlink(scPath);
      } catch (err) {
        if (errno(err) === 'ENOENT') return { existed: false };
        throw mapFsError(err, 'deleting the object');
      }
      await fsyncDir(dir);
      await rm(join(dir, sc.data), { force: true });
      // Prune folders the delete emptied, deepest first; a concurrent put re-creates what it needs.
      for (let depth = loc.dirs.length; depth > 0; depth--) {
        try {
          await rmdir(join(this.#bucketDir(bucket), ...loc.dirs.slice(0, depth)));
        } catch {
          break;
        }
      }
      return { existed: true };
    });
  }

  async presign(bucket: string, key: string, opts: PresignOptions): Promise<PresignResult> {
    assertBucketName(bucket);
    assertKey(key);
    if (!this.#presign) {
      throw new ObjstoreError('InternalError', 'presigned URLs of the filesystem store need the api’s public base URL and a signing key', {
        hint: 'Presigned URLs are served by the platform api; this process was started without one.',
      });
    }
    const base = typeof this.#presign.baseUrl === 'function' ? this.#presign.baseUrl() : this.#presign.baseUrl;
    const expires = Math.floor(this.#clock().getTime() / 1000) + opts.expiresIn;
    const url = buildPresignedUrl(base, this.#presign.signingKey, {
      method: opts.method,
      connection: this.#presign.connection,
      bucket,
      key,
      expires,
    });
    return { url, method: opts.method, expiresAt: new Date(expires * 1000) };
  }

  /** Checks a request to a presigned URL of this store (used by the api's /objstore route). */
  verifyPresigned(req: ParsedPresignedRequest, httpMethod: string): PresignVerdict {
    if (!this.#presign || req.connection !== this.#presign.connection) return { ok: false, reason: 'unknown connection' };
    return verifyPresigned(this.#presign.signingKey, req, httpMethod, this.#clock());
  }

  async close(): Promise<void> {
    // Nothing pooled: files are opened per call.
  }
}
