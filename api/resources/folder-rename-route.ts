/**
 * Folder rename and nest (docs/resources.md, "Renaming folders"): `POST
 * /api/v1/resources/folders/rename` starts the renameFolder workflow and answers its result.
 * Registered by resourceRoutes inside its scope (its authentication hook and error handler).
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { MAX_RENAME_RESOURCES, normalizeFolderPath, type ResourceActor, type ResourceRequests } from '../../shared/resources/index.js';
import { folderTarget } from './http-rules.js';
import { errorResponses, errorSchema, folderBodySchema } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

const renameBodySchema = folderBodySchema.extend({
  new_path: z.string().max(600).describe('The folder\'s new path in the same library (a new name, a new parent, or both); a folder path, without the library'),
});

const movedSchema = z.object({
  id: z.string(),
  reference: z.string().describe('`mcp:resource:<id>`: unchanged by the rename'),
  from_uri: z.string().describe('The address it left; it still resolves (an alias)'),
  uri: z.string().describe('Its canonical URI now'),
});

const renameAnswerSchema = z.object({
  library: z.string().describe('Canonical library text'),
  path: z.string().describe('The folder\'s old path'),
  new_path: z.string().describe('Its path now'),
  moved: z.array(movedSchema).describe('Every resource moved (at every depth)'),
  folders: z.number().int().describe('Stored folders rewritten (the folder and every folder beneath)'),
});

export function registerFolderRenameRoute(app: App, requests: ResourceRequests | undefined, actor: (request: FastifyRequest) => ResourceActor): void {
  app.post(
    '/api/v1/resources/folders/rename',
    {
      schema: {
        operationId: 'renameFolder', security: restSecurity,
        tags: ['resources'],
        summary: 'Rename or move a folder',
        description:
          'Renames a folder, or nests it under another folder of the same library, with every file and folder beneath it at every ' +
          'depth, in one transaction; each file keeps its id and reference and its old address stays an alias. Body `{library, ' +
          `path, new_path}\` (or path as <library>/<folder path>). Answers the moved files. Refused with nothing moved: 400 when ` +
          'new_path is inside the folder or a path would break the folder rule; 403 when the caller may not add to the library or ' +
          `change a file beneath (naming it); 404 for an unknown folder; 409 when a destination address is taken (naming it) or more ` +
          `than ${MAX_RENAME_RESOURCES} files are beneath (stating how many), or another rename of the folder is under way; 503 ` +
          'when this api has no Temporal client. Asking again with the same request answers the same result.',
        body: renameBodySchema,
        response: { 200: renameAnswerSchema, ...errorResponses(400, 403, 404, 409), 503: errorSchema },
      },
    },
    async (request, reply) => {
      if (!requests) return reply.code(503).send({ error: 'unavailable', message: 'folder renames run as Temporal workflows; this api has no Temporal client (temporal.address)' });
      const who = actor(request);
      const target = folderTarget(request.body, who);
      return requests.renameFolder(who, { library: target.library, path: target.path, new_path: normalizeFolderPath(request.body.new_path) });
    },
  );
}
