/**
 * Presigned URLs of filesystem object-store connections: `GET|HEAD|PUT /objstore/<connection>/
 * <bucket>/<key>?X-Objstore-…`. The URL's HMAC signature is the only credential; a tampered,
 * expired or wrong-method URL answers 403, as S3 does. Bodies stream both ways (a PUT is not
 * held in memory, and is not subject to server.body_limit but to the connection's max_put_size).
 * The route works on the tools' view of the connections, so a URL naming an internal connection
 * or a platform bucket is refused (403 AccessDenied) however it was signed. What it serves is a
 * user's bytes on the platform's origin: downloads carry the protective headers of user-content.ts.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../http/app.js';
import { publicOperation } from '../http/openapi.js';
import { unsatisfiedRange, userContentHeaders } from '../http/user-content.js';
import {
  ObjstoreError,
  decodeMetadataValue,
  encodeMetadataValue,
  isObjstoreError,
  isPrintableAscii,
  parsePresignedRequest,
  presignRoutePrefix,
  type ByteRange,
  type ObjectStore,
  type ObjstoreErrorCode,
  type ObjstoreToolView,
  type ToolConnection,
} from '../../shared/objstore/index.js';

export interface ObjstoreRoutesOptions {
  /** The tools' view (ObjstoreConnections.tools): never the platform's own handles. */
  connections: ObjstoreToolView;
}

const statusByCode: Partial<Record<ObjstoreErrorCode, number>> = {
  NoSuchBucket: 404,
  NoSuchKey: 404,
  AccessDenied: 403,
  ReadOnlyMode: 403,
  EntityTooLarge: 413,
  InvalidRange: 416,
  PreconditionFailed: 412,
  InvalidBucketName: 400,
  InvalidArgument: 400,
  KeyTooLong: 400,
  ServiceUnavailable: 503,
};

function sendError(reply: FastifyReply, err: unknown, request: FastifyRequest): FastifyReply {
  const e = err instanceof ObjstoreError ? err : new ObjstoreError('InternalError', 'internal error', { cause: err });
  const status = statusByCode[e.code] ?? 500;
  if (status >= 500) request.log.error({ err }, 'presigned object request failed');
  // A refused upload may still be streaming in: do not keep the connection for another request.
  if (request.method === 'PUT') void reply.header('connection', 'close');
  return reply.code(status).send({ error: e.code, message: status >= 500 && e.code === 'InternalError' ? 'internal error' : e.message });
}

function denied(reply: FastifyReply, reason: string): FastifyReply {
  return reply.code(403).send({ error: 'AccessDenied', message: `presigned URL refused: ${reason}` });
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` (last n bytes); undefined for none or a form we do not serve. */
export function parseRangeHeader(value: string | undefined, size: () => Promise<number>): Promise<ByteRange | undefined> | ByteRange | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(value?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return size().then((total) => ({ start: Math.max(0, total - suffix) }));
  }
  return { start: Number(m[1]), ...(m[2] !== '' ? { end: Number(m[2]) } : {}) };
}

/** User metadata as S3 sends it: x-amz-meta-* headers, non-ASCII values RFC 2047-encoded. */
function metadataHeaders(metadata: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata)) out[`x-amz-meta-${k}`] = encodeMetadataValue(v);
  return out;
}

function metadataFromHeaders(headers: FastifyRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (k.startsWith('x-amz-meta-') && typeof v === 'string') out[k.slice('x-amz-meta-'.length)] = decodeMetadataValue(v);
  }
  return out;
}

/**
 * The upload as the store reads it. A store that refuses a write destroys the body it was given;
 * that must end this stream, not the request's socket, or the refusal's answer never goes out.
 */
function uploadBody(raw: IncomingMessage): Readable {
  const body = new PassThrough();
  raw.once('error', (err) => body.destroy(err));
  raw.once('close', () => {
    if (!raw.complete) body.destroy(new Error('the upload was cut off'));
  });
  return raw.pipe(body);
}

/** The download's file name: the key's last segment. */
function fileNameOf(key: string): string {
  return key.split('/').filter((s) => s !== '').pop() ?? 'download';
}

/** A range read; a 416 names the object's size in Content-Range (RFC 9110 §14.4). */
async function readRange(store: ObjectStore, bucket: string, key: string, range: ByteRange | undefined, reply: FastifyReply) {
  try {
    return await store.getObject(bucket, key, range ? { range } : {});
  } catch (err) {
    if (isObjstoreError(err, 'InvalidRange')) void reply.header('content-range', unsatisfiedRange((await store.headObject(bucket, key)).size));
    throw err;
  }
}

const querySchema = z
  .object({
    'X-Objstore-Method': z.string().optional().describe('GET or PUT: the method the URL was signed for'),
    'X-Objstore-Expires': z.string().optional().describe('Unix time (seconds) after which the URL is refused'),
    'X-Objstore-Signature': z.string().optional().describe('HMAC-SHA256 signature (base64url)'),
  })
  .catchall(z.string());

/** One route per method, so each is its own operation (the document leaves HEAD routes out, as @fastify/swagger does by default). */
const presignedOperations = [
  ['GET', 'downloadPresignedObject', 'Download an object through a presigned URL'],
  ['HEAD', 'headPresignedObject', "An object's headers through a presigned URL"],
  ['PUT', 'uploadPresignedObject', 'Upload an object through a presigned URL'],
] as const;

/**
 * The document names the wildcard's parts (parsePresignedRequest splits them): a `{*}` template is
 * no valid OpenAPI path. The key is the rest of the path, slashes included.
 */
const presignedPathDoc = (input: Parameters<typeof jsonSchemaTransform>[0]) => {
  const { schema } = jsonSchemaTransform(input);
  const segment = (description: string) => ({ type: 'string', description });
  const refusal = (description: string) => ({ description, type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' } } });
  return {
    url: `${presignRoutePrefix}/{connection}/{bucket}/{key}`,
    schema: {
      ...schema,
      params: {
        type: 'object',
        required: ['connection', 'bucket', 'key'],
        properties: {
          connection: segment('The objstore connection'),
          bucket: segment('The bucket'),
          key: segment('The object key; may contain unencoded slashes (the rest of the path)'),
        },
      },
      response: {
        ...(input.route.method === 'PUT'
          ? { 200: { description: 'Stored; ETag names the new content', type: 'null' } }
          : {
              200: { description: "The object's bytes, with its Content-Type, ETag and metadata headers", content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
              206: { description: 'The requested range (Range: bytes=…)', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
            }),
        403: refusal('AccessDenied: the URL is tampered with, expired, signed for another method, or names an internal connection'),
        404: refusal('NoSuchKey or NoSuchBucket'),
        ...(input.route.method === 'PUT' ? { 413: refusal("EntityTooLarge: past the connection's max_put_size") } : {}),
      },
    },
  };
};

export async function objstoreRoutes(app: App, opts: ObjstoreRoutesOptions): Promise<void> {
  // Uploads stream into the store: take every body unparsed (this plugin's scope only).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // Fastify refuses a Content-Type it cannot parse (a control character in it) before the handler
  // runs: answer it as the store would, InvalidArgument. Other errors go to the app's handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code !== 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw error;
    return sendError(reply, new ObjstoreError('InvalidArgument', 'the Content-Type header is not a valid media type'), request);
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = parsePresignedRequest(request.raw.url ?? request.url);
    if (!parsed) return denied(reply, 'malformed URL');
    let connection: ToolConnection;
    try {
      connection = opts.connections.get(parsed.connection);
    } catch {
      return denied(reply, 'unknown connection');
    }
    const verdict = connection.verifyPresigned(parsed, request.method);
    if (!verdict.ok) return denied(reply, verdict.reason);

    const { bucket, key } = parsed;
    const store = connection.store;
    try {
      connection.checkBucket(bucket);
      await connection.ready();
      if (request.method === 'PUT') {
        connection.checkWritable();
        const declared = Number(request.headers['content-length'] ?? Number.NaN);
        if (connection.maxPutSize !== undefined && Number.isFinite(declared) && declared > connection.maxPutSize) {
          throw new ObjstoreError('EntityTooLarge', `size limit exceeded: object size ${declared} bytes exceeds limit of ${connection.maxPutSize} bytes`);
        }
        const contentType = request.headers['content-type'];
        const out = await store.putObject(bucket, key, uploadBody(request.raw), {
          ...(typeof contentType === 'string' && contentType !== '' ? { contentType } : {}),
          metadata: metadataFromHeaders(request.headers),
          ...(connection.maxPutSize !== undefined ? { maxBytes: connection.maxPutSize } : {}),
        });
        return reply.code(200).header('etag', out.etag).send();
      }

      const range = await parseRangeHeader(request.headers.range, async () => (await store.headObject(bucket, key)).size);
      const res = await readRange(store, bucket, key, range, reply);
      // Stored before write-time checks existed, a type no header may carry is served as bytes.
      const contentType = isPrintableAscii(res.head.contentType) ? res.head.contentType : 'application/octet-stream';
      void reply.headers({
        'content-type': contentType,
        'content-length': String(res.contentLength),
        etag: res.head.etag,
        'last-modified': res.head.lastModified.toUTCString(),
        'accept-ranges': 'bytes',
        ...metadataHeaders(res.head.metadata),
        ...userContentHeaders(contentType, fileNameOf(key)),
      });
      if (res.range) void reply.code(206).header('content-range', `bytes ${res.range.start}-${res.range.end}/${res.head.size}`);
      if (request.method === 'HEAD') {
        res.body.destroy();
        return reply.send();
      }
      return reply.send(res.body);
    } catch (err) {
      return sendError(reply, err, request);
    }
  };

  for (const [method, operationId, summary] of presignedOperations) {
    app.route({
      method,
      url: `${presignRoutePrefix}/*`,
      exposeHeadRoute: false,
      schema: {
        operationId,
        summary,
        description:
          'One object of a filesystem object-store connection through a presigned URL made by objstore_presign_url. ' +
          '403 when the URL is tampered with, expired or used with another method.',
        tags: ['objstore'],
        security: publicOperation,
        querystring: querySchema,
      },
      config: { swaggerTransform: presignedPathDoc },
      handler,
    });
  }
}
