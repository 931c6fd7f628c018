/**
 * The objstore tools through the real HTTP api and a real MCP client (Streamable HTTP): listing
 * with annotations and schemas, calls, binary content, and `{error, message, hint}` failures.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createObjstoreConnections, objstoreTools, type ObjstoreConnections } from '../../shared/objstore/index.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';
import { objstoreYaml } from './objstore-fixtures.js';

describe('objstore tools over MCP (Streamable HTTP)', () => {
  let root: string;
  let api: RunningApi;
  let connections: ObjstoreConnections;
  let client: Client;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'objstore-mcp-'));
    const config = testConfig(
      apiConfigYaml({
        extra: objstoreYaml({
          local: ['driver: filesystem', `root: ${JSON.stringify(join(root, 'local'))}`],
          archive: ['driver: filesystem', `root: ${JSON.stringify(join(root, 'archive'))}`, 'read_only: true'],
        }),
      }),
    );
    connections = createObjstoreConnections(config, {
      env: {},
      defaultConnection: 'local',
      seedBuckets: { local: ['default'] },
      presign: { baseUrl: 'https://data.example.test', key: randomBytes(32) },
    });
    api = await startTestApi({ config, tools: objstoreTools(connections.tools) });
    client = new Client({ name: 'objstore-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${testApiKey}` } } }),
    );
  });

  afterAll(async () => {
    await client?.close();
    await api?.stop();
    await connections?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('lists the nine tools with annotations, required parameters and defaults', async () => {
    const { tools } = await client.listTools();
    const ours = tools.filter((t) => t.name.startsWith('objstore_'));
    expect(ours.map((t) => t.name).sort()).toEqual([
      'objstore_copy_object',
      'objstore_delete_object',
      'objstore_get_object',
      'objstore_get_object_metadata',
      'objstore_list_buckets',
      'objstore_list_connections',
      'objstore_list_objects',
      'objstore_presign_url',
      'objstore_put_object',
    ]);
    const byName = Object.fromEntries(ours.map((t) => [t.name, t]));
    expect(byName.objstore_get_object!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.objstore_delete_object!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.objstore_put_object!.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(byName.objstore_presign_url!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: false });
    expect(byName.objstore_put_object!.inputSchema.required).toEqual(['bucket', 'key', 'body']);
    expect(byName.objstore_copy_object!.inputSchema.required).toEqual(['source_bucket', 'source_key', 'dest_bucket', 'dest_key']);
    const presignProps = byName.objstore_presign_url!.inputSchema.properties as Record<string, { default?: unknown; enum?: unknown }>;
    expect(presignProps.method).toMatchObject({ default: 'GET', enum: ['GET', 'PUT'] });
    expect(presignProps.expires_in).toMatchObject({ default: 3600 });
    for (const t of ours.filter((t) => t.name !== 'objstore_list_connections')) {
      expect(Object.keys(t.inputSchema.properties ?? {}), t.name).toContain('connection');
    }
  });

  it('writes and reads text and binary through MCP; the default bucket exists on first use', async () => {
    const buckets = await client.callTool({ name: 'objstore_list_buckets', arguments: {} });
    expect(buckets.structuredContent).toMatchObject({ connection: 'local', buckets: [{ name: 'default' }], count: 1 });

    const put = await client.callTool({ name: 'objstore_put_object', arguments: { bucket: 'default', key: 'notes/hello.txt', body: 'hello over MCP', metadata: { Source: 'test' } } });
    expect(put.isError).toBeFalsy();
    expect(put.structuredContent).toMatchObject({ bucket: 'default', key: 'notes/hello.txt', size: 14, version_id: null });
    const text = (put.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(JSON.parse(text)).toEqual(put.structuredContent);

    const got = await client.callTool({ name: 'objstore_get_object', arguments: { bucket: 'default', key: 'notes/hello.txt' } });
    expect(got.structuredContent).toMatchObject({ content: 'hello over MCP', is_base64: false, truncated: false, content_type: 'text/plain; charset=utf-8', metadata: { source: 'test' } });

    const bytes = randomBytes(256);
    await client.callTool({ name: 'objstore_put_object', arguments: { bucket: 'default', key: 'bin/r.bin', body: bytes.toString('base64'), is_base64: true } });
    const bin = await client.callTool({ name: 'objstore_get_object', arguments: { bucket: 'default', key: 'bin/r.bin' } });
    expect(bin.structuredContent).toMatchObject({ is_base64: true, content: bytes.toString('base64'), size: 256 });

    const listed = await client.callTool({ name: 'objstore_list_objects', arguments: { bucket: 'default', delimiter: '/' } });
    expect(listed.structuredContent).toMatchObject({ common_prefixes: ['bin/', 'notes/'], objects: [], count: 2, next_continuation_token: null });

    const url = await client.callTool({ name: 'objstore_presign_url', arguments: { bucket: 'default', key: 'notes/hello.txt' } });
    expect((url.structuredContent as { url: string }).url).toMatch(/^https:\/\/data\.example\.test\/objstore\/local\/default\/notes\/hello\.txt\?X-Objstore-Method=GET&/);
  });

  it('reports failures as tool results with {error, message, hint}', async () => {
    const missing = await client.callTool({ name: 'objstore_get_object', arguments: { bucket: 'default', key: 'nope.txt' } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toEqual({ error: 'NoSuchKey', message: 'object not found: default/nope.txt', hint: expect.any(String) });
    expect(JSON.parse((missing.content as Array<{ text: string }>)[0]!.text)).toEqual(missing.structuredContent);

    const ro = await client.callTool({ name: 'objstore_put_object', arguments: { bucket: 'default', key: 'x', body: 'x', connection: 'archive' } });
    expect(ro.structuredContent).toMatchObject({ error: 'ReadOnlyMode' });
    const unknown = await client.callTool({ name: 'objstore_list_buckets', arguments: { connection: 'elsewhere' } });
    expect(unknown.structuredContent).toMatchObject({ error: 'ConnectionNotFound', hint: expect.stringContaining('archive, local') });

    const conns = await client.callTool({ name: 'objstore_list_connections', arguments: {} });
    expect(conns.structuredContent).toMatchObject({ default_connection: 'local', count: 2 });
  });
});
