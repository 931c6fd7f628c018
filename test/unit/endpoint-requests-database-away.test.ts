/**
 * With the platform database unreachable no binding can be read: every request under /endpoints/
 * is answered 503 with Retry-After and the protective headers, and no script runs.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../shared/db/index.js';
import { endpointMetrics, EndpointRecords, EndpointRequests } from '../../shared/endpoints/index.js';
import { noopAuditLog } from '../../shared/audit/index.js';
import { silentLogger } from '../../shared/logging/index.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('database away', () => {
  it('answers 503 with Retry-After and the protective headers, running nothing', async () => {
    const db = createPool({ dsn: `postgres://postgres@127.0.0.1:${await closedPort()}/none?connect_timeout=2`, maxOpenConns: 1 });
    const log = silentLogger();
    let ran = false;
    const requests = new EndpointRequests({
      db,
      runner: {
        async execute() {
          ran = true;
          throw new Error('not reached');
        },
      },
      authenticate: async () => ({ ok: false, status: 401, error: 'unauthorized' }),
      records: new EndpointRecords({ db, audit: noopAuditLog(), log }),
      metrics: endpointMetrics(new Registry()),
      log,
    });
    try {
      const answer = await requests.answer({
        name: 'anything',
        rest: '',
        method: 'GET',
        path: '/endpoints/anything',
        rawQuery: '',
        headers: {},
        rawHeaders: [],
        ownOrigin: undefined,
        readBody: async () => new Uint8Array(),
      });
      expect(answer.status).toBe(503);
      expect(answer.headers).toMatchObject({ 'retry-after': '5', 'content-security-policy': "default-src 'none'; sandbox", 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
      expect(JSON.parse(answer.body.toString())).toMatchObject({ error: 'unavailable' });
      expect(ran).toBe(false);
    } finally {
      await db.end();
    }
  });
});
