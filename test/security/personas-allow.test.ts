/**
 * Issue 9, item 5: a persona with `tools.allow: []` allows nothing. The global listing rule's "no
 * patterns, everything visible" must not apply to personas, which gate tools/call. Through a real
 * MCP client over Streamable HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { connectMcp, startTestApi, testConfig } from '../support/api.js';
import type { RunningApi } from '../../api/start.js';

const config = `
server:
  address: "127.0.0.1:0"
  shutdown: { pre_shutdown_delay: 0s }
auth:
  api_keys:
    enabled: true
    keys:
      - { key: locked-key-0123456789, name: locked, roles: [locked] }
      - { key: open-key-0123456789, name: open, roles: [open] }
personas:
  definitions:
    locked: { roles: [locked], tools: { allow: [] } }
    open: { roles: [open] }
`;

const sqlQuery = defineTool({ name: 'sql_query', toolkit: 'sql', description: 'query', input: z.object({}), handler: async () => textResult('ran') });

describe('issue 9 item 5: persona tools.allow: [] allows nothing', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await startTestApi({ config: testConfig(config), tools: [sqlQuery] });
  });
  afterAll(async () => api?.stop());

  it('lists no tool and refuses every call', async () => {
    const client = await connectMcp(api.url, 'locked-key-0123456789');
    try {
      expect((await client.listTools()).tools).toEqual([]);
      for (const name of ['sql_query', 'platform_info']) {
        await expect(client.callTool({ name, arguments: {} })).rejects.toMatchObject({ code: -32602, message: `MCP error -32602: Unknown tool: ${name}` });
      }
    } finally {
      await client.close();
    }
  });

  it('an absent allow still means every tool', async () => {
    const client = await connectMcp(api.url, 'open-key-0123456789');
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['platform_info', 'sql_query']);
      expect((await client.callTool({ name: 'sql_query', arguments: {} })).content).toEqual([{ type: 'text', text: 'ran' }]);
    } finally {
      await client.close();
    }
  });
});
