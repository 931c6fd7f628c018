/**
 * The portal's REST routes of script schedules (docs/scripts.md, "Schedules"), added by
 * scriptRoutes under /api/v1/portal/scripts/{id}/schedule with its authentication and error
 * mapping: read, set (create or replace), delete, pause and resume. The owner and administrators
 * change a schedule; the rules live in shared/scripts/schedule-rules.ts.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app.js';
import { MIN_SCHEDULE_INTERVAL_MS, ScriptError, type ScriptActor, type ScriptSchedules } from '../../shared/scripts/index.js';
import { restSecurity } from '../http/openapi.js';

const tags = ['portal: scripts'];

const scheduleSchema = z
  .object({
    script: z.object({ id: z.string(), name: z.string() }),
    cron: z.string().optional().describe('A cron expression (5 fields, or @hourly, @daily, …), read in time_zone'),
    interval_ms: z.number().int().optional().describe('Instead of cron: the interval between runs, in ms'),
    time_zone: z.string().describe('IANA time zone'),
    paused: z.boolean(),
    created_by: z.string(),
    created_at: z.string(),
    updated_by: z.string(),
    updated_at: z.string(),
  })
  .describe("A script's schedule: each run calls main() as script:<name>, recorded and audited (script_run, trigger schedule); only an active script runs");

const scheduleBody = z.object({
  cron: z.string().optional().describe('minute hour day-of-month month day-of-week, or @yearly, @monthly, @weekly, @daily, @hourly'),
  every: z.string().optional().describe(`Instead of cron: an interval like 15m or 6h (at least ${MIN_SCHEDULE_INTERVAL_MS / 60_000}m)`),
  time_zone: z.string().optional().describe('IANA time zone the cron is read in (default UTC)'),
});

const idParams = z.object({ id: z.string().describe('Script id') });

export function scheduleRoutes(
  app: App,
  opts: {
    schedules: ScriptSchedules;
    actor: (request: FastifyRequest) => ScriptActor;
    errors: Record<number, z.ZodType>;
    /** Starts a failed scheduled run again on Temporal; absent without a Temporal client. */
    retry?: (run: { scriptId: string; scriptName: string; runId: string; scheduledAt: Date }) => Promise<{ workflowId: string }>;
  },
): void {
  const { schedules, actor, errors, retry } = opts;
  {
    app.post(
      '/:id/runs/:runId/retry',
      {
        schema: {
          operationId: 'retryScheduledScriptRun', security: restSecurity,
          tags,
          summary: 'Retry a failed scheduled run (administrators)',
          description:
            'Starts runScript again as workflow script-run:{id}-retry-{runId}; the new run is recorded with retry_of naming the failed one. ' +
            '409 state for a run that is not a failed scheduled run; 503 unavailable where this api has no Temporal client.',
          params: idParams.extend({ runId: z.string().describe('The failed run') }),
          response: { 202: z.object({ workflow_id: z.string() }), ...errors, 503: errors[404] ?? z.object({ error: z.string(), message: z.string() }) },
        },
      },
      async (request, reply) => {
        const run = await schedules.failedRun(actor(request), request.params.id, request.params.runId);
        if (!retry) return reply.code(503).send({ error: 'unavailable', message: 'retries start on Temporal, and this api has no Temporal client (temporal.address)' });
        return reply.code(202).send({ workflow_id: (await retry(run)).workflowId });
      },
    );
  }
  app.get(
    '/:id/schedule',
    { schema: { operationId: 'getScriptSchedule', security: restSecurity, tags, summary: "A script's schedule (404 when it has none)", params: idParams, response: { 200: scheduleSchema, ...errors } } },
    async (request) => {
      const schedule = await schedules.get(request.params.id);
      if (!schedule) throw new ScriptError('not_found', `"${request.params.id}" has no schedule`);
      return schedule;
    },
  );
  app.put(
    '/:id/schedule',
    {
      schema: {
        operationId: 'putScriptSchedule', security: restSecurity,
        tags,
        summary: "Create or replace a script's schedule (cron or every, exactly one)",
        description: 'A library is not scheduled; a cron Temporal refuses is 400 invalid. The owner and administrators only (403).',
        params: idParams,
        body: scheduleBody,
        response: { 200: scheduleSchema, ...errors },
      },
    },
    async (request) => schedules.set(actor(request), request.params.id, request.body),
  );
  app.delete(
    '/:id/schedule',
    {
      schema: {
        operationId: 'deleteScriptSchedule', security: restSecurity,
        tags,
        summary: "Remove a script's schedule (removed false when it had none)",
        params: idParams,
        response: { 200: z.object({ removed: z.boolean(), script: z.object({ id: z.string(), name: z.string() }) }), ...errors },
      },
    },
    async (request) => schedules.remove(actor(request), request.params.id),
  );
  for (const action of ['pause', 'resume'] as const) {
    app.post(
      `/:id/schedule/${action}`,
      {
        schema: {
          operationId: `${action}ScriptSchedule`, security: restSecurity,
          tags,
          summary: action === 'pause' ? "Pause a script's schedule (kept, no runs until resumed)" : "Resume a script's paused schedule",
          params: idParams,
          response: { 200: scheduleSchema, ...errors },
        },
      },
      async (request) => schedules.setPaused(actor(request), request.params.id, action === 'pause'),
    );
  }
}
