/**
 * Shared set-up of the object-store tests: a backend per driver (MinIO, or a temp directory),
 * connections built from real platform.yaml text, tools called through the tool pipeline, and
 * the api's presigned-URL route on a random port.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseConfig } from '../../shared/config/index.js';
import { anonymousCaller } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { ToolRegistry, allowAllTools, invokeTool, type CallToolResult } from '../../shared/mcp-tools/index.js';
import {
  ObjstoreError,
  createObjstoreConnections,
  objstoreTools,
  type ObjectStore,
  type ObjstoreConnections,
  type ObjstoreDeps,
} from '../../shared/objstore/index.js';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { objstoreRoutes } from '../../api/objstore/routes.js';
import { startTestMinio, type TestMinio } from '../support/minio.js';

export type Driver = 's3' | 'filesystem';

export interface Backend {
  driver: Driver;
  /** Instance YAML lines (unindented) pointing at this backend, plus `extra` keys. */
  instance(extra?: string[]): string[];
  minio?: TestMinio;
  /** The filesystem driver's root directory. */
  root?: string;
  stop(): Promise<void>;
}

export async function startBackend(driver: Driver): Promise<Backend> {
  if (driver === 's3') {
    const minio = await startTestMinio();
    return {
      driver,
      minio,
      instance: (extra = []) => minio.instanceYaml(0, extra).split('\n'),
      stop: () => minio.stop(),
    };
  }
  const root = await mkdtemp(join(tmpdir(), 'test-objstore-fs-'));
  return {
    driver,
    root,
    instance: (extra = []) => ['driver: filesystem', `root: ${JSON.stringify(root)}`, ...extra],
    stop: () => rm(root, { recursive: true, force: true }),
  };
}

/** `toolkits.objstore` YAML with the given instances (name → instance lines). */
export function objstoreYaml(instances: Record<string, string[]>): string {
  const lines = ['toolkits:', '  objstore:'];
  for (const [name, body] of Object.entries(instances)) {
    lines.push(`    ${name}:`, ...body.map((l) => `      ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

export const presignKey = randomBytes(32);

export function connectionsFrom(yaml: string, deps: ObjstoreDeps = {}): ObjstoreConnections {
  const { config } = parseConfig(yaml, {});
  return createObjstoreConnections(config, { env: {}, ...deps });
}

/**
 * A backend of `driver` and connections to it (`instances`: name → instance lines) for the
 * enclosing describe: started before its tests, closed and stopped after them. `store` is the
 * `main` connection's.
 */
export function useObjstore(driver: Driver, instances: (backend: Backend) => Record<string, string[]>): { connections: ObjstoreConnections; store: ObjectStore } {
  let backend: Backend | undefined;
  const rig = {} as { connections: ObjstoreConnections; store: ObjectStore };
  beforeAll(async () => {
    backend = await startBackend(driver);
    rig.connections = connectionsFrom(objstoreYaml(instances(backend)));
    rig.store = rig.connections.get('main').store;
  });
  afterAll(async () => {
    await rig.connections?.close();
    await backend?.stop();
  });
  return rig;
}

/** Tool answers are JSON the tests read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads parsed JSON freely
export type Json = any;

export interface ToolAnswer {
  result: CallToolResult;
  isError: boolean;
  body: Record<string, Json>;
}

export function toolCaller(connections: ObjstoreConnections) {
  const registry = new ToolRegistry().register(...objstoreTools(connections.tools));
  return async (name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => {
    const result = await invokeTool({
      registry,
      access: allowAllTools,
      middlewares: [],
      name,
      rawArgs: args,
      ctx: { caller: anonymousCaller, signal: new AbortController().signal, log: silentLogger() },
    });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    const body = (result.structuredContent as Record<string, Json> | undefined) ?? { text };
    return { result, isError: result.isError === true, body };
  };
}

export interface PresignServer {
  app: App;
  url: string;
  close(): Promise<void>;
}

/** The api's HTTP app with only the presigned-URL route, on a random loopback port. */
export async function startPresignServer(connections: ObjstoreConnections): Promise<PresignServer> {
  const app = await buildHttpApp({
    log: silentLogger(),
    metrics: createMetrics({ defaultMetrics: false }),
    readiness: new Readiness(),
    bodyLimit: 1024 * 1024,
    version: 'test',
    serveMetrics: false,
  });
  await app.register(objstoreRoutes, { connections: connections.tools });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/** An object's ETag as the drivers write it: an MD5 in quotes, with the part count of a multipart upload. */
export const quotedEtag = /^"[0-9a-f]{32}(-\d+)?"$/;

/** `p` rejects with an ObjstoreError of `code`. */
export async function expectCode(p: Promise<unknown>, code: string): Promise<void> {
  await expect(p).rejects.toSatisfy((e: unknown) => e instanceof ObjstoreError && e.code === code);
}
