/**
 * list_changed for database sessions (`sessions.store: database`): a session's requests may go to
 * any replica, and its standalone GET stream lives on the replica it connected to. A resource
 * created through replica A reaches the session's stream on replica B, scoped to the caller of
 * that GET; the event carries an id and is replayed after a dropped stream.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { resourceActor, type Library } from '../../shared/resources/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { openSession, sseEvents } from '../support/mcp-wire.js';
import { callerOf, keys, type User } from './resources-mcp-fixtures.js';
import { configYaml, recordFeed, startReplica, type Replica } from './mcp-notify-fixtures.js';

describe('resources list_changed on the standalone streams of database sessions', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  let config: PlatformConfig;
  let a: Replica;
  let b: Replica;
  let feedB: ReturnType<typeof recordFeed>;
  /** Replica B's coalescing windows, each waiting for the test to close it. */
  const heldB: Array<() => void> = [];
  let files = 0;

  async function createThroughA(user: User, library: Library): Promise<string> {
    const made = await a.service.create(resourceActor(callerOf(user), { config, origin: 'person' }), {
      library,
      path: 'notify',
      file_name: `file-${++files}.txt`,
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(`file ${files}`)]),
    });
    await feedB.hasChange(made.resource.id);
    heldB.shift()!();
    return made.resource.id;
  }

  /** A session opened through A whose standalone stream is connected to B. */
  async function streamOnB(user: User) {
    const session = await openSession(a.api.url, { token: keys[user] });
    const controller = new AbortController();
    const res = await fetch(`${b.api.url}/mcp`, { method: 'GET', headers: session.headers({ accept: 'text/event-stream' }), signal: controller.signal });
    expect(res.status).toBe(200);
    const events = sseEvents(res);
    const priming = await events.next();
    expect(priming?.data).toBe('');
    return { session, events, priming: priming!, stop: () => controller.abort() };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await mkdtemp(join(tmpdir(), 'notify-db-sessions-'));
    config = testConfig(configYaml(root, { store: 'database', dsn: database.dsn }));
    const migrations = createPool({ dsn: database.dsn, maxOpenConns: 1 });
    await migrate(migrations, { log: silentLogger() });
    await migrations.end();
    a = await startReplica(config, database.dsn);
    b = await startReplica(config, database.dsn, (send) => heldB.push(send));
    feedB = recordFeed(b.feed);
  }, 60_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a resource created through replica A reaches the session stream on replica B, with an event id', async () => {
    const bob = await streamOnB('bob');
    await createThroughA('root', { kind: 'global' });
    const event = await bob.events.next();
    expect(JSON.parse(event!.data)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    expect(event!.id).toBe(`${bob.priming.id!.split('.')[0]}.1`);
    bob.stop();
  });

  it('a session whose caller cannot see the change is not notified; the next visible change is the first it gets', async () => {
    const bob = await streamOnB('bob');
    const stream = bob.priming.id!.split('.')[0];
    await createThroughA('root', { kind: 'persona', name: 'staff' });
    // Alice's own library: not Bob's.
    await createThroughA('alice', { kind: 'person', subject: 'apikey:alice' });
    await createThroughA('root', { kind: 'global' });
    // Three changes, two visible to Bob: his stream holds exactly two events, numbered 1 and 2.
    const seen = [await bob.events.next(), await bob.events.next()];
    expect(seen.map((e) => e!.id)).toEqual([`${stream}.1`, `${stream}.2`]);
    expect(seen.map((e) => JSON.parse(e!.data).method)).toEqual(['notifications/resources/list_changed', 'notifications/resources/list_changed']);
    bob.stop();
  });
});
