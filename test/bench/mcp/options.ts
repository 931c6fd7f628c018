/**
 * The benchmark's settings (from the environment), the platform configuration it runs, and the
 * object W4 reads.
 */
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FilesystemObjectStore } from '../../../shared/objstore/index.js';
import type { BenchObject, WorkloadName } from './workloads.js';

export interface BenchOptions {
  connections: number;
  rounds: number;
  seconds: number;
  /** server.workers of the scaled variant; 1 runs only the single-process platform. */
  workers: number;
  /** Also a single process with its sessions in a database (BENCH_DATABASE_SESSIONS=1). */
  databaseSingle: boolean;
  /** The platform workloads measured (BENCH_WORKLOADS, e.g. "W2"); all four by default. */
  workloads: PlatformWorkload[];
  json: boolean;
}

export const platformWorkloadNames = ['W1', 'W2', 'W3', 'W4'] as const satisfies readonly WorkloadName[];
export type PlatformWorkload = (typeof platformWorkloadNames)[number];

/** BENCH_WORKLOADS: some of W1..W4 separated by commas, in their own order; all when unset. */
export function workloadsFrom(raw: string | undefined): PlatformWorkload[] {
  if (!raw) return [...platformWorkloadNames];
  const names = raw.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
  const unknown = names.filter((n) => !(platformWorkloadNames as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) throw new Error(`BENCH_WORKLOADS takes W1, W2, W3, W4 separated by commas, not ${JSON.stringify(raw)}`);
  return platformWorkloadNames.filter((n) => names.includes(n));
}

export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1, not ${JSON.stringify(raw)}`);
  return value;
}

export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  return {
    connections: positiveInt(env, 'BENCH_CONNECTIONS', 16),
    rounds: positiveInt(env, 'BENCH_ROUNDS', 5),
    seconds: positiveInt(env, 'BENCH_SECONDS', 3),
    workers: positiveInt(env, 'BENCH_WORKERS', 1),
    databaseSingle: env.BENCH_DATABASE_SESSIONS === '1',
    workloads: workloadsFrom(env.BENCH_WORKLOADS),
    json: env.BENCH_JSON === '1',
  };
}

/** A loopback port free right now: bound to port 0, read, released. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const benchApiKey = 'bench-key-0123456789abcdef';
const objstoreInstance = 'bench';

/** Where the objstore instance keeps its buckets, inside the run's temp dir. */
const objstoreRoot = (dir: string) => join(dir, 'objstore');

export const benchObject: BenchObject = { bucket: 'bench', key: 'sample-64k.csv', size: 64 * 1024 };

/** W4's object: CSV text of exactly benchObject.size bytes, so the tools return it as text (no base64). */
export function benchObjectBytes(): Buffer {
  let text = 'id,name,amount\n';
  for (let i = 1; text.length < benchObject.size; i++) text += `${i},item-${i},${(i * 7) % 1000}.${i % 100}\n`;
  return Buffer.from(text.slice(0, benchObject.size - 1) + '\n', 'utf8');
}

/**
 * Writes the W4 object through the filesystem driver, where the platform's objstore instance will
 * find it, and the same bytes as a plain file for the Go anchor; returns that file's path.
 */
export async function writeBenchObject(dir: string): Promise<string> {
  const bytes = benchObjectBytes();
  const store = new FilesystemObjectStore({ root: objstoreRoot(dir) });
  await store.createBucket(benchObject.bucket);
  await store.putObject(benchObject.bucket, benchObject.key, bytes, { contentType: 'text/csv' });
  const plain = join(dir, 'anchor-object.csv');
  writeFileSync(plain, bytes);
  return plain;
}

export interface PlatformVariant {
  /** server.workers; 1 leaves the key out (the default single process). */
  workers: number;
  /** DSN of the session database; required by the platform when workers > 1. */
  databaseDsn?: string;
}

/** A variant's name in its files: its workers and where its sessions live. */
export function variantName(variant: PlatformVariant): string {
  return `${variant.workers}-${variant.databaseDsn ? 'database' : 'memory'}`;
}

/** sessions.max_per_subject when unset. */
const defaultMaxSessionsPerSubject = 64;

/** platform.yaml for `platform serve`: HTTP on `port`, one API key whose persona may use every tool, the objstore instance. */
export function writePlatformConfig(file: string, opts: { port: number; dir: string; variant: PlatformVariant; connections: number }): void {
  const { variant } = opts;
  const sessions = {
    ...(variant.databaseDsn ? { store: 'database' } : {}),
    // W1, W3 and W4 hold a session per connection; beyond the default cap of 64 they would be refused.
    ...(opts.connections > defaultMaxSessionsPerSubject ? { max_per_subject: opts.connections } : {}),
  };
  const config = {
    // Each platform its own data dir (keys, local state); the objstore root is shared and only read.
    data_dir: join(opts.dir, `data-${variantName(variant)}`),
    server: {
      transport: 'http',
      address: `127.0.0.1:${opts.port}`,
      // Stopping is not measured; no need to wait for load balancers that are not there.
      shutdown: { pre_shutdown_delay: '0s' },
      ...(variant.workers > 1 ? { workers: variant.workers } : {}),
    },
    auth: { api_keys: { enabled: true, keys: [{ key: benchApiKey, name: 'bench', roles: ['analyst'] }] } },
    personas: { definitions: { analyst: { roles: ['analyst'] } } },
    toolkits: { objstore: { [objstoreInstance]: { driver: 'filesystem', root: objstoreRoot(opts.dir) } } },
    ...(Object.keys(sessions).length > 0 ? { sessions } : {}),
    ...(variant.databaseDsn ? { database: { dsn: variant.databaseDsn } } : {}),
  };
  writeFileSync(file, stringify(config));
}
