/**
 * Object-store errors. Every failure of the storage layer is an ObjstoreError with a code; the
 * seven codes of spec document 3 ("Object-storage tool errors") are what tools report, the others
 * are for platform callers of the storage API (conditional writes, ranges, paging tokens).
 * S3 failures are mapped from the SDK's error name / HTTP status, never from message text.
 */

/** The codes of spec document 3, as the tools report them. */
export const toolErrorCodes = [
  'NoSuchBucket',
  'NoSuchKey',
  'AccessDenied',
  'InvalidBucketName',
  'EntityTooLarge',
  'ReadOnlyMode',
  'ConnectionNotFound',
] as const;

export type ObjstoreErrorCode =
  | (typeof toolErrorCodes)[number]
  /** An if-match / if-none-match condition did not hold (HTTP 412). */
  | 'PreconditionFailed'
  /** A read with if-none-match found the same ETag (HTTP 304). */
  | 'NotModified'
  /** A ranged read starts at or beyond the end of the object (HTTP 416). */
  | 'InvalidRange'
  /** createBucket of a bucket that exists. */
  | 'BucketAlreadyExists'
  /** deleteBucket of a bucket that still holds objects. */
  | 'BucketNotEmpty'
  /** A key the store cannot hold (too long, or a path segment too long for the filesystem driver). */
  | 'KeyTooLong'
  /** A malformed argument: continuation token, method, range. */
  | 'InvalidArgument'
  /** The store is unreachable, timed out or answered with a server error. */
  | 'ServiceUnavailable'
  | 'InternalError';

export const defaultHints: Record<ObjstoreErrorCode, string> = {
  NoSuchBucket: 'Check the bucket name with objstore_list_buckets.',
  NoSuchKey: 'Check the key with objstore_list_objects (keys are case-sensitive and include the full path).',
  AccessDenied: 'The connection’s credentials or bucket_prefix do not allow this; try another bucket or connection.',
  InvalidBucketName:
    'Bucket names are 3-63 characters of lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit.',
  EntityTooLarge: 'The object is above the configured size limit; read or write a smaller object.',
  ReadOnlyMode: 'This connection is read-only; writes (put, delete, copy, presigned PUT) are disabled.',
  ConnectionNotFound: 'Call objstore_list_connections to see the connection names.',
  PreconditionFailed: 'The object changed (or exists) since you read it; read it again and retry.',
  InvalidRange: 'The requested range lies outside the object.',
  NotModified: 'Your copy is current.',
  BucketAlreadyExists: 'Choose another bucket name.',
  BucketNotEmpty: 'Delete the objects first.',
  KeyTooLong: 'Use a shorter key (at most 1024 bytes; on the filesystem driver each path segment at most 230 bytes once escaped).',
  InvalidArgument: 'Check the arguments of the call.',
  ServiceUnavailable: 'The object store did not answer; try again shortly.',
  InternalError: 'Unexpected object-store failure; try again, and report it if it persists.',
};

export class ObjstoreError extends Error {
  override readonly name = 'ObjstoreError';
  readonly code: ObjstoreErrorCode;
  readonly hint: string;
  constructor(code: ObjstoreErrorCode, message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.hint = opts.hint ?? defaultHints[code];
  }

  /** The `{error, message, hint}` body of spec document 3. */
  toJSON(): { error: ObjstoreErrorCode; message: string; hint: string } {
    return { error: this.code, message: this.message, hint: this.hint };
  }
}

/** An unknown connection name; the hint lists the names the caller may use. */
export function connectionNotFound(name: string | undefined, known: readonly string[]): ObjstoreError {
  return new ObjstoreError('ConnectionNotFound', `connection not found: ${name || '(default)'}`, {
    hint: `Known connections: ${known.length ? known.join(', ') : 'none configured'}. Call objstore_list_connections.`,
  });
}

export function isObjstoreError(err: unknown, code?: ObjstoreErrorCode): err is ObjstoreError {
  return err instanceof ObjstoreError && (code === undefined || err.code === code);
}

/** What the call was about, so that a bodiless 404 (HEAD) can be told apart and messages name it. */
export interface S3ErrorContext {
  bucket?: string;
  key?: string;
  /** For a HEAD 404: whether the bucket exists (asked separately by the driver). */
  bucketExists?: boolean;
}

/** S3 error codes (the SDK's `name`, which is the `<Code>` of the XML error body) to ours. */
const byName: Record<string, ObjstoreErrorCode> = {
  NoSuchBucket: 'NoSuchBucket',
  NoSuchKey: 'NoSuchKey',
  NoSuchVersion: 'NoSuchKey',
  AccessDenied: 'AccessDenied',
  Forbidden: 'AccessDenied',
  AllAccessDisabled: 'AccessDenied',
  InvalidAccessKeyId: 'AccessDenied',
  SignatureDoesNotMatch: 'AccessDenied',
  ExpiredToken: 'AccessDenied',
  InvalidToken: 'AccessDenied',
  AccountProblem: 'AccessDenied',
  InvalidBucketName: 'InvalidBucketName',
  EntityTooLarge: 'EntityTooLarge',
  PreconditionFailed: 'PreconditionFailed',
  ConditionalRequestConflict: 'PreconditionFailed',
  InvalidRange: 'InvalidRange',
  BucketAlreadyExists: 'BucketAlreadyExists',
  BucketAlreadyOwnedByYou: 'BucketAlreadyExists',
  BucketNotEmpty: 'BucketNotEmpty',
  KeyTooLongError: 'KeyTooLong',
  InvalidArgument: 'InvalidArgument',
  InvalidRequest: 'InvalidArgument',
  NotModified: 'NotModified',
  XMinioInvalidObjectName: 'InvalidArgument',
  SlowDown: 'ServiceUnavailable',
  ServiceUnavailable: 'ServiceUnavailable',
  RequestTimeout: 'ServiceUnavailable',
  TimeoutError: 'ServiceUnavailable',
  InternalError: 'InternalError',
};

function describeTarget(ctx: S3ErrorContext): string {
  if (ctx.bucket && ctx.key !== undefined) return `${ctx.bucket}/${ctx.key}`;
  return ctx.bucket ?? 'the object store';
}

function messageFor(code: ObjstoreErrorCode, ctx: S3ErrorContext, fallback: string): string {
  switch (code) {
    case 'NoSuchBucket':
      return `bucket not found: ${ctx.bucket ?? '(unknown)'}`;
    case 'NoSuchKey':
      return `object not found: ${describeTarget(ctx)}`;
    case 'AccessDenied':
      return `access denied to ${describeTarget(ctx)}`;
    case 'InvalidBucketName':
      return `invalid bucket name: ${ctx.bucket ?? '(unknown)'}`;
    case 'PreconditionFailed':
      return `precondition failed for ${describeTarget(ctx)}`;
    case 'BucketAlreadyExists':
      return `bucket already exists: ${ctx.bucket ?? '(unknown)'}`;
    case 'NotModified':
      return `${describeTarget(ctx)} has not changed`;
    case 'InvalidRange':
      return `the requested range is outside ${describeTarget(ctx)}`;
    default:
      return fallback;
  }
}

/** Network-level failures (no HTTP answer) carry Node error codes rather than S3 names. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/**
 * Maps an error thrown by @aws-sdk/client-s3 to an ObjstoreError by its S3 error name, then by
 * HTTP status for bodiless answers (HEAD has no XML body, so its 404 is `NotFound`).
 */
export function mapS3Error(err: unknown, ctx: S3ErrorContext = {}): ObjstoreError {
  if (err instanceof ObjstoreError) return err;
  const e = err as {
    name?: unknown;
    Code?: unknown;
    code?: unknown;
    message?: unknown;
    BucketName?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  // S3 names the bucket it means in its error body (a copy involves two).
  if (typeof e?.BucketName === 'string' && e.BucketName !== '') ctx = { ...ctx, bucket: e.BucketName };
  const name = typeof e?.Code === 'string' ? e.Code : typeof e?.name === 'string' ? e.name : '';
  const status = e?.$metadata?.httpStatusCode;
  const rawMessage =
    typeof e?.message === 'string' && e.message !== '' && e.message !== 'UnknownError' && e.message !== 'Unknown'
      ? e.message
      : `object-store request failed${status ? ` (HTTP ${status})` : ''}`;
  let code: ObjstoreErrorCode | undefined = byName[name];
  if (!code) {
    if (name === 'AbortError') return new ObjstoreError('ServiceUnavailable', 'the request was aborted', { cause: err });
    if (typeof e?.code === 'string' && networkCodes.has(e.code)) {
      return new ObjstoreError('ServiceUnavailable', `object store unreachable (${e.code})`, { cause: err });
    }
    if (status === 404 || name === 'NotFound') {
      code = ctx.key !== undefined && ctx.bucketExists !== false ? 'NoSuchKey' : 'NoSuchBucket';
    } else if (status === 403) code = 'AccessDenied';
    else if (status === 412) code = 'PreconditionFailed';
    else if (status === 304) code = 'NotModified';
    else if (status === 416) code = 'InvalidRange';
    else if (status === 413) code = 'EntityTooLarge';
    else if (status === 400) code = 'InvalidArgument';
    else if (status === 503 || status === 504 || status === 408) code = 'ServiceUnavailable';
    else code = 'InternalError';
  }
  return new ObjstoreError(code, messageFor(code, ctx, rawMessage), { cause: err });
}
