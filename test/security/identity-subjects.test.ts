/**
 * Issue 9 item 4: subjects are namespaced by how the caller authenticated. An OIDC token whose
 * `sub` equals an API key's name is another identity: it reaches neither the key's personal
 * library nor its MCP sessions (memory and database modes). Rows written before namespacing
 * migrate to their owners, once.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { namespaceLegacySubjects, type CallerContext } from '../../shared/identity/index.js';
import { resourceActor, type ResourceService } from '../../shared/resources/index.js';
import type { PlatformConfig } from '../../shared/config/index.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-provider.js';
import { initialize, listToolsRaw, startSecurityEnv, type SecurityEnv } from './identity-fixtures.js';

const keyAlice = 'alice-key-0123456789';

function authYaml(issuer: string, extra = ''): string {
  return `
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${keyAlice}, name: alice, roles: [staff] }
  oidc:
    enabled: true
    issuer: ${issuer}
    client_id: platform
    role_claim_path: roles
personas:
  definitions:
    staff: { roles: [staff] }
${extra}`;
}

function token(issuer: TestIssuer, sub: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return issuer.sign({ iss: issuer.url, sub, aud: 'platform', iat: now, exp: now + 3600, roles: ['staff'] });
}

async function manage(client: Client, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const result = (await client.callTool({ name: 'manage_resource', arguments: args })) as CallToolResult;
  return { isError: result.isError === true, body: (result.structuredContent ?? {}) as Record<string, unknown> };
}

async function readError(client: Client, uri: string): Promise<number | undefined> {
  try {
    await client.readResource({ uri });
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

async function listedUris(client: Client): Promise<string[]> {
  const uris: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
  } while (cursor);
  return uris;
}

describe('issue 9 item 4: an OIDC sub equal to an API key name is another identity', () => {
  let issuer: TestIssuer;
  let env: SecurityEnv;
  let oidcAlice: string;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startSecurityEnv({ yaml: authYaml(issuer.url) });
    oidcAlice = `Bearer ${await token(issuer, 'alice')}`;
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
    await issuer?.close();
  });

  it('the two callers have different namespaced subjects', async () => {
    const key = await env.connect(() => `Bearer ${keyAlice}`);
    const oidc = await env.connect(() => oidcAlice);
    const keyFile = await manage(key.client, { action: 'create', filename: 'whoami.txt', content: 'k' });
    const oidcFile = await manage(oidc.client, { action: 'create', filename: 'whoami.txt', content: 'o' });
    expect(keyFile.body.resource).toMatchObject({ library: 'person:apikey:alice', uploader: 'apikey:alice', uri: 'mcp://user/apikey%3Aalice/whoami.txt' });
    expect(oidcFile.body.resource).toMatchObject({
      library: `person:oidc:${issuer.url}#alice`,
      uploader: `oidc:${issuer.url}#alice`,
      uri: `mcp://user/${encodeURIComponent(`oidc:${issuer.url}#alice`)}/whoami.txt`,
    });
  });

  it("the OIDC caller sees nothing of the key's personal library, by any address or tool", async () => {
    const key = await env.connect(() => `Bearer ${keyAlice}`);
    const made = await manage(key.client, { action: 'create', path: 'private', filename: 'plan.txt', content: 'key only' });
    expect(made.isError).toBe(false);
    const { uri, reference } = made.body.resource as { uri: string; reference: string };

    const oidc = await env.connect(() => oidcAlice);
    expect(await listedUris(oidc.client)).not.toContain(uri);
    expect(await readError(oidc.client, uri)).toBe(-32002);
    expect(await readError(oidc.client, reference)).toBe(-32002);
    // The old spelling of the key's library (bare name) is simply someone else's, unknown address.
    expect(await readError(oidc.client, 'mcp://user/alice/private/plan.txt')).toBe(-32002);
    expect(await manage(oidc.client, { action: 'read', reference })).toMatchObject({ isError: true, body: { error: 'not_found' } });
    const byAddress = await manage(oidc.client, { action: 'read', library: 'person:apikey:alice', path: 'private', filename: 'plan.txt' });
    expect(byAddress.isError).toBe(true);
    const write = await manage(oidc.client, { action: 'create', library: 'person:apikey:alice', filename: 'planted.txt', content: 'x' });
    expect(write).toMatchObject({ isError: true, body: { error: 'forbidden' } });
    // "personal" is its own library, where the key's file is not.
    const own = await manage(oidc.client, { action: 'read', library: 'personal', path: 'private', filename: 'plan.txt' });
    expect(own).toMatchObject({ isError: true, body: { error: 'not_found' } });
    // And the key still reads its file.
    expect((await key.client.readResource({ uri })).contents[0]).toMatchObject({ text: 'key only' });
  });

  it("the OIDC caller cannot continue or end the key's session (memory sessions): 404", async () => {
    const opened = await initialize(env.url, `Bearer ${keyAlice}`);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    expect((await listToolsRaw(env.url, oidcAlice, sessionId)).status).toBe(404);
    const deleted = await fetch(`${env.url}/mcp`, { method: 'DELETE', headers: { authorization: oidcAlice, 'mcp-session-id': sessionId } });
    expect(deleted.status).toBe(404);
    expect((await listToolsRaw(env.url, `Bearer ${keyAlice}`, sessionId)).status).toBe(200);
  });
});

describe('issue 9 item 4: database sessions are bound to the namespaced subject', () => {
  let issuer: TestIssuer;
  let env: SecurityEnv;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startSecurityEnv({ yaml: authYaml(issuer.url, 'sessions:\n  store: database\n'), replicas: 2 });
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
    await issuer?.close();
  });

  it("an OIDC token with the key's name as sub gets 404 on the key's session, on either replica", async () => {
    const oidcAlice = `Bearer ${await token(issuer, 'alice')}`;
    const opened = await initialize(env.apis[0]!.url, `Bearer ${keyAlice}`);
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id')!;
    const { rows } = await env.db.query('SELECT subject FROM mcp_sessions WHERE id = $1', [sessionId]);
    expect(rows).toEqual([{ subject: 'apikey:alice' }]);
    for (const api of env.apis) {
      expect((await listToolsRaw(api.url, oidcAlice, sessionId)).status).toBe(404);
      const deleted = await fetch(`${api.url}/mcp`, { method: 'DELETE', headers: { authorization: oidcAlice, 'mcp-session-id': sessionId } });
      expect(deleted.status).toBe(404);
    }
    expect((await listToolsRaw(env.apis[1]!.url, `Bearer ${keyAlice}`, sessionId)).status).toBe(200);
  });
});

describe('issue 9 item 4: rows from before namespacing migrate to their owners', () => {
  let issuer: TestIssuer;
  let env: SecurityEnv;
  let oidcOwner: string;
  let oidcAlice: string;
  const seeded: Record<string, { id: string; uri: string }> = {};

  const bare = (subject: string): CallerContext => ({ subject, roles: ['staff'], authType: 'apikey' });
  async function put(service: ResourceService, config: PlatformConfig, subject: string, fileName: string, content: string) {
    const { resource } = await service.create(resourceActor(bare(subject), { config, origin: 'person' }), {
      library: { kind: 'person', subject },
      path: 'old',
      file_name: fileName,
      if_exists: 'fail',
      origin: 'portal',
      body: Readable.from([Buffer.from(content)]),
    });
    seeded[fileName] = { id: resource.id, uri: resource.uri };
  }

  beforeAll(async () => {
    issuer = await startTestIssuer();
    env = await startSecurityEnv({
      yaml: authYaml(issuer.url, 'audit:\n  enabled: true\n'),
      // Written as the code before namespacing did: bare key names and bare OIDC subs.
      seed: async ({ db, service, config }) => {
        await put(service, config, 'alice', 'key-file.txt', 'from the key');
        await put(service, config, 'f81d4fae', 'oidc-file.txt', 'from the OIDC user');
        await db.query(`INSERT INTO resource_aliases (uri, resource_id, vacated_at) VALUES ('mcp://user/alice/older/key-file.txt', $1, now())`, [
          seeded['key-file.txt']!.id,
        ]);
        await db.query(
          `INSERT INTO audit_log (id, occurred_at, subject, auth_type, tool, duration_ms, outcome)
           VALUES (gen_random_uuid(), now(), 'alice', 'apikey', 't', 1, 'ok'), (gen_random_uuid(), now(), 'alice', 'oidc', 't', 1, 'ok'),
                  (gen_random_uuid(), now(), 'local-operator', 'local', 't', 1, 'ok')`,
        );
        await db.query(`INSERT INTO mcp_sessions (id, subject, protocol_version) VALUES ('legacy-session', 'alice', '2025-06-18')`);
      },
    });
    oidcOwner = `Bearer ${await token(issuer, 'f81d4fae')}`;
    oidcAlice = `Bearer ${await token(issuer, 'alice')}`;
  }, 60_000);
  afterAll(async () => {
    await env?.stop();
    await issuer?.close();
  });

  it('the key keeps its library, the OIDC user keeps theirs, and neither gets the other', async () => {
    const key = await env.connect(() => `Bearer ${keyAlice}`);
    const keyUris = await listedUris(key.client);
    expect(keyUris).toContain('mcp://user/apikey%3Aalice/old/key-file.txt');
    expect(keyUris.some((u) => u.includes('oidc-file'))).toBe(false);
    expect((await key.client.readResource({ uri: `mcp:resource:${seeded['key-file.txt']!.id}` })).contents[0]).toMatchObject({ text: 'from the key' });
    // A former address follows its owner into the namespaced form.
    expect((await key.client.readResource({ uri: 'mcp://user/apikey%3Aalice/older/key-file.txt' })).contents[0]).toMatchObject({
      uri: 'mcp://user/apikey%3Aalice/old/key-file.txt',
    });

    const owner = await env.connect(() => oidcOwner);
    const ownerUris = await listedUris(owner.client);
    expect(ownerUris).toContain(`mcp://user/${encodeURIComponent(`oidc:${issuer.url}#f81d4fae`)}/old/oidc-file.txt`);
    expect(ownerUris.some((u) => u.includes('key-file'))).toBe(false);

    // An OIDC user whose sub is the key's name gets neither.
    const impostor = await env.connect(() => oidcAlice);
    const impostorUris = await listedUris(impostor.client);
    expect(impostorUris.some((u) => u.includes('key-file') || u.includes('oidc-file'))).toBe(false);
    expect(await readError(impostor.client, `mcp:resource:${seeded['key-file.txt']!.id}`)).toBe(-32002);
  });

  it('every subject column is rewritten by the rule; the audit log by its auth type; sessions too', async () => {
    const people = await env.db.query(`SELECT DISTINCT library_key, uploader FROM resources ORDER BY 1`);
    expect(people.rows).toEqual([
      { library_key: 'apikey:alice', uploader: 'apikey:alice' },
      { library_key: `oidc:${issuer.url}#f81d4fae`, uploader: `oidc:${issuer.url}#f81d4fae` },
    ].sort((a, b) => a.library_key.localeCompare(b.library_key)));
    const writers = await env.db.query(`SELECT DISTINCT writer_id FROM resource_writers WHERE writer_kind = 'person' ORDER BY 1`);
    expect(writers.rows.map((r) => r.writer_id)).toEqual(['apikey:alice', `oidc:${issuer.url}#f81d4fae`].sort());
    const events = await env.db.query(`SELECT DISTINCT actor, details #>> '{writer,subject}' AS writer FROM resource_events`);
    for (const row of events.rows) expect(row.actor).toBe(row.writer);
    expect(events.rows.map((r) => r.actor).sort()).toEqual(['apikey:alice', `oidc:${issuer.url}#f81d4fae`].sort());
    const audit = await env.db.query(`SELECT subject, auth_type FROM audit_log WHERE tool = 't' ORDER BY auth_type`);
    expect(audit.rows).toEqual([
      { subject: 'apikey:alice', auth_type: 'apikey' },
      { subject: 'local:operator', auth_type: 'local' },
      { subject: `oidc:${issuer.url}#alice`, auth_type: 'oidc' },
    ]);
    const session = await env.db.query(`SELECT subject FROM mcp_sessions WHERE id = 'legacy-session'`);
    expect(session.rows).toEqual([{ subject: 'apikey:alice' }]);
    const marker = await env.db.query('SELECT migrated_at IS NOT NULL AS done FROM subject_namespace_migration');
    expect(marker.rows).toEqual([{ done: true }]);
  });

  it('runs once: a second start (another replica, a restart) rewrites nothing', async () => {
    // A bare value written now (e.g. by a replica of the old version) is not touched again.
    await env.db.query(`UPDATE mcp_sessions SET subject = 'alice' WHERE id = 'legacy-session'`);
    expect(await namespaceLegacySubjects(env.db, { apiKeyNames: ['alice'], oidcIssuer: issuer.url })).toBeUndefined();
    const session = await env.db.query(`SELECT subject FROM mcp_sessions WHERE id = 'legacy-session'`);
    expect(session.rows).toEqual([{ subject: 'alice' }]);
  });
});
