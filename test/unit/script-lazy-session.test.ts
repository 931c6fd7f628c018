/**
 * A run's MCP session opens on its first platform call (shared/scripts/runs/session.ts): a handler
 * that calls no platform.* tool pays nothing for it, one that calls several shares one session.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { lazyPlatformSession, type McpServerFor } from '../../shared/scripts/index.js';

/** A server answering every tool call with the session it was built for; counts the servers built. */
function countingServers(): { serverFor: McpServerFor; built: string[] } {
  const built: string[] = [];
  const serverFor: McpServerFor = (_caller, sessionId) => {
    built.push(sessionId);
    const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `${request.params.name} on ${sessionId}` }] }));
    return server;
  };
  return { serverFor, built };
}

const caller = { subject: 'script:x', roles: [], authType: 'script' as const };

describe('lazyPlatformSession', () => {
  it('opens no session when nothing is called', async () => {
    const { serverFor, built } = countingServers();
    const session = lazyPlatformSession(serverFor, caller, 'endpoint:x:1', 'handle');
    await session.close();
    expect(built).toEqual([]);
  });

  it('opens one session on the first call and keeps it for the next ones', async () => {
    const { serverFor, built } = countingServers();
    const session = lazyPlatformSession(serverFor, caller, 'endpoint:x:2', 'handle');
    const answers = await Promise.all([session.client.callTool({ name: 'a', arguments: {} }), session.client.callTool({ name: 'b', arguments: {} })]);
    expect(answers.map((a) => (a.content as { text: string }[])[0]!.text)).toEqual(['a on endpoint:x:2', 'b on endpoint:x:2']);
    expect(built).toEqual(['endpoint:x:2']);
    await session.close();
  });
});
