/**
 * Two api replicas on real Trino and MinIO (issue 14, acceptance): each replica is its own api
 * with its own toolkits and webhook services (so its own replica id), on one database and one
 * store. An event acknowledged by one replica is returned by `SELECT … FROM webhook_<source>`
 * through MCP sql_query on the very next call — on the other replica — with
 * `json_extract_scalar(payload, '$.field')`; both replicas ingesting the same source write
 * segments of their own, and the view shows the union, each event once.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createWebhookServices, removeWebhookSource, type WebhookServices } from '../../cli/webhooks.js';
import { createResourceService } from '../../shared/resources/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import type { RunningApi } from '../../api/start.js';
import { adminApiYaml, connectMcp, startTestApi } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { rigFrom, trinoPlatformYaml, type ScratchRig } from '../support/scratch-rigs.js';
import { ADMIN_KEY, createHmacSource, postEvent, rawSegments, startSenders } from './webhook-durability-fixtures.js';

interface Replica {
  rig: ScratchRig;
  api: RunningApi;
  mcp: Client;
  webhooks: WebhookServices;
}

const id = randomBytes(4).toString('hex');
const schema = `s${id}`;
const name = `orders-${id}`;
let database: { dsn: string; drop(): Promise<void> };
let db: Db;
const replicas: Replica[] = [];
let view: string;

async function startReplica(yaml: string): Promise<Replica> {
  const rig = await rigFrom(yaml, 'cluster', async () => undefined);
  try {
    const metrics = createMetrics({ defaultMetrics: false });
    const log = silentLogger();
    const webhooks = await createWebhookServices({ config: rig.config, db, objstore: rig.objstore, sql: rig.sql, metrics, log });
    const api = await startTestApi({ config: rig.config, db, webhooks, metrics, tools: rig.sql.tools, log });
    return { rig, api, mcp: await connectMcp(api.url, ADMIN_KEY), webhooks };
  } catch (error) {
    await rig.close();
    throw error;
  }
}

async function query(replica: Replica, sql: string): Promise<Array<Record<string, unknown>>> {
  const result = await replica.mcp.callTool({ name: 'sql_query', arguments: { sql, limit: 10_000 } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return (result.structuredContent as { rows: Array<Record<string, unknown>> }).rows;
}

describe('two api replicas ingesting one source on Trino and MinIO', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPool({ dsn: database.dsn, maxOpenConns: 8, applicationName: 'webhook-replicas' });
    await migrate(db, { log: silentLogger() });
    const yaml = adminApiYaml({
      adminKey: ADMIN_KEY,
      extra: await trinoPlatformYaml({ bucketPrefix: `wh${id}-`, schema }),
    });
    replicas.push(await startReplica(yaml));
    replicas.push(await startReplica(yaml));
    const source = await createHmacSource(replicas[0]!.api.url, { name, connection: 'cluster', config: { event_id_path: '$.id', flush_max_interval_ms: 20 } });
    view = `scratch.${schema}.${source.table}`;
  });

  afterAll(async () => {
    // The source goes with its tables, so the shared Trino keeps no catalog entries of this file:
    // the DELETE marks it, and its removal (a worker's workflow elsewhere) runs here directly.
    const first = replicas[0];
    if (view && first) {
      const deleted = await fetch(`${first.api.url}/api/v1/admin/webhooks/sources/${name}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      const source = (await deleted.json()) as { id: string; connection: string; config: { persona: string } };
      const resources = createResourceService({ config: first.rig.config, db, objstore: first.rig.objstore, log: silentLogger() });
      await removeWebhookSource({ webhooks: first.webhooks, resources }, { id: source.id, name, connection: source.connection, persona: source.config.persona });
    }
    for (const replica of replicas) {
      await replica.mcp.close().catch(() => undefined);
      await replica.api.stop();
      await replica.rig.close();
    }
    await db?.end();
    await database?.drop();
  });

  it('an acknowledged event is returned on the next sql_query call, on the other replica, and json_extract_scalar reads its payload', async () => {
    const [a, b] = [replicas[0]!, replicas[1]!];
    expect(await postEvent(`${a.api.url}/hooks/${name}`, { id: 'first', order: { status: 'paid', total: 12.5 } })).toBe(202);
    const rows = await query(
      b,
      `SELECT event_id, json_extract_scalar(payload, '$.order.status') AS status, json_extract_scalar(payload, '$.order.total') AS total FROM ${view} WHERE event_id = 'first'`,
    );
    expect(rows).toEqual([{ event_id: 'first', status: 'paid', total: '12.5' }]);
  });

  it('both replicas write segments of their own and the view shows the union, each acknowledged event once', async () => {
    const urls = replicas.map((r) => `${r.api.url}/hooks/${name}`);
    // Even senders post to the first replica, odd ones to the second.
    const senders = startSenders({ count: 8, prefix: 'union', target: (sender) => urls[sender % 2]! });
    await senders.ackedAtLeast(200);
    senders.stop();
    await senders.done;
    expect(senders.refused).toEqual(new Map());
    expect(senders.unanswered()).toBe(0);

    const rows = await query(replicas[1]!, `SELECT event_id, replica FROM ${view} WHERE event_id LIKE 'union-%'`);
    expect(rows.map((r) => String(r.event_id)).sort()).toEqual([...senders.acked].sort());
    // Each event carries the replica that took it; the two replicas are distinct.
    const replicaOf = (eventId: string) => Number(eventId.split('-')[1]) % 2;
    const ids = [new Set<string>(), new Set<string>()];
    for (const row of rows) ids[replicaOf(String(row.event_id))]!.add(String(row.replica));
    expect(ids.map((s) => s.size)).toEqual([1, 1]);
    const [first, second] = ids.map((s) => [...s][0]!);
    expect(first).not.toBe(second);

    // Distinct segments: each written by one of the two replicas, both wrote some.
    const { storage } = replicas[0]!.rig;
    const segments = [...(await rawSegments(storage.connection.store, storage.bucket, name)).values()];
    const writers = new Set(segments.map((s) => s.writer.slice(0, s.writer.lastIndexOf('-'))));
    expect([...writers].sort()).toEqual([first, second].sort());
  });
});
