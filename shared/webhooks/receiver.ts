/**
 * The receiving half of inbound webhooks on one replica (document 3, "Webhook request handling
 * order"): after the route has found the source and read a body within its max_body_bytes, this
 * authenticates it over the raw bytes, applies the source's rate limit, splits the body into
 * events, and holds them in the source's buffer until their segment is in object storage. Each
 * step stops at its refusal; every refusal of a known source is counted and kept among its last
 * rejections (reason only, never the body).
 *
 * Sources are read from the database at most once a second per name on this replica (with their
 * secrets, held in memory for that second only), so a flood of requests costs no queries.
 */
import type { Logger } from '../logging/index.js';
import { verifyWebhookHeaders, verifyWebhookRequest, type RequestHeaders, type WebhookRequestToVerify } from './auth.js';
import type { BodyRefusal } from '../inbound/index.js';
import { BufferFullError, SourceBuffer, WriteFailedError, type BufferSettings, type Segment } from './buffer.js';
import { describeEvent, parseWebhookBody, splitEvents, type EventPaths } from './events.js';
import { parseJsonPath, type JsonPath } from './json-path.js';
import type { Window, WebhookRow } from './layout.js';
import type { WebhookMetrics, WebhookOutcome } from './metrics.js';
import { KeyedTokenBuckets, type RateLimit } from './rate-limit.js';
import type { WebhookRejectionOutcome } from './rejections.js';
import { secretsAt, type ReceivingSource } from './sources.js';
import type { WebhookTableSource } from './table.js';
import type { WindowLanding } from './windows.js';
import type { WebhookRequestCounts } from './request-counts.js';

export interface WebhookReceiverDeps {
  sources: { receiving(name: string): Promise<ReceivingSource | undefined> };
  rejections: { record(sourceId: string, outcome: WebhookRejectionOutcome, reason: string, at: Date): Promise<void> };
  tables: { registerRawWindow(source: WebhookTableSource, window: Window): Promise<void> };
  /** Where the windows holding segments are recorded (before any request in a segment is answered). */
  windows: { landed(landing: WindowLanding): Promise<number | undefined> };
  /** Writes one segment into the platform's storage; rejects once `signal` aborts. */
  writeSegment(key: string, body: Uint8Array, signal: AbortSignal): Promise<void>;
  /** This replica's id (unique across replicas) and start time, for segment names. */
  replica: string;
  startMs: number;
  writeTimeoutMs: number;
  metrics: WebhookMetrics;
  /** Where requests to known sources are counted for the source page (stopped by `drain`); without it, in the metrics only. */
  requestCounts?: Pick<WebhookRequestCounts, 'count' | 'countEvents' | 'stop'>;
  log: Logger;
  now?: () => number;
}

/** A request past the route's checks: the source exists and is enabled, the body is within its limit. */
export interface HookRequest {
  headers: RequestHeaders;
  body: Uint8Array;
  /** The `{secret}` segment of `/hooks/{name}/{secret}`. */
  pathSecret?: string;
  receivedAtMs: number;
}

export interface HookAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: { accepted: number } | { error: string; message: string };
}

/** A source ready to receive: its settings read once per cache period. */
export interface ActiveSource {
  source: ReceivingSource;
  paths: EventPaths & { split?: JsonPath };
  buffer: BufferSettings;
  rateLimit?: RateLimit;
}

/** The answer to an unknown or disabled name: the same for both. */
const NOT_FOUND: HookAnswer = { status: 404, body: { error: 'not_found', message: 'no webhook source at this address' } };

/** How long a source read from the database is used on this replica. */
const SOURCE_CACHE_MS = 1000;
/** Rejections being recorded at once per source; more are counted but not kept (a flood would only repeat them). */
const MAX_RECORDING = 4;
/** Names whose lookups are remembered; beyond this the oldest are forgotten (invented names cannot grow memory). */
const MAX_CACHED_NAMES = 10_000;

export class WebhookReceiver {
  readonly #deps: WebhookReceiverDeps;
  readonly #now: () => number;
  readonly #cache = new Map<string, { until: number; active: Promise<ActiveSource | undefined> }>();
  readonly #buffers = new Map<string, { sourceId: string; buffer: SourceBuffer }>();
  /** Per source (sources are few: the bound never forgets one in practice). */
  readonly #buckets = new KeyedTokenBuckets(100_000);
  readonly #recording = new Map<string, number>();
  #sequence = 0;

  constructor(deps: WebhookReceiverDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** The source of that name, or undefined; only an enabled one receives (see `receives`). */
  async find(name: string): Promise<ActiveSource | undefined> {
    const now = this.#now();
    const cached = this.#cache.get(name);
    if (cached && cached.until > now) return cached.active;
    this.#cache.delete(name);
    const active = this.#deps.sources.receiving(name).then((source) => (source ? prepare(source) : undefined));
    this.#cache.set(name, { until: now + SOURCE_CACHE_MS, active });
    if (this.#cache.size > MAX_CACHED_NAMES) this.#cache.delete(this.#cache.keys().next().value!);
    // A failed read is not remembered: the next request reads again.
    active.catch(() => this.#cache.delete(name));
    return active;
  }

  /**
   * Counts a request to a name with no enabled source (`found` is the disabled one, if any) and
   * gives its 404, the same for both.
   */
  notFound(found: ActiveSource | undefined): HookAnswer {
    // Invented names never become series: only a disabled source keeps its label (and its count).
    this.#count(found?.source, 'unknown_source', this.#now());
    return NOT_FOUND;
  }

  /** The CloudEvents webhook handshake (OPTIONS) of a source. */
  handshake(active: ActiveSource, headers: RequestHeaders): HookAnswer {
    if (active.source.config.handshake !== 'cloudevents') {
      return { status: 405, headers: { allow: 'POST' }, body: { error: 'method_not_allowed', message: 'this source does not answer the CloudEvents handshake' } };
    }
    const origin = headers['webhook-request-origin'];
    if (typeof origin !== 'string' || origin === '') {
      return { status: 400, body: { error: 'invalid_request', message: 'the handshake needs a WebHook-Request-Origin header' } };
    }
    return {
      status: 200,
      headers: {
        'webhook-allowed-origin': origin,
        allow: 'POST',
        ...(active.rateLimit ? { 'webhook-allowed-rate': String(active.rateLimit.perMinute) } : {}),
      },
    };
  }

  /** A body past max_body_bytes (413; nothing stored). */
  tooLarge(active: ActiveSource, receivedAtMs: number): HookAnswer {
    return this.#refuse(active, 'too_large', 413, `body larger than max_body_bytes (${active.source.config.max_body_bytes} bytes)`, receivedAtMs);
  }

  /**
   * Authentication from the headers and path alone, before the body is read (every mode but hmac,
   * which signs the body): its 401 (counted and kept like any refusal), `true` when the request
   * authenticated, undefined when only the body can tell.
   */
  authenticateHeaders(active: ActiveSource, request: Omit<HookRequest, 'body'>): HookAnswer | true | undefined {
    const verdict = verifyWebhookHeaders(verification(active, request));
    if (verdict === undefined) return undefined;
    return verdict.ok ? true : this.#refuse(active, 'unauthorized', 401, verdict.reason, request.receivedAtMs);
  }

  /** A body refused while it was read (too slow, or the replica's unauthenticated bytes full): nothing stored. */
  bodyRefused(refusal: BodyRefusal): HookAnswer {
    return { status: refusal.statusCode, headers: { ...refusal.headers }, body: { error: refusal.code, message: refusal.message } };
  }

  /**
   * Handles a request whose body was read in full, from authentication on (`authenticated`: its
   * headers already authenticated it, authenticateHeaders).
   */
  async accept(active: ActiveSource, request: HookRequest, authenticated = false): Promise<HookAnswer> {
    const { source } = active;
    const at = request.receivedAtMs;
    if (!authenticated) {
      const auth = verifyWebhookRequest({ ...verification(active, request), body: request.body });
      if (!auth.ok) return this.#refuse(active, 'unauthorized', 401, auth.reason, at);
    }

    if (active.rateLimit) {
      const decision = this.#buckets.take(source.id, active.rateLimit, at);
      if (!decision.ok) {
        return this.#refuse(active, 'rate_limited', 429, `past rate_limit_per_minute (${active.rateLimit.perMinute})`, at, { 'retry-after': String(decision.retryAfterSeconds) });
      }
    }

    const contentType = request.headers['content-type'];
    const parsed = parseWebhookBody(request.body, typeof contentType === 'string' ? contentType : undefined);
    if (!parsed.ok) return this.#refuse(active, 'invalid_body', 400, parsed.reason, at);
    const split = splitEvents(parsed.value, active.paths.split);
    if (!split.ok) return this.#refuse(active, 'invalid_body', 400, split.reason, at);
    const { events } = split;
    if (events.length > active.buffer.bufferLimit) {
      return this.#refuse(active, 'too_large', 413, `${events.length} events in one request, more than buffer_limit (${active.buffer.bufferLimit})`, at);
    }

    const rows: WebhookRow[] = events.map((event) => ({ ...describeEvent(event, active.paths), receivedAtMs: at }));
    try {
      await this.#buffer(active).append(rows, source.config.compact_every_minutes);
    } catch (error) {
      if (error instanceof BufferFullError) return this.#refuse(active, 'buffer_full', 503, error.message, at, { 'retry-after': '1' });
      if (error instanceof WriteFailedError) return this.#refuse(active, 'write_failed', 503, error.message, at, { 'retry-after': '5' });
      throw error;
    }
    const { metrics } = this.#deps;
    this.#count(source, 'accepted', at);
    this.#deps.requestCounts?.countEvents(source.id, rows.length, at);
    metrics.events.inc({ source: source.name }, rows.length);
    metrics.ackSeconds.observe({ source: source.name }, Math.max(0, this.#now() - at) / 1000);
    return { status: 202, body: { accepted: rows.length } };
  }

  /**
   * Writes every held event, then the request counts (shutdown: what requests are waiting for
   * goes out before the process ends).
   */
  async drain(): Promise<void> {
    await Promise.all([...this.#buffers.values()].map(({ buffer }) => buffer.drain()));
    await this.#deps.requestCounts?.stop();
  }

  #buffer(active: ActiveSource): SourceBuffer {
    const { source } = active;
    let entry = this.#buffers.get(source.name);
    // A source deleted and made again under its name starts afresh (its windows are not registered in the new table).
    if (!entry || entry.sourceId !== source.id) {
      const { metrics, replica, startMs, writeTimeoutMs } = this.#deps;
      const table: WebhookTableSource = { name: source.name, connection: source.connection };
      const buffer = new SourceBuffer(
        {
          source: source.name,
          replica,
          startMs,
          // One count for the replica: names never repeat, even for a source made again.
          nextSequence: () => ++this.#sequence,
          write: async (segment: Segment, signal) => {
            await this.#deps.writeSegment(segment.key, segment.body, signal);
            // After the write: a compaction that started before this landing sees the window owed.
            const generation = await this.#deps.windows.landed({ sourceId: source.id, window: segment.window, landedAtMs: segment.landedAtMs, events: segment.events });
            // Deleted since this replica read it (within its cache second): its events are not
            // acknowledged, and the removal deletes the segment with the rest of its raw prefix.
            if (generation === undefined) throw new Error(`the webhook source ${source.name} is being removed`);
            return generation;
          },
          registerWindow: (window) => this.#deps.tables.registerRawWindow(table, window),
          writeTimeoutMs,
          now: this.#now,
          onHeld: (events) => metrics.bufferEvents.set({ source: source.name }, events),
          onSegment: () => metrics.segments.inc({ source: source.name }),
        },
        active.buffer,
      );
      entry = { sourceId: source.id, buffer };
      this.#buffers.set(source.name, entry);
    } else {
      entry.buffer.settings = active.buffer;
    }
    return entry.buffer;
  }

  #refuse(active: ActiveSource, outcome: WebhookRejectionOutcome, status: number, reason: string, atMs: number, headers?: Record<string, string>): HookAnswer {
    const { source } = active;
    this.#count(source, outcome, atMs);
    this.#record(source.id, outcome, reason, atMs);
    return { status, ...(headers ? { headers } : {}), body: { error: outcome, message: reason } };
  }

  #count(source: ReceivingSource | undefined, outcome: WebhookOutcome, atMs: number): void {
    this.#deps.metrics.requests.inc({ source: source?.name ?? '', outcome });
    if (source) this.#deps.requestCounts?.count(source.id, outcome, atMs);
  }

  /** Keeps the rejection without holding up the answer; a flood past MAX_RECORDING in flight is counted only. */
  #record(sourceId: string, outcome: WebhookRejectionOutcome, reason: string, atMs: number): void {
    const inFlight = this.#recording.get(sourceId) ?? 0;
    if (inFlight >= MAX_RECORDING) return;
    this.#recording.set(sourceId, inFlight + 1);
    this.#deps.rejections
      .record(sourceId, outcome, reason, new Date(atMs))
      .catch((error: unknown) => this.#deps.log.warn({ err: error, source_id: sourceId }, 'webhook rejection could not be recorded'))
      .finally(() => {
        const left = (this.#recording.get(sourceId) ?? 1) - 1;
        if (left > 0) this.#recording.set(sourceId, left);
        else this.#recording.delete(sourceId);
      });
  }
}

/** What authentication checks a request against, but its body. */
function verification(active: ActiveSource, request: Omit<HookRequest, 'body'>): Omit<WebhookRequestToVerify, 'body'> {
  const at = request.receivedAtMs;
  return {
    auth: active.source.auth,
    secrets: secretsAt(active.source.secrets, at),
    headers: request.headers,
    ...(request.pathSecret !== undefined ? { pathSecret: request.pathSecret } : {}),
    nowMs: at,
  };
}

/** A source's settings in the forms the steps use. */
function prepare(source: ReceivingSource): ActiveSource {
  const { config } = source;
  const path = (text: string | undefined) => (text === undefined ? undefined : parseJsonPath(text));
  const split = path(config.split);
  const eventIdPath = path(config.event_id_path);
  const eventTypePath = path(config.event_type_path);
  const keyPath = path(config.key_path);
  return {
    source,
    paths: { ...(split ? { split } : {}), ...(eventIdPath ? { eventIdPath } : {}), ...(eventTypePath ? { eventTypePath } : {}), ...(keyPath ? { keyPath } : {}) },
    buffer: {
      flushMaxEvents: config.flush_max_events,
      flushMaxIntervalMs: config.flush_max_interval_ms,
      flushMaxBytes: config.flush_max_bytes,
      bufferLimit: config.buffer_limit,
    },
    ...(config.rate_limit_per_minute !== undefined ? { rateLimit: { perMinute: config.rate_limit_per_minute, burst: config.rate_limit_burst } } : {}),
  };
}
