/**
 * Managed-resource changes across replicas. A write publishes each change with `pg_notify` inside
 * its own transaction — Postgres delivers it on commit only, so a rolled-back write tells no one
 * and a committed one cannot be lost between commit and publish — and announces it in process
 * after commit (`onChange`). Each api replica follows the channel on one LISTEN connection. Its own
 * changes come back on the channel too; they are dropped there by origin, since the in-process
 * announcement already delivered them (at once, and also where NOTIFY does not cross connections,
 * as in embedded PGlite).
 */
import { listen, type Backoff } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import type { ResourceChangeEvent, ResourceChangeKind, ResourceService } from './types.js';

export const RESOURCE_CHANGES_CHANNEL = 'platform_resource_changes';

/** Postgres refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7999;

/** What every replica learns of a committed change: enough to decide who may see it, no more. */
export interface ResourceChangeNotice {
  kind: ResourceChangeKind;
  id: string;
  /** Libraries (view text) whose listings changed: the resource's, and the one a move left. */
  libraries: string[];
}

export interface ResourceChangeHandlers {
  changed(notice: ResourceChangeNotice): void;
  /** Changes may have been missed (the LISTEN connection was lost and is back): scope unknown. */
  missed(): void;
}

/** Where a surface learns of resource changes. Returns the unsubscribe. */
export interface ResourceChangeSource {
  subscribe(handlers: ResourceChangeHandlers): () => void;
}

export interface ResourceChangeFeed extends ResourceChangeSource {
  /** Ends the LISTEN connection and the in-process subscription. */
  close(): Promise<void>;
}

const kinds: readonly ResourceChangeKind[] = ['created', 'replaced', 'updated', 'deleted'];

export function noticeOf(event: ResourceChangeEvent): ResourceChangeNotice {
  const { id, library } = event.resource;
  return { kind: event.kind, id, libraries: event.previousLibrary ? [library, event.previousLibrary] : [library] };
}

/** The NOTIFY payload of a change; undefined when it would not fit (publishing must never fail a write). */
export function encodeResourceChange(origin: string, event: ResourceChangeEvent): string | undefined {
  const payload = JSON.stringify({ origin, ...noticeOf(event) });
  return Buffer.byteLength(payload, 'utf8') <= MAX_NOTIFY_PAYLOAD_BYTES ? payload : undefined;
}

/** A payload from the channel, or undefined when it is not one of ours. */
export function decodeResourceChange(payload: string): { origin: string; notice: ResourceChangeNotice } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { origin, kind, id, libraries } = value as Record<string, unknown>;
  if (typeof origin !== 'string' || typeof id !== 'string' || !kinds.includes(kind as ResourceChangeKind)) return undefined;
  if (!Array.isArray(libraries) || libraries.length === 0 || !libraries.every((l) => typeof l === 'string')) return undefined;
  return { origin, notice: { kind: kind as ResourceChangeKind, id, libraries: libraries as string[] } };
}

/** Inside a write's transaction: queues its changes for every replica (sent on commit). */
export async function publishResourceChanges(
  client: { query(text: string, values: unknown[]): Promise<unknown> },
  origin: string,
  events: readonly ResourceChangeEvent[],
  log: Pick<Logger, 'warn'>,
): Promise<void> {
  for (const event of events) {
    const payload = encodeResourceChange(origin, event);
    if (payload === undefined) {
      log.warn({ resourceId: event.resource.id }, 'resource change too large to publish; other replicas will not hear of it');
      continue;
    }
    await client.query('SELECT pg_notify($1, $2)', [RESOURCE_CHANGES_CHANNEL, payload]);
  }
}

/** This process's changes only: for a surface without a LISTEN connection (one replica). */
export function localResourceChanges(service: Pick<ResourceService, 'onChange'>): ResourceChangeSource {
  return { subscribe: (handlers) => service.onChange((event) => handlers.changed(noticeOf(event))) };
}

/**
 * Every replica's changes: this service's from its in-process announcements, the others' from a
 * dedicated LISTEN connection. Resolves once listening, so nothing committed afterwards is missed.
 */
export async function followResourceChanges(opts: {
  service: Pick<ResourceService, 'onChange' | 'changeOrigin'>;
  dsn: string;
  log: Pick<Logger, 'warn' | 'info'>;
  backoff?: Backoff;
}): Promise<ResourceChangeFeed> {
  const { service, log } = opts;
  const subscribers = new Set<ResourceChangeHandlers>();
  const each = (deliver: (handlers: ResourceChangeHandlers) => void) => {
    for (const handlers of subscribers) {
      try {
        deliver(handlers);
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'resource change subscriber failed');
      }
    }
  };
  const listening = await listen({
    dsn: opts.dsn,
    channel: RESOURCE_CHANGES_CHANNEL,
    applicationName: 'platform-resource-changes',
    log,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    onNotification(payload) {
      const decoded = decodeResourceChange(payload);
      if (!decoded) return void log.warn({ channel: RESOURCE_CHANGES_CHANNEL }, 'ignored a malformed resource change notification');
      if (decoded.origin === service.changeOrigin) return;
      each((handlers) => handlers.changed(decoded.notice));
    },
    onReconnected: () => each((handlers) => handlers.missed()),
  });
  const local = service.onChange((event) => {
    const notice = noticeOf(event);
    each((handlers) => handlers.changed(notice));
  });
  return {
    subscribe(handlers) {
      subscribers.add(handlers);
      return () => subscribers.delete(handlers);
    },
    async close() {
      local();
      subscribers.clear();
      await listening.close();
    },
  };
}
