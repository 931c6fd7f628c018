import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { apiConfigYaml, startTestApi, testApiKey, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

describe('sessions.store: database — two api replicas on one Postgres', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let replicas: RunningApi[];

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 4 });
    await migrate(db);
    const config = testConfig(
      apiConfigYaml({ extra: `sessions:\n  store: database\ndatabase:\n  dsn: ${database.dsn}\n` }),
    );
    expect(config.server.streamable.stateless).toBe(true);
    replicas = [await startTestApi({ config, db }), await startTestApi({ config, db })];
  });

  afterAll(async () => {
    for (const api of replicas ?? []) await api.stop();
    await db?.end();
    await database?.drop();
  });

  it('serves one client alternately from both replicas under one session id', async () => {
    const [a, b] = replicas as [RunningApi, RunningApi];
    const served: string[] = [];
    let turn = 0;
    // Every request goes to the other replica than the one before, as a load balancer might do.
    const alternating: typeof fetch = (input, init) => {
      const target = turn++ % 2 === 0 ? a.url : b.url;
      served.push(target);
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${target}${url.pathname}${url.search}`, init);
    };
    const client = new Client({ name: 'lb-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
      fetch: alternating,
    });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await db.query('SELECT subject, protocol_version FROM mcp_sessions WHERE id = $1', [sessionId]);
    expect(rows).toEqual([{ subject: 'tester', protocol_version: '2025-11-25' }]);

    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'platform_info', arguments: {} });
      expect(result.isError).toBeFalsy();
    }
    expect(new Set(served)).toEqual(new Set([a.url, b.url]));

    // Ending the session on one replica ends it everywhere.
    await transport.terminateSession();
    const afterDelete = await fetch(`${b.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${testApiKey}`, 'mcp-session-id': sessionId! },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(afterDelete.status).toBe(404);
    await client.close();
  });

  it('refuses an unknown or expired session id with 404', async () => {
    await db.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, created_at, last_seen_at)
       VALUES ('expired-session', 'tester', '2025-06-18', now() - interval '2 hours', now() - interval '2 hours')`,
    );
    for (const id of ['expired-session', 'never-issued']) {
      const response = await fetch(`${replicas[0]!.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${testApiKey}`, 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    }
  });
});
