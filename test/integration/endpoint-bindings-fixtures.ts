/**
 * Set-up of the endpoint-binding tests: the production api role (cli/services.ts startApiRole)
 * over a fresh Postgres database, its platform services opened as in production except for the
 * bot-check answer the EndpointStore is given (`publicRefusal`, which a test sets), with audit on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import { openPlatformServices, type PlatformServices } from '../../cli/platform-services.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import type { Db } from '../../shared/db/index.js';
import { EndpointStore } from '../../shared/endpoints/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { auditedApiYaml, callToolJson, connectMcp, restJson, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

export const keys = {
  /** staff: owns scripts, may use manage_script. */
  alice: 'alice-key-0123456789',
  /** staff: another owner. */
  bob: 'bob-key-0123456789',
  /** Platform administrator (admin persona). */
  root: 'root-key-0123456789',
} as const;
export type User = keyof typeof keys;

export interface BindingsRig {
  config: PlatformConfig;
  db: Db;
  api: RunningApiRole;
  /** What the injected publicEndpointRefusal answers (undefined: public endpoints allowed). */
  publicRefusal: { current: string | undefined };
  connect(user: User): Promise<Client>;
  rest(user: User, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  stop(): Promise<void>;
}

export async function startBindingsRig(): Promise<BindingsRig> {
  const dir = await mkdtemp(join(tmpdir(), 'endpoint-bindings-'));
  const database = await createTestDatabase();
  const clients: Client[] = [];
  let db: Db | undefined;
  let services: PlatformServices | undefined;
  let api: RunningApiRole | undefined;
  const stop = async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await api?.stop();
    await services?.close();
    await db?.end();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const config = testConfig(`${auditedApiYaml({
      dsn: database.dsn,
      dataDir: dir,
      keys: [
        { key: keys.alice, name: 'alice', roles: ['staff'] },
        { key: keys.bob, name: 'bob', roles: ['staff'] },
        { key: keys.root, name: 'root', roles: ['admin'] },
      ],
    })}personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "platform_info"] } }
    admin: { roles: [admin], priority: 2 }
admin:
  persona: admin
scripts:
  max_concurrent_runs: 2
`);
    const log = silentLogger();
    db = (await openDatabase(config, log))!;
    services = await openPlatformServices({ config, log, db });
    const publicRefusal = { current: undefined as string | undefined };
    const endpoints = new EndpointStore({ db, config, publicEndpointRefusal: async () => publicRefusal.current });
    api = await startApiRole({ config, log, db, services: { ...services, endpoints } });
    const running = api;
    return {
      config,
      db,
      api: running,
      publicRefusal,
      async connect(user) {
        const client = await connectMcp(running.url, keys[user]);
        clients.push(client);
        return client;
      },
      rest: (user, method, path, body) => restJson(`${running.url}/api/v1/portal/scripts${path}`, keys[user], method, body),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type { Json };

/** A manage_script call: the structured body and whether it failed. */
export const manageScript = (client: Client, args: Record<string, unknown>) => callToolJson(client, 'manage_script', args);
