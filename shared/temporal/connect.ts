import { Client, Connection } from '@temporalio/client';
import type { TemporalConfig } from './config.js';
import { temporalTlsOptions } from './tls.js';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
  close(): Promise<void>;
}

/** Opens a client connection to `temporal.address` in `temporal.namespace`, honouring `temporal.tls.*`. */
export async function connectTemporal(
  cfg: Pick<TemporalConfig, 'address' | 'namespace' | 'tls'>,
  opts: { connectTimeoutMs?: number } = {},
): Promise<TemporalHandle> {
  if (!cfg.address) throw new Error('temporal.address is not set (and no embedded dev server supplied one)');
  const connection = await Connection.connect({
    address: cfg.address,
    tls: await temporalTlsOptions(cfg.tls),
    connectTimeout: opts.connectTimeoutMs ?? 10_000,
  });
  const client = new Client({ connection, namespace: cfg.namespace });
  return { client, connection, close: () => closeTemporalConnection(connection) };
}

/**
 * Probes still running per connection. The SDK retries failed calls from a timer and that timer
 * throws (uncaught) if the channel was closed meanwhile, so a connection is closed only after its
 * probes have settled (their deadline bounds that to a few seconds).
 */
const inflight = new WeakMap<object, Set<Promise<unknown>>>();

/**
 * True when the frontend answers for the client's namespace within `timeoutMs` (for /readyz).
 * Never throws: an unreachable cluster or unknown namespace is just "not ready".
 */
export async function temporalReachable(client: Client, timeoutMs: number): Promise<boolean> {
  const connection = client.connection;
  const call = connection
    .withDeadline(Date.now() + timeoutMs, () => client.workflowService.describeNamespace({ namespace: client.options.namespace }))
    .then(
      () => true,
      () => false,
    );
  let probes = inflight.get(connection);
  if (!probes) inflight.set(connection, (probes = new Set()));
  probes.add(call);
  void call.finally(() => probes.delete(call));
  // The deadline ends the RPC, but a retry already waiting in its backoff can outlive it: answer on time anyway.
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes a client connection once its readiness probes have settled (see `inflight`). */
export async function closeTemporalConnection(connection: Connection): Promise<void> {
  await Promise.allSettled([...(inflight.get(connection) ?? [])]);
  await connection.close();
}
