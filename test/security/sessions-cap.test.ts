/**
 * Issue 9 item 6: live MCP sessions per identity are capped by `sessions.max_per_subject`. The next
 * initialize gets 429 with Retry-After (the wait until the first live session would expire if left
 * idle); expired sessions do not count; other identities are unaffected;
 * Streamable HTTP and legacy SSE sessions of one process count together; concurrent initializes
 * cannot overshoot the cap, in memory or across database replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitSession } from '../../api/mcp/sessions.js';
import { initialize, startSecurityEnv, type SecurityEnv } from './identity-fixtures.js';

const keys = ['one', 'two', 'burst', 'mixed', 'dbkey', 'dbstale'] as const;
const keyOf = (name: (typeof keys)[number]) => `Bearer ${name}-key-0123456789`;
const keysYaml = `
auth:
  api_keys:
    enabled: true
    keys:
${keys.map((k) => `      - { key: ${k}-key-0123456789, name: ${k}, roles: [staff] }`).join('\n')}
personas:
  definitions:
    staff: { roles: [staff] }
`;

/** An initialize, its body read to the end: the status, Retry-After and the session id. */
async function open(url: string, authorization: string): Promise<{ status: number; retryAfter: string | null; sessionId: string | null; body: string }> {
  const response = await initialize(url, authorization);
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), sessionId: response.headers.get('mcp-session-id'), body };
}

describe('admitSession (the rule)', () => {
  it.each([
    { live: [], max: 1, now: 0, expected: { ok: true } },
    { live: [5000], max: 2, now: 0, expected: { ok: true } },
    { live: [5000, 9000], max: 2, now: 0, expected: { ok: false, retryAfterSeconds: 5 } },
    { live: [5001, 9000], max: 2, now: 0, expected: { ok: false, retryAfterSeconds: 6 } },
    { live: [10, 20, 30], max: 2, now: 0, expected: { ok: false, retryAfterSeconds: 1 } },
  ])('$live at max $max → $expected', ({ live, max, now, expected }) => {
    expect(admitSession(live, max, now)).toEqual(expected);
  });
});

describe('issue 9 item 6: session cap per identity (memory sessions)', () => {
  let env: SecurityEnv;
  let now = Date.UTC(2025, 0, 1, 9, 0, 0);
  const minutes = (n: number) => n * 60_000;

  beforeAll(async () => {
    env = await startSecurityEnv({
      yaml: `${keysYaml}sessions:\n  max_per_subject: 2\n  ttl: 8h\n  idle_timeout: 30m\n`,
      transport: 'sse',
      clock: () => now,
    });
  }, 60_000);
  afterAll(async () => env?.stop());

  it('the initialize beyond the cap gets 429 with Retry-After; other identities are unaffected', async () => {
    const first = await open(env.url, keyOf('one'));
    const second = await open(env.url, keyOf('one'));
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open(env.url, keyOf('one'));
    expect(third.status).toBe(429);
    expect(third.retryAfter).toBe('1800');
    expect(JSON.parse(third.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Too many sessions') } });
    expect((await open(env.url, keyOf('two'))).status).toBe(200);

    // Ten minutes on, the first place frees in twenty.
    now += minutes(10);
    expect(await open(env.url, keyOf('one'))).toMatchObject({ status: 429, retryAfter: '1200' });

    // Ending a session frees its place.
    const ended = await fetch(`${env.url}/mcp`, { method: 'DELETE', headers: { authorization: keyOf('one'), 'mcp-session-id': first.sessionId! } });
    expect(ended.status).toBe(200);
    const again = await open(env.url, keyOf('one'));
    expect(again.status).toBe(200);
    expect(await open(env.url, keyOf('one'))).toMatchObject({ status: 429 });

    // Expired sessions never count, swept or not.
    now += minutes(31);
    expect((await open(env.url, keyOf('one'))).status).toBe(200);
  });

  it('concurrent initializes cannot overshoot the cap', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => open(env.url, keyOf('burst'))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    expect(results.filter((r) => r.status === 429)).toHaveLength(8);
  });

  it('Streamable HTTP and legacy SSE sessions of one identity count together', async () => {
    await env.connect(() => keyOf('mixed'), { transport: 'sse' });
    expect((await open(env.url, keyOf('mixed'))).status).toBe(200);
    expect((await open(env.url, keyOf('mixed'))).status).toBe(429);
    const sse = await fetch(`${env.url}/sse`, { headers: { authorization: keyOf('mixed'), accept: 'text/event-stream' } });
    await sse.text();
    expect(sse.status).toBe(429);
    expect(sse.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('issue 9 item 6: session cap per identity (database sessions, two replicas)', () => {
  let env: SecurityEnv;

  beforeAll(async () => {
    env = await startSecurityEnv({
      yaml: `${keysYaml}sessions:\n  store: database\n  max_per_subject: 3\n  ttl: 8h\n  idle_timeout: 30m\n`,
      replicas: 2,
    });
  }, 60_000);
  afterAll(async () => env?.stop());

  it('concurrent initializes on both replicas admit exactly the cap; the rest get 429 with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => open(env.apis[i % 2]!.url, keyOf('dbkey'))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(1800);
    }
    const { rows } = await env.db.query(`SELECT count(*)::int AS n FROM mcp_sessions WHERE subject = 'apikey:dbkey'`);
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('expired rows do not count', async () => {
    await env.db.query(
      `INSERT INTO mcp_sessions (id, subject, protocol_version, created_at, last_seen_at)
       SELECT 'stale-' || g, 'apikey:dbstale', '2025-06-18', now() - interval '2 hours', now() - interval '2 hours' FROM generate_series(1, 5) g`,
    );
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await open(env.apis[i % 2]!.url, keyOf('dbstale'))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
