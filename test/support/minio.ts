/**
 * A real MinIO server for integration tests: the binary `scripts/install-tools.sh minio` (or
 * ensureBinary) builds into the tool cache, on a free loopback port, with its data in a temp dir
 * and generated root credentials. One per test file (start in beforeAll, stop in afterAll).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinary } from '../../shared/toolchain/index.js';

export interface TestMinio {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: 'us-east-1';
  /** YAML lines (indented by `indent` spaces) of a `toolkits.objstore.<name>` instance for this server. */
  instanceYaml(indent?: number, extra?: string[]): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

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

export async function startTestMinio(): Promise<TestMinio> {
  const binary = await ensureBinary('minio');
  const dir = await mkdtemp(join(tmpdir(), 'test-minio-'));
  const accessKeyId = `test${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(20).toString('hex');
  let lastError: unknown;
  // A port picked free can be taken before MinIO binds it; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    let output = '';
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
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const collect = (b: Buffer) => {
      output = (output + b.toString()).slice(-8000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    try {
      await waitReady(endpoint, child, () => output, 30_000);
    } catch (err) {
      lastError = err;
      child.kill('SIGKILL');
      continue;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      endpoint,
      accessKeyId,
      secretAccessKey,
      region: 'us-east-1',
      instanceYaml(indent = 6, extra: string[] = []) {
        const pad = ' '.repeat(indent);
        return [
          'driver: s3',
          `endpoint: ${endpoint}`,
          'region: us-east-1',
          `access_key_id: ${accessKeyId}`,
          `secret_access_key: ${secretAccessKey}`,
          'use_path_style: true',
          ...extra,
        ]
          .map((l) => pad + l)
          .join('\n');
      },
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
  await rm(dir, { recursive: true, force: true });
  throw lastError instanceof Error ? lastError : new Error('minio did not start');
}
