/**
 * `notifications/resources/list_changed` across replicas: two api replicas in this process share
 * one Postgres database and one object store, each with its own in-memory MCP sessions, its own
 * resource service and its own LISTEN connection. Changes made through replica A reach the SDK
 * client sessions connected to replica B whose callers list the changed library — and only those —
 * once per coalescing window; a move notifies the library it left; a terminated LISTEN connection
 * comes back and tells every session changes may have been missed.
 *
 * Replica B's coalescing window is held by the test (`scheduleListChanged`), so each step knows
 * exactly which batch it releases; a server-to-client ping over the session's standalone stream
 * (which carries list_changed too, in order) proves nothing further is on its way.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { createPool, migrate } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { resourceActor, type Library, type ResourceView } from '../../shared/resources/index.js';
import type { NotificationTarget } from '../../api/mcp/notifications.js';
import { testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { callerOf, manage, type User } from './resources-mcp-fixtures.js';
import { configYaml, connect, recordFeed, startReplica, type Replica, type Session } from './mcp-notify-fixtures.js';

describe('resources list_changed across replicas (Postgres LISTEN/NOTIFY)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let root: string;
  let config: PlatformConfig;
  let a: Replica;
  let b: Replica;
  let feedB: ReturnType<typeof recordFeed>;
  const clients: Client[] = [];
  /** Replica B's coalescing windows, each waiting for the test to close it. */
  const heldB: Array<() => void> = [];
  let bobOnB: Session;
  let aliceOnB: Session;
  let aliceOnA: Session;
  let rootOnA: Session;

  /** Sends replica B's pending batch; one window at a time, each in an event-loop turn of its own. */
  async function releaseB(): Promise<void> {
    expect(heldB.length).toBe(1);
    heldB.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Everything replica B sent `user`'s sessions so far has arrived: they answered a ping sent after it. */
  async function drained(user: User): Promise<void> {
    const servers = [...b.surface.connected!].filter((t): t is NotificationTarget & Server => t instanceof Server && t.caller()?.subject === `apikey:${user}`);
    expect(servers.length).toBeGreaterThan(0);
    await Promise.all(servers.map((server) => server.ping()));
  }

  const person = (user: User) => resourceActor(callerOf(user), { config, origin: 'person' });
  let files = 0;
  /** A portal write through replica A (its service), as a person. */
  async function createThroughA(user: User, library: Library): Promise<ResourceView> {
    const made = await a.service.create(person(user), {
      library,
      path: 'notify',
      file_name: `file-${++files}.txt`,
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(`file ${files}`)]),
    });
    return made.resource;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await mkdtemp(join(tmpdir(), 'notify-replicas-'));
    config = testConfig(configYaml(root));
    const migrations = createPool({ dsn: database.dsn, maxOpenConns: 1 });
    await migrate(migrations, { log: silentLogger() });
    await migrations.end();
    a = await startReplica(config, database.dsn);
    b = await startReplica(config, database.dsn, (send) => heldB.push(send));
    feedB = recordFeed(b.feed);
    bobOnB = await connect(b.api, 'bob', clients);
    aliceOnB = await connect(b.api, 'alice', clients);
    aliceOnA = await connect(a.api, 'alice', clients);
    rootOnA = await connect(a.api, 'root', clients);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await a?.stop();
    await b?.stop();
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a resource created through replica A (manage_resource) notifies a session connected to replica B', async () => {
    const before = bobOnB.seen;
    const made = await manage(rootOnA.client, { action: 'create', library: 'global', path: 'shared', filename: 'handbook.md', content: '# hi' });
    expect(made.isError).toBe(false);
    await feedB.hasChange(made.body.resource.id);
    await releaseB();
    await bobOnB.received(before + 1);
  });

  it('a session on B whose caller cannot see the changed library is not notified; one whose caller can is', async () => {
    const [bob, alice] = [bobOnB.seen, aliceOnB.seen];
    // Alice's own library, written through her session on A: Bob neither owns nor lists it.
    const made = await manage(aliceOnA.client, { action: 'create', path: 'private', filename: 'diary.md', content: 'mine' });
    expect(made.isError).toBe(false);
    expect(made.body.resource.library).toBe('person:apikey:alice');
    await feedB.hasChange(made.body.resource.id);
    await releaseB();
    await aliceOnB.received(alice + 1);
    await drained('bob');
    expect(bobOnB.seen).toBe(bob);
  });

  it('a burst of writes through A reaches each session on B as one notification', async () => {
    const [bob, alice] = [bobOnB.seen, aliceOnB.seen];
    const burst = 5;
    const from = feedB.notices.length;
    for (let i = 0; i < burst; i++) await createThroughA('root', { kind: 'global' });
    await feedB.hasNotices(from + burst);
    // Five changes, one window: B's notifier scheduled a single send for all of them.
    await releaseB();
    await Promise.all([bobOnB.received(bob + 1), aliceOnB.received(alice + 1)]);
    await Promise.all([drained('bob'), drained('alice')]);
    expect([bobOnB.seen, aliceOnB.seen]).toEqual([bob + 1, alice + 1]);
  });

  it('a move out of a library notifies members of the library it left', async () => {
    const file = await createThroughA('root', { kind: 'persona', name: 'staff' });
    await feedB.hasChange(file.id);
    await releaseB();
    const [bob, alice] = [bobOnB.seen, aliceOnB.seen];
    const from = feedB.notices.length;
    // From staff (Bob's persona) to analyst (not Bob's): the file leaves Bob's list.
    const moved = await a.service.update(person('root'), file.id, { library: { kind: 'persona', name: 'analyst' } });
    expect(moved.library).toBe('persona:analyst');
    await feedB.hasNotices(from + 1);
    expect(feedB.notices.at(-1)).toEqual({ kind: 'updated', id: file.id, libraries: ['persona:analyst', 'persona:staff'] });
    await releaseB();
    await Promise.all([bobOnB.received(bob + 1), aliceOnB.received(alice + 1)]);
    const listed = await bobOnB.client.listResources();
    expect(listed.resources.map((r) => r.uri)).not.toContain(file.uri);
  });

  it('a change made on the session’s own replica is delivered once: its echo over NOTIFY is dropped', async () => {
    const feedA = recordFeed(a.feed);
    const mine = await createThroughA('root', { kind: 'global' });
    // Announced in process when the write returns.
    expect(feedA.notices.map((n) => n.id)).toEqual([mine.id]);
    const theirs = await b.service.create(person('root'), {
      library: { kind: 'global' },
      path: 'notify',
      file_name: 'from-b.txt',
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from('b')]),
    });
    // Postgres delivers notifications in commit order: A's echo came before B's change, or never.
    await feedA.hasChange(theirs.resource.id);
    expect(feedA.notices.map((n) => n.id)).toEqual([mine.id, theirs.resource.id]);
    await feedB.hasChange(theirs.resource.id);
    await feedB.hasChange(mine.id);
    await releaseB();
  });

  it('after its LISTEN connection is terminated, B tells every session changes may have been missed, then delivers later changes', async () => {
    const missed = feedB.missed;
    const admin = createPool({ dsn: database.dsn, maxOpenConns: 1 });
    try {
      const result = await admin.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'platform-resource-changes'`,
      );
      // Both replicas' LISTEN connections.
      expect(result.rows.map((r) => r.terminated)).toEqual([true, true]);
    } finally {
      await admin.end();
    }
    await feedB.hasMissed(missed + 1);
    let [bob, alice] = [bobOnB.seen, aliceOnB.seen];
    await releaseB();
    await Promise.all([bobOnB.received(bob + 1), aliceOnB.received(alice + 1)]);

    [bob, alice] = [bobOnB.seen, aliceOnB.seen];
    const later = await createThroughA('root', { kind: 'global' });
    await feedB.hasChange(later.id);
    await releaseB();
    await Promise.all([bobOnB.received(bob + 1), aliceOnB.received(alice + 1)]);
  });
});
