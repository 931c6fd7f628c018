/**
 * `notifications/resources/list_changed` fan-out: a change in the global library made by one
 * client (manage_resource) or at the portal (the service) reaches every OTHER connected session —
 * stateful Streamable HTTP sessions on their standalone GET stream and legacy HTTP+SSE sessions —
 * after a replace, a create, a move and a delete. Real api, ResourceService, Postgres and
 * filesystem object store. Scoping and replicas: mcp-notify-replicas.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resourceActor } from '../../shared/resources/index.js';
import { callerOf, manage, startResourcesMcp, type ResourcesMcp } from './resources-mcp-fixtures.js';

interface Counter {
  readonly count: number;
  /** Resolves once more than `seen` notifications arrived; rejects after `timeoutMs`. */
  after(seen: number, timeoutMs?: number): Promise<void>;
}

function countListChanged(client: Client): Counter {
  let count = 0;
  const waiters = new Set<() => void>();
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    count++;
    for (const w of waiters) w();
  });
  return {
    get count() {
      return count;
    },
    after(seen, timeoutMs = 5000) {
      if (count > seen) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = () => {
          if (count > seen) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no resources list_changed notification within ${timeoutMs} ms (seen ${count})`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
  };
}

describe('resources list_changed reaches every connected session', () => {
  let env: ResourcesMcp;
  let writer: Client;
  let refuser: Client;
  let second: Client;
  let legacy: Client;
  let secondSeen: Counter;
  let legacySeen: Counter;
  let probes = 0;

  /** A portal write (global library, as the administrator), used to learn when streams are live. */
  async function portalWrite(): Promise<void> {
    probes++;
    await env.service.create(resourceActor(callerOf('root'), { config: env.config, origin: 'person' }), {
      library: { kind: 'global' },
      path: 'probes',
      file_name: 'probe.txt',
      if_exists: 'replace',
      origin: 'portal',
      body: Readable.from([Buffer.from(`probe ${probes}`)]),
    });
  }

  beforeAll(async () => {
    env = await startResourcesMcp({ transport: 'sse' });
    // A platform administrator writes to global, which every session lists.
    writer = await env.connect('root', { name: 'writer' });
    refuser = await env.connect('alice', { name: 'refuser' });
    second = await env.connect('bob', { name: 'second' });
    legacy = await env.connectSse('carol');
    secondSeen = countListChanged(second);
    legacySeen = countListChanged(legacy);
    // The Streamable HTTP client opens its standalone GET stream on its own after initialize; a
    // notification sent before that is (by protocol) dropped. Write until one arrives.
    for (let attempt = 0; secondSeen.count === 0; attempt++) {
      if (attempt === 50) throw new Error('the second client never opened its standalone stream');
      await portalWrite();
      await secondSeen.after(0, 100).catch(() => undefined);
    }
    // A later probe may still be on its way: let the streams go quiet before the tests count.
    await new Promise((r) => setTimeout(r, 200));
  }, 60_000);

  afterAll(async () => env?.stop());

  it('after a replace by another client', async () => {
    let [s, l] = [secondSeen.count, legacySeen.count];
    const made = await manage(writer, { action: 'create', library: 'global', filename: 'report.md', content: 'v1' });
    expect(made.isError).toBe(false);
    // Let the create's own notification land first, so the next one counted is the replace's.
    await Promise.all([secondSeen.after(s), legacySeen.after(l)]);
    [s, l] = [secondSeen.count, legacySeen.count];
    const replaced = await manage(writer, { action: 'replace_content', reference: made.body.resource.reference, content: 'v2' });
    expect(replaced.isError).toBe(false);
    await secondSeen.after(s);
    await legacySeen.after(l);
  });

  it('after a create, a move and a delete', async () => {
    let [s, l] = [secondSeen.count, legacySeen.count];
    const made = await manage(writer, { action: 'create', library: 'global', path: 'a', filename: 'x.txt', content: 'x' });
    await Promise.all([secondSeen.after(s), legacySeen.after(l)]);

    [s, l] = [secondSeen.count, legacySeen.count];
    await manage(writer, { action: 'update', reference: made.body.resource.reference, path: 'b' });
    await Promise.all([secondSeen.after(s), legacySeen.after(l)]);

    [s, l] = [secondSeen.count, legacySeen.count];
    const deleted = await manage(writer, { action: 'delete', reference: made.body.resource.reference });
    expect(deleted.isError).toBe(false);
    await Promise.all([secondSeen.after(s), legacySeen.after(l)]);
  });

  it('after a write at the portal (service), with no MCP client involved', async () => {
    const [s, l] = [secondSeen.count, legacySeen.count];
    await portalWrite();
    await Promise.all([secondSeen.after(s), legacySeen.after(l)]);
  });

  it('sends nothing for a refused write, and keeps notifying the others after a session closes', async () => {
    const [s, l] = [secondSeen.count, legacySeen.count];
    const refused = await manage(refuser, { action: 'create', library: 'global', filename: 'nope.txt', content: 'x' });
    expect(refused.isError).toBe(true);
    // A successful write afterwards proves the refused one produced no notification of its own.
    await legacy.close();
    await portalWrite();
    await secondSeen.after(s);
    // Give any stray notification time to arrive, then check exactly one came.
    await new Promise((r) => setTimeout(r, 200));
    expect(secondSeen.count).toBe(s + 1);
    expect(legacySeen.count).toBe(l);
  });
});
