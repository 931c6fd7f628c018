/**
 * Shared by the webhook durability tests: an hmac source created through the admin REST API,
 * signed posts, continuous senders that record every acknowledged event id, and the raw segment
 * objects a source has in the platform's storage.
 */
import { createHmac } from 'node:crypto';
import type { ObjstoreConnection } from '../../shared/objstore/index.js';
import { rawPrefix } from '../../shared/webhooks/layout.js';

export const ADMIN_KEY = 'admin-key-0123456789';
export const HOOK_SECRET = 'whsec-durability-0123456789';

/** Creates an hmac (sha256, hex, `X-Signature`) source; answers the source view. */
export async function createHmacSource(apiUrl: string, body: { name: string; connection: string; config?: Record<string, unknown> }): Promise<{ table: string }> {
  const response = await fetch(`${apiUrl}/api/v1/admin/webhooks/sources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, auth: { mode: 'hmac', signature_header: 'X-Signature', secret: HOOK_SECRET } }),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`creating source ${body.name}: ${response.status} ${text}`);
  return JSON.parse(text) as { table: string };
}

/** POSTs `event` as JSON, signed with the source's secret; answers the status. */
export async function postEvent(hookUrl: string, event: object): Promise<number> {
  const body = JSON.stringify(event);
  const signature = createHmac('sha256', HOOK_SECRET).update(body).digest('hex');
  const response = await fetch(hookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': signature }, body });
  await response.arrayBuffer();
  return response.status;
}

export interface Senders {
  /** Ids whose request was answered 202. */
  readonly acked: Set<string>;
  /** Answers other than 202, by status. */
  readonly refused: Map<number, number>;
  /** Requests that got no answer (the connection failed). */
  readonly unanswered: () => number;
  /** Requests sent and not yet answered or failed. */
  readonly inFlight: () => number;
  /** Resolves once at least `n` events are acknowledged. */
  ackedAtLeast(n: number): Promise<void>;
  /** Makes the senders stop after their current request. */
  stop(): void;
  /** Settles when every sender has stopped (told to, or its request failed). */
  readonly done: Promise<void>;
}

/**
 * `count` senders posting one event each after another, with unique ids `{prefix}-{sender}-{n}`,
 * each to the URL `target(sender, n)` gives. A sender stops at its first failed request (the
 * server is gone) or when told to.
 */
export function startSenders(opts: { count: number; prefix: string; target: (sender: number, n: number) => string }): Senders {
  const acked = new Set<string>();
  const refused = new Map<number, number>();
  let unanswered = 0;
  let inFlight = 0;
  let stopped = false;
  const waiting: Array<{ n: number; resolve(): void }> = [];
  const notify = () => {
    for (const w of [...waiting]) {
      if (acked.size >= w.n) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const sender = async (index: number) => {
    for (let n = 0; !stopped; n++) {
      const id = `${opts.prefix}-${index}-${n}`;
      inFlight++;
      try {
        const status = await postEvent(opts.target(index, n), { id, sender: index, n, note: 'durability' });
        if (status === 202) acked.add(id);
        else refused.set(status, (refused.get(status) ?? 0) + 1);
      } catch {
        unanswered++;
        return;
      } finally {
        inFlight--;
        notify();
      }
    }
  };
  const done = Promise.all(Array.from({ length: opts.count }, (_, i) => sender(i))).then(() => undefined);
  return {
    acked,
    refused,
    unanswered: () => unanswered,
    inFlight: () => inFlight,
    ackedAtLeast(n) {
      if (acked.size >= n) return Promise.resolve();
      // A sender that stops early would leave this waiting forever: fail instead.
      return Promise.race([
        new Promise<void>((resolve) => waiting.push({ n, resolve })),
        done.then(() => {
          if (acked.size < n) throw new Error(`the senders stopped after ${acked.size} of ${n} acknowledged events (refused: ${JSON.stringify([...refused])})`);
        }),
      ]);
    },
    stop() {
      stopped = true;
    },
    done,
  };
}

/** A raw segment object: its key, size and the `{replica}-{start}` that wrote it. */
export interface SegmentObject {
  key: string;
  etag: string;
  writer: string;
  sequence: number;
}

/** The raw segments of `source` in the platform's storage, by key. */
export async function rawSegments(store: ObjstoreConnection['store'], bucket: string, source: string): Promise<Map<string, SegmentObject>> {
  const out = new Map<string, SegmentObject>();
  let continuationToken: string | undefined;
  do {
    const page = await store.listObjects(bucket, { prefix: rawPrefix(source), ...(continuationToken ? { continuationToken } : {}) });
    for (const object of page.objects) {
      const name = /\/([^/]+)-(\d+)\.jsonl\.gz$/.exec(object.key);
      if (!name) throw new Error(`not a segment name: ${object.key}`);
      out.set(object.key, { key: object.key, etag: object.etag, writer: name[1]!, sequence: Number(name[2]) });
    }
    continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (continuationToken);
  return out;
}
