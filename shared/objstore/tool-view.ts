/**
 * The tools' view of the object-store connections: all that the objstore_* tools and the
 * presigned-URL route can reach. createObjstoreConnections builds it once; the tools and the route
 * take nothing else (both classes hold private fields, so a raw connection does not type-check in
 * their place).
 *
 * - A connection marked `internal: true` is not in the view: not listed, ConnectionNotFound by name.
 * - Every bucket passes checkBucket: S3 naming, the connection's bucket_prefix, and the platform's
 *   reserved buckets (platform-buckets.ts), refused with AccessDenied whoever calls. The store a
 *   tool connection hands out applies that check to every bucket argument of every operation (a
 *   copy's source and destination alike) and leaves what it refuses out of listBuckets, so no tool
 *   reaches platform storage by forgetting a check.
 */
import { Readable } from 'node:stream';
import type { ObjstoreConnection } from './connections.js';
import { connectionNotFound } from './errors.js';
import { FilesystemObjectStore } from './fs-driver.js';
import { reservedBucketError } from './platform-buckets.js';
import type { ParsedPresignedRequest, PresignVerdict } from './presign-token.js';
import type {
  BucketInfo,
  Conditions,
  CopyOptions,
  CopyResult,
  DeleteResult,
  GetOptions,
  GetResult,
  ListOptions,
  ListPage,
  ObjectHead,
  ObjectStore,
  PresignOptions,
  PresignResult,
  PutOptions,
  PutResult,
} from './types.js';

/** A store whose every bucket argument passes `check` first. */
class GuardedStore implements ObjectStore {
  readonly driver: ObjectStore['driver'];
  readonly #store: ObjectStore;
  readonly #check: (bucket: string) => void;

  constructor(store: ObjectStore, check: (bucket: string) => void) {
    this.driver = store.driver;
    this.#store = store;
    this.#check = check;
  }

  #allows(bucket: string): boolean {
    try {
      this.#check(bucket);
      return true;
    } catch {
      return false;
    }
  }

  async listBuckets(opts?: { signal?: AbortSignal }): Promise<BucketInfo[]> {
    return (await this.#store.listBuckets(opts)).filter((b) => this.#allows(b.name));
  }

  async bucketExists(bucket: string): Promise<boolean> {
    this.#check(bucket);
    return this.#store.bucketExists(bucket);
  }

  async createBucket(bucket: string): Promise<void> {
    this.#check(bucket);
    return this.#store.createBucket(bucket);
  }

  async ensureBucket(bucket: string): Promise<void> {
    this.#check(bucket);
    return this.#store.ensureBucket(bucket);
  }

  async deleteBucket(bucket: string): Promise<void> {
    this.#check(bucket);
    return this.#store.deleteBucket(bucket);
  }

  async headObject(bucket: string, key: string, opts?: Conditions & { signal?: AbortSignal }): Promise<ObjectHead> {
    this.#check(bucket);
    return this.#store.headObject(bucket, key, opts);
  }

  async getObject(bucket: string, key: string, opts?: GetOptions): Promise<GetResult> {
    this.#check(bucket);
    return this.#store.getObject(bucket, key, opts);
  }

  async putObject(bucket: string, key: string, body: Readable | Uint8Array | string, opts?: PutOptions): Promise<PutResult> {
    try {
      this.#check(bucket);
    } catch (err) {
      if (body instanceof Readable) body.destroy();
      throw err;
    }
    return this.#store.putObject(bucket, key, body, opts);
  }

  async listObjects(bucket: string, opts?: ListOptions): Promise<ListPage> {
    this.#check(bucket);
    return this.#store.listObjects(bucket, opts);
  }

  async copyObject(source: { bucket: string; key: string }, dest: { bucket: string; key: string }, opts?: CopyOptions): Promise<CopyResult> {
    this.#check(source.bucket);
    this.#check(dest.bucket);
    return this.#store.copyObject(source, dest, opts);
  }

  async deleteObject(bucket: string, key: string, opts?: { signal?: AbortSignal }): Promise<DeleteResult> {
    this.#check(bucket);
    return this.#store.deleteObject(bucket, key, opts);
  }

  async presign(bucket: string, key: string, opts: PresignOptions): Promise<PresignResult> {
    this.#check(bucket);
    return this.#store.presign(bucket, key, opts);
  }

  /** The connection set owns the underlying store and closes it. */
  async close(): Promise<void> {}
}

/** One connection as the tools see it. */
export class ToolConnection {
  readonly #connection: ObjstoreConnection;
  readonly #reserved: ReadonlySet<string>;
  /** The connection's store behind the bucket check. */
  readonly store: ObjectStore;

  constructor(connection: ObjstoreConnection, reserved: ReadonlySet<string>) {
    this.#connection = connection;
    this.#reserved = reserved;
    this.store = new GuardedStore(connection.store, (bucket) => this.checkBucket(bucket));
  }

  get name(): string {
    return this.#connection.name;
  }
  get displayName(): string {
    return this.#connection.displayName;
  }
  get driver(): ObjstoreConnection['driver'] {
    return this.#connection.driver;
  }
  get region(): string | undefined {
    return this.#connection.region;
  }
  get endpoint(): string | undefined {
    return this.#connection.endpoint;
  }
  get readOnly(): boolean {
    return this.#connection.readOnly;
  }
  get maxReadBytes(): number | undefined {
    return this.#connection.maxReadBytes;
  }
  get maxGetSize(): number | undefined {
    return this.#connection.maxGetSize;
  }
  get maxPutSize(): number | undefined {
    return this.#connection.maxPutSize;
  }

  /** InvalidBucketName, AccessDenied outside bucket_prefix, AccessDenied for a platform bucket. */
  checkBucket(bucket: string): void {
    this.#connection.checkBucket(bucket);
    if (this.#reserved.has(bucket)) throw reservedBucketError(bucket);
  }

  checkWritable(): void {
    this.#connection.checkWritable();
  }

  ready(): Promise<void> {
    return this.#connection.ready();
  }

  /** Checks a request to a presigned URL of this connection; only the filesystem driver signs its own. */
  verifyPresigned(request: ParsedPresignedRequest, httpMethod: string): PresignVerdict {
    const store = this.#connection.store;
    if (!(store instanceof FilesystemObjectStore)) return { ok: false, reason: 'not a filesystem connection' };
    return store.verifyPresigned(request, httpMethod);
  }
}

/** The connections the tools may name, and the one used when a call names none. */
export class ObjstoreToolView {
  readonly defaultConnection: string | undefined;
  readonly #connections: ReadonlyMap<string, ToolConnection>;

  constructor(connections: readonly ObjstoreConnection[], reserved: ReadonlySet<string>, defaultConnection: string | undefined) {
    this.#connections = new Map(connections.filter((c) => !c.internal).map((c) => [c.name, new ToolConnection(c, reserved)]));
    this.defaultConnection = defaultConnection;
  }

  list(): ToolConnection[] {
    return [...this.#connections.values()];
  }

  /** The named connection, or the default when the name is empty; ConnectionNotFound otherwise (internal ones too). */
  get(name?: string): ToolConnection {
    const wanted = name === undefined || name === '' ? this.defaultConnection : name;
    const found = wanted === undefined ? undefined : this.#connections.get(wanted);
    if (!found) throw connectionNotFound(name, [...this.#connections.keys()]);
    return found;
  }
}
