/**
 * A real Trino server for the tests: the coordinator-only server `scripts/install-tools.sh trino`
 * installs into the tool cache (or `$TRINO_HOME`). One per test run, shared by every file that asks
 * (`sharedTrino()`, through test/support/run-servers.ts). Catalogs:
 * - `tpch` (sample data) and `memory` (writable);
 * - `scratch`: Hive on a file metastore whose warehouse is the run's shared MinIO (S3, path-style),
 *   with register_partition, non-managed table writes and microsecond timestamps: what
 *   docs/sql.md asks of a scratch catalog;
 * - `scratch_locked`: the same without `hive.allow-register-partition-procedure`, for the
 *   refusal of checkScratch().
 * Tests using the scratch catalogs keep to schemas and buckets of their own.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { sharedMinio, type MinioAddress } from './minio.js';
import { freePort, sharedServer } from './run-servers.js';

const startTimeoutMs = 180_000;

/** The bucket of the run's MinIO holding the scratch catalogs' metastores. */
export const scratchWarehouseBucket = 'trino-warehouse';

/** The Trino home: `$TRINO_HOME`, else what the install script finds or fetches into the tool cache. */
async function trinoHome(): Promise<string> {
  const script = resolve(import.meta.dirname, '../../scripts/install-tools.sh');
  const { stdout } = await promisify(execFile)('bash', [script, 'trino'], { maxBuffer: 1 << 20, timeout: 15 * 60_000 });
  return stdout.trim().split('\n').pop()!;
}

function writeEtc(dir: string, port: number, minio: MinioAddress): void {
  const etc = join(dir, 'etc');
  mkdirSync(join(etc, 'catalog'), { recursive: true });
  writeFileSync(join(etc, 'node.properties'), `node.environment=test\nnode.id=platform-test\nnode.data-dir=${join(dir, 'data')}\n`);
  // A 2-core, 24 GiB machine: a 2 GiB heap leaves room for the rest of the suite.
  writeFileSync(join(etc, 'jvm.config'), ['-server', '-Xmx2G', '-XX:+UseG1GC', '-XX:+ExitOnOutOfMemoryError', '-Djdk.attach.allowAttachSelf=true'].join('\n') + '\n');
  writeFileSync(
    join(etc, 'config.properties'),
    [
      'coordinator=true',
      'node-scheduler.include-coordinator=true',
      `http-server.http.port=${port}`,
      `discovery.uri=http://127.0.0.1:${port}`,
      'query.max-memory=1GB',
      'query.max-memory-per-node=512MB',
      `catalog.config-dir=${join(etc, 'catalog')}`,
    ].join('\n') + '\n',
  );
  writeFileSync(join(etc, 'catalog', 'tpch.properties'), 'connector.name=tpch\n');
  writeFileSync(join(etc, 'catalog', 'memory.properties'), 'connector.name=memory\n');
  const hive = (name: string, extra: string[]) =>
    [
      'connector.name=hive',
      'hive.metastore=file',
      `hive.metastore.catalog.dir=s3://${scratchWarehouseBucket}/${name}`,
      'fs.native-s3.enabled=true',
      `s3.endpoint=${minio.endpoint}`,
      `s3.region=${minio.region}`,
      's3.path-style-access=true',
      `s3.aws-access-key=${minio.accessKeyId}`,
      `s3.aws-secret-key=${minio.secretAccessKey}`,
      'hive.non-managed-table-writes-enabled=true',
      'hive.timestamp-precision=MICROSECONDS',
      ...extra,
    ].join('\n') + '\n';
  writeFileSync(join(etc, 'catalog', 'scratch.properties'), hive('scratch', ['hive.allow-register-partition-procedure=true']));
  writeFileSync(join(etc, 'catalog', 'scratch_locked.properties'), hive('scratch_locked', []));
}

async function createWarehouse(minio: MinioAddress): Promise<void> {
  const s3 = new S3Client({
    endpoint: minio.endpoint,
    region: minio.region,
    forcePathStyle: true,
    credentials: { accessKeyId: minio.accessKeyId, secretAccessKey: minio.secretAccessKey },
  });
  try {
    await s3.send(new CreateBucketCommand({ Bucket: scratchWarehouseBucket }));
  } catch (error) {
    if ((error as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw error;
  } finally {
    s3.destroy();
  }
}

/**
 * Runs a query that scans a connector through the client protocol; true once it finishes (the
 * node has joined and its catalogs are schedulable — a bare `SELECT 1` runs before that).
 */
async function answersQueries(url: string): Promise<boolean> {
  const headers = { 'x-trino-user': 'platform-test' };
  let answer = (await (await fetch(`${url}/v1/statement`, { method: 'POST', headers, body: 'SELECT count(*) FROM tpch.tiny.region', signal: AbortSignal.timeout(5_000) })).json()) as {
    nextUri?: string;
    error?: unknown;
    stats?: { state?: string };
  };
  while (answer.nextUri && !answer.error) {
    answer = (await (await fetch(answer.nextUri, { headers, signal: AbortSignal.timeout(5_000) })).json()) as typeof answer;
  }
  return !answer.error && answer.stats?.state === 'FINISHED';
}

async function waitReady(url: string, log: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      // `starting: false` comes before the coordinator has registered itself as a worker
      // (NO_NODES_AVAILABLE): ready means a query over a catalog runs.
      const info = (await (await fetch(`${url}/v1/info`, { signal: AbortSignal.timeout(2_000) })).json()) as { starting?: boolean };
      if (info.starting === false && (await answersQueries(url))) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-30).join('\n') : '';
  throw new Error(`Trino did not start within ${startTimeoutMs / 1000} s:\n${tail}`);
}

/** Starts a Trino server under `dir`, detached (it outlives the caller); answers its URL and pid. */
async function startTrino(dir: string): Promise<{ url: string; pid: number }> {
  const home = await trinoHome();
  const javaHome = readFileSync(join(home, 'java-home'), 'utf8').trim();
  const port = await freePort();
  const minio = await sharedMinio();
  await createWarehouse(minio);
  writeEtc(dir, port, minio);
  const log = join(dir, 'trino.log');
  const out = openSync(log, 'a');
  const child = spawn(join(home, 'bin', 'launcher'), ['run', `--etc-dir=${join(dir, 'etc')}`, `--data-dir=${join(dir, 'data')}`], {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, JAVA_HOME: javaHome, PATH: `${join(javaHome, 'bin')}:${process.env.PATH ?? ''}` },
  });
  closeSync(out);
  child.unref();
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, log, Date.now() + startTimeoutMs);
  return { url, pid: child.pid! };
}

/** The URL of the run's Trino server, started on first use. */
export async function sharedTrino(): Promise<string> {
  return (await sharedServer('trino', startTrino)).url;
}
