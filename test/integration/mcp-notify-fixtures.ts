/**
 * Two api replicas on one database with resources and their own LISTEN feeds, and SDK client
 * sessions that count list_changed notifications: shared by the list_changed replica tests.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, type Db } from '../../shared/db/index.js';
import { databaseApiKeys } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import {
  createResourceService,
  followResourceChanges,
  manageResourceTool,
  resourceActor,
  type ResourceChangeFeed,
  type ResourceChangeNotice,
  type ResourceService,
} from '../../shared/resources/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import type { McpSurface } from '../../api/mcp/server.js';
import { startApi, type RunningApi } from '../../api/start.js';
import { keys, resourcesConfigYaml, type User } from './resources-mcp-fixtures.js';

/** The resource tests' platform with its sessions in memory or in the database. */
export function configYaml(root: string, sessions: { store: 'memory' } | { store: 'database'; dsn: string } = { store: 'memory' }): string {
  const store = `sessions:\n  store: ${sessions.store}\n${sessions.store === 'database' ? `database:\n  dsn: ${sessions.dsn}\n` : ''}`;
  return resourcesConfigYaml(root, store, 'http');
}

export interface Replica {
  service: ResourceService;
  feed: ResourceChangeFeed;
  surface: McpSurface;
  api: RunningApi;
  stop(): Promise<void>;
}

/** One api replica: its own pool, object store connections, resource service, LISTEN feed and sessions. */
export async function startReplica(config: PlatformConfig, dsn: string, scheduleListChanged?: (send: () => void) => void): Promise<Replica> {
  const log = silentLogger();
  const db: Db = createPool({ dsn, maxOpenConns: 5, applicationName: 'notify-replica' });
  const objstore: ObjstoreConnections = createObjstoreConnections(config, { env: {} });
  const service = createResourceService({ config, db, objstore, log });
  const feed = await followResourceChanges({ service, dsn, log });
  const surface = buildMcpSurface({
    config,
    log,
    tools: [manageResourceTool(service, { config })],
    resources: { service, actorOf: (caller, sessionId) => resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' }) },
    resourceChanges: feed,
    ...(scheduleListChanged ? { scheduleListChanged } : {}),
  });
  const api = await startApi({ config, log, metrics: createMetrics({ defaultMetrics: false }), surface, db, storedApiKeys: databaseApiKeys(db) });
  return {
    service,
    feed,
    surface,
    api,
    async stop() {
      await api.stop();
      surface.close?.();
      await feed.close();
      await objstore.close();
      await db.end();
    },
  };
}

export interface Session {
  client: Client;
  /** list_changed notifications received so far. */
  readonly seen: number;
  /** Resolves once `count` have arrived. */
  received(count: number): Promise<void>;
}

/** Resolves when `ready()` holds, re-checked on every `poke`; rejects after `timeoutMs`. */
export function waitFor(ready: () => boolean, subscribe: (poke: () => void) => () => void, what: string, timeoutMs = 10_000): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = subscribe(() => {
      if (!ready()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
  });
}

/**
 * An SDK client session on `api` as `user`, returned once its standalone GET stream (where
 * list_changed travels) is open: the server registers that stream before answering the GET.
 */
export async function connect(api: RunningApi, user: User, clients: Client[]): Promise<Session> {
  let streamOpened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (streamOpened = resolve));
  const client = new Client({ name: `notify-${user}`, version: '1.0.0' });
  clients.push(client);
  let count = 0;
  const pokes = new Set<() => void>();
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    count++;
    for (const poke of pokes) poke();
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${keys[user]}` } },
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (init?.method === 'GET' && response.ok) streamOpened();
        return response;
      },
    }),
  );
  await streamOpen;
  return {
    client,
    get seen() {
      return count;
    },
    received: (n) =>
      waitFor(
        () => count >= n,
        (poke) => (pokes.add(poke), () => pokes.delete(poke)),
        `${n} list_changed for ${user} (seen ${count})`,
      ),
  };
}

/** What a replica's feed delivered, as the notifier (subscribed before) saw it. */
export function recordFeed(feed: ResourceChangeFeed) {
  const notices: ResourceChangeNotice[] = [];
  let missed = 0;
  const pokes = new Set<() => void>();
  const poke = () => pokes.forEach((p) => p());
  feed.subscribe({
    changed(notice) {
      notices.push(notice);
      poke();
    },
    missed() {
      missed++;
      poke();
    },
  });
  const subscribe = (p: () => void) => (pokes.add(p), () => pokes.delete(p));
  return {
    notices,
    get missed() {
      return missed;
    },
    hasChange: (id: string) => waitFor(() => notices.some((n) => n.id === id), subscribe, `change ${id}`),
    hasNotices: (count: number) => waitFor(() => notices.length >= count, subscribe, `${count} notices`),
    hasMissed: (count: number) => waitFor(() => missed >= count, subscribe, `${count} missed signals`),
  };
}

