/**
 * Issue 9, item 7 (audit): rows of the production api role (cli/services.ts) against the
 * machine's PostgreSQL, called through a real MCP client.
 *  - an `objstore_put_object` body is stored as its size and SHA-256, never the body; so is
 *    `manage_resource` content — by the tools' declared content arguments, also on refusals;
 *  - calls refused for invalid arguments are audited (`error`, the validation message, arguments
 *    redacted as usual).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { openDatabase, startApiRole } from '../../cli/services.js';
import type { RunningApi } from '../../api/start.js';
import { createTestDatabase } from '../support/postgres.js';
import { connectMcp, testConfig } from '../support/api.js';

const BODY = 'id,secret_salary\n1,SENSITIVE-ROW-0001\n';
const digest = (text: string) => ({ size: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') });

interface Row {
  tool: string;
  auth_type: string;
  outcome: string;
  error_text: string | null;
  parameters: Record<string, unknown>;
}

describe('issue 9 item 7: audit rows hold no content and record invalid calls', () => {
  let dir: string;
  let database: { dsn: string; drop(): Promise<void> };
  let db: Db;
  let api: RunningApi;
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = await connectMcp(api.url, key);
    clients.push(client);
    return client;
  }

  /** The audit rows of `tool` once `count` of them are written (the writer batches asynchronously). */
  async function rowsOf(tool: string, count: number): Promise<Row[]> {
    const read = async () => (await db.query<Row>('SELECT * FROM audit_log WHERE tool = $1 ORDER BY occurred_at, id', [tool])).rows;
    await expect.poll(async () => (await read()).length, { timeout: 10_000 }).toBe(count);
    return read();
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-security-'));
    database = await createTestDatabase();
    const config = testConfig(`
data_dir: ${JSON.stringify(dir)}
server:
  address: "127.0.0.1:0"
  shutdown: { pre_shutdown_delay: 0s, grace_period: 5s }
database:
  dsn: ${JSON.stringify(database.dsn)}
audit:
  enabled: true
  log_tool_calls: true
auth:
  api_keys:
    enabled: true
    keys:
      - { key: writer-key-0123456789, name: writer, roles: [writer] }
      - { key: reader-key-0123456789, name: reader, roles: [reader] }
personas:
  definitions:
    writer: { roles: [writer] }
    reader: { roles: [reader], tools: { allow: ["objstore_get_*"] } }
toolkits:
  objstore:
    local:
      driver: filesystem
      root: ${JSON.stringify(join(dir, 'objects'))}
`);
    const log = silentLogger();
    // As `platform serve` does: the pool migrated, then the api role over it.
    db = (await openDatabase(config, log))!;
    api = await startApiRole({ config, log, db, seedBuckets: { local: ['data'] } });
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await api?.stop();
    await db?.end();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('an objstore_put_object body is stored as its size and SHA-256, on success and on refusal', async () => {
    const writer = await connect('writer-key-0123456789');
    const written = await writer.callTool({ name: 'objstore_put_object', arguments: { bucket: 'data', key: 'pay.csv', body: BODY } });
    expect(written.isError).toBeFalsy();
    const base64 = Buffer.from(BODY).toString('base64');
    expect((await writer.callTool({ name: 'objstore_put_object', arguments: { bucket: 'data', key: 'pay.bin', body: base64, is_base64: true } })).isError).toBeFalsy();
    // Refused by the persona: the tool is still known, so its body is still only digested.
    const reader = await connect('reader-key-0123456789');
    await expect(reader.callTool({ name: 'objstore_put_object', arguments: { bucket: 'data', key: 'x.csv', body: BODY } })).rejects.toMatchObject({ code: -32602 });

    const rows = await rowsOf('objstore_put_object', 3);
    expect(rows.map((r) => [r.auth_type, r.outcome])).toEqual([
      ['apikey', 'ok'],
      ['apikey', 'ok'],
      ['apikey', 'denied'],
    ]);
    expect(rows[0]!.parameters).toEqual({ bucket: 'data', key: 'pay.csv', body: digest(BODY) });
    expect(rows[1]!.parameters).toEqual({ bucket: 'data', key: 'pay.bin', body: digest(base64), is_base64: true });
    expect(rows[2]!.parameters).toEqual({ bucket: 'data', key: 'x.csv', body: digest(BODY) });
    for (const row of rows) expect(JSON.stringify(row)).not.toContain('SENSITIVE-ROW');
  });

  it('manage_resource content is stored as its size and SHA-256', async () => {
    const writer = await connect('writer-key-0123456789');
    await writer.callTool({ name: 'manage_resource', arguments: { action: 'create', path: '', filename: 'pay.csv', content: BODY } });
    const [row] = await rowsOf('manage_resource', 1);
    expect(row!.parameters).toMatchObject({ action: 'create', filename: 'pay.csv', content: digest(BODY) });
    expect(JSON.stringify(row)).not.toContain('SENSITIVE-ROW');
  });

  it('a call refused for invalid arguments is audited as error with the validation message, arguments redacted', async () => {
    const writer = await connect('writer-key-0123456789');
    const refused = await writer.callTool({
      name: 'objstore_get_object',
      arguments: { bucket: 'data', key: 42, api_key: 'LEAKED-KEY-0001', note: `see https://h/x?X-Amz-Signature=LEAKED-SIG-0001` },
    });
    expect(refused.isError).toBe(true);
    const message = (refused.content as Array<{ text: string }>)[0]!.text;
    expect(message).toMatch(/^Invalid arguments for objstore_get_object: key:/);

    const badPut = await writer.callTool({ name: 'objstore_put_object', arguments: { key: 'no-bucket.csv', body: BODY } });
    expect(badPut.isError).toBe(true);

    const [row] = await rowsOf('objstore_get_object', 1);
    expect(row).toMatchObject({ auth_type: 'apikey', outcome: 'error', error_text: message });
    expect(row!.parameters).toEqual({ bucket: 'data', key: 42, api_key: '[redacted]', note: 'see https://h/x?X-Amz-Signature=[redacted]' });

    const puts = await rowsOf('objstore_put_object', 4);
    expect(puts[3]).toMatchObject({ outcome: 'error', parameters: { key: 'no-bucket.csv', body: digest(BODY) } });
    expect(puts[3]!.error_text).toMatch(/^Invalid arguments for objstore_put_object: bucket:/);
    expect(JSON.stringify(puts[3])).not.toContain('SENSITIVE-ROW');
  });
});
