/**
 * The file manager's top-level folders (spec document 2, "Libraries and top-level folders"):
 * `GET /api/v1/resources/libraries` and, for platform administrators, the folders under People,
 * `GET /api/v1/resources/libraries/people`. Registered by resourceRoutes inside its scope (its
 * authentication hook and error handler); the rules are shared/resources/top-level.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import type { ResourceActor, ResourceService } from '../../shared/resources/index.js';
import { errorResponses, peopleQuerySchema, peopleSchema, topLevelFoldersSchema } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['resources'];

export function registerLibraryRoutes(app: App, service: ResourceService, actor: (request: FastifyRequest) => ResourceActor): void {
  app.get(
    '/api/v1/resources/libraries',
    {
      schema: {
        operationId: 'listTopLevelFolders',
        security: restSecurity,
        tags,
        summary: 'Top-level folders',
        description:
          'The root of the file manager, in the order it shows it: My Resources (`kind` personal, the caller\'s own library), one ' +
          'folder per persona the caller belongs to or administers (`persona`; every persona for a platform administrator, with or ' +
          'without files; named by the persona\'s display_name), Global, and for a platform administrator People (`people`), whose ' +
          'folders GET /api/v1/resources/libraries/people lists when it is opened. Each library carries exact counts (`count` ' +
          'beneath, `direct_count` at its top level), when anything beneath last changed, and the caller\'s folder actions; open one ' +
          'with the listing and facets routes by its `path`.',
        response: { 200: topLevelFoldersSchema, ...errorResponses() },
      },
    },
    async (request) => ({ folders: await service.topLevelFolders(actor(request)) }),
  );

  app.get(
    '/api/v1/resources/libraries/people',
    {
      schema: {
        operationId: 'listPeopleFolders',
        security: restSecurity,
        tags,
        summary: 'Folders under People',
        description:
          'One folder per person whose resources exist (a file or a folder in their personal library), the caller aside, by ' +
          'subject: each with its counts, last change and folder actions, named by the email their writes recorded (else the ' +
          'subject). Filtered by `q`, paged by `cursor`. Platform administrators only (403 otherwise).',
        querystring: peopleQuerySchema,
        response: { 200: peopleSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      return service.people(actor(request), {
        ...(q.q !== undefined ? { q: q.q } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
      });
    },
  );
}
