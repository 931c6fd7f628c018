/**
 * `notifications/resources/list_changed` under a burst: 1,000 files written into the analyst
 * persona's library (as a bulk upload does, one write per file, a few at a time) reach a session
 * whose caller lists that library as a bounded number of notifications — at most one per
 * `listChangedIntervalMs` for as long as the burst lasts — and never reach a
 * session whose caller cannot see the files. Real api, service, Postgres, LISTEN feed, the real
 * window and interval, SDK clients over Streamable HTTP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createPool, migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { resourceActor, type Library } from '../../shared/resources/index.js';
import { listChangedIntervalMs, type NotificationTarget } from '../../api/mcp/notifications.js';
import { testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { callerOf, type User } from './resources-mcp-fixtures.js';
import { configYaml, connect, startReplica, type Replica, type Session } from './mcp-notify-fixtures.js';

const burst = 1000;
const inFlight = 8;

describe('resources list_changed under a 1,000-file burst', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  let replica: Replica;
  const clients: Client[] = [];
  let alice: Session;
  let bob: Session;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await mkdtemp(join(tmpdir(), 'notify-burst-'));
    const migrations = createPool({ dsn: database.dsn, maxOpenConns: 1 });
    await migrate(migrations, { log: silentLogger() });
    await migrations.end();
    replica = await startReplica(testConfig(configYaml(root)), database.dsn);
    // Alice belongs to the analyst persona; Bob (staff only) cannot see its files.
    alice = await connect(replica.api, 'alice', clients);
    bob = await connect(replica.api, 'bob', clients);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await replica?.stop();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const rootActor = () => resourceActor(callerOf('root'), { config: testConfig(configYaml(root)), origin: 'person' });
  async function write(library: Library, name: string): Promise<void> {
    await replica.service.create(rootActor(), {
      library,
      path: 'batch',
      file_name: name,
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(name)]),
    });
  }

  /** Everything the replica sent `user`'s session so far has arrived: it answered a ping sent after it. */
  async function drained(user: User): Promise<void> {
    const servers = [...replica.surface.connected!].filter((t): t is NotificationTarget & Server => t instanceof Server && t.caller()?.subject === `apikey:${user}`);
    expect(servers.length).toBe(1);
    await Promise.all(servers.map((server) => server.ping()));
  }

  it('reaches the member a bounded number of times (at most one per interval) and the non-member never', async () => {
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < burst) await write({ kind: 'persona', name: 'analyst' }, `file-${next++}.txt`);
      }),
    );
    // A change both see, written after the burst: once Bob has its notification, every window
    // holding a burst change has been sent (the marker's window is the last, or the same).
    await write({ kind: 'global' }, 'marker.txt');
    await bob.received(1);
    const elapsed = performance.now() - started;
    await Promise.all([drained('alice'), drained('bob')]);

    expect(bob.seen, 'Bob cannot see the analyst files: only the marker reached him').toBe(1);
    // Sends are sequential and at least listChangedIntervalMs apart (a few milliseconds of timer
    // slack allowed): the burst's duration bounds how many a session can get.
    const bound = Math.floor(elapsed / (listChangedIntervalMs - 5)) + 1;
    console.info(`${burst} writes in ${Math.round(elapsed)} ms: ${alice.seen} list_changed to the member (bound ${bound}), ${bob.seen} to the non-member`);
    expect(alice.seen).toBeGreaterThanOrEqual(1);
    expect(alice.seen).toBeLessThanOrEqual(bound);
    expect(alice.seen).toBeLessThan(burst / 20);
  }, 120_000);
});
