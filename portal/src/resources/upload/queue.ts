/**
 * The upload queue of a batch (spec document 2, "Upload rules in the portal", "Limits"): four files
 * at a time, each its own request to the create route (POST /api/v1/resources, multipart, the
 * fields before the file part, the session's CSRF header), sent by XMLHttpRequest for its upload
 * progress. Cancel aborts what is in flight and stops what waits; Retry failed sends again only the
 * files that failed, with the batch's settings as they are then (a 409 under `if_exists=fail`
 * retried as `skip_unchanged`). Each file ends created, revised, unchanged, failed (the server's
 * words) or cancelled; one refused before sending (past max_upload_bytes) is never sent.
 */
import { csrfHeaders, errorOf } from '../../api/client';
import type { BatchItem } from './sources';
import { UPLOAD_CONCURRENCY } from './rules';

export type Outcome = 'created' | 'revised' | 'unchanged';

export type ItemState =
  | { kind: 'waiting' }
  | { kind: 'refused'; message: string }
  | { kind: 'sending'; loaded: number }
  | { kind: 'done'; outcome: Outcome; id: string }
  | { kind: 'failed'; status: number; message: string }
  | { kind: 'cancelled' };

/** The form fields of one file (before the file part), or why it cannot be sent as the batch stands. */
export type FormFor = (item: BatchItem) => { fields: Array<[string, string]> } | { refusal: string };

/** How often the page hears of progress at most (a batch of thousands of small files stays cheap to draw). */
const notifyEveryMs = 100;

export class UploadQueue {
  private readonly states = new Map<number, ItemState>();
  private readonly waiting: BatchItem[] = [];
  private readonly inflight = new Map<number, XMLHttpRequest>();
  /** Files Cancel stopped while in flight (one still being unpacked has no request to abort yet). */
  private readonly aborting = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finished?: () => void;
  /** Bumped on every change the page draws (useSyncExternalStore's snapshot). */
  version = 0;
  startedAt = 0;

  constructor(
    readonly items: readonly BatchItem[],
    private readonly formFor: FormFor,
  ) {
    for (const item of items) this.states.set(item.id, item.refusal ? { kind: 'refused', message: item.refusal } : { kind: 'waiting' });
  }

  state(item: BatchItem): ItemState {
    return this.states.get(item.id)!;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  get running(): boolean {
    return this.inflight.size > 0 || this.waiting.length > 0;
  }

  /** Sends every waiting file; resolves once none is waiting or in flight. */
  start(): Promise<void> {
    return this.run(this.items.filter((i) => this.state(i).kind === 'waiting'));
  }

  /** Sends again only the files that failed. */
  retryFailed(): Promise<void> {
    const failed = this.items.filter((i) => this.state(i).kind === 'failed');
    for (const i of failed) this.states.set(i.id, { kind: 'waiting' });
    return this.run(failed);
  }

  /** Aborts the requests in flight (their files end cancelled) and stops the waiting ones. */
  cancel(): void {
    for (const item of this.waiting.splice(0)) this.states.set(item.id, { kind: 'cancelled' });
    for (const [id, xhr] of this.inflight) {
      this.aborting.add(id);
      xhr.abort();
    }
    this.changed(true);
  }

  /** Files and bytes of the batch (refused ones left out) and how far it is. */
  progress() {
    let files = 0;
    let filesDone = 0;
    let bytes = 0;
    let bytesSent = 0;
    const counts = { created: 0, revised: 0, unchanged: 0, failed: 0, cancelled: 0, refused: 0 };
    for (const item of this.items) {
      const s = this.state(item);
      if (s.kind === 'refused') {
        counts.refused++;
        continue;
      }
      files++;
      bytes += item.size;
      if (s.kind === 'done') {
        filesDone++;
        bytesSent += item.size;
        counts[s.outcome]++;
      } else if (s.kind === 'sending') bytesSent += Math.min(s.loaded, item.size);
      else if (s.kind === 'failed') counts.failed++;
      else if (s.kind === 'cancelled') counts.cancelled++;
    }
    return { files, filesDone, bytes, bytesSent, counts, elapsedMs: this.startedAt ? performance.now() - this.startedAt : 0 };
  }

  private run(items: BatchItem[]): Promise<void> {
    if (items.length === 0) return Promise.resolve();
    this.waiting.push(...items);
    this.startedAt = performance.now();
    const done = new Promise<void>((resolve) => {
      const previous = this.finished;
      this.finished = () => {
        previous?.();
        resolve();
      };
    });
    this.pump();
    this.changed(true);
    return done;
  }

  private pump(): void {
    while (this.inflight.size < UPLOAD_CONCURRENCY && this.waiting.length > 0) void this.send(this.waiting.shift()!);
    if (!this.running) {
      const finished = this.finished;
      this.finished = undefined;
      finished?.();
    }
  }

  private async send(item: BatchItem): Promise<void> {
    // Held in flight while an archive member is inflated, so Cancel stops it too.
    const xhr = new XMLHttpRequest();
    this.inflight.set(item.id, xhr);
    this.states.set(item.id, { kind: 'sending', loaded: 0 });
    this.changed(false);
    try {
      const form = this.formFor(item);
      if ('refusal' in form) {
        this.states.set(item.id, { kind: 'failed', status: 0, message: form.refusal });
        return;
      }
      const body = new FormData();
      for (const [name, value] of form.fields) body.append(name, value);
      let blob: Blob;
      try {
        blob = await item.read();
      } catch (e) {
        this.states.set(item.id, { kind: 'failed', status: 0, message: `could not be read: ${e instanceof Error ? e.message : String(e)}` });
        return;
      }
      if (this.aborting.has(item.id)) {
        this.states.set(item.id, { kind: 'cancelled' });
        return;
      }
      body.append('file', blob, item.fileName);
      this.states.set(item.id, await this.post(xhr, item, body));
    } finally {
      this.aborting.delete(item.id);
      this.inflight.delete(item.id);
      this.pump();
      this.changed(!this.running);
    }
  }

  private post(xhr: XMLHttpRequest, item: BatchItem, body: FormData): Promise<ItemState> {
    return new Promise((resolve) => {
      xhr.open('POST', '/api/v1/resources');
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
      xhr.upload.addEventListener('progress', (e) => {
        this.states.set(item.id, { kind: 'sending', loaded: e.loaded });
        this.changed(false);
      });
      xhr.addEventListener('load', () => {
        let answer: unknown;
        try {
          answer = JSON.parse(xhr.responseText);
        } catch {
          answer = undefined;
        }
        if (xhr.status === 200 || xhr.status === 201) {
          const { outcome, id } = answer as { outcome: Outcome; id: string };
          resolve({ kind: 'done', outcome, id });
        } else {
          resolve({ kind: 'failed', status: xhr.status, message: errorOf({ status: xhr.status, statusText: xhr.statusText }, answer).message });
        }
      });
      xhr.addEventListener('error', () => resolve({ kind: 'failed', status: 0, message: 'the connection failed before the server answered' }));
      xhr.addEventListener('abort', () => resolve({ kind: 'cancelled' }));
      xhr.send(body);
    });
  }

  /** Tells the page, at most every 100 ms, or at once (a batch starting, cancelled or finished). */
  private changed(now: boolean): void {
    if (now) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.version++;
      for (const l of this.listeners) l();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.version++;
      for (const l of this.listeners) l();
    }, notifyEveryMs);
  }
}
