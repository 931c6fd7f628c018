/**
 * The configured object-store connections (`toolkits.objstore.<instance>`): one store per
 * instance, the default connection, and each connection's rules — read-only, size limits,
 * bucket_prefix — with the environment overrides of spec document 3 folded in once, at start.
 * These are the platform's own handles (managed resources store through them); the objstore
 * tools and the presigned-URL route get only `tools`, the view that keeps platform storage out.
 */
import type { ObjstoreInstanceConfig, PlatformConfig } from '../config/index.js';
import { objstoreRoot } from '../config/index.js';
import { ObjstoreError, connectionNotFound } from './errors.js';
import { FilesystemObjectStore, type FilesystemPresignOptions } from './fs-driver.js';
import { reservedBucketNames } from './platform-buckets.js';
import { assertBucketName, readObjstoreEnv, tighterLimit } from './rules.js';
import { S3ObjectStore } from './s3-driver.js';
import { ObjstoreToolView } from './tool-view.js';
import { systemClock, type Clock, type ObjectStore } from './types.js';

export interface ObjstoreConnection {
  /** Instance key: what the tools' `connection` argument names. */
  readonly name: string;
  /** `connection_name`, else the instance key. */
  readonly displayName: string;
  readonly driver: 's3' | 'filesystem';
  readonly region?: string;
  readonly endpoint?: string;
  /** Driver filesystem: the directory holding its buckets (engines that read the store's files need it). */
  readonly root?: string;
  readonly store: ObjectStore;
  /** Config `read_only` or MCP_OBJSTORE_EXT_READONLY. */
  readonly readOnly: boolean;
  /** Config `max_get_size`: a read returns at most this many bytes (then `truncated`). Undefined: no cap. */
  readonly maxReadBytes?: number;
  /** MCP_OBJSTORE_MAX_GET_SIZE: objects larger than this are refused outright. */
  readonly maxGetSize?: number;
  /** The tighter of config `max_put_size` and MCP_OBJSTORE_MAX_PUT_SIZE; larger writes are refused. */
  readonly maxPutSize?: number;
  readonly bucketPrefix?: string;
  /** Config `internal`: the platform uses this connection; the tools cannot name it. */
  readonly internal: boolean;
  /** InvalidBucketName for a malformed name, AccessDenied for one outside bucket_prefix. */
  checkBucket(bucket: string): void;
  /** ReadOnlyMode when writes are off. */
  checkWritable(): void;
  /** Creates the bucket on first use (memoised), e.g. the platform's own buckets. */
  ensureBucket(bucket: string): Promise<void>;
  /** Resolves once the connection's seed buckets exist; call before the first operation. */
  ready(): Promise<void>;
}

export interface ObjstoreConnections {
  readonly defaultConnection: string | undefined;
  list(): ObjstoreConnection[];
  /** The named connection, or the default when the name is empty; ConnectionNotFound otherwise. */
  get(name?: string): ObjstoreConnection;
  /** What the objstore tools and the presigned-URL route may reach (tool-view.ts). */
  readonly tools: ObjstoreToolView;
  close(): Promise<void>;
}

export interface ObjstoreDeps {
  /** Environment for MCP_OBJSTORE_*; defaults to process.env. */
  env?: Record<string, string | undefined>;
  clock?: Clock;
  /**
   * For filesystem instances: how their presigned URLs are built. `baseUrl` is the api's public
   * URL (a function when it is known only after listen); `key` is the signing secret.
   */
  presign?: { baseUrl: string | (() => string); key: Uint8Array };
  /** Buckets to create on first use, per connection (e.g. `{ local: ['default'] }`). */
  seedBuckets?: Record<string, readonly string[]>;
  /** Connection used when a call names none; default: the alphabetically first instance (the first not internal, for the tools). */
  defaultConnection?: string;
  /** Multipart tuning for S3 stores (tests and benchmarks). */
  s3?: { partSize?: number; queueSize?: number };
}

/** Builds the store for one instance. */
export function createObjectStore(
  name: string,
  instance: ObjstoreInstanceConfig,
  root: string,
  deps: Pick<ObjstoreDeps, 'clock' | 'presign' | 's3'> = {},
): ObjectStore {
  const clock = deps.clock ?? systemClock;
  if (instance.driver === 'filesystem') {
    const presign: FilesystemPresignOptions | undefined = deps.presign ? { connection: name, ...deps.presign } : undefined;
    return new FilesystemObjectStore({ root, clock, ...(presign ? { presign } : {}) });
  }
  const credentials =
    instance.access_key_id && instance.secret_access_key
      ? {
          accessKeyId: instance.access_key_id,
          secretAccessKey: instance.secret_access_key,
          ...(instance.session_token ? { sessionToken: instance.session_token } : {}),
        }
      : undefined;
  return new S3ObjectStore({
    region: instance.region,
    ...(instance.endpoint ? { endpoint: instance.endpoint } : {}),
    ...(instance.public_endpoint ? { publicEndpoint: instance.public_endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    ...(instance.profile ? { profile: instance.profile } : {}),
    forcePathStyle: instance.use_path_style,
    timeoutMs: instance.timeout,
    disableSsl: instance.disable_ssl,
    clock,
    ...(deps.s3?.partSize ? { partSize: deps.s3.partSize } : {}),
    ...(deps.s3?.queueSize ? { queueSize: deps.s3.queueSize } : {}),
  });
}

class Connection implements ObjstoreConnection {
  readonly name: string;
  readonly displayName: string;
  readonly driver: 's3' | 'filesystem';
  readonly region?: string;
  readonly endpoint?: string;
  readonly root?: string;
  readonly store: ObjectStore;
  readonly readOnly: boolean;
  readonly maxReadBytes?: number;
  readonly maxGetSize?: number;
  readonly maxPutSize?: number;
  readonly bucketPrefix?: string;
  readonly internal: boolean;
  readonly #seeds: readonly string[];
  readonly #ensured = new Map<string, Promise<void>>();
  #ready: Promise<void> | undefined;

  constructor(init: Omit<ObjstoreConnection, 'checkBucket' | 'checkWritable' | 'ensureBucket' | 'ready'> & { seeds: readonly string[] }) {
    this.name = init.name;
    this.displayName = init.displayName;
    this.driver = init.driver;
    if (init.region !== undefined) this.region = init.region;
    if (init.endpoint !== undefined) this.endpoint = init.endpoint;
    if (init.root !== undefined) this.root = init.root;
    this.store = init.store;
    this.readOnly = init.readOnly;
    if (init.maxReadBytes !== undefined) this.maxReadBytes = init.maxReadBytes;
    if (init.maxGetSize !== undefined) this.maxGetSize = init.maxGetSize;
    if (init.maxPutSize !== undefined) this.maxPutSize = init.maxPutSize;
    if (init.bucketPrefix !== undefined) this.bucketPrefix = init.bucketPrefix;
    this.internal = init.internal;
    this.#seeds = init.seeds;
  }

  checkBucket(bucket: string): void {
    assertBucketName(bucket);
    if (this.bucketPrefix && !bucket.startsWith(this.bucketPrefix)) {
      throw new ObjstoreError('AccessDenied', `bucket ${bucket} is outside this connection (bucket_prefix "${this.bucketPrefix}")`, {
        hint: `Connection ${this.name} serves only buckets whose names start with "${this.bucketPrefix}"; see objstore_list_buckets.`,
      });
    }
  }

  checkWritable(): void {
    if (this.readOnly) {
      throw new ObjstoreError('ReadOnlyMode', `connection ${this.name} is read-only; writes are blocked`);
    }
  }

  ensureBucket(bucket: string): Promise<void> {
    let done = this.#ensured.get(bucket);
    if (!done) {
      done = this.store.ensureBucket(bucket).catch((err: unknown) => {
        this.#ensured.delete(bucket);
        throw err;
      });
      this.#ensured.set(bucket, done);
    }
    return done;
  }

  ready(): Promise<void> {
    if (this.#seeds.length === 0) return Promise.resolve();
    this.#ready ??= Promise.all(this.#seeds.map((b) => this.ensureBucket(b))).then(
      () => undefined,
      (err: unknown) => {
        this.#ready = undefined;
        throw err;
      },
    );
    return this.#ready;
  }
}

/**
 * One connection per `toolkits.objstore.<instance>`, and the tools' view of them. Throws at start
 * when an MCP_OBJSTORE_* variable has a value readObjstoreEnv refuses, or `defaultConnection` names
 * no instance or an internal one (fail closed).
 */
export function createObjstoreConnections(config: PlatformConfig, deps: ObjstoreDeps = {}): ObjstoreConnections {
  const env = readObjstoreEnv(deps.env ?? process.env);
  const names = Object.keys(config.toolkits.objstore).sort();
  const connections = new Map<string, Connection>();
  for (const name of names) {
    const instance = config.toolkits.objstore[name]!;
    const root = objstoreRoot(config, name);
    const store = createObjectStore(name, instance, root, deps);
    const isS3 = instance.driver === 's3';
    const maxPut = tighterLimit(instance.max_put_size, env.maxPutSize);
    connections.set(
      name,
      new Connection({
        name,
        displayName: instance.connection_name ?? name,
        driver: instance.driver,
        ...(isS3 ? { region: instance.region } : {}),
        ...(isS3 && instance.endpoint ? { endpoint: instance.endpoint } : {}),
        ...(isS3 ? {} : { root }),
        store,
        readOnly: instance.read_only || env.readOnly,
        ...(instance.max_get_size > 0 ? { maxReadBytes: instance.max_get_size } : {}),
        ...(env.maxGetSize !== undefined ? { maxGetSize: env.maxGetSize } : {}),
        ...(maxPut !== undefined ? { maxPutSize: maxPut } : {}),
        ...(instance.bucket_prefix ? { bucketPrefix: instance.bucket_prefix } : {}),
        internal: instance.internal,
        seeds: deps.seedBuckets?.[name] ?? [],
      }),
    );
  }
  if (deps.defaultConnection !== undefined && !connections.has(deps.defaultConnection)) {
    throw new Error(`default object-store connection "${deps.defaultConnection}" is not configured under toolkits.objstore`);
  }
  if (deps.defaultConnection !== undefined && connections.get(deps.defaultConnection)!.internal) {
    throw new Error(`default object-store connection "${deps.defaultConnection}" is internal (toolkits.objstore.${deps.defaultConnection}.internal): the tools cannot use it`);
  }
  const defaultConnection = deps.defaultConnection ?? names[0];
  const tools = new ObjstoreToolView(
    [...connections.values()],
    reservedBucketNames(config),
    deps.defaultConnection ?? names.find((n) => !connections.get(n)!.internal),
  );
  return {
    defaultConnection,
    list: () => [...connections.values()],
    get(name?: string) {
      const wanted = name === undefined || name === '' ? defaultConnection : name;
      const found = wanted === undefined ? undefined : connections.get(wanted);
      if (!found) throw connectionNotFound(name, names);
      return found;
    },
    tools,
    async close() {
      await Promise.all([...connections.values()].map((c) => c.store.close()));
    },
  };
}
