/**
 * The nine `objstore_*` tools of spec document 3 ("Object-storage tools"). Responses are JSON
 * (text + structuredContent); failures are tool results with isError and the `{error, message,
 * hint}` body. The two responses the spec leaves open are documented in docs/objstore.md.
 * They work on the tools' view of the connections (tool-view.ts): internal connections and the
 * platform's own buckets are out of their reach, whoever calls.
 */
import { z } from 'zod';
import { defineTool, jsonResult, type CallToolResult, type ToolDefinition } from '../mcp-tools/index.js';
import type { Logger } from '../logging/index.js';
import { ObjstoreError } from './errors.js';
import { clampExpiresIn, clampMaxKeys, encodeContent, formatTimestamp, guessContentType, normalizeMetadata } from './rules.js';
import { readAll } from './streams.js';
import type { ObjstoreToolView, ToolConnection } from './tool-view.js';
import type { GetResult } from './types.js';

const toolkit = 'objstore';

const connectionArg = z
  .string()
  .optional()
  .describe('Connection name; the default connection when omitted. objstore_list_connections lists them.');
const bucketArg = z.string().describe('Bucket name.');
const keyArg = z.string().describe('Full object key, e.g. "reports/2024/q1.csv".');
const metadataArg = z.record(z.string(), z.string());

/** The `{error, message, hint}` result; anything that is not an ObjstoreError is reported without internals. */
export function objstoreErrorResult(err: unknown, log?: Logger): CallToolResult {
  const e =
    err instanceof ObjstoreError
      ? err
      : new ObjstoreError('InternalError', 'the object-store operation failed unexpectedly', { cause: err });
  if (!(err instanceof ObjstoreError) || e.code === 'InternalError' || e.code === 'ServiceUnavailable') {
    log?.warn({ err, code: e.code }, 'objstore tool failed');
  }
  const body = e.toJSON();
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

async function run(log: Logger, fn: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return jsonResult(await fn());
  } catch (err) {
    return objstoreErrorResult(err, log);
  }
}

async function open(connections: ObjstoreToolView, name: string | undefined): Promise<ToolConnection> {
  const conn = connections.get(name);
  await conn.ready();
  return conn;
}

function sizeLimitError(size: number, limit: number): ObjstoreError {
  return new ObjstoreError('EntityTooLarge', `size limit exceeded: object size ${size} bytes exceeds limit of ${limit} bytes`);
}

const strictBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeBody(body: string, isBase64: boolean): Buffer {
  if (!isBase64) return Buffer.from(body, 'utf8');
  const compact = body.replace(/\s+/g, '');
  if (!strictBase64.test(compact)) {
    throw new ObjstoreError('InvalidArgument', 'body is not valid base64', { hint: 'Send standard base64 (A-Z, a-z, 0-9, +, /, = padding) or set is_base64 to false for text.' });
  }
  return Buffer.from(compact, 'base64');
}

/**
 * Reads an object for objstore_get_object: at most `maxReadBytes` (config max_get_size) bytes,
 * in one ranged request. Objects above the env limit are refused.
 */
async function readForTool(conn: ToolConnection, bucket: string, key: string, signal: AbortSignal): Promise<{ res: GetResult; bytes: Buffer; truncated: boolean }> {
  const cap = conn.maxReadBytes;
  let res: GetResult;
  try {
    res = await conn.store.getObject(bucket, key, { signal, ...(cap !== undefined ? { range: { start: 0, end: cap - 1 } } : {}) });
  } catch (err) {
    // An empty object has no byte 0 to range over.
    if (!(err instanceof ObjstoreError && err.code === 'InvalidRange')) throw err;
    res = await conn.store.getObject(bucket, key, { signal });
  }
  if (conn.maxGetSize !== undefined && res.head.size > conn.maxGetSize) {
    res.body.destroy();
    throw sizeLimitError(res.head.size, conn.maxGetSize);
  }
  const { bytes } = await readAll(res.body, cap ?? Number.POSITIVE_INFINITY);
  return { res, bytes, truncated: bytes.length < res.head.size };
}

/** The nine objstore_* tools over the tools' view of the connections (none when it holds no connection). */
export function objstoreTools(connections: ObjstoreToolView): ToolDefinition[] {
  if (connections.list().length === 0) return [];

  const listBuckets = defineTool({
    name: 'objstore_list_buckets',
    toolkit,
    title: 'List buckets',
    description:
      'List the buckets of an object-store connection: those within its bucket_prefix, without the platform\'s own buckets.',
    input: z.object({ connection: connectionArg }),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        const buckets = (await conn.store.listBuckets({ signal: ctx.signal })).map((b) => ({
          name: b.name,
          creation_date: b.createdAt ? formatTimestamp(b.createdAt) : null,
        }));
        return { connection: conn.name, buckets, count: buckets.length };
      }),
  });

  const listObjects = defineTool({
    name: 'objstore_list_objects',
    toolkit,
    title: 'List objects',
    description:
      'List objects in a bucket, optionally under a prefix. With delimiter "/" the listing shows one folder level: ' +
      'deeper keys roll up into common_prefixes. Pages hold at most max_keys entries (objects plus common prefixes); ' +
      'pass next_continuation_token as continuation_token to get the next page.',
    input: z.object({
      bucket: bucketArg,
      prefix: z.string().optional().describe('Only keys starting with this, e.g. "reports/2024/".'),
      delimiter: z.string().optional().describe('Usually "/": group keys by folder into common_prefixes.'),
      max_keys: z.number().int().optional().describe('Entries per page, 1-1000 (default 1000).'),
      continuation_token: z.string().optional().describe('next_continuation_token of the previous page.'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkBucket(args.bucket);
        const page = await conn.store.listObjects(args.bucket, {
          maxKeys: clampMaxKeys(args.max_keys),
          signal: ctx.signal,
          ...(args.prefix ? { prefix: args.prefix } : {}),
          ...(args.delimiter ? { delimiter: args.delimiter } : {}),
          ...(args.continuation_token ? { continuationToken: args.continuation_token } : {}),
        });
        const objects = page.objects.map((o) => ({
          key: o.key,
          size: o.size,
          last_modified: formatTimestamp(o.lastModified),
          etag: o.etag,
          storage_class: o.storageClass,
        }));
        return {
          bucket: args.bucket,
          prefix: args.prefix ?? '',
          ...(args.delimiter ? { delimiter: args.delimiter } : {}),
          objects,
          common_prefixes: page.commonPrefixes,
          count: objects.length + page.commonPrefixes.length,
          is_truncated: page.isTruncated,
          next_continuation_token: page.nextContinuationToken ?? null,
        };
      }),
  });

  const getObject = defineTool({
    name: 'objstore_get_object',
    toolkit,
    title: 'Read an object',
    description:
      'Read an object’s content and attributes. Text comes back as-is; binary content as base64 with is_base64 true. ' +
      'Reads stop at the connection’s max_get_size (truncated is then true and size tells the full length).',
    input: z.object({ bucket: bucketArg, key: keyArg, connection: connectionArg }),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkBucket(args.bucket);
        const { res, bytes, truncated } = await readForTool(conn, args.bucket, args.key, ctx.signal);
        const { content, isBase64 } = encodeContent(res.head.contentType, bytes, truncated);
        return {
          bucket: args.bucket,
          key: args.key,
          content_type: res.head.contentType,
          size: res.head.size,
          last_modified: formatTimestamp(res.head.lastModified),
          etag: res.head.etag,
          content,
          is_base64: isBase64,
          truncated,
          metadata: res.head.metadata,
        };
      }),
  });

  const getMetadata = defineTool({
    name: 'objstore_get_object_metadata',
    toolkit,
    title: 'Read object attributes',
    description: 'Read an object’s attributes (size, type, ETag, time, user metadata) without its content.',
    input: z.object({ bucket: bucketArg, key: keyArg, connection: connectionArg }),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkBucket(args.bucket);
        const head = await conn.store.headObject(args.bucket, args.key, { signal: ctx.signal });
        return {
          bucket: args.bucket,
          key: args.key,
          content_type: head.contentType,
          content_length: head.size,
          size: head.size,
          last_modified: formatTimestamp(head.lastModified),
          etag: head.etag,
          metadata: head.metadata,
        };
      }),
  });

  const putObject = defineTool({
    name: 'objstore_put_object',
    toolkit,
    title: 'Write an object',
    description:
      'Create or replace an object. body is stored as UTF-8 text, or decoded first when is_base64 is true (for binary). ' +
      'content_type defaults from the key’s extension (else text/plain, or application/octet-stream for base64).',
    input: z.object({
      bucket: bucketArg,
      key: keyArg,
      body: z.string().describe('The content: text, or base64 when is_base64 is true.'),
      content_type: z.string().optional().describe('MIME type, e.g. "text/csv".'),
      metadata: metadataArg.optional().describe('User metadata (string values); keys are stored lower-cased.'),
      is_base64: z.boolean().optional().describe('body is base64 to decode (binary content). Default false.'),
      connection: connectionArg,
    }),
    contentArguments: ['body'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkWritable();
        conn.checkBucket(args.bucket);
        const bytes = decodeBody(args.body, args.is_base64 === true);
        if (conn.maxPutSize !== undefined && bytes.length > conn.maxPutSize) throw sizeLimitError(bytes.length, conn.maxPutSize);
        const out = await conn.store.putObject(args.bucket, args.key, bytes, {
          contentType: args.content_type || guessContentType(args.key, args.is_base64 === true),
          metadata: normalizeMetadata(args.metadata),
          signal: ctx.signal,
        });
        return { bucket: args.bucket, key: args.key, etag: out.etag, size: out.size, version_id: out.versionId ?? null };
      }),
  });

  const deleteObject = defineTool({
    name: 'objstore_delete_object',
    toolkit,
    title: 'Delete an object',
    description:
      'Delete an object. Deleting a key that does not exist succeeds too (existed is then false), so a retry is safe.',
    input: z.object({ bucket: bucketArg, key: keyArg, connection: connectionArg }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkWritable();
        conn.checkBucket(args.bucket);
        const out = await conn.store.deleteObject(args.bucket, args.key, { signal: ctx.signal });
        return { bucket: args.bucket, key: args.key, deleted: true, existed: out.existed };
      }),
  });

  const copyObject = defineTool({
    name: 'objstore_copy_object',
    toolkit,
    title: 'Copy an object',
    description:
      'Copy an object within the connection (across buckets too). With metadata, the copy gets exactly that user ' +
      'metadata instead of the source’s; the content type is kept.',
    input: z.object({
      source_bucket: z.string(),
      source_key: z.string(),
      dest_bucket: z.string(),
      dest_key: z.string(),
      metadata: metadataArg.optional().describe('Replaces the source’s user metadata on the copy.'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        conn.checkWritable();
        conn.checkBucket(args.source_bucket);
        conn.checkBucket(args.dest_bucket);
        const out = await conn.store.copyObject(
          { bucket: args.source_bucket, key: args.source_key },
          { bucket: args.dest_bucket, key: args.dest_key },
          { signal: ctx.signal, ...(args.metadata !== undefined ? { metadata: args.metadata } : {}) },
        );
        return {
          source_bucket: args.source_bucket,
          source_key: args.source_key,
          dest_bucket: args.dest_bucket,
          dest_key: args.dest_key,
          etag: out.etag,
          last_modified: formatTimestamp(out.lastModified),
          version_id: out.versionId ?? null,
        };
      }),
  });

  const presignUrl = defineTool({
    name: 'objstore_presign_url',
    toolkit,
    title: 'Presign a URL',
    description:
      'Make a time-limited URL that downloads (GET) or uploads (PUT) one object with plain HTTP and no credentials. ' +
      'expires_in is in seconds (default 3600, at most 604800).',
    input: z.object({
      bucket: bucketArg,
      key: keyArg,
      method: z.enum(['GET', 'PUT']).default('GET').describe('GET to download, PUT to upload.'),
      expires_in: z.number().int().default(3600).describe('Seconds the URL stays valid (default 3600).'),
      connection: connectionArg,
    }),
    annotations: { readOnlyHint: true, idempotentHint: false, destructiveHint: false },
    handler: (args, ctx) =>
      run(ctx.log, async () => {
        const conn = await open(connections, args.connection);
        if (args.method === 'PUT') conn.checkWritable();
        conn.checkBucket(args.bucket);
        const expiresIn = clampExpiresIn(args.expires_in);
        const out = await conn.store.presign(args.bucket, args.key, { method: args.method, expiresIn });
        return {
          bucket: args.bucket,
          key: args.key,
          url: out.url,
          method: out.method,
          expires_in_seconds: expiresIn,
          expires_at: formatTimestamp(out.expiresAt),
        };
      }),
  });

  const listConnections = defineTool({
    name: 'objstore_list_connections',
    toolkit,
    title: 'List object-store connections',
    description: 'List the object-store connections this server offers and which one is used when a call names none.',
    input: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false },
    handler: (_args, ctx) =>
      run(ctx.log, async () => {
        const list = connections.list().map((c) => ({
          name: c.name,
          ...(c.displayName !== c.name ? { display_name: c.displayName } : {}),
          driver: c.driver,
          ...(c.driver === 'filesystem' ? { region: 'local' } : { region: c.region }),
          ...(c.endpoint ? { endpoint: c.endpoint } : {}),
          read_only: c.readOnly,
          is_default: c.name === connections.defaultConnection,
        }));
        return { connections: list, default_connection: connections.defaultConnection ?? null, count: list.length };
      }),
  });

  return [listBuckets, listObjects, getObject, getMetadata, putObject, deleteObject, copyObject, presignUrl, listConnections];
}
