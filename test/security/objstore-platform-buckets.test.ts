/**
 * Issue 9, item 1: platform-owned storage is not a tool surface. On both drivers, with a real
 * managed resource stored through the api's resource routes, every objstore_* tool called over
 * MCP by an administrator (and by an ordinary analyst) is refused on every platform bucket — on
 * the connection that holds it, on a second instance pointing at the same storage, and for kinds
 * no bucket exists for yet — and the presigned-URL route refuses validly signed URLs for them.
 * The api is the real api role (cli/services.ts), so the test also proves the wiring.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ConfigError, parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { purposeKey } from '../../shared/crypto/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections, ensurePlatformBucket, readAll, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { openDatabase, startApiRole } from '../../cli/services.js';
import type { RunningApi } from '../../api/start.js';
import { connectMcp } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { objstoreYaml, startBackend, type Backend, type Driver, type Json } from '../integration/objstore-fixtures.js';

const adminKey = `admin-${randomBytes(12).toString('hex')}`;
const analystKey = `analyst-${randomBytes(12).toString('hex')}`;
const encryptionKey = randomBytes(32).toString('base64');
const secret = 'salary,name\n250000,Jane Doe\n';

interface Answer {
  isError: boolean;
  body: Record<string, Json>;
}


async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: (result.structuredContent ?? {}) as Record<string, Json> };
}

function expectReserved(answer: Answer, what: string): void {
  expect(answer.isError, what).toBe(true);
  expect(answer.body, what).toMatchObject({ error: 'AccessDenied', message: expect.stringContaining('reserved for the platform'), hint: expect.stringContaining('manage_resource') });
}

function platformSuite(driver: Driver): void {
  let backend: Backend;
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let api: RunningApi;
  let config: PlatformConfig;
  /** The platform's own handles on the same storage (what the test inspects and signs with). */
  let raw: ObjstoreConnections;
  const clients: Record<string, Client> = {};
  let resourceKey: string;
  let resourceId: string;

  beforeAll(async () => {
    backend = await startBackend(driver);
    dataDir = await mkdtemp(join(tmpdir(), 'security-objstore-data-'));
    database = await createTestDatabase();
    // Three instances on ONE storage location: `main` holds the resources (bucket plat-resources),
    // `twin` reaches the same buckets without a prefix, `vault` is internal.
    const yaml = `
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown:
    pre_shutdown_delay: 0s
    grace_period: 5s
data_dir: ${JSON.stringify(dataDir)}
database:
  dsn: ${JSON.stringify(database.dsn)}
secrets:
  encryption_key: ${encryptionKey}
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${adminKey}, name: root, roles: [admin] }
      - { key: ${analystKey}, name: bob, roles: [analyst] }
admin:
  persona: admin
personas:
  definitions:
    admin: { roles: [admin], priority: 100 }
    analyst: { roles: [analyst] }
resources:
  managed:
    connection: main
${objstoreYaml({ main: backend.instance(['bucket_prefix: plat-']), twin: backend.instance(), vault: backend.instance(['internal: true']) })}`;
    config = parseConfig(yaml, {}).config;
    const log = silentLogger();
    db = (await openDatabase(config, log))!;
    api = await startApiRole({ config, log, db });
    const key = await purposeKey({ dataDir, purpose: 'objstore-presign', encryptionKey });
    raw = createObjstoreConnections(config, { env: {}, presign: { baseUrl: api.url, key } });

    // A real managed resource, uploaded by an analyst through the resource routes.
    const form = new FormData();
    form.append('path', 'hr');
    form.append('file', new Blob([secret], { type: 'text/csv' }), 'payroll.csv');
    const upload = await fetch(`${api.url}/api/v1/resources`, { method: 'POST', headers: { authorization: `Bearer ${analystKey}` }, body: form });
    expect(upload.status).toBe(201);
    resourceId = ((await upload.json()) as { id: string }).id;
    const stored = await raw.get('main').store.listObjects('plat-resources');
    expect(stored.objects).toHaveLength(1);
    resourceKey = stored.objects[0]!.key;
    // A platform bucket made the way later features make theirs, and ordinary buckets beside them.
    expect(await ensurePlatformBucket(raw.get('vault'), 'webhooks')).toBe('webhooks');
    await raw.get('main').store.createBucket('plat-scratch');
    await raw.get('main').store.createBucket('scratch');
    await raw.get('main').store.putObject('scratch', 'hello.txt', 'hello');
    await raw.get('main').store.putObject('plat-scratch', 'hello.txt', 'hello');

    clients.administrator = await connectMcp(api.url, adminKey);
    clients.analyst = await connectMcp(api.url, analystKey);
  });

  afterAll(async () => {
    for (const client of Object.values(clients)) await client.close();
    await api?.stop();
    await raw?.close();
    await db?.end();
    await database?.drop();
    await backend?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function resourceBytesIntact(): Promise<void> {
    const got = await raw.get('main').store.getObject('plat-resources', resourceKey);
    expect((await readAll(got.body)).bytes.toString('utf8')).toBe(secret);
    expect((await raw.get('main').store.listObjects('plat-resources')).objects.map((o) => o.key)).toEqual([resourceKey]);
  }

  for (const persona of ['administrator', 'analyst'] as const) {
    describe(`as ${persona}`, () => {
      it('objstore_list_connections does not list the internal instance, and no tool can name it', async () => {
        const listed = await call(clients[persona]!, 'objstore_list_connections', {});
        expect(listed.body.connections.map((c: Json) => c.name)).toEqual(['main', 'twin']);
        for (const [tool, args] of [
          ['objstore_list_buckets', {}],
          ['objstore_list_objects', { bucket: 'webhooks' }],
          ['objstore_get_object', { bucket: 'scratch', key: 'hello.txt' }],
          ['objstore_presign_url', { bucket: 'scratch', key: 'hello.txt' }],
        ] as const) {
          const answer = await call(clients[persona]!, tool, { ...args, connection: 'vault' });
          expect(answer.body, tool).toMatchObject({ error: 'ConnectionNotFound', hint: expect.not.stringContaining('vault') });
        }
      });

      it('objstore_list_buckets hides every platform bucket on both instances that reach them', async () => {
        const everything = (await raw.get('twin').store.listBuckets()).map((b) => b.name);
        expect(everything).toEqual(expect.arrayContaining(['plat-resources', 'webhooks', 'scratch', 'plat-scratch']));
        const main = await call(clients[persona]!, 'objstore_list_buckets', { connection: 'main' });
        expect(main.body.buckets.map((b: Json) => b.name)).toEqual(['plat-scratch']);
        const twin = await call(clients[persona]!, 'objstore_list_buckets', { connection: 'twin' });
        expect(twin.body.buckets.map((b: Json) => b.name).sort()).toEqual(['plat-scratch', 'scratch']);
      });

      it('every object tool is refused on every platform bucket, on every instance, whether the bucket exists or not', async () => {
        const targets = [
          { connection: 'main', bucket: 'plat-resources' },
          { connection: 'twin', bucket: 'plat-resources' },
          { connection: 'twin', bucket: 'webhooks' },
          { connection: 'twin', bucket: 'artifacts' },
          { connection: 'main', bucket: 'plat-webhooks' },
        ];
        for (const { connection, bucket } of targets) {
          const c = clients[persona]!;
          const key = resourceKey;
          const where = `${connection}/${bucket}`;
          expectReserved(await call(c, 'objstore_list_objects', { connection, bucket }), `list ${where}`);
          expectReserved(await call(c, 'objstore_get_object', { connection, bucket, key }), `get ${where}`);
          expectReserved(await call(c, 'objstore_get_object_metadata', { connection, bucket, key }), `metadata ${where}`);
          expectReserved(await call(c, 'objstore_put_object', { connection, bucket, key, body: 'overwritten' }), `put ${where}`);
          expectReserved(await call(c, 'objstore_put_object', { connection, bucket, key: 'planted.txt', body: 'x' }), `put new ${where}`);
          expectReserved(await call(c, 'objstore_delete_object', { connection, bucket, key }), `delete ${where}`);
          for (const method of ['GET', 'PUT']) {
            expectReserved(await call(c, 'objstore_presign_url', { connection, bucket, key, method }), `presign ${method} ${where}`);
          }
          const scratch = connection === 'main' ? 'plat-scratch' : 'scratch';
          const copyOut = { connection, source_bucket: bucket, source_key: key, dest_bucket: scratch, dest_key: 'stolen.csv' };
          expectReserved(await call(c, 'objstore_copy_object', copyOut), `copy from ${where}`);
          const copyIn = { connection, source_bucket: scratch, source_key: 'hello.txt', dest_bucket: bucket, dest_key: key };
          expectReserved(await call(c, 'objstore_copy_object', copyIn), `copy into ${where}`);
        }
        await resourceBytesIntact();
        await expect(raw.get('main').store.headObject('plat-scratch', 'stolen.csv')).rejects.toMatchObject({ code: 'NoSuchKey' });
        await expect(raw.get('main').store.headObject('scratch', 'stolen.csv')).rejects.toMatchObject({ code: 'NoSuchKey' });
        expect((await raw.get('twin').store.listBuckets()).map((b) => b.name)).not.toContain('artifacts');
      });

      it('ordinary buckets on the same storage stay usable', async () => {
        const got = await call(clients[persona]!, 'objstore_get_object', { connection: 'twin', bucket: 'scratch', key: 'hello.txt' });
        expect(got.body).toMatchObject({ content: 'hello' });
      });
    });
  }

  if (driver === 'filesystem') {
    it('the presigned-URL route refuses validly signed URLs for platform buckets and internal connections', async () => {
      // The signature is good: the same key signs a URL the route serves.
      const control = await raw.get('twin').store.presign('scratch', 'hello.txt', { method: 'GET', expiresIn: 60 });
      const ok = await fetch(control.url);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('hello');

      const signed = [
        await raw.get('main').store.presign('plat-resources', resourceKey, { method: 'GET', expiresIn: 60 }),
        await raw.get('twin').store.presign('plat-resources', resourceKey, { method: 'GET', expiresIn: 60 }),
        await raw.get('twin').store.presign('webhooks', 'segment.json', { method: 'GET', expiresIn: 60 }),
      ];
      for (const url of signed.map((s) => s.url)) {
        for (const method of ['GET', 'HEAD']) {
          const res = await fetch(url, { method });
          expect(res.status, `${method} ${url}`).toBe(403);
          if (method === 'GET') expect(await res.json()).toMatchObject({ error: 'AccessDenied', message: expect.stringContaining('reserved for the platform') });
        }
      }
      const put = await raw.get('twin').store.presign('plat-resources', resourceKey, { method: 'PUT', expiresIn: 60 });
      const overwrite = await fetch(put.url, { method: 'PUT', body: 'overwritten' });
      expect(overwrite.status).toBe(403);
      expect(await overwrite.json()).toMatchObject({ error: 'AccessDenied' });

      const internal = await raw.get('vault').store.presign('scratch', 'hello.txt', { method: 'GET', expiresIn: 60 });
      const refused = await fetch(internal.url);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'AccessDenied', message: 'presigned URL refused: unknown connection' });
      await resourceBytesIntact();
    });
  }

  it('managed resources still store and serve their bytes on the shared connection', async () => {
    await resourceBytesIntact();
    const content = await fetch(`${api.url}/api/v1/resources/${resourceId}/content`, { headers: { authorization: `Bearer ${analystKey}` } });
    expect(content.status).toBe(200);
    expect(await content.text()).toBe(secret);
  });
}

describe('issue 9 item 1: platform buckets through the objstore tools and presigned URLs — MinIO (S3 driver)', () => platformSuite('s3'));
describe('issue 9 item 1: platform buckets through the objstore tools and presigned URLs — filesystem driver', () => platformSuite('filesystem'));

describe('issue 9 item 1: filesystem roots that nest are refused at config load', () => {
  const load = (yaml: string, env: Record<string, string> = {}) => {
    try {
      parseConfig(yaml, env);
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.issues;
      throw err;
    }
  };

  it('a root inside another instance\'s root', () => {
    const yaml = 'toolkits:\n  objstore:\n    lake: { driver: filesystem, root: /srv/lake }\n    team: { driver: filesystem, root: /srv/lake/team }\n';
    expect(load(yaml)).toEqual([{ path: 'toolkits.objstore.team.root', message: expect.stringContaining('inside toolkits.objstore.lake.root') }]);
  });

  it('a root that holds data_dir (its database, DuckDB files and keys)', () => {
    const yaml = 'data_dir: /srv/platform\ntoolkits:\n  objstore:\n    lake: { driver: filesystem, root: /srv }\n';
    expect(load(yaml)).toEqual([{ path: 'toolkits.objstore.lake.root', message: expect.stringContaining('holds data_dir (/srv/platform)') }]);
    expect(load('toolkits:\n  objstore:\n    lake: { driver: filesystem, root: /data }\n', { PLATFORM_DATA_DIR: '/data/platform' })).toHaveLength(1);
  });
});
