/**
 * Issue 9 item 5 (one bullet): a caller with no persona gets no prompts and no resources either,
 * not just no tools — prompts/list, prompts/get, resources/list, resources/read (custom, managed,
 * even its own personal library) and resources/templates/list answer empty or not found. The
 * deny-all persona `default` is treated the same, as it is for tools. The local operator (stdio)
 * keeps everything.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { localOperator, type CallerContext } from '../../shared/identity/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { resourceActor, type Library, type ResourceView } from '../../shared/resources/index.js';
import { buildMcpServer } from '../../api/mcp/server.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { startSecurityEnv, type SecurityEnv } from './identity-fixtures.js';

function yaml(definitions: string): string {
  return `
auth:
  api_keys:
    enabled: true
    keys:
      - { key: member-key-0123456789, name: member, roles: [staff] }
      - { key: nobody-key-0123456789, name: nobody, roles: [] }
personas:
  definitions:
    staff: { roles: [staff] }
${definitions}
resources:
  custom:
    - { uri: "brand://style", name: Style guide, mime_type: text/markdown, content: "# Style" }
`;
}

async function errorCode(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

const cases = [
  { name: 'no persona at all', definitions: '' },
  { name: 'the deny-all persona default', definitions: '    default: {}\n' },
];

describe.each(cases)('issue 9 item 5: $name gets no prompts and no resources', ({ definitions }) => {
  let env: SecurityEnv;
  let globalDoc: ResourceView;
  let ownDoc: ResourceView;

  beforeAll(async () => {
    env = await startSecurityEnv({
      yaml: yaml(definitions),
      server: ['prompts: [{ name: brief, description: Daily brief, content: "Brief for {team}.", arguments: [{ name: team, required: true }] }]'],
    });
    const root: CallerContext = { ...localOperator };
    const put = async (library: Library, fileName: string) =>
      (
        await env.service.create(resourceActor(root, { config: env.config, origin: 'person' }), {
          library,
          path: '',
          file_name: fileName,
          if_exists: 'fail',
          origin: 'portal',
          body: Readable.from([Buffer.from(`${fileName} body`)]),
        })
      ).resource;
    globalDoc = await put({ kind: 'global' }, 'handbook.txt');
    ownDoc = await put({ kind: 'person', subject: 'apikey:nobody' }, 'mine.txt');
  }, 60_000);
  afterAll(async () => env?.stop());

  it('a caller with a persona gets prompts, custom and managed resources, and templates', async () => {
    const { client } = await env.connect(() => 'Bearer member-key-0123456789');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['brief']);
    expect((await client.getPrompt({ name: 'brief', arguments: { team: 'sales' } })).messages).toHaveLength(1);
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(['brand://style', globalDoc.uri]));
    expect((await client.readResource({ uri: globalDoc.uri })).contents[0]).toMatchObject({ text: 'handbook.txt body' });
    expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
  });

  it('the caller without one gets empty lists and not-found answers, for every method', async () => {
    const { client } = await env.connect(() => 'Bearer nobody-key-0123456789');
    expect((await client.listTools()).tools).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect(await errorCode(client.getPrompt({ name: 'brief', arguments: { team: 'sales' } }))).toBe(-32602);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    for (const uri of ['brand://style', 'ui://platform-info', globalDoc.uri, globalDoc.reference, ownDoc.uri, ownDoc.reference]) {
      expect(await errorCode(client.readResource({ uri }))).toBe(-32002);
    }
  });

  it('the local operator (stdio) keeps everything', async () => {
    const surface = buildMcpSurface({
      config: env.config,
      log: silentLogger(),
      resources: { service: env.service, actorOf: (caller, sessionId) => resourceActor(caller, { config: env.config, ...(sessionId ? { sessionId } : {}), origin: 'agent' }) },
    });
    const server = buildMcpServer(surface, { caller: localOperator });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'stdio-like', version: '1' });
    await client.connect(clientSide);
    try {
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['brief']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain('brand://style');
      expect((await client.readResource({ uri: 'brand://style' })).contents[0]).toMatchObject({ text: '# Style' });
    } finally {
      await client.close();
      surface.close?.();
    }
  });
});
