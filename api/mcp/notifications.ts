import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallerContext } from '../../shared/identity/index.js';
import type { Logger } from '../../shared/logging/index.js';
import type { ResourceActor, ResourceChangeSource } from '../../shared/resources/index.js';
import { readableByMembership } from './managed-resources.js';

/**
 * Something server-initiated notifications can be sent to: a session of this process (an SDK
 * server connected to a stateful Streamable HTTP, legacy SSE or stdio transport, or a standalone
 * stream of a database-backed session).
 */
export interface NotificationTarget {
  /**
   * The caller the session last made a request as (stdio: the connection's). Undefined before
   * its first message: such a session is told nothing, since nothing says what it may see.
   */
  caller(): CallerContext | undefined;
  sendResourceListChanged(): Promise<void>;
  sendPromptListChanged(): Promise<void>;
}

/**
 * Every session of this process that notifications can reach. `buildMcpServer` registers each
 * SDK server when it connects and drops it when its transport closes, so the set follows the
 * sessions without the transports knowing about it; other streams register with `add`.
 */
export class ConnectedServers implements Iterable<NotificationTarget> {
  readonly #targets = new Set<NotificationTarget>();

  /** Registers a target; call the returned function when it goes away. */
  add(target: NotificationTarget): () => void {
    this.#targets.add(target);
    return () => this.#targets.delete(target);
  }

  /** Registers a server that has just connected; it leaves the set when its transport closes. */
  track(target: NotificationTarget, transport: Transport): void {
    const remove = this.add(target);
    // Protocol.connect installed its own onclose on the transport; chain in front of it.
    const closed = transport.onclose;
    transport.onclose = () => {
      remove();
      closed?.();
    };
  }

  [Symbol.iterator](): Iterator<NotificationTarget> {
    return this.#targets.values();
  }
}

/**
 * Whether a change in `libraries` may alter the caller's resources/list, by the rule
 * resources/list applies: a caller without content (no persona) lists nothing; the others list
 * their own library, their personas' and global — membership, for administrators too. Libraries
 * `undefined` means unknown (changes were missed): every caller who lists resources.
 */
export function listChangeReaches(listsResources: boolean, actor: ResourceActor, libraries: ReadonlySet<string> | undefined): boolean {
  if (!listsResources) return false;
  if (libraries === undefined) return true;
  for (const library of libraries) if (readableByMembership(actor, library)) return true;
  return false;
}

/**
 * Changes within this window reach each session as one notification. Short enough to go
 * unnoticed, long enough to gather a batch of uploads or a folder of moves committed together.
 */
export const listChangedWindowMs = 50;

/**
 * Least time between two notifications: a window opened less than this after the last send waits
 * out the rest. A long burst (a 5,000-file batch, one write per file) then reaches each session at
 * most once a second — each `list_changed` makes a client list again — instead of once a window.
 */
export const listChangedIntervalMs = 1000;

/**
 * Turns managed-resource changes (created, replaced, updated — which covers moves — and deleted,
 * from every replica when `changes` follows them all) into `notifications/resources/list_changed`.
 * Changes gather for a window (`schedule`, at least `listChangedWindowMs` and at least
 * `listChangedIntervalMs` after the previous send); then each session whose caller the batch
 * reaches gets one notification. Sends are sequential, so a session gets at most one per interval.
 * Returns the unsubscribe.
 */
export function notifyResourceListChanges(opts: ListChangedOptions & {
  changes: ResourceChangeSource;
  reaches: (caller: CallerContext, libraries: ReadonlySet<string> | undefined) => boolean;
}): () => void {
  let libraries = new Set<string>();
  let missed = false;
  const batches = listChangedBatches(opts, 'resources', (target) => target.sendResourceListChanged(), () => {
    const batch = missed ? undefined : libraries;
    [libraries, missed] = [new Set(), false];
    return (caller) => opts.reaches(caller, batch);
  });
  const unsubscribe = opts.changes.subscribe({
    changed(notice) {
      for (const library of notice.libraries) libraries.add(library);
      batches.arm();
    },
    missed() {
      missed = true;
      batches.arm();
    },
  });
  return () => {
    batches.stop();
    unsubscribe();
  };
}

/** Where list_changed notifications go and how their windows are timed. */
interface ListChangedOptions {
  targets: Iterable<NotificationTarget>;
  log: Logger;
  /** Runs `send` when the window closes, `delayMs` from now (tests hold it). */
  schedule?: (send: () => void, delayMs: number) => void;
  /** Milliseconds on a monotonic clock. */
  now?: () => number;
}

/**
 * The windows of one kind of list_changed: `arm` opens one (at least `listChangedWindowMs`, and
 * at least `listChangedIntervalMs` after the previous send); when it closes, `take` hands over the
 * batch as the callers it reaches, and each session whose caller it reaches gets one notification.
 * Sends are sequential, so a session gets at most one per interval.
 */
function listChangedBatches(opts: ListChangedOptions, list: string, notify: (target: NotificationTarget) => Promise<void>, take: () => (caller: CallerContext) => boolean) {
  const schedule = opts.schedule ?? ((send: () => void, delayMs: number) => void setTimeout(send, delayMs).unref());
  const now = opts.now ?? (() => performance.now());
  let armed = false;
  let stopped = false;
  let lastSent = -Infinity;

  // A session failing to take one never stops the others.
  const deliver = async (target: NotificationTarget) => {
    try {
      await notify(target);
    } catch (error) {
      opts.log.debug({ err: error }, `${list} list_changed not delivered to a session`);
    }
  };

  const send = () => {
    const reaches = take();
    armed = false;
    if (stopped) return;
    lastSent = now();
    for (const target of opts.targets) {
      const caller = target.caller();
      if (caller && reaches(caller)) void deliver(target);
    }
  };

  return {
    arm() {
      if (armed) return;
      armed = true;
      schedule(send, Math.max(listChangedWindowMs, lastSent + listChangedIntervalMs - now()));
    },
    stop() {
      stopped = true;
    },
  };
}

/**
 * Turns committed changes of stored prompts (`changes`: this process's writes) into
 * `notifications/prompts/list_changed` for every session whose caller `reaches` (prompts are
 * served to callers with a persona that allows content), gathered in windows as resources' are.
 * The notification says only that prompts changed; a client lists again and sees its own.
 */
export function notifyPromptListChanges(opts: ListChangedOptions & { changes: (listener: () => void) => () => void; reaches: (caller: CallerContext) => boolean }): () => void {
  const batches = listChangedBatches(opts, 'prompts', (target) => target.sendPromptListChanged(), () => opts.reaches);
  const unsubscribe = opts.changes(batches.arm);
  return () => {
    batches.stop();
    unsubscribe();
  };
}
