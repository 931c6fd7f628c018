/**
 * `platform dev`'s HTTP listeners: on this machine only unless asked otherwise, and checked free
 * before anything else starts, so a taken port costs a second, not a Postgres and Temporal start.
 */
import { createServer } from 'node:net';
import { parseListenAddress } from '../api/http/app.js';
import type { PlatformConfig } from '../shared/config/index.js';

/** The listener keys `platform dev` binds, with their addresses when set. */
function listeners(config: PlatformConfig): Array<{ key: string; address: string | undefined; set(address: string): void }> {
  return [
    { key: 'server.address', address: config.server.address, set: (a) => (config.server.address = a) },
    { key: 'metrics.address', address: config.metrics.address, set: (a) => (config.metrics.address = a) },
    { key: 'webhooks.receiver.address', address: config.webhooks.receiver.address, set: (a) => (config.webhooks.receiver.address = a) },
  ];
}

/**
 * An address without a host (`:8080`, the default) means every interface to `platform serve`; a
 * laptop's dev platform (its admin key, `/metrics`) stays on loopback. A host written out — even
 * `0.0.0.0` — is kept.
 */
export function devListenAddress(address: string): string {
  return address.trim().startsWith(':') ? `127.0.0.1${address.trim()}` : address;
}

/** Rewrites `platform dev`'s listener addresses to loopback where no host is written. */
export function bindDevListenersToLoopback(config: PlatformConfig): void {
  for (const listener of listeners(config)) if (listener.address) listener.set(devListenAddress(listener.address));
}

/** Why a listener could not bind, in one line naming its key and how to change it; undefined when it can. */
export async function listenerRefusal(key: string, address: string, configFile: string | undefined): Promise<string | undefined> {
  const { host, port } = parseListenAddress(address);
  if (port === 0) return undefined;
  const code = await new Promise<string | undefined>((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
  if (code === undefined) return undefined;
  const why = code === 'EADDRINUSE' ? 'is already in use by another process' : `cannot be bound (${code})`;
  const example = `${host.includes(':') ? `[${host}]` : host}:${port + 1}`;
  const where = configFile ? `in ${configFile}` : 'in platform.yaml (or --config FILE)';
  return `${key} ${address} ${why}: stop that process, or set ${key} to a free address ${where}, e.g. "${example}"`;
}

/** Refuses at once when one of the listeners cannot bind (before Postgres, Temporal and the worker start). */
export async function checkDevListeners(config: PlatformConfig, configFile: string | undefined): Promise<void> {
  for (const { key, address } of listeners(config)) {
    const refusal = address ? await listenerRefusal(key, address, configFile) : undefined;
    if (refusal) throw new Error(refusal);
  }
}
