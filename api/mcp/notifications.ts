import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResourceService } from '../../shared/resources/index.js';
import type { Logger } from '../../shared/logging/index.js';

/**
 * Every SDK server of this process that is connected to a transport: one per stateful Streamable
 * HTTP session, legacy SSE session or stdio connection (and, briefly, one per stateless POST).
 * `buildMcpServer` registers each server when it connects and drops it when its transport closes,
 * so the set follows the sessions without the transports knowing about it. Server-initiated
 * notifications (list_changed) are broadcast by iterating it.
 */
export class ConnectedServers {
  readonly #servers = new Set<Server>();

  /** Registers a server that has just connected; it leaves the set when its transport closes. */
  track(server: Server, transport: Transport): void {
    this.#servers.add(server);
    // Protocol.connect installed its own onclose on the transport; chain in front of it.
    const closed = transport.onclose;
    transport.onclose = () => {
      this.#servers.delete(server);
      closed?.();
    };
  }

  get size(): number {
    return this.#servers.size;
  }

  /**
   * Sends `notifications/resources/list_changed` to every connected session. These notifications
   * have no related request, so stateful HTTP sessions get them on their standalone GET stream
   * (dropped by the SDK when none is open) and stateless requests drop them. A session failing
   * to take one never stops the others.
   */
  async resourceListChanged(log?: Logger): Promise<void> {
    await Promise.all(
      [...this.#servers].map(async (server) => {
        if (!server.transport) return;
        try {
          await server.sendResourceListChanged();
        } catch (error) {
          log?.debug({ err: error }, 'resource list_changed not delivered to a session');
        }
      }),
    );
  }
}

/**
 * Turns managed-resource changes (created, replaced, updated — which covers moves — and deleted)
 * into `notifications/resources/list_changed` on every connected session. Returns the unsubscribe.
 */
export function notifyResourceListChanges(service: Pick<ResourceService, 'onChange'>, servers: ConnectedServers, log: Logger): () => void {
  return service.onChange(() => {
    void servers.resourceListChanged(log);
  });
}
