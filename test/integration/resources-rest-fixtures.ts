/**
 * Set-up of the managed-resources REST tests: the api's HTTP app with only the resource routes,
 * over the real ResourceService on a fresh Postgres database and a real object store (MinIO or
 * the filesystem driver), on a random loopback port. Callers are named by `x-test-subject` and
 * `x-test-roles` headers (and `x-test-email`), read ONLY by this helper's actorOf; the api wires the authentication chain.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, ensurePlatformBucket, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, resourceActor, type ReferenceCounter, type ResourceRequests, type ResourceService } from '../../shared/resources/index.js';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { resourceRoutes } from '../../api/resources/index.js';
import { unauthenticated } from '../../api/http/rest-auth.js';
import { createTestDatabase } from '../support/postgres.js';
import { objstoreYaml, startBackend, type Backend, type Driver } from './objstore-fixtures.js';

/** A caller: subject and roles (personas come from the roles, as in production). */
export interface Who {
  subject: string;
  roles: string[];
  email?: string;
}

export const alice: Who = { subject: 'alice', roles: ['analyst'] };
export const bob: Who = { subject: 'bob', roles: ['analyst'] };
/** Member of the sales persona without persona-admin. */
export const salesMember: Who = { subject: 'sam', roles: ['sales'] };
export const salesAdmin: Who = { subject: 'sally', roles: ['sales', 'persona-admin:sales'] };
/** Platform administrator: member of the `admin` persona (admin.persona). */
export const root: Who = { subject: 'root', roles: ['admin'] };

export function as(who: Who): Record<string, string> {
  return { 'x-test-subject': who.subject, 'x-test-roles': who.roles.join(','), ...(who.email ? { 'x-test-email': who.email } : {}) };
}

export interface ResourceRestApi {
  url: string;
  app: App;
  config: PlatformConfig;
  db: Db;
  service: ResourceService;
  connections: ObjstoreConnections;
  backend: Backend;
  /** Objects in the resources bucket (what is really stored). */
  storedObjects(): Promise<string[]>;
  close(): Promise<void>;
}

export interface ResourceRestOptions {
  driver: Driver;
  maxUploadBytes: number;
  maxVersions?: number;
  /** server.body_limit of the app (JSON bodies). */
  bodyLimit?: number;
  /** Things that point at resources (what assets, prompts and tables register in production). */
  references?: ReferenceCounter[];
  /** audit.enabled (default true): reads and moves are audit rows, usage is counted from them. */
  audit?: boolean;
  /** Requests answered by workflows (folder rename): the api's Temporal client side. */
  requests?: ResourceRequests;
}

export async function startResourceRestApi(opts: ResourceRestOptions): Promise<ResourceRestApi> {
  const backend = await startBackend(opts.driver);
  const database = await createTestDatabase();
  const db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(db);
  const yaml = `${objstoreYaml({ main: backend.instance() })}
database:
  dsn: ${JSON.stringify(database.dsn)}
audit:
  enabled: ${opts.audit ?? true}
resources:
  managed:
    max_upload_bytes: ${opts.maxUploadBytes}
    max_versions: ${opts.maxVersions ?? 10}
admin:
  persona: admin
personas:
  definitions:
    analyst:
      roles: [analyst]
    sales:
      display_name: Sales team
      description: The sales team's files
      roles: [sales]
    admin:
      roles: [admin]
`;
  const { config } = parseConfig(yaml, {});
  const log = silentLogger();
  const connections = createObjstoreConnections(config, { env: {} });
  // Strictly increasing time: every write gets its own updated_at, so the sorts are deterministic.
  let now = Date.parse('2025-03-01T12:00:00Z');
  const clock = () => new Date((now += 1000));
  const service = createResourceService({ config, db, objstore: connections, log, clock, ...(opts.references ? { references: opts.references } : {}) });

  const app = await buildHttpApp({
    log,
    metrics: createMetrics({ defaultMetrics: false }),
    readiness: new Readiness(),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    version: 'test',
    serveMetrics: false,
  });
  await app.register(resourceRoutes, {
    service,
    maxUploadBytes: opts.maxUploadBytes,
    ...(opts.requests ? { requests: opts.requests } : {}),
    // Test-only identity: the real wiring authenticates through the api's chain.
    async actorOf(request) {
      const subject = request.headers['x-test-subject'];
      if (typeof subject !== 'string' || subject === '') return unauthenticated();
      const roles = String(request.headers['x-test-roles'] ?? '')
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      const email = request.headers['x-test-email'];
      const caller: CallerContext = { subject, roles, authType: 'apikey', ...(typeof email === 'string' && email !== '' ? { email } : {}) };
      return { ok: true, actor: resourceActor(caller, { config, origin: 'person' }) };
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const conn = connections.get('main');
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    config,
    db,
    service,
    connections,
    backend,
    async storedObjects() {
      const bucket = await ensurePlatformBucket(conn, 'resources');
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await conn.store.listObjects(bucket, { ...(token ? { continuationToken: token } : {}) });
        keys.push(...page.objects.map((o) => o.key));
        token = page.nextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async close() {
      // A request a failed test left open must not keep the server (and so MinIO) alive.
      const closing = app.close();
      app.server.closeAllConnections();
      try {
        await closing;
        await connections.close();
        await db.end();
      } finally {
        await database.drop();
        await backend.stop();
      }
    },
  };
}

// ---- multipart bodies, streamed ---------------------------------------------------------------

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; type?: string; data: Buffer | string | (() => Readable) };

/**
 * A multipart/form-data body in exactly the given part order, produced as a stream (a file part
 * given as a stream factory is never held in memory).
 */
export function multipart(parts: FormPart[]): { contentType: string; body: Readable } {
  const boundary = `----resources-test-${createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 16)}`;
  async function* generate(): AsyncGenerator<Buffer> {
    for (const part of parts) {
      if ('value' in part) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
        continue;
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
      );
      if (typeof part.data === 'function') {
        for await (const chunk of part.data()) yield chunk as Buffer;
      } else {
        yield Buffer.from(part.data);
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Readable.from(generate(), { objectMode: false }) };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads parsed JSON freely
  json: any;
}

/**
 * One HTTP request; a stream body goes chunked unless `contentLength` is given. Over its own
 * connection; the answer is read whole (the tests' answers are small).
 */
export function send(
  url: string,
  opts: { method: string; headers?: Record<string, string>; body?: Readable | Buffer | string; contentLength?: number },
): Promise<RawResponse> {
  // A whole body declares its length (Node sends DELETE bodies neither chunked nor sized otherwise).
  const length = opts.contentLength ?? (typeof opts.body === 'string' ? Buffer.byteLength(opts.body) : Buffer.isBuffer(opts.body) ? opts.body.length : undefined);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: opts.method,
        headers: { ...(opts.headers ?? {}), ...(length !== undefined ? { 'content-length': String(length) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          let json: unknown;
          try {
            json = body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
        });
      },
    );
    req.on('error', reject);
    const body = opts.body;
    if (body === undefined) req.end();
    else if (Buffer.isBuffer(body) || typeof body === 'string') req.end(body);
    else {
      body.on('error', (err) => req.destroy(err));
      body.pipe(req);
    }
  });
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

// ---- a client process ------------------------------------------------------------------------

/**
 * An upload client in a process of its own (so the RSS and CPU measured in this process are the
 * server's alone): it generates `bytes` in 1 MiB chunks (each distinct, hashed as produced), posts
 * them as the file part of a multipart form (fields path and if_exists first) without ever holding
 * them, and prints status, answer and hash.
 */
const clientScript = `
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
const [url, headersJson, bytesText, folder, ifExists, fileName] = process.argv.slice(1);
const bytes = Number(bytesText);
const MiB = 1024 * 1024;
const boundary = '----resources-large-' + randomBytes(8).toString('hex');
const base = randomBytes(MiB);
const hash = createHash('sha256');
const req = request(url, { method: 'POST', headers: { ...JSON.parse(headersJson), 'content-type': 'multipart/form-data; boundary=' + boundary } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    process.stdout.write(JSON.stringify({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), sha256: hash.digest('hex') }));
  });
});
req.on('error', (err) => { console.error(err); process.exit(1); });
const field = (name, value) => '--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + name + '"\\r\\n\\r\\n' + value + '\\r\\n';
req.write(field('path', folder) + field('if_exists', ifExists));
req.write('--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="' + fileName + '"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
let produced = 0;
let index = 0;
function pump() {
  while (produced < bytes) {
    const size = Math.min(MiB, bytes - produced);
    const chunk = Buffer.allocUnsafe(size);
    base.copy(chunk, 0, 0, size);
    if (size >= 4) chunk.writeUInt32BE(index++, 0);
    produced += size;
    hash.update(chunk);
    if (!req.write(chunk)) return void req.once('drain', pump);
  }
  req.end('\\r\\n--' + boundary + '--\\r\\n');
}
pump();
`;

export interface ClientResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON answer
  json: any;
  sha256: string;
}

export function uploadFromChild(
  url: string,
  headers: Record<string, string>,
  opts: { bytes: number; fileName: string; path: string; ifExists?: string },
): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', clientScript, url, JSON.stringify(headers), String(opts.bytes), opts.path, opts.ifExists ?? 'fail', opts.fileName], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`upload client exited with ${code}: ${err}`));
      const parsed = JSON.parse(out) as { status: number; body: string; sha256: string };
      resolve({ status: parsed.status, json: JSON.parse(parsed.body), sha256: parsed.sha256 });
    });
  });
}

/** The usual upload form's fields (resourceRestCalls' fileForm). */
export interface FileFormFields {
  library?: string;
  path?: string;
  name: string;
  data: Buffer | string;
  type?: string;
  ifExists?: string;
  tags?: string[];
  display?: string;
  description?: string;
}

/** The usual form: fields in the documented order, then the file. */
export function fileForm(opts: FileFormFields): FormPart[] {
  return [
    ...(opts.library !== undefined ? [{ name: 'library', value: opts.library }] : []),
    ...(opts.path !== undefined ? [{ name: 'path', value: opts.path }] : []),
    ...(opts.display !== undefined ? [{ name: 'display_name', value: opts.display }] : []),
    ...(opts.description !== undefined ? [{ name: 'description', value: opts.description }] : []),
    ...(opts.tags ?? []).map((t) => ({ name: 'tags', value: t })),
    ...(opts.ifExists !== undefined ? [{ name: 'if_exists', value: opts.ifExists }] : []),
    { name: 'file', filename: opts.name, type: opts.type ?? 'text/plain', data: opts.data },
  ];
}

/** An error answer: the status, `{error, message}`, and the message when given. */
export function expectError(res: RawResponse, status: number, error: string, message?: RegExp): void {
  expect(res.status, JSON.stringify(res.json)).toBe(status);
  expect(res.json.error).toBe(error);
  expect(typeof res.json.message).toBe('string');
  if (message) expect(res.json.message).toMatch(message);
}

/** Requests to the api `apiOf` answers at the time of the call (a suite's beforeAll starts it). */
export function resourceRestCalls(apiOf: () => ResourceRestApi) {
  const upload = (who: Who, parts: FormPart[]): Promise<RawResponse> => {
    const form = multipart(parts);
    return send(`${apiOf().url}/api/v1/resources`, { method: 'POST', headers: { ...as(who), 'content-type': form.contentType }, body: form.body });
  };
  const call = (who: Who | undefined, method: string, path: string, body?: unknown): Promise<RawResponse> => {
    const headers: Record<string, string> = { ...(who ? as(who) : {}) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return send(`${apiOf().url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  };
  /** Uploads the usual form, expecting 201; the new resource. */
  const created = async (who: Who, opts: FileFormFields) => {
    const res = await upload(who, fileForm(opts));
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json;
  };
  return { upload, call, created };
}
