/**
 * The routes of one resource's history and standing (spec document 2, "Versions", "Usage",
 * "Writer record", Move): where it may move, its versions and Restore, what uses it, its usage and
 * who wrote it. Registered by resourceRoutes in its own scope, behind the same authentication.
 */
import type { FastifyRequest } from 'fastify';
import type { ResourceActor, ResourceService } from '../../shared/resources/index.js';
import type { App } from '../http/app.js';
import { restSecurity } from '../http/openapi.js';
import {
  errorResponses,
  idParams,
  moveTargetsQuerySchema,
  moveTargetsSchema,
  resourceSchema,
  restoreParams,
  usageSchema,
  usedBySchema,
  versionsSchema,
  writersSchema,
} from './schemas.js';

const tags = ['resources'];

export function registerHistoryRoutes(app: App, opts: { service: ResourceService; actor: (request: FastifyRequest) => ResourceActor }): void {
  const { service, actor } = opts;
  app.get(
    '/api/v1/resources/:id/move-targets',
    {
      schema: {
        operationId: 'listResourceMoveTargets', security: restSecurity,
        tags,
        summary: 'Move targets',
        description:
          'Where the caller may move the file with PATCH `library`: its own library, personas and global as the move rule offers ' +
          'them (the same as `allowed_actions.move_targets`), and for platform administrators `person:<subject>` of people the ' +
          'platform has seen (a personal library holding a file or folder, or an upload or write of a managed resource), filtered ' +
          'by `q` and paged by `cursor`. Agents and callers who may not change the file are offered nothing.',
        params: idParams,
        querystring: moveTargetsQuerySchema,
        response: { 200: moveTargetsSchema, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const q = request.query;
      return service.moveTargets(actor(request), request.params.id, {
        ...(q.q !== undefined ? { q: q.q } : {}),
        ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
      });
    },
  );

  app.get(
    '/api/v1/resources/:id/versions',
    {
      schema: {
        operationId: 'listResourceVersions', security: restSecurity,
        tags,
        summary: 'Version history',
        description: 'Every kept version, newest first, each with its content_sha256 and change_summary (at most resources.managed.max_versions).',
        params: idParams,
        response: { 200: versionsSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ items: await service.versions(actor(request), request.params.id), next_cursor: null }),
  );

  app.post(
    '/api/v1/resources/:id/versions/:version/restore',
    {
      schema: {
        operationId: 'restoreResourceVersion', security: restSecurity,
        tags,
        summary: 'Restore a version',
        description: 'Writes a new head version with the exact bytes of version `version`, labelled with where it came from; history stays append-only.',
        params: restoreParams,
        response: { 200: resourceSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.restore(actor(request), request.params.id, request.params.version),
  );

  app.get(
    '/api/v1/resources/:id/used-by',
    {
      schema: {
        operationId: 'listResourceDependents', security: restSecurity,
        tags,
        summary: 'Used by',
        description:
          'How many assets, prompts and registered tables point at the file; the referencing assets the caller may open by name ' +
          '(with whether each carries a public share link), the others counted only (`assets_not_shown`), and whether any carries a public link.',
        params: idParams,
        response: { 200: usedBySchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.usedBy(actor(request), request.params.id),
  );

  app.get(
    '/api/v1/resources/:id/usage',
    {
      schema: {
        operationId: 'getResourceUsage', security: restSecurity,
        tags,
        summary: 'Usage',
        description: 'Content reads over the last 30 and 90 days by door (agent resources/read, search fetch, portal download, portal_preview image tiles), the last read and the never-read flag, counted from the audit trail and so bounded by audit.retention_days. With audit.enabled false: `{recorded: false, message}`, not zeros.',
        params: idParams,
        response: { 200: usageSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => service.usage(actor(request), request.params.id),
  );

  app.get(
    '/api/v1/resources/:id/writers',
    {
      schema: {
        operationId: 'listResourceWriters', security: restSecurity,
        tags,
        summary: 'Written by',
        description: 'Persons, agent sessions and managed scripts that created or modified the file, most recent first; each marked created or only modified.',
        params: idParams,
        response: { 200: writersSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => ({ items: await service.writers(actor(request), request.params.id), next_cursor: null }),
  );
}
