/**
 * The managed-resources REST routes (spec document 2, "Portal REST routes", and the by-id routes
 * the spec leaves to us). Every route authenticates through `actorOf` (the api's REST
 * authentication: header credentials, or a browser session with its CSRF token on writes),
 * answers errors as `{error, message}` and declares zod schemas, so /api/openapi.json documents it. Upload bodies stream straight into the service; nothing is buffered.
 */
import { CallerInputError } from '../http/caller-input.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyRouteSchemaDef, FastifyValidationResult } from 'fastify/types/schema.js';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import type { App } from '../http/app.js';
import { userContentHeaders } from '../http/user-content.js';
import { sendRestRefusal, type RestRefusal } from '../http/rest-auth.js';
import { EDITED_IN_PORTAL, INLINE_PREVIEW_BYTES, MAX_TAGS, ResourceError, saveSource, type ResourceActor, type ResourceRequests, type ResourceService, type ResourceView, type TableHooks, type UploadTableReport } from '../../shared/resources/index.js';
import { TableError, type TableDeps } from '../../shared/tables/index.js';
import {
  byteRangeOf,
  declaredType,
  etagOf,
  ifNoneMatchHits,
  parseLibraryText,
  requestTypeProblem,
  resourceErrorBody,
  servedContentType,
  tableErrorBody,
} from './http-rules.js';
import {
  binarySchema,
  contentQuerySchema,
  createdSchema,
  deleteQuerySchema,
  errorResponses,
  idParams,
  listQuerySchema,
  listSchema,
  replaceBodySchema,
  replaceFieldsSchema,
  replaceQuerySchema,
  replacedSchema,
  resourceSchema,
  sourceBodySchema,
  sourceQuerySchema,
  sourceSavedSchema,
  updateBodySchema,
  uploadBodySchema,
  uploadFieldsSchema,
} from './schemas.js';
import { registerHistoryRoutes } from './history-routes.js';
import { readRawBody, readSmallBody, readUploadForm, type StreamedUpload } from './upload-body.js';
import { registerFolderRoutes } from './folder-routes.js';
import { registerSearchRoute, type SearchRouteOptions } from './search.js';
import { registerThumbnailRoutes } from './thumbnail-routes.js';
import { registerFolderRenameRoute } from './folder-rename-route.js';
import { registerLibraryRoutes } from './library-routes.js';
import { registerTableRoutes } from './table-routes.js';
import { restSecurity } from '../http/openapi.js';


/** A Range past the end of the head version: answered 416 before anything is read or recorded. */
class RangeNotSatisfiable extends Error {}

export interface ResourceRoutesOptions {
  service: ResourceService;
  /** The caller as a resource actor, or why the request is refused (401; 403 for a browser write without its CSRF token). */
  actorOf(request: FastifyRequest): Promise<{ ok: true; actor: ResourceActor } | RestRefusal>;
  /** resources.managed.max_upload_bytes */
  maxUploadBytes: number;
  /** GET /api/v1/resources/search (needs the platform database). */
  search?: SearchRouteOptions;
  /** Requests answered by a workflow (folder rename), through the api's Temporal client; without it they answer 503. */
  requests?: ResourceRequests;
  /** Registered tables (shared/tables): a new version moves the tables that correct the file; the reply's `tables` says what happened. */
  tables?: Pick<TableHooks, 'afterUpload'>;
  /** Table registration (shared/tables) for the "Query as a table" routes; without it they answer 503. */
  tableRegistration?: TableDeps;
}

const tags = ['resources'];
/** Longest form field value (a description is the longest field people write). */
const maxFieldBytes = 64 * 1024;
/**
 * A multipart body larger than the file limit plus what the fields and part headers can add is
 * refused before reading it. The exact check counts the file's own bytes as they stream.
 */
const formAllowanceBytes = 64 * maxFieldBytes + 128 * 16 * 1024;
const uploadFieldNames = Object.keys(uploadFieldsSchema.shape);

/** Multipart routes document their form as the body, which the route reads itself (streaming). */
function bodyReadByHandler<S>(route: FastifyRouteSchemaDef<S>): FastifyValidationResult {
  return route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as unknown as FastifyRouteSchemaDef<z.ZodType>);
}

/** Form values and other text inputs validated like a zod route schema: refusals are 400. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ResourceError('invalid', `invalid ${what}: ${z.prettifyError(result.error).replace(/\n/g, '; ')}`);
  return result.data;
}

function declaredLength(request: FastifyRequest): number | undefined {
  const value = request.headers['content-length'];
  const n = typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

function tooLargeDeclared(bytes: number, max: number): ResourceError {
  return new ResourceError('too_large', `the upload of ${bytes} bytes is larger than the upload limit of ${max} bytes (resources.managed.max_upload_bytes)`, {
    limit_bytes: max,
  });
}

/** Runs the service on a streamed upload; a refusal stops reading and answers the root cause. */
async function withUpload<T>(upload: StreamedUpload, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    upload.abandon();
    // The route cut the stream off (limit, a part after the file): that is why the service failed.
    throw upload.failure() ?? err;
  }
}

export async function resourceRoutes(app: App, opts: ResourceRoutesOptions): Promise<void> {
  const { service, maxUploadBytes } = opts;
  /** A new version's reply: the resource, and what the tables over it did when they did anything. */
  async function withTables(who: ResourceActor, resource: ResourceView): Promise<ResourceView & { tables?: UploadTableReport }> {
    const report = await opts.tables?.afterUpload(who, resource.id);
    return report && report.table_changes.length > 0 ? { ...resource, tables: report } : resource;
  }
  const actors = new WeakMap<FastifyRequest, ResourceActor>();
  const actor = (request: FastifyRequest): ResourceActor => {
    const found = actors.get(request);
    if (!found) throw new Error('resource route reached without an actor');
    return found;
  };

  if (!app.hasRequestDecorator('parts')) {
    // The file size is counted by the routes themselves (busboy would truncate silently).
    await app.register(fastifyMultipart, { limits: { fileSize: Infinity }, throwFileSizeLimit: false });
  }

  // Authenticate before any body is read.
  app.addHook('onRequest', async (request, reply) => {
    const found = await opts.actorOf(request);
    if (!found.ok) return sendRestRefusal(reply, found);
    actors.set(request, found.actor);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ResourceError) {
      const { status, body } = resourceErrorBody(error);
      return reply.code(status).send(body);
    }
    if (error instanceof TableError) {
      const { status, body } = tableErrorBody(error);
      if (status >= 500) request.log.warn({ err: error }, 'table registration unavailable');
      return reply.code(status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ error: 'invalid_request', message: error.message });
    }
    // The listener's rule for NUL and deep JSON (caller-input.ts), in the resources' own word for a bad value.
    if (error instanceof CallerInputError) return reply.code(400).send({ error: 'invalid', message: error.message });
    // Fastify refuses a malformed Content-Type before any handler; on a raw PUT that header is the
    // resource's content type, so a malformed one is the same 400 the service gives a declared type.
    const typeProblem = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? requestTypeProblem(request) : undefined;
    if (typeProblem) return reply.code(400).send({ error: 'invalid', message: typeProblem });
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'resource request failed');
    return reply.code(status).send({
      error: status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : status >= 500 ? 'internal_error' : (error.code ?? 'bad_request'),
      message: status >= 500 ? 'internal error' : error.message,
    });
  });

  // ---- upload -------------------------------------------------------------------------------

  app.post(
    '/api/v1/resources',
    {
      validatorCompiler: bodyReadByHandler,
      schema: {
        operationId: 'uploadResource', security: restSecurity,
        tags,
        summary: 'Upload a file',
        description:
          'Multipart upload of one file. Fields, each before the file part: `library` (default `personal`), `path`, ' +
          '`display_name`, `description`, `tags` (repeatable), `if_exists`, `search_setting`, `change_summary`; then the file part ' +
          '`file`, whose bytes stream into storage (hashed with SHA-256 on the way). 201 with outcome `created`; 200 with ' +
          '`revised` or `unchanged`; 409 when the address is taken and `if_exists` is `fail`; 413 over ' +
          'resources.managed.max_upload_bytes (nothing is stored); 415 for executables. Bulk and folder uploads call this once per file.',
        consumes: ['multipart/form-data'],
        body: uploadBodySchema,
        response: { 201: createdSchema, 200: createdSchema, ...errorResponses(400, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      if (!request.isMultipart()) {
        throw new ResourceError('unsupported', 'upload as multipart/form-data: the fields first, then the file part "file"');
      }
      const declared = declaredLength(request);
      if (declared !== undefined && declared > maxUploadBytes + formAllowanceBytes) throw tooLargeDeclared(declared, maxUploadBytes);
      const form = await readUploadForm(request, {
        fields: uploadFieldNames,
        repeatable: { tags: MAX_TAGS },
        fileField: 'file',
        maxBytes: maxUploadBytes,
        maxFieldBytes,
      });
      const result = await withUpload(form, async () => {
        const single = (name: string) => form.fields[name]?.[0];
        const fields = parseWith(
          uploadFieldsSchema,
          {
            library: single('library') || undefined,
            path: single('path'),
            display_name: single('display_name') || undefined,
            description: single('description'),
            tags: form.fields.tags?.map((t) => t.trim()).filter((t) => t !== ''),
            if_exists: single('if_exists') || undefined,
            search_setting: single('search_setting') || undefined,
            change_summary: single('change_summary') || undefined,
          },
          'upload form',
        );
        if (!form.file.name) throw new ResourceError('invalid', 'the file part "file" has no file name (set filename in its Content-Disposition)');
        const contentType = declaredType(form.file.type);
        return service.create(who, {
          library: parseLibraryText(fields.library, who),
          path: fields.path,
          file_name: form.file.name,
          ...(fields.display_name !== undefined ? { display_name: fields.display_name } : {}),
          ...(fields.description !== undefined ? { description: fields.description } : {}),
          ...(fields.tags !== undefined ? { tags: fields.tags } : {}),
          ...(contentType ? { content_type: contentType } : {}),
          ...(fields.search_setting !== undefined ? { search_setting: fields.search_setting } : {}),
          ...(fields.change_summary !== undefined ? { change_summary: fields.change_summary } : {}),
          if_exists: fields.if_exists,
          origin: 'portal',
          body: form.body,
        });
      });
      const resource = result.outcome === 'revised' ? await withTables(who, result.resource) : result.resource;
      return reply.code(result.outcome === 'created' ? 201 : 200).send({ ...resource, outcome: result.outcome });
    },
  );

  // ---- listing, facets, folders -----------------------------------------------------------------

  app.get(
    '/api/v1/resources',
    {
      schema: {
        operationId: 'listResources', security: restSecurity,
        tags,
        summary: 'List files',
        description:
          'Files of a folder (`path` = <library>/<folder path>), paged by `cursor`; `direct=true` lists one level only. Without a ' +
          'path, every library the caller may list (every library for a platform administrator). The root and a top-level folder ' +
          'with `direct=true` list no files. Callers see their own library, their personas and global; administrators also what ' +
          'they may write. Listing does not stamp last read.',
        querystring: listQuerySchema,
        response: { 200: listSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return service.list(actor(request), {
        ...(q.path !== undefined ? { path: q.path } : {}),
        ...(q.direct !== undefined ? { direct: q.direct } : {}),
        ...(q.sort !== undefined ? { sort: q.sort } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
      });
    },
  );

  registerFolderRoutes(app, service, actor);
  if (opts.search) registerSearchRoute(app, opts.search, actor);
  registerThumbnailRoutes(app, service, actor);
  registerFolderRenameRoute(app, opts.requests, actor);
  registerLibraryRoutes(app, service, actor);
  registerTableRoutes(app, opts.tableRegistration, actor);

  // ---- by id ------------------------------------------------------------------------------------

  app.get(
    '/api/v1/resources/:id',
    {
      schema: {
        operationId: 'getResource', security: restSecurity,
        tags,
        summary: 'Read a resource\'s details',
        description: 'The resource\'s metadata and thumbnail state (no content; does not stamp last read). 404 when unknown or not readable by the caller.',
        params: idParams,
        response: { 200: resourceSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const who = actor(request);
      const resource = await service.get(who, request.params.id);
      return { ...resource, thumbnail: await service.thumbnails.state(who, resource.id) };
    },
  );

  const downloadHeaders = (reply: FastifyReply, r: { file_name: string; content_type: string; size: number; content_sha256: string | null; updated_at: string }) => {
    const etag = etagOf(r.content_sha256);
    const type = servedContentType(r.content_type);
    void reply.headers({
      'content-type': type,
      'content-length': String(r.size),
      // Uploaded bytes are never rendered as our own page: nosniff, a sandboxing CSP, attachment
      // unless the type only ever displays (images but SVG, PDF, plain text).
      ...userContentHeaders(type, r.file_name),
      // One byte range per request (206), for readers that seek (the portal's Parquet viewer).
      'accept-ranges': 'bytes',
      'cache-control': 'private, no-cache',
      'last-modified': new Date(r.updated_at).toUTCString(),
      ...(etag ? { etag } : {}),
    });
  };
  const contentSchema = {
    tags,
    params: idParams,
    response: {
      200: {
        description: 'The head version\'s bytes, with its content type',
        content: { 'application/octet-stream': { schema: binarySchema('The bytes') } },
      },
      206: {
        description: 'One byte range of the head version (Range: bytes=a-b, a- or -n), with Content-Range',
        content: { 'application/octet-stream': { schema: binarySchema('The bytes of the range') } },
      },
      304: z.null().describe('If-None-Match matched the ETag'),
      416: z.null().describe('The range starts past the end of the file; Content-Range: bytes */<size>'),
      ...errorResponses(403, 404),
    },
  };

  app.route({
    method: 'GET',
    url: '/api/v1/resources/:id/content',
    exposeHeadRoute: false,
    schema: {
      operationId: 'downloadResourceContent', security: restSecurity,
      ...contentSchema,
      querystring: contentQuerySchema,
      summary: 'Download the content',
      description:
        'Streams the head version with Content-Type, Content-Length, ETag (the SHA-256) and the headers of user content: ' +
        "`X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox` and Content-Disposition " +
        '(the file name; `inline` only for images other than SVG, PDF and plain text, else `attachment`). One byte range is ' +
        'served (`Accept-Ranges: bytes`): `Range: bytes=a-b`, `a-` or `-n` answers 206 with Content-Range; several ranges, a ' +
        'malformed header, or an `If-Range` other than the current ETag answer the whole file; a range starting past the end is 416. ' +
        'Stamps last read and is audited as a portal download (each ranged read too); with `purpose=preview` (the portal showing ' +
        'the file in its preview pane, editor or Parquet viewer) it is audited under portal_preview and stamps nothing. ' +
        'If-None-Match with the current ETag answers 304 without reading the content; HEAD answers the same headers without reading it either.',
    },
    handler: async (request, reply) => {
      const who = actor(request);
      const id = request.params.id;
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch) {
        const current = await service.get(who, id);
        const etag = etagOf(current.content_sha256);
        if (ifNoneMatchHits(ifNoneMatch, etag)) return reply.code(304).header('etag', etag).send(null);
      }
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      let unsatisfiable: number | undefined;
      const { resource, body, range } = await service
        .openContent(who, id, request.query.purpose === 'preview' ? 'portal_preview' : 'portal_download', undefined, {
          range: ({ size, sha256 }) => {
            const answer = byteRangeOf(header('range'), header('if-range'), size, etagOf(sha256));
            if (answer.kind === 'unsatisfiable') {
              unsatisfiable = size;
              throw new RangeNotSatisfiable();
            }
            return answer.kind === 'partial' ? { start: answer.start, end: answer.end } : undefined;
          },
        })
        .catch((error: unknown) => {
          if (error instanceof RangeNotSatisfiable) return { resource: undefined, body: undefined, range: undefined };
          throw error;
        });
      if (!resource || !body) return reply.code(416).header('content-range', `bytes */${unsatisfiable}`).send(null);
      downloadHeaders(reply, resource);
      if (range) {
        void reply.code(206).headers({ 'content-range': `bytes ${range.start}-${range.end}/${range.size}`, 'content-length': String(range.end - range.start + 1) });
      }
      return reply.send(body);
    },
  });

  app.route({
    method: 'HEAD',
    url: '/api/v1/resources/:id/content',
    schema: {
      operationId: 'headResourceContent', security: restSecurity,
      ...contentSchema,
      summary: 'Content headers',
      description: 'The download\'s headers without the bytes; not a read (does not stamp last read).',
    },
    handler: async (request, reply) => {
      const resource = await service.get(actor(request), request.params.id);
      downloadHeaders(reply, resource);
      return reply.send(null);
    },
  });

  app.patch(
    '/api/v1/resources/:id',
    {
      schema: {
        operationId: 'updateResource', security: restSecurity,
        tags,
        summary: 'Edit details, move',
        description:
          'Changes display name, description, tags and search setting, and moves the file: `library` (top-level folder) and/or ' +
          '`path` (folder). A move keeps id, versions and read history, rewrites the URI and keeps the old address as an alias; ' +
          'a move onto an existing file is refused (409) naming it. Uploader, administrators of the library, platform administrators.',
        params: idParams,
        body: updateBodySchema,
        response: { 200: resourceSchema, ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request) => {
      const who = actor(request);
      const { library, ...rest } = request.body;
      return service.update(who, request.params.id, {
        ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
        ...(library !== undefined ? { library: parseLibraryText(library, who) } : {}),
      });
    },
  );

  // Replacing content reads the request body itself: raw bytes of any type, or a form.
  await app.register(async (scope: App) => {
    scope.removeContentTypeParser(['application/json', 'text/plain']);
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    scope.put(
      '/api/v1/resources/:id/content',
      {
        validatorCompiler: bodyReadByHandler,
        bodyLimit: Number.MAX_SAFE_INTEGER,
        schema: {
          operationId: 'replaceResourceContent', security: restSecurity,
          tags,
          summary: 'Replace the content',
          description:
            'Writes a new head version; id, file name (whatever the upload was called), URI and details stay. The body is the raw ' +
            'bytes (Content-Type is the new type; `change_summary` in the query) or multipart/form-data with an optional ' +
            '`change_summary` field before the file part `file`. 413 over resources.managed.max_upload_bytes (nothing stored), 415 for executables.',
          consumes: ['application/octet-stream', 'multipart/form-data'],
          params: idParams,
          querystring: replaceQuerySchema,
          body: replaceBodySchema,
          response: { 200: replacedSchema, ...errorResponses(400, 403, 404, 413, 415) },
        },
      },
      async (request) => {
        const who = actor(request);
        const declared = declaredLength(request);
        if (request.isMultipart()) {
          if (declared !== undefined && declared > maxUploadBytes + formAllowanceBytes) throw tooLargeDeclared(declared, maxUploadBytes);
          const form = await readUploadForm(request, {
            fields: Object.keys(replaceFieldsSchema.shape),
            fileField: 'file',
            maxBytes: maxUploadBytes,
            maxFieldBytes,
          });
          const replaced = await withUpload(form, async () => {
            const fields = parseWith(replaceFieldsSchema, { change_summary: form.fields.change_summary?.[0] || undefined }, 'form');
            const contentType = declaredType(form.file.type);
            return service.replaceContent(who, request.params.id, {
              body: form.body,
              ...(contentType ? { content_type: contentType } : {}),
              ...(fields.change_summary !== undefined ? { change_summary: fields.change_summary } : {}),
              origin: 'portal',
            });
          });
          return withTables(who, replaced);
        }
        if (declared !== undefined && declared > maxUploadBytes) throw tooLargeDeclared(declared, maxUploadBytes);
        const raw = readRawBody(request, maxUploadBytes);
        const contentType = declaredType(request.headers['content-type']);
        const summary = request.query.change_summary;
        const replaced = await withUpload(raw, () =>
          service.replaceContent(who, request.params.id, {
            body: raw.body,
            ...(contentType ? { content_type: contentType } : {}),
            ...(summary ? { change_summary: summary } : {}),
            origin: 'portal',
          }),
        );
        return withTables(who, replaced);
      },
    );

    scope.put(
      '/api/v1/resources/:id/source',
      {
        validatorCompiler: bodyReadByHandler,
        bodyLimit: Number.MAX_SAFE_INTEGER,
        schema: {
          operationId: 'saveResourceSource', security: restSecurity,
          tags,
          summary: 'Save from the source editor',
          description:
            `The source editor's Save: the body is the editor's text (UTF-8, at most ${INLINE_PREVIEW_BYTES} bytes; any Content-Type, ` +
            'e.g. text/plain) and becomes the next version; file name, type, id and URI stay. The server labels the version ' +
            `with the change summary "${EDITED_IN_PORTAL}" (a client cannot set another; Replace content is PUT …/content). Allowed on a ` +
            'text-family file within the inline preview limit to whoever may change it (`allowed_actions.edit_source`): 403 without ' +
            'the change rule; 400 for a file outside the text family or text that is not UTF-8; 413 for a file or text over the ' +
            'limit; 409 when the file\'s head is not `base_version` (someone saved meanwhile; nothing stored).',
          consumes: ['text/plain', 'application/octet-stream'],
          params: idParams,
          querystring: sourceQuerySchema,
          body: sourceBodySchema,
          response: { 200: sourceSavedSchema, ...errorResponses(400, 403, 404, 409, 413) },
        },
      },
      async (request) => {
        const who = actor(request);
        const declared = declaredLength(request);
        const tooLarge = (bytes?: number) =>
          new ResourceError('too_large', `the text${bytes !== undefined ? ` of ${bytes} bytes` : ''} is larger than the inline preview limit of ${INLINE_PREVIEW_BYTES} bytes`, {
            limit_bytes: INLINE_PREVIEW_BYTES,
          });
        if (declared !== undefined && declared > INLINE_PREVIEW_BYTES) throw tooLarge(declared);
        const text = await readSmallBody(request, INLINE_PREVIEW_BYTES, () => tooLarge());
        return withTables(who, await saveSource(service, who, request.params.id, { text, base_version: request.query.base_version }));
      },
    );
  });

  app.delete(
    '/api/v1/resources/:id',
    {
      schema: {
        operationId: 'deleteResource', security: restSecurity,
        tags,
        summary: 'Delete a resource',
        description:
          'Deletes the file, every version and its stored bytes. Prompts that use it do not hold the delete: they keep serving ' +
          'and report the material as missing. While assets or a registered table point at it the delete is refused (409) with ' +
          'the counts of each; `force=true` deletes anyway (assets then report the file as missing, tables over it are dropped).',
        params: idParams,
        querystring: deleteQuerySchema,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.delete(actor(request), request.params.id, { force: request.query.force ?? false, origin: 'portal' });
      return reply.code(204).send(null);
    },
  );

  registerHistoryRoutes(app, { service, actor });
}
