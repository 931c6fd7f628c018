/**
 * The write's origin on every version (issue 18, Build 1): a portal upload, an agent's revision
 * (manage_resource), a managed script's revision, a script's platform.export and a portal
 * restore each record their own origin, and the version history (REST) answers it. Migration
 * 0020 backfills versions written before it from their own event, their writer, or the first event.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, defaultMigrationsDir, migrate, type Db } from '../../shared/db/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import type { ToolDefinition } from '../../shared/mcp-tools/index.js';
import { manageResourceTool, resourceActor, type ResourceActor } from '../../shared/resources/index.js';
import { runTools } from '../../shared/scripts/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { alice, as, multipart, send, startResourceRestApi, type ResourceRestApi } from './resources-rest-fixtures.js';

const aliceCaller: CallerContext = { subject: alice.subject, roles: alice.roles, authType: 'apikey' };

async function call(tool: ToolDefinition, args: Record<string, unknown>) {
  const result = await tool.handler(args as never, { caller: aliceCaller, sessionId: 'session-1', signal: new AbortController().signal, log: silentLogger() });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
}

describe('the origin of every version', () => {
  let api: ResourceRestApi;
  let upstream: Server;

  beforeAll(async () => {
    api = await startResourceRestApi({ driver: 'filesystem', maxUploadBytes: 1024 * 1024 });
    upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/markdown' }).end('# exported plan\n'));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  }, 60_000);

  afterAll(async () => {
    upstream?.close();
    await api?.close();
  });

  it('portal upload, agent revision, script revision, export and portal restore: each version says its origin', async () => {
    const form = multipart([
      { name: 'path', value: 'notes' },
      { name: 'file', filename: 'plan.md', type: 'text/markdown', data: '# plan\n' },
    ]);
    const uploaded = await send(`${api.url}/api/v1/resources`, { method: 'POST', headers: { ...as(alice), 'content-type': form.contentType }, body: form.body });
    expect(uploaded.status).toBe(201);
    const reference = `mcp:resource:${uploaded.json.id}`;

    // An MCP caller: the agent's session (the api's default actor of manage_resource).
    await call(manageResourceTool(api.service, { config: api.config }), { action: 'replace_content', reference, content: '# plan, by the agent\n' });
    // A managed script's run: the api records its writes as the script's (cli/services.ts agentActor).
    const scriptActor = (caller: CallerContext): ResourceActor => ({
      ...resourceActor(caller, { config: api.config, origin: 'agent', sessionId: 'run-1' }),
      writer: { kind: 'script', scriptId: '0190a6b2-7c3e-7a11-8f00-00000000abcd', name: 'nightly' },
    });
    await call(manageResourceTool(api.service, { config: api.config, actorOf: scriptActor }), { action: 'replace_content', reference, content: '# plan, by the script\n' });
    const exportTool = runTools({ resources: api.service, actorOf: scriptActor, fetchPolicy: { allowHosts: ['127.0.0.1:*'], timeoutMs: 5_000 } }).find((t) => t.name.endsWith('export'))!;
    const port = (upstream.address() as AddressInfo).port;
    await call(exportTool, { destination: 'resources', path: 'notes', filename: 'plan.md', source: { url: `http://127.0.0.1:${port}/plan` } });
    const restored = await send(`${api.url}/api/v1/resources/${uploaded.json.id}/versions/1/restore`, { method: 'POST', headers: as(alice) });
    expect(restored.status).toBe(200);

    const history = await send(`${api.url}/api/v1/resources/${uploaded.json.id}/versions`, { method: 'GET', headers: as(alice) });
    expect(history.status).toBe(200);
    expect(history.json.items.map((v: { version: number; origin: string }) => [v.version, v.origin])).toEqual([
      [5, 'portal'],
      [4, 'export'],
      [3, 'script'],
      [2, 'agent'],
      [1, 'portal'],
    ]);
  });
});

describe('migration 0020 on versions written before it', () => {
  let database: { dsn: string; drop(): Promise<void> };
  let db: Db;
  let before: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 2 });
    before = await mkdtemp(join(tmpdir(), 'migrations-0019-'));
    const all = defaultMigrationsDir();
    for (const file of await readdir(all)) if (file < '0020') await copyFile(join(all, file), join(before, file));
    await migrate(db, { dir: before });
  });

  afterAll(async () => {
    await db?.end();
    await database?.drop();
    await rm(before, { recursive: true, force: true });
  });

  it('takes the origin from the version\'s own event, else from its writer, else from the first event; none at all stays unknown', async () => {
    const [recorded, unrecorded] = ['0190a6b2-7c3e-7a11-8f00-000000000001', '0190a6b2-7c3e-7a11-8f00-000000000002'];
    for (const [id, head] of [[recorded, 5], [unrecorded, 1]] as const) {
      await db.query(
        `INSERT INTO resources (id, library_kind, library_key, folder_path, file_name, display_name, content_type, size, head_version, uploader, created_at, updated_at)
         VALUES ($1, 'person', 'alice', '', $1 || '.txt', 'f', 'text/plain', 1, $2, 'alice', now(), now())`,
        [id, head],
      );
      for (let version = 1; version <= head; version++) {
        await db.query(
          `INSERT INTO resource_versions (resource_id, version, uploader, created_at, size, content_type, object_bucket, object_key)
           VALUES ($1, $2::int, 'alice', now(), 1, 'text/plain', 'resources', $1 || '/' || $2::text)`,
          [id, version],
        );
      }
    }
    const event = (version: number, kind: string, details: object) =>
      db.query(`INSERT INTO resource_events (resource_id, kind, actor, details, occurred_at) VALUES ($1, $2, 'alice', $3::jsonb, now())`, [
        recorded,
        kind,
        JSON.stringify({ version, ...details }),
      ]);
    await event(1, 'created', { origin: 'portal', writer: { kind: 'person', subject: 'alice' } });
    await event(2, 'revised', { writer: { kind: 'agent_session', sessionId: 's' } });
    await event(3, 'replaced', { writer: { kind: 'script', scriptId: 'webhook-compactor' } });
    await event(4, 'restored', { writer: { kind: 'script', scriptId: 'abc' } });
    // Version 5 has no event of its own.

    expect((await migrate(db)).applied).toContain('0020_resource_jobs');
    const origins = await db.query<{ resource_id: string; version: number; origin: string | null }>(
      `SELECT resource_id, version, origin FROM resource_versions ORDER BY resource_id, version`,
    );
    expect(origins.rows.map((r) => [r.resource_id === recorded ? 'recorded' : 'unrecorded', r.version, r.origin])).toEqual([
      ['recorded', 1, 'portal'],
      ['recorded', 2, 'agent'],
      ['recorded', 3, 'webhook'],
      ['recorded', 4, 'script'],
      ['recorded', 5, 'portal'],
      ['unrecorded', 1, null],
    ]);
  });
});
