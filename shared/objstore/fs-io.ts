/**
 * File primitives of the filesystem driver (fs-driver.ts): error codes mapped to object-store
 * errors, the in-process per-key lock, and the fsyncs its crash safety rests on.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { ObjstoreError } from './errors.js';

export function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** Filesystem failures the caller can act on get object-store codes; anything else is internal. */
export function mapFsError(err: unknown, what: string): ObjstoreError {
  if (err instanceof ObjstoreError) return err;
  const code = errno(err);
  if (code === 'EACCES' || code === 'EPERM') return new ObjstoreError('AccessDenied', `permission denied on the filesystem store (${what})`, { cause: err });
  if (code === 'ENAMETOOLONG') return new ObjstoreError('KeyTooLong', `the key is too long for the filesystem store (${what})`, { cause: err });
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ObjstoreError('ServiceUnavailable', 'the filesystem store is out of space', { cause: err });
  if ((err as Error | undefined)?.name === 'AbortError') return new ObjstoreError('ServiceUnavailable', 'the request was aborted', { cause: err });
  return new ObjstoreError('InternalError', `filesystem store failure (${what})`, { cause: err });
}

/** Serialises work per key inside this process. */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.#tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
    if (!['EISDIR', 'EPERM', 'EINVAL', 'EBADF'].includes(errno(err) ?? '')) throw err;
  } finally {
    await handle?.close();
  }
}

/** fsync through a fresh descriptor: it flushes the file's data whichever descriptor wrote it. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function writeFileSynced(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
