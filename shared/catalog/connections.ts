/**
 * The configured catalog instances (`toolkits.catalog.<name>`), each with its client. One tool set
 * serves them all: a `connection` argument picks the instance (key or connection_name), none the
 * default (the first name in sort order, as for SQL).
 */
import type { CatalogInstanceConfig, PlatformConfig } from '../config/index.js';
import { redactUrlSecrets, type Logger } from '../logging/index.js';
import { defaultConnectionName, resolveConnection } from '../sql/index.js';
import { CatalogClient } from './client.js';
import { CatalogError } from './errors.js';

export interface CatalogConnection {
  name: string;
  displayName: string;
  config: CatalogInstanceConfig;
  client: CatalogClient;
}

export interface CatalogConnections {
  connections: ReadonlyMap<string, CatalogConnection>;
  defaultConnection: string | undefined;
  /** The named (or default) instance; an unknown name is a CatalogError of kind `invalid` listing what exists. */
  connection(name?: string): CatalogConnection;
}

export function createCatalogConnections(config: PlatformConfig, deps: { log: Logger }): CatalogConnections {
  const connections = new Map<string, CatalogConnection>();
  for (const [name, instance] of Object.entries(config.toolkits.catalog)) {
    const client = new CatalogClient({
      name,
      url: instance.url,
      timeoutMs: instance.timeout,
      debug: instance.debug,
      log: deps.log.child({ catalog: name }),
      ...(instance.token ? { token: instance.token } : {}),
    });
    connections.set(name, { name, displayName: instance.connection_name ?? name, config: instance, client });
  }
  const defaultConnection = defaultConnectionName(connections.keys());
  for (const c of connections.values()) {
    // Where each instance points, never its token.
    deps.log.info({ connection: c.name, endpoint: redactUrlSecrets(c.client.endpoint), read_only: c.config.read_only, default: c.name === defaultConnection }, 'catalog connection');
  }
  return {
    connections,
    defaultConnection,
    connection: (requested) =>
      resolveConnection(connections, defaultConnection, requested, (wanted, known) => new CatalogError('invalid', `unknown catalog connection "${wanted}"; available connections: ${known}`)),
  };
}
