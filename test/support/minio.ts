/**
 * A real MinIO server for integration tests: the binary `scripts/install-tools.sh minio` (or
 * ensureBinary) builds into the tool cache, on a free loopback port, with its data in a temp dir
 * and generated root credentials. Either one per test file (startTestMinio in beforeAll, stop in
 * afterAll), or the run's shared server (sharedMinio), which tests use under bucket names of their own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinary } from '../../shared/toolchain/index.js';
import { freePort, sharedServer, type ServerRecord } from './run-servers.js';

/** Where a MinIO server listens and its root credentials. */
export interface MinioAddress {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: 'us-east-1';
}

export interface TestMinio extends MinioAddress {
  /** YAML lines (indented by `indent` spaces) of a `toolkits.objstore.<name>` instance for this server. */
  instanceYaml(indent?: number, extra?: string[]): string;
  stop(): Promise<void>;
}

/** The run's MinIO (test/support/run-servers.ts): tests sharing it keep to buckets of their own (a bucket_prefix). */
export type SharedMinio = MinioAddress & Pick<TestMinio, 'instanceYaml'>;

async function waitReady(endpoint: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`minio exited with code ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${endpoint}/minio/health/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`minio did not become ready within ${timeoutMs} ms:\n${output()}`);
}

interface Launched extends MinioAddress {
  child: ChildProcess;
}

/** Starts MinIO with its data under `dir`; `detached` puts it in its own process group (it outlives the caller). */
async function launchMinio(dir: string, detached: boolean): Promise<Launched> {
  const binary = await ensureBinary('minio');
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  let lastError: unknown;
  // A port picked free can be taken before MinIO binds it; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    // A detached server outlives this process: its output goes to a file, never a pipe that closes.
    const log = join(dir, `minio-${port}.log`);
    let piped = '';
    const output = () => (detached ? (existsSync(log) ? readFileSync(log, 'utf8').slice(-8000) : '') : piped);
    const fd = detached ? openSync(log, 'a') : undefined;
    const child = spawn(
      binary,
      ['server', join(dir, 'data'), '--address', `127.0.0.1:${port}`, '--certs-dir', join(dir, 'certs'), '--quiet'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          MINIO_ROOT_USER: accessKeyId,
          MINIO_ROOT_PASSWORD: secretAccessKey,
          MINIO_BROWSER: 'off',
          MINIO_UPDATE: 'off',
          MINIO_REGION: 'us-east-1',
        },
        detached,
        stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
      },
    );
    if (fd !== undefined) closeSync(fd);
    const collect = (b: Buffer) => {
      piped = (piped + b.toString()).slice(-8000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    try {
      await waitReady(endpoint, child, output, 30_000);
    } catch (err) {
      lastError = err;
      child.kill('SIGKILL');
      continue;
    }
    return { endpoint, accessKeyId, secretAccessKey, region: 'us-east-1', child };
  }
  throw lastError instanceof Error ? lastError : new Error('minio did not start');
}

function instanceYamlOf(address: MinioAddress): TestMinio['instanceYaml'] {
  return (indent = 6, extra: string[] = []) => {
    const pad = ' '.repeat(indent);
    return [
      'driver: s3',
      `endpoint: ${address.endpoint}`,
      'region: us-east-1',
      `access_key_id: ${address.accessKeyId}`,
      `secret_access_key: ${address.secretAccessKey}`,
      'use_path_style: true',
      ...extra,
    ]
      .map((l) => pad + l)
      .join('\n');
  };
}

export async function startTestMinio(): Promise<TestMinio> {
  const dir = await mkdtemp(join(tmpdir(), 'test-minio-'));
  let launched: Launched;
  try {
    launched = await launchMinio(dir, false);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const { child, ...address } = launched;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...address,
    instanceYaml: instanceYamlOf(address),
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The run's MinIO server, started on first use (the Trino scratch catalogs keep their warehouse in it). */
export async function sharedMinio(): Promise<SharedMinio> {
  const record = await sharedServer<MinioAddress & ServerRecord>('minio', async (dir) => {
    const { child, ...address } = await launchMinio(dir, true);
    child.unref();
    return { ...address, pid: child.pid! };
  });
  const address: MinioAddress = { endpoint: record.endpoint, accessKeyId: record.accessKeyId, secretAccessKey: record.secretAccessKey, region: 'us-east-1' };
  return { ...address, instanceYaml: instanceYamlOf(address) };
}
