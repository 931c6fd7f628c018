/**
 * Table registration and the export tools through the platform's own api role, as `platform serve`
 * composes them (cli/services.ts): sql_export writes a file, manage_table registers it (following),
 * a second sql_export to the same path revises the file and reports the table's move in its
 * `table_changes`, and sql_query reads the new rows through the table. Each piece has its own
 * tests; this one proves the wiring.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { callToolJson, connectMcp, testConfig } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';

const ALICE = 'alice-key-0123456789';

let dir: string;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
let api: RunningApiRole;
let mcp: McpClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tables-roles-'));
  database = await createTestDatabase();
  const config = testConfig(`
data_dir: ${JSON.stringify(dir)}
server: { address: "127.0.0.1:0", transport: http, shutdown: { pre_shutdown_delay: 0s, grace_period: 5s } }
database: { dsn: ${JSON.stringify(database.dsn)} }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${ALICE}, name: alice, roles: [staff] }
personas:
  definitions:
    staff: { roles: [staff], priority: 1, tools: { allow: ["manage_*", "sql_*"] } }
elicitation:
  enabled: true
  cost_estimation: { enabled: true, row_threshold: 5000 }
toolkits:
  sql:
    local: { engine: duckdb }
  objstore:
    local: { driver: filesystem, root: ${JSON.stringify(join(dir, 'objects'))} }
`);
  const log = silentLogger();
  db = (await openDatabase(config, log))!;
  api = await startApiRole({ config, log, db });
  mcp = await connectMcp(api.url, ALICE);
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await api?.stop();
  await db?.end();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('exports and tables through the api role', () => {
  it('sql_export creates the file; a registered table follows the next export of the same path and says so', async () => {
    const exportRows = (n: number) =>
      callToolJson(mcp, 'sql_export', { sql: `SELECT range AS id, 'city-' || range AS city FROM range(${n})`, format: 'csv', resource: { path: 'reports', filename: 'cities.csv' } });
    const first = await exportRows(3);
    expect(first.isError, first.text).toBe(false);
    const reference = (first.body.resource as { reference: string }).reference;
    expect(first.body.table_changes).toEqual([]);

    const registered = await callToolJson(mcp, 'manage_table', { action: 'register', reference, connection: 'local', table_name: 'cities' });
    expect(registered.isError, registered.text).toBe(false);
    const table = (registered.body.table as { table: string; catalog?: string; schema?: string; follow: boolean; version: number });
    expect(table).toMatchObject({ follow: true, version: 1 });

    const second = await exportRows(5);
    expect(second.isError, second.text).toBe(false);
    expect(second.body.resource).toMatchObject({ reference, version: 2 });
    expect(second.body.table_changes).toEqual([expect.objectContaining({ table: table.table })]);

    const listed = await callToolJson(mcp, 'manage_table', { action: 'list' });
    expect(JSON.stringify(listed.body)).toContain('"version":2');
    const counted = await callToolJson(mcp, 'sql_query', { connection: 'local', sql: `SELECT count(*) AS n FROM scratch.${table.table}` });
    expect(counted.isError, counted.text).toBe(false);
    expect(counted.text).toContain('5');
  });

  it('sql_export asks before a costly read as sql_query does; declined, nothing is read or written', async () => {
    const asked: string[] = [];
    const client = new McpClient({ name: 'tables-roles-elicit', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => (asked.push(request.params.message), { action: 'decline' }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ALICE}` } } }));
    try {
      const result = (await client.callTool({ name: 'sql_export', arguments: { sql: 'SELECT range AS n FROM range(100000)', format: 'csv', resource: { path: 'reports', filename: 'big.csv' } } })) as CallToolResult;
      expect(asked).toEqual([expect.stringMatching(/^This query will scan approximately [\d,]+ rows, above the confirmation threshold of 5,000 rows/)]);
      expect((result.content[0] as { text: string }).text).toMatch(/^The user did not approve running sql_export, so it was not executed/);
      expect((await db.query(`SELECT 1 FROM resources WHERE file_name = 'big.csv'`)).rowCount).toBe(0);
    } finally {
      await client.close();
    }
  });
});
