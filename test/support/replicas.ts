import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { ToolDefinition } from '../../shared/mcp-tools/index.js';
import type { RunningApi } from '../../api/start.js';
import { createTestDatabase } from './postgres.js';
import { apiConfigYaml, startTestApi, testConfig } from './api.js';

export interface DatabaseReplicas {
  db: Db;
  config: PlatformConfig;
  replicas: [RunningApi, RunningApi];
  /** A fetch that sends each request to the other replica than the last, as a load balancer might. */
  alternatingFetch(): { fetch: typeof fetch; served: string[] };
  stop(): Promise<void>;
}

/** Two api replicas with `sessions.store: database` on a fresh, migrated test database. */
export async function startDatabaseReplicas(opts: {
  extra?: string;
  /** Lines under `server:` and `auth:`. */
  server?: string[];
  auth?: string[];
  tools?: ToolDefinition[];
  surface?: (db: Db) => Parameters<typeof startTestApi>[0]['surface'];
  /** Both replicas' clock (default Date.now). */
  clock?: () => number;
} = {}): Promise<DatabaseReplicas> {
  const database = await createTestDatabase();
  const db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
  await migrate(db);
  const config = testConfig(apiConfigYaml({ ...(opts.server ? { server: opts.server } : {}), ...(opts.auth ? { auth: opts.auth } : {}), extra: `${opts.extra ?? ''}sessions:\n  store: database\ndatabase:\n  dsn: ${database.dsn}\n` }));
  const start = () =>
    startTestApi({ config, db, ...(opts.tools ? { tools: opts.tools } : {}), ...(opts.surface ? { surface: opts.surface(db) } : {}), ...(opts.clock ? { clock: opts.clock } : {}) });
  const replicas: [RunningApi, RunningApi] = [await start(), await start()];
  return {
    db,
    config,
    replicas,
    alternatingFetch() {
      const served: string[] = [];
      let turn = 0;
      const alternating: typeof fetch = (input, init) => {
        const target = replicas[turn++ % 2]!.url;
        served.push(target);
        const url = new URL(input instanceof Request ? input.url : String(input));
        return fetch(`${target}${url.pathname}${url.search}`, init);
      };
      return { fetch: alternating, served };
    },
    async stop() {
      for (const api of replicas) await api.stop();
      await db.end();
      await database.drop();
    },
  };
}
