/**
 * The sidecar of the filesystem driver (fs-driver.ts): the JSON record beside an object that
 * names its current bytes and holds its etag, type, times and metadata; reading it, the head
 * it answers with, and the conditions checked against it.
 */
import { readFile } from 'node:fs/promises';
import { ObjstoreError } from './errors.js';
import { errno, mapFsError } from './fs-io.js';
import { etagMatches } from './rules.js';
import type { Conditions, ObjectHead } from './types.js';

export interface Sidecar {
  v: 1;
  key: string;
  size: number;
  etag: string;
  sha256: string;
  content_type: string;
  last_modified: string;
  metadata: Record<string, string>;
  /** File name (in the same directory) of the bytes of this version. */
  data: string;
}

export async function readSidecar(path: string): Promise<Sidecar | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return undefined;
    throw mapFsError(err, 'reading object metadata');
  }
  try {
    return JSON.parse(text) as Sidecar;
  } catch (err) {
    throw new ObjstoreError('InternalError', 'object metadata on disk is unreadable', { cause: err });
  }
}

export function sidecarHead(bucket: string, sc: Sidecar): ObjectHead {
  return {
    bucket,
    key: sc.key,
    size: sc.size,
    etag: sc.etag,
    contentType: sc.content_type,
    lastModified: new Date(sc.last_modified),
    metadata: { ...sc.metadata },
    storageClass: 'STANDARD',
  };
}

export function checkConditions(current: Sidecar | undefined, cond: Conditions, target: string, forWrite: boolean): void {
  if (cond.ifMatch !== undefined) {
    if (!current) throw new ObjstoreError('NoSuchKey', `object not found: ${target}`);
    if (!etagMatches(cond.ifMatch, current.etag)) throw new ObjstoreError('PreconditionFailed', `precondition failed for ${target}: the ETag does not match`);
  }
  if (cond.ifNoneMatch !== undefined && current && etagMatches(cond.ifNoneMatch, current.etag)) {
    if (!forWrite) throw new ObjstoreError('NotModified', `${target} has not changed`);
    const why = cond.ifNoneMatch.trim() === '*' ? 'the object exists' : 'the ETag matches';
    throw new ObjstoreError('PreconditionFailed', `precondition failed for ${target}: ${why}`);
  }
}
