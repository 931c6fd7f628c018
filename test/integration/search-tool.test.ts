/**
 * The surfaces of search (spec document 2, "Reading" and search ranking's authority row): the MCP
 * tool `search` served by the real api to a real MCP client, and `GET /api/v1/resources/search`,
 * over the real resource service (filesystem driver; the storage drivers are covered by
 * search-index.test.ts). Contents are indexed by running the indexer's activity directly.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp, type App } from '../../api/http/app.js';
import { Readiness } from '../../api/http/readiness.js';
import { unauthenticated } from '../../api/http/rest-auth.js';
import { resourceRoutes } from '../../api/resources/index.js';
import type { RunningApi } from '../../api/start.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, resourceActor, type Library, type ResourceService, type ResourceView } from '../../shared/resources/index.js';
import { indexResource, searchTool } from '../../shared/search/index.js';
import { connectMcp, startTestApi, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { callerOf, keys, resourcesConfigYaml, type User } from './resources-mcp-fixtures.js';

let database: { dsn: string; drop(): Promise<void> };
let root: string;
let config: PlatformConfig;
let db: Db;
let objstore: ObjstoreConnections;
let service: ResourceService;
let api: RunningApi;
let rest: App;
let restUrl: string;
const clients: Client[] = [];

const actor = (user: User) => resourceActor(callerOf(user), { config, origin: 'person' });

async function seed(user: User, library: Library, fileName: string, text: string, extra: { description?: string; path?: string } = {}): Promise<ResourceView> {
  const { resource } = await service.create(actor(user), {
    library,
    path: extra.path ?? '',
    file_name: fileName,
    ...(extra.description ? { description: extra.description } : {}),
    if_exists: 'fail',
    origin: 'portal',
    body: Readable.from([Buffer.from(text)]),
  });
  await indexResource({ config, db, resources: service, store: objstore.get('files').store }, resource.id);
  return resource;
}

async function mcp(user: User): Promise<Client> {
  const client = await connectMcp(api.url, keys[user]);
  clients.push(client);
  return client;
}

async function searchAs(user: User, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await (await mcp(user)).callTool({ name: 'search', arguments: args })) as CallToolResult;
}

async function restSearch(user: User, query: string): Promise<{ status: number; body: { items: Array<Record<string, unknown>>; next_offset: number | null } }> {
  const res = await fetch(`${restUrl}/api/v1/resources/search?${query}`, { headers: { 'x-test-user': user } });
  return { status: res.status, body: (await res.json()) as never };
}

beforeAll(async () => {
  database = await createTestDatabase();
  root = await mkdtemp(join(tmpdir(), 'search-tool-'));
  config = testConfig(`${resourcesConfigYaml(root, '', 'http')}
portal:
  public_base_url: https://platform.example.com
database:
  dsn: ${JSON.stringify(database.dsn)}
`);
  db = createPool({ dsn: database.dsn, maxOpenConns: 5 });
  await migrate(db);
  objstore = createObjstoreConnections(config, { env: {} });
  service = createResourceService({ config, db, objstore, log: silentLogger() });
  api = await startTestApi({ config, db, tools: [searchTool({ config, db, actorOf: (caller, sessionId) => resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' }) })] });

  rest = await buildHttpApp({ log: silentLogger(), metrics: createMetrics({ defaultMetrics: false }), readiness: new Readiness(), bodyLimit: 1024 * 1024, version: 'test', serveMetrics: false });
  await rest.register(resourceRoutes, {
    service,
    maxUploadBytes: 1024 * 1024,
    search: { db, publicBaseUrl: 'https://platform.example.com' },
    // Test-only identity: the api authenticates through its chain.
    async actorOf(request) {
      const user = request.headers['x-test-user'];
      return typeof user === 'string' && user in keys ? { ok: true, actor: actor(user as User) } : unauthenticated();
    },
  });
  await rest.listen({ host: '127.0.0.1', port: 0 });
  const address = rest.server.address();
  restUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await api?.stop();
  await rest?.close();
  await objstore?.close();
  await db?.end();
  await database?.drop();
  await rm(root, { recursive: true, force: true });
});

describe('MCP tool search', () => {
  it('answers {results: [{id, title, text, url, reference}]} with a resource link per file', async () => {
    const file = await seed('alice', { kind: 'person', subject: 'apikey:alice' }, 'heron-survey.md', 'Counting the grey heron colony at dawn.', { description: 'Field notes' });
    const result = await searchAs('alice', { query: 'heron colony' });
    expect(result.isError).toBeFalsy();
    const body = result.structuredContent as { results: Array<Record<string, unknown>>; more: boolean };
    expect(body.results[0]).toEqual({
      id: file.id,
      title: 'heron-survey',
      text: expect.stringContaining('heron'),
      url: `https://platform.example.com/portal/resources/${file.id}`,
      kind: 'resource',
      reference: `mcp:resource:${file.id}`,
    });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
    expect(result.content[1]).toEqual({ type: 'resource_link', uri: file.uri, name: 'heron-survey.md', title: 'heron-survey', mimeType: file.content_type, description: 'Field notes' });
  });

  it('is membership-scoped for administrators too; a persona member finds persona files, a non-member does not', async () => {
    const privateFile = await seed('bob', { kind: 'person', subject: 'apikey:bob' }, 'bittern-notes.txt', 'bittern');
    const personaFile = await seed('root', { kind: 'persona', name: 'analyst' }, 'bittern-model.txt', 'bittern');
    const found = async (user: User) => ((await searchAs(user, { query: 'bittern' })).structuredContent as { results: Array<{ id: string }> }).results.map((r) => r.id);
    expect(await found('bob')).toEqual([privateFile.id]);
    expect(await found('root')).toEqual([]);
    expect(await found('alice')).toEqual([personaFile.id]);
    expect(await found('carol')).toEqual([]);
  });
});

describe('GET /api/v1/resources/search', () => {
  it('pages hits by offset, same ranking and scoping as the tool', async () => {
    const lib: Library = { kind: 'person', subject: 'apikey:carol' };
    for (const n of [1, 2, 3]) await seed('carol', lib, `egret-${n}.txt`, `egret sighting number ${n}`);
    const first = await restSearch('carol', 'q=egret&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_offset).toBe(2);
    expect(first.body.items[0]).toMatchObject({ kind: 'resource', library: 'person:apikey:carol', url: expect.stringMatching(/^https:\/\/platform\.example\.com\/portal\/resources\//) });
    const second = await restSearch('carol', 'q=egret&limit=2&offset=2');
    expect(second.body.items).toHaveLength(1);
    expect(second.body.next_offset).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((h) => h.file_name).sort();
    expect(all).toEqual(['egret-1.txt', 'egret-2.txt', 'egret-3.txt']);
    expect((await restSearch('bob', 'q=egret')).body.items).toEqual([]);
  });

  it('refuses a missing query (400) and an unauthenticated caller (401)', async () => {
    expect((await restSearch('carol', 'limit=2')).status).toBe(400);
    expect((await fetch(`${restUrl}/api/v1/resources/search?q=egret`)).status).toBe(401);
  });
});
