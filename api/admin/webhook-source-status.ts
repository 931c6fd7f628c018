/**
 * The source page's routes (spec document 3: "The source page (Admin > Webhooks) shows …"), beside
 * the source routes of webhook-sources.ts and under the same administrator check:
 *
 *   GET  {prefix}/{name}/status                    the page's figures
 *   POST {prefix}/{name}/windows/{window}/retry    a window owed a compaction becomes due now
 *   POST {prefix}/{name}/windows/retry-failing     every failing window of the source does
 *
 * A retry clears the wait before the window's next try — so the next sweep starts its compaction —
 * and starts the window's `compactWindow` at once through the api's Temporal client, when it has one.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app.js';
import { parseListenAddress } from '../http/app.js';
import {
  KEPT_REJECTIONS,
  WEBHOOK_OUTCOMES,
  WEBHOOK_REJECTION_OUTCOMES,
  parseWindowName,
  windowName,
  type RetriedWindow,
  type WebhookJobs,
  type WebhookRejections,
  type WebhookRequestCounts,
  type WebhookSources,
  type WebhookWindows,
} from '../../shared/webhooks/index.js';
import { restSecurity } from '../http/openapi.js';

export interface WebhookSourceStatusOptions {
  sources: WebhookSources;
  rejections: WebhookRejections;
  windows: WebhookWindows;
  requestCounts: Pick<WebhookRequestCounts, 'recent'>;
  /** Where senders reach /hooks/: `portal.public_base_url` and `webhooks.receiver.address`. */
  sender: { publicBaseUrl: string; receiverAddress: string };
  /** Starts compactions (retries) and removals (deletions) at once; without it the sweep starts them. */
  jobs?: Pick<WebhookJobs, 'compact' | 'remove'>;
  /**
   * The Temporal UI's page of a window's compaction workflow (`temporal.ui_url`; `platform dev`
   * knows its own), or none: the page then shows no link.
   */
  workflowUrl?: (source: string, window: string) => string;
  now?: () => number;
}

const tags = ['admin: webhook sources'];
const errorSchema = z.object({ error: z.string(), message: z.string() }).describe('Error');
const nameParams = z.object({ name: z.string().describe('Source name') });
const windowParams = nameParams.extend({ window: z.string().describe('The window, by its start: YYYY-MM-DDTHH:MM (UTC)') });

const at = z.string().describe('UTC, ISO 8601');
const windowField = z.string().describe('A window, by its start: YYYY-MM-DDTHH:MM (UTC)');
const counts = z.object(Object.fromEntries(WEBHOOK_OUTCOMES.map((outcome) => [outcome, z.number().int()])) as Record<(typeof WEBHOOK_OUTCOMES)[number], z.ZodNumber>);
const workflowUrl = z.string().nullable().describe("The compaction workflow's page in the Temporal UI (temporal.ui_url); null when the UI's address is not known");
const events = z
  .object({ last_hour: z.number().int(), last_day: z.number().int() })
  .describe('Events acknowledged (a request may carry many, with split) over every replica, counted per minute');

const statusSchema = z
  .object({
    name: z.string(),
    table: z.string().describe('The table senders fill: webhook_{name} with each - as _'),
    enabled: z.boolean(),
    sender_url: z.string().describe('Where senders POST: the public base URL (portal.public_base_url, else this request’s origin; the receiver’s own port when webhooks.receiver.address is set) + /hooks/{name}'),
    sender_url_note: z.string().nullable().describe('For path_token sources: the secret goes as the last path segment (never shown)'),
    requests: z.object({ last_hour: counts, last_day: counts }).describe('Requests by outcome over every replica, counted per minute'),
    events,
    last_event_at: at.nullable().describe('When the newest segment landed (its events were received just before)'),
    window_minutes: z.number().int().describe('compact_every_minutes (a window already holding segments keeps the longer of an old and a new length)'),
    last_compacted: z
      .object({ window: windowField, compacted_at: at, resource_id: z.string().nullable().describe('The Parquet file (a managed resource)'), version: z.number().int().nullable(), workflow_url: workflowUrl })
      .nullable(),
    windows_owed: z
      .object({
        count: z.number().int(),
        oldest: z.array(z.object({ window: windowField, ended_at: at, attempts: z.number().int().describe('Failures in a row (0: not failing)'), workflow_url: workflowUrl })),
      })
      .describe('Ended windows not compacted, or landed in since their compaction (failing ones included); the oldest five'),
    last_failure: z
      .object({ window: windowField, reason: z.string(), attempts: z.number().int(), failed_at: at, next_try_at: at.nullable().describe('null: retried, the next sweep takes it'), workflow_url: workflowUrl })
      .nullable()
      .describe('The failing window that failed last; null when none is failing'),
    retention: z.object({
      oldest_window: windowField.nullable().describe('The oldest window still held'),
      raw_retention_days: z.number().int(),
      compacted_retention_days: z.number().int().describe('0 keeps forever'),
    }),
    rejections: z.array(z.object({ at, outcome: z.enum(WEBHOOK_REJECTION_OUTCOMES), reason: z.string() })).describe(`The last ${KEPT_REJECTIONS}, newest first`),
  })
  .describe('The figures of a webhook source’s page');

/** The list's figures of a source (GET {prefix}?figures=true): what a row of the sources list shows. */
export const listFiguresSchema = z
  .object({
    sender_url: z.string().describe('Where senders POST, as on its page (never the secret)'),
    requests: z.object({ last_hour: counts, last_day: counts }),
    events,
    last_event_at: at.nullable(),
    windows_owed: z.number().int().describe('Ended windows owed a compaction, failing ones included'),
    last_failure: z.object({ window: windowField, reason: z.string(), attempts: z.number().int(), failed_at: at, next_try_at: at.nullable() }).nullable(),
  })
  .describe("A source's figures, as its page shows them");

const retriedSchema = z.object({
  retried: z.array(z.object({ window: windowField, attempts: z.number().int().describe('Failures in a row so far'), last_error: z.string().nullable() })),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The list's figures of one source (two statements: its request counts and its windows). */
export async function listFigures(
  request: FastifyRequest,
  opts: Pick<WebhookSourceStatusOptions, 'windows' | 'requestCounts' | 'sender'>,
  source: { id: string; name: string; pathToken: boolean },
  nowMs: number,
): Promise<z.infer<typeof listFiguresSchema>> {
  const [requests, figures] = await Promise.all([opts.requestCounts.recent(source.id), opts.windows.figures(source.id, nowMs)]);
  const failure = figures.lastFailure;
  return {
    sender_url: senderUrl(senderBase(request, opts.sender), source.name, source.pathToken).url,
    requests: { last_hour: requests.lastHour, last_day: requests.lastDay },
    events: { last_hour: requests.events.lastHour, last_day: requests.events.lastDay },
    last_event_at: iso(figures.lastEventAtMs),
    windows_owed: figures.owed.count,
    last_failure: failure
      ? { window: failure.window, reason: failure.reason, attempts: failure.attempts, failed_at: iso(failure.failedAtMs)!, next_try_at: iso(failure.nextTryAtMs) }
      : null,
  };
}

/** `base` + /hooks/{name}, and for a path_token source where its secret goes. */
export function senderUrl(base: string, name: string, pathToken: boolean): { url: string; note: string | null } {
  const url = `${base.replace(/\/+$/, '')}/hooks/${name}`;
  return { url, note: pathToken ? `the source's secret goes as the last path segment: ${url}/{secret}` : null };
}

/** The public base URL senders use: portal.public_base_url, else this request's origin (on the receiver's port when it has one). */
function senderBase(request: FastifyRequest, sender: WebhookSourceStatusOptions['sender']): string {
  if (sender.publicBaseUrl) return sender.publicBaseUrl;
  if (!sender.receiverAddress) return `${request.protocol}://${request.host}`;
  const { port } = parseListenAddress(sender.receiverAddress);
  const host = request.hostname.includes(':') ? `[${request.hostname}]` : request.hostname;
  return `http://${host}:${port}`;
}

function retried(windows: RetriedWindow[]) {
  return { retried: windows.map((w) => ({ window: windowName(w.due), attempts: w.attempts, last_error: w.lastError })) };
}

/**
 * Starts a workflow whose hand-off is already stored in Postgres: one already running is fine, and
 * a start that fails is only logged — the next sweep pass starts it.
 */
export async function startJob(request: FastifyRequest, what: string, start: () => Promise<unknown> | undefined): Promise<void> {
  try {
    await start();
  } catch (error) {
    request.log.warn({ err: error }, `the webhook ${what} could not be started now; the next sweep starts it`);
  }
}

function refuse(reply: FastifyReply, status: 400 | 404 | 409, error: string, message: string) {
  return reply.code(status).send({ error, message });
}

/** Adds the routes to `app`, inside the source routes' plugin (its administrator check and error handler). */
export function webhookSourceStatusRoutes(app: App, opts: WebhookSourceStatusOptions): void {
  const { sources, windows } = opts;
  const now = opts.now ?? Date.now;

  /** Starts each retried window's compaction (the Postgres mark is already stored), then answers them. */
  async function startAll(request: FastifyRequest, retriedWindows: RetriedWindow[]) {
    for (const { due } of retriedWindows) await startJob(request, `compaction of ${windowName(due)}`, () => opts.jobs?.compact(due));
    return retried(retriedWindows);
  }
  const errors = { 401: errorSchema, 403: errorSchema, 404: errorSchema };

  app.get(
    '/:name/status',
    { schema: { operationId: 'getWebhookSourceStatus', security: restSecurity, tags, summary: "The figures of a webhook source's page", params: nameParams, response: { 200: statusSchema, ...errors } } },
    async (request) => {
      const source = await sources.get(request.params.name);
      const nowMs = now();
      const [requests, figures, rejections] = await Promise.all([
        opts.requestCounts.recent(source.id),
        windows.figures(source.id, nowMs),
        opts.rejections.list(source.id),
      ]);
      const sender = senderUrl(senderBase(request, opts.sender), source.name, source.auth.mode === 'path_token');
      const { lastCompacted, lastFailure } = figures;
      const link = (window: string) => opts.workflowUrl?.(source.name, window) ?? null;
      return {
        name: source.name,
        table: source.table,
        enabled: source.enabled,
        sender_url: sender.url,
        sender_url_note: sender.note,
        requests: { last_hour: requests.lastHour, last_day: requests.lastDay },
        events: { last_hour: requests.events.lastHour, last_day: requests.events.lastDay },
        last_event_at: iso(figures.lastEventAtMs),
        window_minutes: source.config.compact_every_minutes,
        last_compacted: lastCompacted
          ? {
              window: lastCompacted.window,
              compacted_at: iso(lastCompacted.compactedAtMs)!,
              resource_id: lastCompacted.resourceId,
              version: lastCompacted.version,
              workflow_url: link(lastCompacted.window),
            }
          : null,
        windows_owed: { count: figures.owed.count, oldest: figures.owed.oldest.map((o) => ({ window: o.window, ended_at: iso(o.endedAtMs)!, attempts: o.attempts, workflow_url: link(o.window) })) },
        last_failure: lastFailure
          ? {
              window: lastFailure.window,
              reason: lastFailure.reason,
              attempts: lastFailure.attempts,
              failed_at: iso(lastFailure.failedAtMs)!,
              next_try_at: iso(lastFailure.nextTryAtMs),
              workflow_url: link(lastFailure.window),
            }
          : null,
        retention: {
          oldest_window: figures.oldestWindowStartMs === null ? null : iso(figures.oldestWindowStartMs)!.slice(0, 16),
          raw_retention_days: source.config.raw_retention_days,
          compacted_retention_days: source.config.compacted_retention_days,
        },
        rejections,
      };
    },
  );

  app.post(
    '/:name/windows/:window/retry',
    {
      schema: {
        operationId: 'retryWebhookWindow', security: restSecurity,
        tags,
        summary: 'Compact a window again: a window owed a compaction (failing or not) stops waiting for its next try and its compaction starts at once',
        description:
          'Starts webhook-compact:{name}:{window} now (a workflow of that id still running, failing and waiting for its next try, is told to try again now); the next sweep starts it if this start fails. ' +
          '404 for an unknown source or window; 409 when the window is compacted and up to date, or being removed (by retention, or with its source).',
        params: windowParams,
        response: { 200: retriedSchema, ...errors, 400: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const source = await sources.get(request.params.name);
      const partition = parseWindowName(request.params.window);
      if (!partition) return refuse(reply, 400, 'invalid', 'window: expected YYYY-MM-DDTHH:MM (UTC)');
      const outcome = await windows.retry({ sourceId: source.id, ...partition });
      if (outcome.result === 'not_found') return refuse(reply, 404, 'not_found', `source "${source.name}" holds no window ${request.params.window}`);
      if (outcome.result === 'not_owed') {
        return refuse(reply, 409, 'conflict', `window ${request.params.window} is compacted and up to date, or being removed: nothing to retry`);
      }
      return startAll(request, [outcome.window]);
    },
  );

  app.post(
    '/:name/windows/retry-failing',
    {
      schema: {
        operationId: 'retryFailingWebhookWindows', security: restSecurity,
        tags,
        summary: 'Compact every failing window of a source again, starting each at once; answers those it retried (none: an empty list)',
        params: nameParams,
        response: { 200: retriedSchema, ...errors },
      },
    },
    async (request) => startAll(request, await windows.retryFailing((await sources.get(request.params.name)).id)),
  );
}
