/**
 * Shared set-up of the resources-core tests: a fresh database with every migration applied, an
 * object-store backend (MinIO through the S3 driver, or a temp directory for the filesystem
 * driver), a config parsed from real platform.yaml text, the service, and callers turned into
 * actors through the real persona resolution.
 */
import { Readable } from 'node:stream';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections, readAll, type ObjstoreConnections } from '../../shared/objstore/index.js';
import {
  createResourceService,
  resourceActor,
  type Library,
  type ReferenceCounter,
  type ResourceActor,
  type ResourceService,
  type ResourceServiceDeps,
} from '../../shared/resources/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { startBackend, type Backend, type Driver } from './objstore-fixtures.js';

export interface ResourceEnvOptions {
  /** Extra top-level YAML appended to the config (e.g. `resources:\n  managed:\n    max_versions: 3`). */
  extraYaml?: string;
  audit?: boolean;
  clock?: () => Date;
  references?: ReferenceCounter[];
}

export interface ResourceEnv {
  driver: Driver;
  config: PlatformConfig;
  db: Db;
  connections: ObjstoreConnections;
  service: ResourceService;
  backend: Backend;
  /** A second service over the same database and store (another replica). */
  replica(over?: Partial<ResourceServiceDeps>): ResourceService;
  /** Every object key in the resources bucket. */
  objectKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

/** Personas of every test: members by role; `admin` is the platform-administrator persona. */
export const personasYaml = `personas:
  definitions:
    admin:
      roles: [platform-admin]
    sales:
      roles: [sales]
    finance:
      roles: [finance]
`;

export async function startResourceEnv(driver: Driver, opts: ResourceEnvOptions = {}): Promise<ResourceEnv> {
  const backend = await startBackend(driver);
  const database = await createTestDatabase();
  const yaml = [
    'toolkits:',
    '  objstore:',
    '    main:',
    ...backend.instance().map((l) => `      ${l}`),
    'database:',
    `  dsn: ${JSON.stringify(database.dsn)}`,
    personasYaml.trimEnd(),
    ...(opts.audit ? ['audit:', '  enabled: true', '  log_tool_calls: true'] : []),
    opts.extraYaml?.trimEnd() ?? '',
    '',
  ].join('\n');
  const { config } = parseConfig(yaml, {});
  const db = createPool({ dsn: database.dsn, maxOpenConns: 10 });
  await migrate(db);
  const connections = createObjstoreConnections(config, { env: {} });
  const log = silentLogger();
  const deps: ResourceServiceDeps = {
    config,
    db,
    objstore: connections,
    log,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.references ? { references: opts.references } : {}),
  };
  const service = createResourceService(deps);
  return {
    driver,
    config,
    db,
    connections,
    service,
    backend,
    replica: (over = {}) => createResourceService({ ...deps, ...over }),
    async objectKeys() {
      const store = connections.get('main').store;
      if (!(await store.bucketExists('resources'))) return [];
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await store.listObjects('resources', { ...(token ? { continuationToken: token } : {}) });
        keys.push(...page.objects.map((o) => o.key));
        token = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async stop() {
      await connections.close();
      await db.end();
      await database.drop();
      await backend.stop();
    },
  };
}

export function caller(subject: string, roles: string[] = [], extra: Partial<CallerContext> = {}): CallerContext {
  return { subject, roles, authType: 'apikey', ...extra };
}

/** A person at the portal (origin person). */
export function person(env: { config: PlatformConfig }, subject: string, roles: string[] = []): ResourceActor {
  return resourceActor(caller(subject, roles), { config: env.config, origin: 'person' });
}

/** An agent session (origin agent). */
export function agent(env: { config: PlatformConfig }, subject: string, roles: string[] = [], sessionId = 'session-1'): ResourceActor {
  return resourceActor(caller(subject, roles), { config: env.config, origin: 'agent', sessionId });
}

export const globalLib: Library = { kind: 'global' };
export const personaLib = (name: string): Library => ({ kind: 'persona', name });
export const personLib = (subject: string): Library => ({ kind: 'person', subject });

export function body(text: string | Buffer): Readable {
  return Readable.from([typeof text === 'string' ? Buffer.from(text) : text]);
}

export async function text(stream: Readable): Promise<string> {
  return (await readAll(stream)).bytes.toString('utf8');
}

/** Expects a ResourceError with this code; returns it for message checks. */
export async function refused(p: Promise<unknown>, code: string): Promise<Error & { code: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name !== 'ResourceError' || e.code !== code) throw new Error(`expected ResourceError ${code}, got ${e.name} ${e.code ?? ''}: ${e.message}`);
    return e as Error & { code: string };
  }
  throw new Error(`expected ResourceError ${code}, but the call succeeded`);
}
