/**
 * Stored-prompt changes across replicas. A write announces itself with `pg_notify` inside its
 * transaction (Postgres delivers it on commit only, so a rolled-back write announces nothing), and
 * each api replica follows the channel on one LISTEN connection (shared/db/listen.ts). Its own
 * writes reach its listeners in process, at once; the channel brings the other replicas' (a
 * replica's own notification names its origin and is skipped). A LISTEN connection lost and
 * restored counts as a change: what it missed is unknown, and prompts list_changed only asks
 * clients to list again.
 */
import type pg from 'pg';
import { listen, type Backoff } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import type { PromptService } from './types.js';

export const PROMPT_CHANGES_CHANNEL = 'platform_prompt_changes';

/** Announces a committed change to every replica: call inside the writing transaction. */
export async function publishPromptChange(client: Pick<pg.PoolClient, 'query'>, origin: string): Promise<void> {
  await client.query('SELECT pg_notify($1, $2)', [PROMPT_CHANGES_CHANNEL, origin]);
}

/** Changes of stored prompts on every replica. */
export interface PromptChanges {
  /** Calls `listener` after each committed change (any replica's); answers the unsubscribe. */
  onChange(listener: () => void): () => void;
}

export interface PromptChangeFeed extends PromptChanges {
  /** Ends the LISTEN connection and the in-process subscription. */
  close(): Promise<void>;
}

/** Resolves once listening, so nothing committed afterwards is missed. */
export async function followPromptChanges(opts: {
  service: Pick<PromptService, 'onChange' | 'changeOrigin'>;
  dsn: string;
  log: Pick<Logger, 'warn' | 'info'>;
  backoff?: Backoff;
}): Promise<PromptChangeFeed> {
  const { service, log } = opts;
  const listeners = new Set<() => void>();
  const tell = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (err) {
        log.warn({ err: { message: (err as Error).message } }, 'prompt change listener failed');
      }
    }
  };
  const listening = await listen({
    dsn: opts.dsn,
    channel: PROMPT_CHANGES_CHANNEL,
    applicationName: 'platform-prompt-changes',
    log,
    ...(opts.backoff ? { backoff: opts.backoff } : {}),
    onNotification(origin) {
      if (origin !== service.changeOrigin) tell();
    },
    onReconnected: tell,
  });
  const local = service.onChange(tell);
  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      local();
      listeners.clear();
      await listening.close();
    },
  };
}
