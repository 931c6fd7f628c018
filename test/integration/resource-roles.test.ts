/**
 * The resource jobs and requests of issues 18 and 19 through the platform's own roles, as `platform
 * serve` and `platform worker` compose them (cli/services.ts): a write indexes and draws through
 * the hand-off on the worker, search and fetch find it, a folder rename and an archive
 * extraction are answered by their workflows on the worker. Each piece has its own tests; this
 * one proves the wiring.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { WorkflowNotFoundError } from '@temporalio/client';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startApiRole, startWorkerRole, type RunningApiRole, type WorkerRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { connectTemporal, type TemporalHandle } from '../../shared/temporal/index.js';
import { callToolJson, connectMcp, restJson, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { startTestTemporal, type TestTemporal } from '../support/temporal.js';

const ALICE = 'alice-key-0123456789';

let dir: string;
let temporal: TestTemporal;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let handle: TemporalHandle;
let api: RunningApiRole;
let worker: WorkerRole;
let mcp: McpClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resource-roles-'));
  temporal = await startTestTemporal();
  database = await createTestDatabase();
  const config = testConfig(`
data_dir: ${JSON.stringify(dir)}
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: ${JSON.stringify(database.dsn)} }
temporal: { address: ${JSON.stringify(temporal.address)}, namespace: default, task_queue: roles-${randomBytes(4).toString('hex')} }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${ALICE}, name: alice, roles: [staff] }
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "search", "fetch"] } }
toolkits:
  objstore:
    local: { driver: filesystem, root: ${JSON.stringify(join(dir, 'objects'))} }
`);
  const log = silentLogger();
  db = (await openDatabase(config, log))!;
  handle = await connectTemporal(config.temporal);
  api = await startApiRole({ config, log, db, temporal: handle });
  worker = await startWorkerRole({ config, log, db, temporal: handle });
  mcp = await connectMcp(api.url, ALICE);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await worker?.shutdown();
  await api?.stop();
  await handle?.connection.close();
  await db?.end();
  await database?.drop();
  await temporal?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The result of workflow `id`, once the write's dispatcher has started it (right after the commit, in the background). */
async function resultOf(id: string): Promise<unknown> {
  for (let tries = 0; ; tries++) {
    try {
      return await handle.client.workflow.getHandle(id).result();
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError) || tries >= 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

describe('resource jobs and requests through the api and worker roles', () => {
  it('a write is indexed and drawn by the worker; search finds its contents and fetch reads it', async () => {
    const created = await callToolJson(mcp, 'manage_resource', { action: 'create', path: 'reports', filename: 'notes.txt', content: 'the zebra count rose in spring' });
    expect(created.isError).toBe(false);
    const id: string = created.body.resource.id;
    await resultOf(`index:${id}`);
    await resultOf(`thumb:${id}:v1`);

    const found = await callToolJson(mcp, 'search', { query: 'zebra' });
    expect(found.body.results.map((hit: { reference: string }) => hit.reference)).toContain(`mcp:resource:${id}`);
    const fetched = await callToolJson(mcp, 'fetch', { id: `mcp:resource:${id}` });
    expect(JSON.stringify(fetched.body)).toContain('zebra count');
    const tile = await fetch(`${api.url}/api/v1/resources/${id}/thumbnail`, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('image/png');
  });

  it('a folder rename and an archive extraction are answered by their workflows on the worker', async () => {
    await callToolJson(mcp, 'manage_resource', { action: 'create', path: 'drafts/deep', filename: 'plan.md', content: '# plan' });
    const renamed = await restJson(`${api.url}/api/v1/resources/folders/rename`, ALICE, 'POST', { library: 'personal', path: 'drafts', new_path: 'archive/drafts' });
    expect(renamed.status).toBe(200);
    const moved = await callToolJson(mcp, 'manage_resource', { action: 'read', path: 'archive/drafts/deep', filename: 'plan.md' });
    expect(moved.isError).toBe(false);

    const archive = await zipOf({ 'data/a.txt': 'alpha', 'data/b.txt': 'beta' });
    const uploaded = await callToolJson(mcp, 'manage_resource', { action: 'create', path: 'inbox', filename: 'bundle.zip', content_base64: archive.toString('base64') });
    expect(uploaded.isError).toBe(false);
    const extracted = await callToolJson(mcp, 'manage_resource', { action: 'extract', reference: uploaded.body.resource.reference, members: 'data/*.txt' });
    expect(extracted.isError).toBe(false);
    expect(extracted.body.members.map((member: { member: string }) => member.member).sort()).toEqual(['data/a.txt', 'data/b.txt']);
  });
});
