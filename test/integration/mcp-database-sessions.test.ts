import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Db } from '../../shared/db/index.js';
import { testApiKey } from '../support/api.js';
import { startDatabaseReplicas, type DatabaseReplicas } from '../support/replicas.js';
import type { RunningApi } from '../../api/start.js';
import { touchEveryMs } from '../../api/mcp/database-sessions.js';

describe('sessions.store: database — two api replicas on one Postgres', () => {
  let setup: DatabaseReplicas;
  let db: Db;
  let replicas: RunningApi[];
  /** While set, the replicas' clock stands still (their memory of sessions read never lapses). */
  let frozenAt: number | undefined;

  beforeAll(async () => {
    setup = await startDatabaseReplicas({ clock: () => frozenAt ?? Date.now() });
    ({ db, replicas } = setup);
    expect(setup.config.server.streamable.stateless).toBe(true);
  });
  afterAll(async () => setup?.stop());

  it('serves one client alternately from both replicas under one session id', async () => {
    const [a, b] = replicas as [RunningApi, RunningApi];
    const { fetch: alternating, served } = setup.alternatingFetch();
    const client = new Client({ name: 'lb-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${testApiKey}` } },
      fetch: alternating,
    });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { rows } = await db.query('SELECT subject, protocol_version FROM mcp_sessions WHERE id = $1', [sessionId]);
    expect(rows).toEqual([{ subject: 'apikey:tester', protocol_version: '2025-11-25' }]);

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
       VALUES ('expired-session', 'apikey:tester', '2025-06-18', now() - interval '2 hours', now() - interval '2 hours')`,
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

  it('rewrites the last-seen stamp only once it is older than a twentieth of the idle timeout', async () => {
    const touchEvery = touchEveryMs({ ttlMs: setup.config.sessions.ttl, idleMs: setup.config.sessions.idle_timeout });
    await db.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, last_seen_at) VALUES
         ('fresh-session', 'apikey:tester', '2025-11-25', now() - make_interval(secs => $1::double precision / 2000)),
         ('stale-session', 'apikey:tester', '2025-11-25', now() - make_interval(secs => $1::double precision / 500))`,
      [touchEvery],
    );
    const stamps = async () =>
      Object.fromEntries(
        (await db.query<{ id: string; last_seen_at: Date }>(`SELECT id, last_seen_at FROM mcp_sessions WHERE id LIKE '%-session' AND id <> 'expired-session'`)).rows.map(
          (r) => [r.id, r.last_seen_at.getTime()],
        ),
      );
    const before = await stamps();
    for (const id of ['fresh-session', 'stale-session']) {
      const response = await fetch(`${replicas[0]!.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${testApiKey}`, 'mcp-session-id': id },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(response.status).toBe(200);
    }
    const after = await stamps();
    expect(after['fresh-session']).toBe(before['fresh-session']);
    expect(after['stale-session']).toBeGreaterThan(before['stale-session']!);
  });

  const ping = (url: string, sessionId: string) =>
    fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${testApiKey}`, 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
  const open = async (url: string) => {
    const init = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${testApiKey}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    await init.json();
    return init.headers.get('mcp-session-id')!;
  };
  const end = (url: string, sessionId: string) => fetch(`${url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${testApiKey}`, 'mcp-session-id': sessionId } });

  it('a POST of notifications or responses alone is accepted with 202 and the session header, and a malformed one still refused', async () => {
    const [a, b] = replicas as [RunningApi, RunningApi];
    const sessionId = await open(a.url);
    const post = (body: unknown, id = sessionId) =>
      fetch(`${b.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${testApiKey}`, 'mcp-session-id': id },
        body: JSON.stringify(body),
      });
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(initialized.status).toBe(202);
    expect(initialized.headers.get('mcp-session-id')).toBe(sessionId);
    expect(await initialized.text()).toBe('');
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } })).status).toBe(202);
    expect((await post({ jsonrpc: '2.0', id: 'server-asked-1', result: {} })).status).toBe(202);
    expect((await post({ jsonrpc: '2.0', method: 7 })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'no-such-session')).status).toBe(404);
    // The session still answers requests afterwards.
    expect((await ping(b.url, sessionId)).status).toBe(200);
  });

  it('a session ended through replica A is refused by replica B as soon as its notification arrives, though B had just served it from memory', async () => {
    const [a, b] = replicas as [RunningApi, RunningApi];
    const sessionId = await open(a.url);
    expect((await ping(b.url, sessionId)).status).toBe(200);
    expect((await ping(b.url, sessionId)).status).toBe(200);
    expect((await end(a.url, sessionId)).status).toBe(200);
    // B forgets it when Postgres delivers A's NOTIFY (sent at commit): milliseconds, longer only on
    // a machine under heavy load — far sooner than B's memory of it would lapse (recentSessionMs).
    await expect.poll(async () => (await ping(b.url, sessionId)).status, { timeout: 2_000, interval: 20 }).toBe(404);
  });

  it('sessions ended together through replica A are announced as a group, and replica B refuses every one though its memory of them has not lapsed', async () => {
    const [a, b] = replicas as [RunningApi, RunningApi];
    const ids = await Promise.all(Array.from({ length: 24 }, () => open(a.url)));
    // B reads each row now and answers it from memory; with the clock still, that memory never lapses,
    // so only the announcements can make B refuse them.
    frozenAt = Date.now();
    try {
      for (const status of await Promise.all(ids.map(async (id) => (await ping(b.url, id)).status))) expect(status).toBe(200);
      const ended = await Promise.all(ids.map((id) => end(a.url, id)));
      expect(ended.map((r) => r.status)).toEqual(ids.map(() => 200));
      await expect
        .poll(async () => (await Promise.all(ids.map(async (id) => (await ping(b.url, id)).status))).filter((status) => status !== 404).length, { timeout: 5_000, interval: 20 })
        .toBe(0);
    } finally {
      frozenAt = undefined;
    }
  });
});
