/**
 * The storage interface every object-store driver implements (S3 and the local filesystem), and
 * the one managed resources, webhooks and artifacts store their bytes through. Bodies stream:
 * nothing here holds a whole object in memory.
 */
import type { Readable } from 'node:stream';

export type Metadata = Record<string, string>;

export interface BucketInfo {
  name: string;
  /** When the bucket was created, if the store says. */
  createdAt?: Date;
}

export interface ObjectHead {
  bucket: string;
  key: string;
  size: number;
  /** The quoted entity tag, as S3 sends it (`"…"`). */
  etag: string;
  contentType: string;
  lastModified: Date;
  /** User metadata, keys lower-cased (S3 sends them lower-cased over HTTP). */
  metadata: Metadata;
  versionId?: string;
  storageClass?: string;
}

export interface ObjectSummary {
  key: string;
  size: number;
  etag: string;
  lastModified: Date;
  storageClass: string;
}

/** Inclusive byte range; `end` omitted reads to the end of the object. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface Conditions {
  /** Proceed only when the current ETag equals this (quoted or not). */
  ifMatch?: string;
  /** `*`: proceed only when the object does not exist (writes). An ETag: only when it differs (reads). */
  ifNoneMatch?: string;
}

export interface GetOptions extends Conditions {
  range?: ByteRange;
  signal?: AbortSignal;
}

export interface GetResult {
  /** The object's own attributes; `size` is the whole object, not the range. */
  head: ObjectHead;
  body: Readable;
  /** The bytes the body holds, inclusive, when a range was asked for. */
  range?: { start: number; end: number };
  /** Bytes in `body`. */
  contentLength: number;
}

export interface PutOptions extends Conditions {
  contentType?: string;
  metadata?: Metadata;
  /** Refuse (EntityTooLarge) as soon as the body passes this many bytes; nothing is stored. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface PutResult {
  etag: string;
  size: number;
  /** Hex SHA-256 of the bytes stored, computed while streaming. */
  sha256: string;
  versionId?: string;
}

export interface ListOptions {
  prefix?: string;
  delimiter?: string;
  /** 1..1000; default 1000. */
  maxKeys?: number;
  continuationToken?: string;
  /** Start after this key (ignored when a continuation token is given). */
  startAfter?: string;
  signal?: AbortSignal;
}

export interface ListPage {
  objects: ObjectSummary[];
  commonPrefixes: string[];
  isTruncated: boolean;
  nextContinuationToken?: string;
}

export interface CopyOptions {
  /** Replaces the source's user metadata (metadata directive REPLACE); omitted copies it. */
  metadata?: Metadata;
  /** Replaces the content type; omitted keeps the source's. */
  contentType?: string;
  /** Copy only when the source's ETag matches. */
  sourceIfMatch?: string;
  signal?: AbortSignal;
}

export interface CopyResult {
  etag: string;
  lastModified: Date;
  versionId?: string;
}

export type PresignMethod = 'GET' | 'PUT';

export interface PresignOptions {
  method: PresignMethod;
  /** Seconds, 1..604800. */
  expiresIn: number;
  /** For PUT: the content type the uploader must send (S3 signs it). */
  contentType?: string;
}

export interface PresignResult {
  url: string;
  method: PresignMethod;
  expiresAt: Date;
}

export interface DeleteResult {
  /** Whether an object was there before the delete (delete of a missing key succeeds, as on S3). */
  existed: boolean;
}

export interface ObjectStore {
  readonly driver: 's3' | 'filesystem';
  listBuckets(opts?: { signal?: AbortSignal }): Promise<BucketInfo[]>;
  bucketExists(bucket: string): Promise<boolean>;
  /** Creates the bucket; BucketAlreadyExists when it is there. */
  createBucket(bucket: string): Promise<void>;
  /** Creates the bucket unless it exists; safe to call concurrently and repeatedly. */
  ensureBucket(bucket: string): Promise<void>;
  /** Removes an empty bucket (BucketNotEmpty otherwise). */
  deleteBucket(bucket: string): Promise<void>;
  headObject(bucket: string, key: string, opts?: Conditions & { signal?: AbortSignal }): Promise<ObjectHead>;
  getObject(bucket: string, key: string, opts?: GetOptions): Promise<GetResult>;
  putObject(bucket: string, key: string, body: Readable | Uint8Array | string, opts?: PutOptions): Promise<PutResult>;
  listObjects(bucket: string, opts?: ListOptions): Promise<ListPage>;
  copyObject(source: { bucket: string; key: string }, dest: { bucket: string; key: string }, opts?: CopyOptions): Promise<CopyResult>;
  deleteObject(bucket: string, key: string, opts?: { signal?: AbortSignal }): Promise<DeleteResult>;
  presign(bucket: string, key: string, opts: PresignOptions): Promise<PresignResult>;
  /** Releases sockets and timers. */
  close(): Promise<void>;
}

/** A monotonic-enough wall clock; injected so tests control presign expiry. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
