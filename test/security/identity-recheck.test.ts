/**
 * Issue 9 item 4: a session is bound to the identity that opened it, and the caller's roles and
 * persona are resolved again on every request from the credential that request carries. A session
 * opened with roles A+B and continued with a token of the same subject carrying only A loses the
 * B-only tool at once (tools/list and tools/call), and a token with no persona loses prompts and
 * resources too — over Streamable HTTP with memory and database sessions, and over legacy SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, textResult } from '../../shared/mcp-tools/index.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-provider.js';
import { listToolsRaw, startSecurityEnv, type SecurityEnv } from './identity-fixtures.js';

const tool = (name: string) =>
  defineTool({ name, toolkit: 'test', description: `${name} tool`, input: z.object({}), handler: async () => textResult(`${name} ran`) });

function yaml(issuer: string, sessions: string): string {
  return `
auth:
  oidc:
    enabled: true
    issuer: ${issuer}
    client_id: platform
    role_claim_path: roles
personas:
  definitions:
    reader: { roles: [a], priority: 1, tools: { allow: [tool_a] } }
    writer: { roles: [b], priority: 2, tools: { allow: [tool_a, tool_b] } }
resources:
  custom:
    - { uri: "brand://style", name: Style guide, mime_type: text/markdown, content: "# Style" }
${sessions}`;
}

const modes = [
  { name: 'Streamable HTTP, memory sessions', transport: 'http' as const, sessions: '' },
  { name: 'Streamable HTTP, database sessions', transport: 'http' as const, sessions: 'sessions:\n  store: database\n' },
  { name: 'legacy SSE', transport: 'sse' as const, sessions: '' },
];

describe.each(modes)('issue 9 item 4: roles and persona re-checked on every request ($name)', ({ transport, sessions }) => {
  let issuer: TestIssuer;
  let env: SecurityEnv;
  const tokens: Record<'ab' | 'a' | 'none' | 'other', string> = { ab: '', a: '', none: '', other: '' };

  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startSecurityEnv({
      yaml: yaml(issuer.url, sessions),
      transport,
      server: ['prompts: [{ name: brief, description: Daily brief, content: "Brief." }]'],
      tools: [tool('tool_a'), tool('tool_b')],
    });
    const now = Math.floor(Date.now() / 1000);
    const sign = (sub: string, roles: string[]) => issuer.sign({ iss: issuer.url, sub, aud: 'platform', iat: now, exp: now + 3600, roles });
    tokens.ab = `Bearer ${await sign('u1', ['a', 'b'])}`;
    tokens.a = `Bearer ${await sign('u1', ['a'])}`;
    tokens.none = `Bearer ${await sign('u1', [])}`;
    tokens.other = `Bearer ${await sign('u2', ['a', 'b'])}`;
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
    await issuer?.close();
  });

  it('a token with fewer roles gets fewer tools at once, in the same session; prompts and resources follow the persona', async () => {
    let current = tokens.ab;
    const { client, sessionId } = await env.connect(() => current, { transport });
    const opened = sessionId();
    const names = async () => (await client.listTools()).tools.map((t) => t.name).sort();
    expect(await names()).toEqual(['tool_a', 'tool_b']);
    expect((await client.callTool({ name: 'tool_b', arguments: {} })).isError).toBeFalsy();

    current = tokens.a;
    expect(await names()).toEqual(['tool_a']);
    await expect(client.callTool({ name: 'tool_b', arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: tool_b' });
    expect((await client.callTool({ name: 'tool_a', arguments: {} })).isError).toBeFalsy();
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['brief']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('brand://style');

    // Roles that map to no persona: nothing at all, still in the same session.
    current = tokens.none;
    expect(await names()).toEqual([]);
    await expect(client.callTool({ name: 'tool_a', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect((await client.listResources()).resources).toEqual([]);
    await expect(client.readResource({ uri: 'brand://style' })).rejects.toMatchObject({ code: -32002 });

    // And back: the credential of each request decides, not the one that opened the session.
    current = tokens.ab;
    expect(await names()).toEqual(['tool_a', 'tool_b']);
    expect(sessionId()).toBe(opened);
  });

  it('another subject cannot continue the session, whatever its roles', async () => {
    let current = tokens.ab;
    const { client, sessionId } = await env.connect(() => current, { transport });
    if (transport === 'http') {
      expect((await listToolsRaw(env.url, tokens.other, sessionId()!)).status).toBe(404);
    }
    current = tokens.other;
    await expect(client.listTools()).rejects.toThrow();
    current = tokens.ab;
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['tool_a', 'tool_b']);
  });
});
