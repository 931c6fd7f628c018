/**
 * The S3 driver (AWS S3 and S3-compatible stores such as MinIO) on @aws-sdk/client-s3.
 * Large puts stream through @aws-sdk/lib-storage (multipart, bounded buffering); presigned URLs
 * come from the AWS presigner, signed for `public_endpoint` when one is configured.
 */
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ObjstoreError, mapS3Error, type S3ErrorContext } from './errors.js';
import {
  assertBucketName,
  assertContentType,
  assertKey,
  assertMetadataSize,
  decodeMetadataValue,
  encodeMetadataValue,
  mapMetadataValues,
  normalizeMetadata,
  quoteEtag,
} from './rules.js';
import { assertWithinLimit, bytesOf, DigestStream } from './streams.js';
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

export interface S3StoreOptions {
  region: string;
  endpoint?: string;
  /** Endpoint that presigned URLs name (what clients outside the platform reach). */
  publicEndpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Shared-credentials profile name (used when no static credentials are given). */
  profile?: string;
  forcePathStyle?: boolean;
  /** Per-request timeout in ms (socket inactivity and connection set-up). */
  timeoutMs?: number;
  /** Plain HTTP to the endpoint. */
  disableSsl?: boolean;
  clock?: Clock;
  /** Multipart part size (default 5 MiB, the S3 minimum) and parts in flight (default 2): memory is a small multiple of their product. */
  partSize?: number;
  queueSize?: number;
}

/** The attributes HeadObject and GetObject both answer, as our ObjectHead (`size` is the whole object's). */
function objectHead(
  bucket: string,
  key: string,
  out: { ETag?: string; ContentType?: string; LastModified?: Date; Metadata?: Record<string, string>; VersionId?: string; StorageClass?: string },
  size: number,
): ObjectHead {
  return {
    bucket,
    key,
    size,
    etag: quoteEtag(out.ETag ?? ''),
    contentType: out.ContentType ?? 'application/octet-stream',
    lastModified: out.LastModified ?? new Date(0),
    metadata: mapMetadataValues(out.Metadata, decodeMetadataValue),
    ...(out.VersionId && out.VersionId !== 'null' ? { versionId: out.VersionId } : {}),
    storageClass: out.StorageClass ?? 'STANDARD',
  };
}

const defaultPartSize = 5 * 1024 * 1024;
const defaultQueueSize = 2;

function withScheme(endpoint: string, disableSsl: boolean | undefined): string {
  return disableSsl ? endpoint.replace(/^https:/i, 'http:') : endpoint;
}

function clientConfig(opts: S3StoreOptions, endpoint: string | undefined): S3ClientConfig {
  const timeout = opts.timeoutMs ?? 30_000;
  return {
    region: opts.region,
    ...(endpoint ? { endpoint: withScheme(endpoint, opts.disableSsl) } : {}),
    ...(opts.disableSsl ? { tls: false } : {}),
    forcePathStyle: opts.forcePathStyle ?? false,
    ...(opts.credentials ? { credentials: opts.credentials } : opts.profile ? { profile: opts.profile } : {}),
    requestHandler: { requestTimeout: timeout, connectionTimeout: Math.min(timeout, 10_000) },
    // S3-compatible stores (and plain-HTTP uploads to presigned URLs) do not all accept the
    // SDK's default CRC checksums; send them only where the API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function rangeHeader(range: { start: number; end?: number }): string {
  return `bytes=${range.start}-${range.end ?? ''}`;
}

/** `bytes 0-9/100` → start, end, total. */
function parseContentRange(value: string | undefined): { start: number; end: number; total: number } | undefined {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value ?? '');
  return m ? { start: Number(m[1]), end: Number(m[2]), total: Number(m[3]) } : undefined;
}

function copySource(bucket: string, key: string): string {
  return `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

export class S3ObjectStore implements ObjectStore {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  readonly #presignClient: S3Client;
  readonly #clock: Clock;
  readonly #partSize: number;
  readonly #queueSize: number;

  constructor(opts: S3StoreOptions) {
    this.client = new S3Client(clientConfig(opts, opts.endpoint));
    this.#presignClient = opts.publicEndpoint ? new S3Client(clientConfig(opts, opts.publicEndpoint)) : this.client;
    this.#clock = opts.clock ?? systemClock;
    this.#partSize = Math.max(opts.partSize ?? defaultPartSize, 5 * 1024 * 1024);
    this.#queueSize = Math.max(opts.queueSize ?? defaultQueueSize, 1);
  }

  async #send<T>(fn: () => Promise<T>, ctx: S3ErrorContext): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      const name = (err as { name?: string }).name;
      // A bodiless 404 (HEAD) does not say whether the bucket or the key is missing: ask.
      if (ctx.key !== undefined && ctx.bucket && (name === 'NotFound' || (status === 404 && name !== 'NoSuchKey' && name !== 'NoSuchBucket'))) {
        const exists = await this.bucketExists(ctx.bucket).catch(() => true);
        throw mapS3Error(err, { ...ctx, bucketExists: exists });
      }
      throw mapS3Error(err, ctx);
    }
  }

  async listBuckets(opts: { signal?: AbortSignal } = {}): Promise<BucketInfo[]> {
    const out = await this.#send(() => this.client.send(new ListBucketsCommand({}), { abortSignal: opts.signal }), {});
    return (out.Buckets ?? []).flatMap((b) => (b.Name ? [{ name: b.Name, ...(b.CreationDate ? { createdAt: b.CreationDate } : {}) }] : []));
  }

  async bucketExists(bucket: string): Promise<boolean> {
    assertBucketName(bucket);
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }));
      return true;
    } catch (err) {
      const mapped = mapS3Error(err, { bucket });
      if (mapped.code === 'NoSuchBucket') return false;
      throw mapped;
    }
  }

  async createBucket(bucket: string): Promise<void> {
    assertBucketName(bucket);
    const region = await this.client.config.region();
    await this.#send(
      () =>
        this.client.send(
          new CreateBucketCommand({
            Bucket: bucket,
            ...(region && region !== 'us-east-1' ? { CreateBucketConfiguration: { LocationConstraint: region as never } } : {}),
          }),
        ),
      { bucket },
    );
  }

  async ensureBucket(bucket: string): Promise<void> {
    if (await this.bucketExists(bucket)) return;
    try {
      await this.createBucket(bucket);
    } catch (err) {
      if (!(err instanceof ObjstoreError && err.code === 'BucketAlreadyExists')) throw err;
    }
  }

  async deleteBucket(bucket: string): Promise<void> {
    assertBucketName(bucket);
    await this.#send(() => this.client.send(new DeleteBucketCommand({ Bucket: bucket })), { bucket });
  }

  async headObject(bucket: string, key: string, opts: Conditions & { signal?: AbortSignal } = {}): Promise<ObjectHead> {
    assertBucketName(bucket);
    assertKey(key);
    const out = await this.#send(
      () =>
        this.client.send(
          new HeadObjectCommand({
            Bucket: bucket,
            Key: key,
            ...(opts.ifMatch !== undefined ? { IfMatch: opts.ifMatch } : {}),
            ...(opts.ifNoneMatch !== undefined ? { IfNoneMatch: opts.ifNoneMatch } : {}),
          }),
          { abortSignal: opts.signal },
        ),
      { bucket, key },
    );
    return objectHead(bucket, key, out, out.ContentLength ?? 0);
  }

  async getObject(bucket: string, key: string, opts: GetOptions = {}): Promise<GetResult> {
    assertBucketName(bucket);
    assertKey(key);
    const out = await this.#send(
      () =>
        this.client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            ...(opts.range ? { Range: rangeHeader(opts.range) } : {}),
            ...(opts.ifMatch !== undefined ? { IfMatch: opts.ifMatch } : {}),
            ...(opts.ifNoneMatch !== undefined ? { IfNoneMatch: opts.ifNoneMatch } : {}),
          }),
          { abortSignal: opts.signal },
        ),
      { bucket, key },
    );
    const body = out.Body instanceof Readable ? out.Body : Readable.from([]);
    const contentLength = out.ContentLength ?? 0;
    const cr = parseContentRange(out.ContentRange);
    return {
      head: objectHead(bucket, key, out, cr?.total ?? contentLength),
      body,
      contentLength,
      ...(cr ? { range: { start: cr.start, end: cr.end } } : {}),
    };
  }

  async putObject(bucket: string, key: string, body: Readable | Uint8Array | string, opts: PutOptions = {}): Promise<PutResult> {
    let metadata: Record<string, string>;
    try {
      assertBucketName(bucket);
      assertKey(key);
      assertContentType(opts.contentType);
      metadata = normalizeMetadata(opts.metadata);
      assertMetadataSize(metadata);
    } catch (err) {
      if (body instanceof Readable) body.destroy();
      throw err;
    }
    const params = {
      Bucket: bucket,
      Key: key,
      ContentType: opts.contentType || 'application/octet-stream',
      Metadata: mapMetadataValues(metadata, encodeMetadataValue),
      ...(opts.ifMatch !== undefined ? { IfMatch: opts.ifMatch } : {}),
      ...(opts.ifNoneMatch !== undefined ? { IfNoneMatch: opts.ifNoneMatch } : {}),
    };
    const ctx = { bucket, key };

    // Bytes in hand and small enough for one request: a plain PutObject.
    if (!(body instanceof Readable)) {
      const bytes = bytesOf(body);
      assertWithinLimit(bytes.length, opts.maxBytes);
      if (bytes.length <= this.#partSize) {
        const out = await this.#send(
          () => this.client.send(new PutObjectCommand({ ...params, Body: bytes, ContentLength: bytes.length }), { abortSignal: opts.signal }),
          ctx,
        );
        return {
          etag: quoteEtag(out.ETag ?? ''),
          size: bytes.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          ...(out.VersionId ? { versionId: out.VersionId } : {}),
        };
      }
      body = Readable.from([bytes]);
    }

    const source = body;
    const digest = new DigestStream(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {});
    source.on('error', (err) => digest.destroy(err));
    source.pipe(digest);
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const upload = new Upload({
      client: this.client,
      params: { ...params, Body: digest },
      partSize: this.#partSize,
      queueSize: this.#queueSize,
      leavePartsOnError: false,
      abortController: abort,
    });
    try {
      const out = await upload.done();
      return {
        etag: quoteEtag(out.ETag ?? ''),
        size: digest.byteCount,
        sha256: digest.sha256,
        ...(out.VersionId ? { versionId: out.VersionId } : {}),
      };
    } catch (err) {
      source.unpipe(digest);
      source.destroy();
      // The size ceiling fails the body stream itself; that error is ours already.
      const cause = digest.errored ?? err;
      throw mapS3Error(cause instanceof ObjstoreError ? cause : err, ctx);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  async listObjects(bucket: string, opts: ListOptions = {}): Promise<ListPage> {
    assertBucketName(bucket);
    const maxKeys = opts.maxKeys !== undefined && opts.maxKeys > 0 ? Math.min(Math.floor(opts.maxKeys), 1000) : 1000;
    const out = await this.#send(
      () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            MaxKeys: maxKeys,
            ...(opts.prefix ? { Prefix: opts.prefix } : {}),
            ...(opts.delimiter ? { Delimiter: opts.delimiter } : {}),
            ...(opts.continuationToken ? { ContinuationToken: opts.continuationToken } : opts.startAfter ? { StartAfter: opts.startAfter } : {}),
          }),
          { abortSignal: opts.signal },
        ),
      { bucket },
    );
    return {
      objects: (out.Contents ?? []).map((o) => ({
        key: o.Key ?? '',
        size: o.Size ?? 0,
        etag: quoteEtag(o.ETag ?? ''),
        lastModified: o.LastModified ?? new Date(0),
        storageClass: o.StorageClass ?? 'STANDARD',
      })),
      commonPrefixes: (out.CommonPrefixes ?? []).flatMap((p) => (p.Prefix !== undefined ? [p.Prefix] : [])),
      isTruncated: out.IsTruncated === true,
      ...(out.IsTruncated && out.NextContinuationToken ? { nextContinuationToken: out.NextContinuationToken } : {}),
    };
  }

  async copyObject(source: { bucket: string; key: string }, dest: { bucket: string; key: string }, opts: CopyOptions = {}): Promise<CopyResult> {
    assertBucketName(source.bucket);
    assertKey(source.key);
    assertBucketName(dest.bucket);
    assertKey(dest.key);
    assertContentType(opts.contentType);
    const metadata = opts.metadata !== undefined ? normalizeMetadata(opts.metadata) : undefined;
    if (metadata) assertMetadataSize(metadata);
    const replace = metadata !== undefined || opts.contentType !== undefined;
    let contentType = opts.contentType;
    let sourceIfMatch = opts.sourceIfMatch;
    if (replace) {
      // REPLACE drops every attribute not given: keep the source's content type (and user
      // metadata when only the type changes), pinned to the version we read.
      const head = await this.headObject(source.bucket, source.key, sourceIfMatch !== undefined ? { ifMatch: sourceIfMatch } : {});
      contentType ??= head.contentType;
      sourceIfMatch ??= head.etag;
      if (metadata === undefined) opts = { ...opts, metadata: head.metadata };
    }
    const out = await this.#send(
      () =>
        this.client.send(
          new CopyObjectCommand({
            Bucket: dest.bucket,
            Key: dest.key,
            CopySource: copySource(source.bucket, source.key),
            ...(sourceIfMatch !== undefined ? { CopySourceIfMatch: sourceIfMatch } : {}),
            ...(replace
              ? {
                  MetadataDirective: 'REPLACE' as const,
                  Metadata: mapMetadataValues(metadata ?? opts.metadata, encodeMetadataValue),
                  ContentType: contentType,
                }
              : {}),
          }),
          { abortSignal: opts.signal },
        ),
      { bucket: source.bucket, key: source.key },
    ).catch(async (err: unknown) => {
      // Not every S3-compatible store names the right bucket when one of the two is missing.
      if (err instanceof ObjstoreError && err.code === 'NoSuchBucket') {
        const missing = (await this.bucketExists(source.bucket).catch(() => true)) ? dest.bucket : source.bucket;
        throw new ObjstoreError('NoSuchBucket', `bucket not found: ${missing}`, { cause: err });
      }
      throw err;
    });
    return {
      etag: quoteEtag(out.CopyObjectResult?.ETag ?? ''),
      lastModified: out.CopyObjectResult?.LastModified ?? this.#clock(),
      ...(out.VersionId ? { versionId: out.VersionId } : {}),
    };
  }

  async deleteObject(bucket: string, key: string, opts: { signal?: AbortSignal } = {}): Promise<DeleteResult> {
    assertBucketName(bucket);
    assertKey(key);
    let existed = true;
    try {
      await this.headObject(bucket, key, opts.signal ? { signal: opts.signal } : {});
    } catch (err) {
      if (!(err instanceof ObjstoreError && err.code === 'NoSuchKey')) throw err;
      existed = false;
    }
    await this.#send(() => this.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: opts.signal }), { bucket, key });
    return { existed };
  }

  async presign(bucket: string, key: string, opts: PresignOptions): Promise<PresignResult> {
    assertBucketName(bucket);
    assertKey(key);
    const signingDate = this.#clock();
    const command =
      opts.method === 'PUT'
        ? new PutObjectCommand({ Bucket: bucket, Key: key, ...(opts.contentType ? { ContentType: opts.contentType } : {}) })
        : new GetObjectCommand({ Bucket: bucket, Key: key });
    try {
      const url = await getSignedUrl(this.#presignClient, command, { expiresIn: opts.expiresIn, signingDate });
      // SigV4 counts expiry from X-Amz-Date, which has whole seconds.
      const signedAt = Math.floor(signingDate.getTime() / 1000) * 1000;
      return { url, method: opts.method, expiresAt: new Date(signedAt + opts.expiresIn * 1000) };
    } catch (err) {
      throw mapS3Error(err, { bucket, key });
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.#presignClient !== this.client) this.#presignClient.destroy();
  }
}
