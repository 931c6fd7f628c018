import pg from 'pg';

/**
 * One dedicated connection (not from the pool: a pooled client would be recycled, and a LISTEN
 * belongs to its session) that LISTENs on a channel. When the connection drops (server restart,
 * network, pg_terminate_backend) it reconnects with a growing delay and reports that it is back:
 * notifications sent while it was away are lost, so the caller must assume it missed some.
 */
export interface ListenOptions {
  dsn: string;
  channel: string;
  onNotification(payload: string): void;
  /** The connection was lost and is listening again: notifications in between were not seen. */
  onReconnected(): void;
  log: { warn(o: object, msg: string): void; info(o: object, msg: string): void };
  applicationName?: string;
  backoff?: Backoff;
}

export interface Listening {
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

const defaultBackoff: Backoff = { initialMs: 100, maxMs: 10_000 };

/** The wait before reconnect attempt `attempt` (0-based): doubling from initialMs, capped at maxMs. */
export function reconnectDelay(attempt: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
}

/** Resolves once the first LISTEN is in place; fails (like opening the pool) when it cannot be. */
export async function listen(opts: ListenOptions): Promise<Listening> {
  const backoff = opts.backoff ?? defaultBackoff;
  let current: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  async function open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: opts.dsn, application_name: opts.applicationName ?? 'platform-listen', keepAlive: true });
    let live = false;
    // Until LISTEN answers, failures surface as the rejected connect or query below.
    client.on('error', (err) => {
      if (live) dropped(client, err);
    });
    client.on('end', () => {
      if (live) dropped(client);
    });
    client.on('notification', (message) => {
      if (message.channel === opts.channel) opts.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(opts.channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    live = true;
    return client;
  }

  function dropped(client: pg.Client, err?: Error): void {
    if (current !== client) return;
    current = undefined;
    void client.end().catch(() => undefined);
    if (closed) return;
    opts.log.warn({ err: err ? { message: err.message } : undefined, channel: opts.channel }, 'LISTEN connection lost; reconnecting');
    retryLater();
  }

  function retryLater(): void {
    timer = setTimeout(() => void reconnect(), reconnectDelay(attempt++, backoff));
  }

  async function reconnect(): Promise<void> {
    timer = undefined;
    if (closed) return;
    let client: pg.Client;
    try {
      client = await open();
    } catch (err) {
      opts.log.warn({ err: { message: (err as Error).message }, channel: opts.channel, attempt }, 'LISTEN reconnect failed; trying again');
      if (!closed) retryLater();
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
    attempt = 0;
    opts.log.info({ channel: opts.channel }, 'LISTEN connection restored');
    opts.onReconnected();
  }

  current = await open();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const client = current;
      current = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
