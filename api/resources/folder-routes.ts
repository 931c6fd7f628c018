/**
 * The folder routes of the managed-resources REST surface: facets (folder counts for the tree),
 * create, delete and describe. Registered by resourceRoutes inside its scope, so they share its
 * authentication hook and error handler; every folder answer carries the caller's allowed actions.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { folderActions, parseLibraryPath, ResourceError, type Library, type ResourceActor, type ResourceService } from '../../shared/resources/index.js';
import { folderTarget, libraryText } from './http-rules.js';
import { errorResponses, facetSchema, facetsQuerySchema, folderAnswerSchema, folderBodySchema, folderDescriptionSchema } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['resources'];

/** A folder as the folder routes answer it, with the caller's allowed actions there. */
function folderAnswer(who: ResourceActor, target: { library: Library; path: string }) {
  return { library: libraryText(target.library), path: target.path, allowed_actions: folderActions(who, target.library, target.path) };
}

export function registerFolderRoutes(app: App, service: ResourceService, actor: (request: FastifyRequest) => ResourceActor): void {
  app.get(
    '/api/v1/resources/facets',
    {
      schema: {
        operationId: 'getResourceFacets', security: restSecurity,
        tags,
        summary: 'Folder counts',
        description:
          'Every folder the caller may list under `path`, `depth` levels deep (default: all): exact file counts (beneath and direct), ' +
          'when a file beneath was last written, removed or moved out, and its description.',
        querystring: facetsQuerySchema,
        response: { 200: z.object({ folders: z.array(facetSchema) }), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const who = actor(request);
      const q = request.query;
      const folders = await service.facets(who, { ...(q.path !== undefined ? { path: q.path } : {}), ...(q.depth !== undefined ? { depth: q.depth } : {}) });
      return {
        folders: folders.map((f) => {
          const { library, folderPath } = parseLibraryPath(f.path, who.subject);
          return { ...f, allowed_actions: folderActions(who, library, folderPath) };
        }),
      };
    },
  );

  app.post(
    '/api/v1/resources/folders',
    {
      schema: {
        operationId: 'createFolder', security: restSecurity,
        tags,
        summary: 'Create an empty folder',
        description:
          'Creates the folder and each missing ancestor. Body `{library, path}`, or `{path: "<library>/<folder path>"}`. Needs the ' +
          'authority to upload to that top-level folder. 400 names the folder rule broken. Creating an existing folder succeeds.',
        body: folderBodySchema,
        response: { 201: folderAnswerSchema, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      const target = folderTarget(request.body, who);
      await service.createFolder(who, target.library, target.path);
      return reply.code(201).send(folderAnswer(who, target));
    },
  );

  app.delete(
    '/api/v1/resources/folders',
    {
      schema: {
        operationId: 'deleteFolder', security: restSecurity,
        tags,
        summary: 'Delete an empty folder',
        description:
          'Removes a folder only when nothing is filed in it or beneath it (409 otherwise). The folder is named by the query ' +
          '`library` and `path` or by a JSON body of the same shape (the body wins); either form also takes path as <library>/<folder path>.',
        querystring: folderBodySchema.partial(),
        body: folderBodySchema.partial().nullish(),
        response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      const given = { ...request.query, ...(request.body ?? {}) };
      if (given.path === undefined) throw new ResourceError('invalid', 'name the folder to delete: library and path, or path as <library>/<folder path>');
      const target = folderTarget({ library: given.library, path: given.path }, who);
      await service.deleteFolder(who, target.library, target.path);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/resources/folders/description',
    {
      schema: {
        operationId: 'setFolderDescription', security: restSecurity,
        tags,
        summary: 'Describe a folder',
        description:
          'Sets a folder\'s description. Body `{library, path, description}`; without `library`, path is <library>/<folder path> ' +
          '(for example `persona:sales/templates`). Needs the authority to add files there.',
        body: folderDescriptionSchema,
        response: { 200: folderAnswerSchema.extend({ description: z.string() }), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const who = actor(request);
      const target = folderTarget(request.body, who);
      await service.describeFolder(who, target.library, target.path, request.body.description);
      return { ...folderAnswer(who, target), description: request.body.description };
    },
  );
}
