/**
 * Shared set-up of the table-registration tests: a scratch rig (the run's real Trino over MinIO, or
 * the embedded DuckDB over the filesystem store), a fresh database with every migration, the
 * resources service over the rig's platform storage with the tables' delete counter, and the
 * TableDeps the tool and hooks use.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createPool, migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createResourceService, type CreateResult, type Library, type ResourceActor, type ResourceService } from '../../shared/resources/index.js';
import { tableReferences, type TableDeps } from '../../shared/tables/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { duckdbPlatformYaml, rigFrom, trinoPlatformYaml, type ScratchRig } from '../support/scratch-rigs.js';
import { person, personasYaml } from './resources-core-fixtures.js';

export type Engine = 'duckdb' | 'trino';

export interface TablesEnv {
  engine: Engine;
  connection: string;
  rig: ScratchRig;
  /** The test database (a second pool over it stands for a second platform process). */
  dsn: string;
  deps: TableDeps;
  service: ResourceService;
  /** A person of the persona `sales` who administers it (persona-admin:sales). */
  salesAdmin: ResourceActor;
  /** A member of `sales` who administers nothing. */
  salesMember: ResourceActor;
  /** A platform administrator. */
  admin: ResourceActor;
  actor(subject: string, roles?: string[]): ResourceActor;
  upload(actor: ResourceActor, library: Library, fileName: string, bytes: string | Buffer, change_summary?: string): Promise<CreateResult>;
  /** Rows of a caller's sql_query of the table (column order as the engine answers). */
  rows(table: string, orderBy?: string): Promise<Array<Record<string, unknown>>>;
  stop(): Promise<void>;
}

export interface TablesEnvOptions {
  maxVersions?: number;
  inlineCorrectionBytes?: number;
}

export async function startTablesEnv(engine: Engine, opts: TablesEnvOptions = {}): Promise<TablesEnv> {
  const database = await createTestDatabase();
  const id = randomBytes(4).toString('hex');
  const dataDir = engine === 'duckdb' ? await mkdtemp(join(tmpdir(), 'tables-duckdb-')) : undefined;
  const extra = [personasYaml.trimEnd(), ...(opts.maxVersions ? [`resources:\n  managed:\n    max_versions: ${opts.maxVersions}`] : [])];
  const base = dataDir ? duckdbPlatformYaml(dataDir) : await trinoPlatformYaml({ bucketPrefix: `tb${id}-`, schema: `t${id}` });
  // trinoPlatformYaml starts with its own `resources:` block: merge max_versions into it.
  const yaml = dataDir || !opts.maxVersions ? [base, ...extra].join('\n') : [base.replace('resources:\n  managed:\n', `resources:\n  managed:\n    max_versions: ${opts.maxVersions}\n`), personasYaml.trimEnd()].join('\n');
  const connection = engine === 'duckdb' ? 'local' : 'cluster';
  const rig = await rigFrom(yaml, connection, async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  const db = createPool({ dsn: database.dsn, maxOpenConns: 10 });
  await migrate(db);
  const log = silentLogger();
  const deps = { db, sql: rig.sql, storage: rig.storage, log, ...(opts.inlineCorrectionBytes !== undefined ? { inlineCorrectionBytes: opts.inlineCorrectionBytes } : {}) } as Omit<TableDeps, 'resources'> as TableDeps;
  const service = createResourceService({ config: rig.config, db, objstore: rig.objstore, log, references: [tableReferences(deps)] });
  deps.resources = service;
  const env = { config: rig.config };
  return {
    engine,
    connection,
    rig,
    dsn: database.dsn,
    deps,
    service,
    salesAdmin: person(env, 'sally', ['sales', 'persona-admin:sales']),
    salesMember: person(env, 'sam', ['sales']),
    admin: person(env, 'root', ['platform-admin']),
    actor: (subject, roles = []) => person(env, subject, roles),
    upload: (actor, library, fileName, bytes, change_summary) =>
      service.create(actor, {
        library,
        path: 'data',
        file_name: fileName,
        if_exists: 'replace',
        origin: 'portal',
        ...(change_summary ? { change_summary } : {}),
        body: Readable.from([typeof bytes === 'string' ? Buffer.from(bytes) : bytes]),
      }),
    async rows(table, orderBy = '1') {
      return rig.query(`SELECT * FROM ${rig.scratch.relation(table)} ORDER BY ${orderBy}`);
    },
    async stop() {
      await rig.close();
      await db.end();
      await database.drop();
    },
  };
}

export const sales: Library = { kind: 'persona', name: 'sales' };
