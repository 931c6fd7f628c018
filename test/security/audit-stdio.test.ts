/**
 * Issue 9, item 7: `platform stdio` audits tool calls when a database is configured
 * (`database.dsn` + `audit.enabled` + `audit.log_tool_calls`), like the api role: the real
 * command spawned with a real MCP client, the rows read from the machine's PostgreSQL after the
 * process exited — whether the client closed stdin or stopped it with a signal.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliEnv, platformBin, repoRoot } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

interface Row {
  tool: string;
  auth_type: string;
  outcome: string;
  parameters: unknown;
}

describe('issue 9 item 7: platform stdio audits tool calls', () => {
  let dir: string;
  let database: { dsn: string; drop(): Promise<void> };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stdio-audit-'));
    database = await createTestDatabase();
  });

  afterEach(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** `platform stdio` with audit on against the test database; `exited` resolves when the process is gone. */
  async function startStdio(): Promise<{ client: Client; transport: StdioClientTransport; exited: Promise<void> }> {
    const configFile = join(dir, 'platform.yaml');
    await writeFile(
      configFile,
      `
data_dir: ${JSON.stringify(join(dir, 'data'))}
database:
  dsn: ${JSON.stringify(database.dsn)}
audit:
  enabled: true
  log_tool_calls: true
`,
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [platformBin, 'stdio', '--config', configFile],
      cwd: repoRoot,
      env: cliEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-audit-test', version: '1' });
    await client.connect(transport);
    const exited = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    return { client, transport, exited };
  }

  async function auditRows(): Promise<Row[]> {
    const reader = new pg.Client({ connectionString: database.dsn });
    await reader.connect();
    try {
      return (await reader.query<Row>('SELECT tool, auth_type, outcome, parameters FROM audit_log ORDER BY occurred_at, id')).rows;
    } finally {
      await reader.end();
    }
  }

  it('writes one row per call, refused ones included, with auth type local', async () => {
    const { client, exited } = await startStdio();
    expect((await client.callTool({ name: 'platform_info', arguments: {} })).isError).toBeFalsy();
    await expect(client.callTool({ name: 'no_such_tool', arguments: { password: 'pw-0001' } })).rejects.toMatchObject({ code: -32602 });
    // Closing stdin ends the session; the process writes its queued rows before it exits.
    await client.close();
    await exited;
    expect(await auditRows()).toEqual([
      { tool: 'platform_info', auth_type: 'local', outcome: 'ok', parameters: {} },
      { tool: 'no_such_tool', auth_type: 'local', outcome: 'denied', parameters: { password: '[redacted]' } },
    ]);
  });

  it('writes the queued rows when stopped by SIGTERM', async () => {
    const { client, transport, exited } = await startStdio();
    expect((await client.callTool({ name: 'platform_info', arguments: {} })).isError).toBeFalsy();
    process.kill(transport.pid!, 'SIGTERM');
    await exited;
    expect(await auditRows()).toEqual([{ tool: 'platform_info', auth_type: 'local', outcome: 'ok', parameters: {} }]);
  });
});
