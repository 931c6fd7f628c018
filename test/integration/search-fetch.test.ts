/**
 * The `fetch` tool through real MCP clients against the real api, ResourceService, Postgres and a
 * filesystem object store. Spec document 2, "Reading": fetch returns text inline, a PDF as
 * extracted text, an office-suite document as its XML parts, an image as the picture, anything
 * else as bytes; a file over 1 MB returns metadata and its URI only. Authority row: fetch of an
 * `mcp:resource:` reference follows the by-id routes (administrators can dereference any named
 * file). Events: reads through fetch are audited under the search door and stamp last read.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createObjstoreConnections, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { createResourceService, resourceActor, type CreateInput, type ResourceService, type ResourceView } from '../../shared/resources/index.js';
import { pdfReader } from '../../shared/pdf/index.js';
import { fetchTool } from '../../shared/search/tool-fetch.js';
import type { RunningApi } from '../../api/start.js';
import { startTestApi, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { docx, docxType, onePixelPng, pdf } from '../fixtures/search/documents.js';
import { nestedFormsPdf } from '../support/pdf.js';
import { callerOf, keys, resourcesConfigYaml, type User } from './resources-mcp-fixtures.js';

describe('fetch over MCP', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  let config: PlatformConfig;
  let db: Db;
  let objstore: ObjstoreConnections;
  let service: ResourceService;
  let api: RunningApi;
  const clients: Client[] = [];

  const actor = (user: User) => resourceActor(callerOf(user), { config, origin: 'person' });
  const seed = async (user: User, input: Omit<CreateInput, 'body' | 'origin' | 'if_exists' | 'library' | 'path'> & { content: Buffer | string; library?: CreateInput['library'] }): Promise<ResourceView> => {
    const { content, library, ...rest } = input;
    const created = await service.create(actor(user), {
      library: library ?? { kind: 'person', subject: `apikey:${user}` },
      path: 'docs',
      ...rest,
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(content)]),
    });
    return created.resource;
  };
  const connect = async (user: User) => {
    const client = new Client({ name: `fetch-${user}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys[user]}` } } }));
    clients.push(client);
    return client;
  };
  const fetchAs = async (user: User, id: string) => (await (await connect(user)).callTool({ name: 'fetch', arguments: { id } })) as CallToolResult;
  const doc = (result: CallToolResult) => result.structuredContent as Record<string, unknown> & { text?: string; metadata: ResourceView };
  const auditTools = async (id: string) => (await db.query<{ tool: string }>(`SELECT tool FROM audit_log WHERE resource_id = $1 ORDER BY occurred_at`, [id])).rows.map((r) => r.tool);

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await mkdtemp(join(tmpdir(), 'search-fetch-'));
    config = testConfig(resourcesConfigYaml(root, `database:\n  dsn: ${JSON.stringify(database.dsn)}\naudit:\n  enabled: true\n`, 'http'));
    db = createPool({ dsn: database.dsn, maxOpenConns: 5, applicationName: 'search-fetch-test' });
    await migrate(db, { log: silentLogger() });
    objstore = createObjstoreConnections(config, { env: {} });
    service = createResourceService({ config, db, objstore, log: silentLogger() });
    const actorOf = (caller: CallerContext, sessionId?: string) => resourceActor(caller, { config, ...(sessionId ? { sessionId } : {}), origin: 'agent' });
    api = await startTestApi({ config, db, tools: [fetchTool(service, { actorOf })] });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await api?.stop();
    await objstore?.close();
    await db?.end();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('is listed read-only with one id argument', async () => {
    const { tools } = await (await connect('alice')).listTools();
    const tool = tools.find((t) => t.name === 'fetch')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool.inputSchema.required).toEqual(['id']);
  });

  it('text inline, as the connector document {id, title, text, url, metadata}', async () => {
    const file = await seed('alice', { file_name: 'notes.md', display_name: 'Team notes', content: '# Notes\nShip on Friday.\n' });
    const result = await fetchAs('alice', file.reference);
    expect(result.isError).toBeFalsy();
    expect(doc(result)).toMatchObject({ id: file.reference, title: 'Team notes', url: file.uri, text: '# Notes\nShip on Friday.\n' });
    expect(doc(result).metadata).toMatchObject({ id: file.id, file_name: 'notes.md' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(doc(result));
    // The bare id and the address name the same document.
    expect(doc(await fetchAs('alice', file.id)).text).toBe('# Notes\nShip on Friday.\n');
    expect(doc(await fetchAs('alice', file.uri)).text).toBe('# Notes\nShip on Friday.\n');
    // The url of a search result under portal.public_base_url: the resource's portal page.
    expect(doc(await fetchAs('alice', `https://portal.example/portal/resources/${file.id}`)).text).toBe('# Notes\nShip on Friday.\n');
  });

  it('a PDF as its extracted text', async () => {
    const file = await seed('alice', { file_name: 'report.pdf', content: pdf(['Quarterly revenue grew by a third']), content_type: 'application/pdf' });
    const result = await fetchAs('alice', file.reference);
    expect(doc(result).text).toContain('Quarterly revenue grew by a third');
    expect(result.content).toHaveLength(1);
  });

  it('a PDF not read because too many wait: a tool error saying to try again, and the next fetch reads it', async () => {
    const file = await seed('alice', { file_name: 'busy.pdf', content: pdf(['Read once the queue drains']), content_type: 'application/pdf' });
    // One thread, four waiting at most (one per caller): another library's slow PDF runs, four others wait.
    pdfReader.configure({ threads: 1, queue: 4 });
    const held = ['l1', 'l2', 'l3', 'l4', 'l5'].map((caller) => pdfReader.firstPage(nestedFormsPdf(), 1600, `library:${caller}`).catch(() => undefined));
    try {
      const result = await fetchAs('alice', file.reference);
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'PDF reading is busy: 4 PDFs are waiting; try again in a minute' }]);
    } finally {
      await pdfReader.close();
      await Promise.all(held);
      pdfReader.configure({ threads: 2, queue: 32 });
    }
    expect(doc(await fetchAs('alice', file.reference)).text).toContain('Read once the queue drains');
  });

  it('an office document as its XML parts', async () => {
    const file = await seed('alice', { file_name: 'policy.docx', content: await docx(['Travel policy']), content_type: docxType });
    const result = await fetchAs('alice', file.reference);
    expect(doc(result)).toMatchObject({ parts: ['word/document.xml'], truncated: false });
    expect(doc(result).text).toMatch(/^<!-- part: word\/document\.xml -->\n<\?xml[\s\S]*<w:t xml:space="preserve">Travel policy<\/w:t>/);
  });

  it('an image as the picture (MCP image content)', async () => {
    const file = await seed('alice', { file_name: 'dot.png', content: onePixelPng, content_type: 'image/png' });
    const result = await fetchAs('alice', file.reference);
    expect(result.content[1]).toEqual({ type: 'image', data: onePixelPng.toString('base64'), mimeType: 'image/png' });
    expect(doc(result).text).toBeUndefined();
  });

  it('anything else as bytes (an embedded resource with a base64 blob)', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0xfe, 0xff, 0x00, 0x42]);
    const file = await seed('alice', { file_name: 'blob.bin', content: bytes, content_type: 'application/octet-stream' });
    const result = await fetchAs('alice', file.reference);
    expect(result.content[1]).toEqual({ type: 'resource', resource: { uri: file.uri, mimeType: 'application/octet-stream', blob: bytes.toString('base64') } });
  });

  it('a file over 1 MB returns metadata and its URI only, reading nothing', async () => {
    const file = await seed('alice', { file_name: 'big.txt', content: Buffer.alloc(2 * 1024 * 1024, 0x61), content_type: 'text/plain' });
    const result = await fetchAs('alice', file.reference);
    expect(doc(result)).toMatchObject({ id: file.reference, url: file.uri, content_omitted: expect.stringContaining('2097152 bytes') });
    expect(doc(result).text).toBeUndefined();
    expect(result.content[1]).toMatchObject({ type: 'resource_link', uri: file.uri, size: 2 * 1024 * 1024 });
    expect(await auditTools(file.id)).toEqual([]);
    expect((await service.get(actor('root'), file.id)).last_read_at).toBeNull();
  });

  it('an administrator fetches another person\'s private file by reference (by-id rule)', async () => {
    const file = await seed('alice', { file_name: 'private.txt', content: 'mine' });
    expect(doc(await fetchAs('root', file.reference)).text).toBe('mine');
    const stranger = await fetchAs('bob', file.reference);
    expect(stranger.isError).toBe(true);
    expect(stranger.structuredContent).toMatchObject({ error: 'not_found' });
  });

  it('a member fetches a persona file; a non-member cannot', async () => {
    const file = await seed('root', { library: { kind: 'persona', name: 'analyst' }, file_name: 'model.txt', content: 'churn model' });
    expect(doc(await fetchAs('alice', file.reference)).text).toBe('churn model');
    const outsider = await fetchAs('bob', file.reference);
    expect(outsider.isError).toBe(true);
    expect(outsider.structuredContent).toMatchObject({ error: 'not_found' });
  });

  it('a read through fetch stamps last read and counts as the search door in usage', async () => {
    const file = await seed('alice', { file_name: 'counted.txt', content: 'count me' });
    await fetchAs('alice', file.reference);
    expect(await auditTools(file.id)).toEqual(['search_fetch']);
    const usage = await service.usage(actor('alice'), file.id);
    expect(usage).toMatchObject({ recorded: true, last_30_days: { search_fetch: 1, resources_read: 0 } });
    expect((await service.get(actor('root'), file.id)).last_read_at).not.toBeNull();
  });
});
