/**
 * The "Query as a table" panel of a file (spec document 2, "Table registration"):
 * `GET /api/v1/resources/{id}/tables` (its registered tables and where it could be registered) and
 * `POST` to register it, with manage_table's checks, refusals, correction and authority
 * (shared/tables/panel.ts over register.ts). Registered by resourceRoutes inside its scope (its
 * authentication hook and error handler, which answers TableErrors in the resources' error shape).
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import type { ResourceActor } from '../../shared/resources/index.js';
import { registerFromPanel, TableError, tablePanel, type TableDeps } from '../../shared/tables/index.js';
import { errorResponses, errorSchema, idParams, registeredTableSchema, registerTableBodySchema, tablePanelSchema, tableRefusalSchema } from './schemas.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['resources'];
const notConfigured = 'table registration is not configured on this api (it needs the platform database and a SQL connection)';

export function registerTableRoutes(app: App, deps: TableDeps | undefined, actor: (request: FastifyRequest) => ResourceActor): void {
  app.get(
    '/api/v1/resources/:id/tables',
    {
      schema: {
        operationId: 'getResourceTables',
        security: restSecurity,
        tags,
        summary: 'Registered tables (Query as a table)',
        description:
          'The tables registered over the file, each with the name agents query, the version it reads against the file\'s ' +
          '(`status`: current, older — `version` says which, register again to move it — or correcting), whether it corrects the ' +
          'file, follows new versions or is pinned; the SQL connections it could be registered on, the name a registration would ' +
          'give, and whether the caller may register it now (and if not, why). The by-id rule: 404 when the file is unknown or not ' +
          'readable by the caller.',
        params: idParams,
        response: { 200: tablePanelSchema, ...errorResponses(403, 404), 503: errorSchema },
      },
    },
    async (request) => {
      if (!deps) throw new TableError('unavailable', notConfigured);
      return tablePanel(deps, actor(request), request.params.id);
    },
  );

  app.post(
    '/api/v1/resources/:id/tables',
    {
      schema: {
        operationId: 'registerResourceTable',
        security: restSecurity,
        tags,
        summary: 'Register as a table',
        description:
          'Registers the file (CSV, TSV or NDJSON) as a table in a SQL connection\'s scratch catalog, as manage_table register does: ' +
          'the persona is always the name\'s prefix; the uploader, an administrator of the file\'s library (persona-admin of its ' +
          'persona) or a platform administrator may (403 otherwise). The file is checked first: a line break inside a cell, lines ' +
          'ending in a carriage return only or non-UTF-8 text refuse it (422 `refused`, saying how many rows and which columns) ' +
          'unless `correct` is true ("Save a corrected copy and register": a corrected version is written with a change summary and ' +
          'registered, the table then corrects the file). 200 registered (again: moved to the current version); 202 when a large ' +
          'correction runs in a workflow (`workflow_id`). 400 for a file that is no table or a connection without a scratch catalog; ' +
          '409 when another file holds the name (naming it when the caller may open it) or the file changed during a correction; 503 ' +
          'when no connection can hold tables.',
        params: idParams,
        body: registerTableBodySchema,
        response: { 200: registeredTableSchema, 202: registeredTableSchema, ...errorResponses(400, 403, 404, 409), 422: tableRefusalSchema, 503: errorSchema },
      },
    },
    async (request, reply) => {
      if (!deps) throw new TableError('unavailable', notConfigured);
      const body = request.body;
      const result = await registerFromPanel(deps, actor(request), request.params.id, {
        ...(body.connection !== undefined ? { connection: body.connection } : {}),
        ...(body.table_name !== undefined ? { table_name: body.table_name } : {}),
        ...(body.follow !== undefined ? { follow: body.follow } : {}),
        ...(body.correct !== undefined ? { correct: body.correct } : {}),
      });
      return reply.code(result.workflow_id ? 202 : 200).send(result);
    },
  );
}
