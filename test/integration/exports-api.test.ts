/**
 * Issue 20 item 5, api_export and graphql_export on both storage drivers, against the stand-in
 * upstream (test/support/upstream-api.ts): the first call creates the file and later ones revise
 * it; an upstream 500, a body broken off, an answer past max_bytes, a timeout and a GraphQL errors
 * answer leave the file at its last version; path escapes and redirects off the base are refused
 * without reaching what they aimed at; credentials go to the upstream and never into a result or
 * a log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger } from '../support/logs.js';
import { API_TOKEN, CATALOG_TOKEN, failed, ok, startExportRig, type ExportRig } from './exports-fixtures.js';
import { caller } from './resources-core-fixtures.js';

const cataloguer = caller('alice', ['cataloguer']);

describe.each(['filesystem', 's3'] as const)('api_export and graphql_export (%s)', (driver) => {
  let rig: ExportRig;
  beforeAll(async () => {
    rig = await startExportRig(driver);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const hits = (path: string) => rig.upstream.requests.filter((r) => r.url.startsWith(path)).length;

  it('api_export: the first call creates the file, the next records version 2; a 500 and a broken body leave it at version 2', async () => {
    const to = { path: 'partner', filename: 'daily.csv' };
    rig.upstream.daily = 'day,n\nmonday,1\n';
    const first = ok(await rig.call('api_export', { path: '/reports/daily', resource: to }));
    expect(first).toMatchObject({ outcome: 'created', api: 'partner', upstream_status: 200, table_changes: [], resource: { version: 1, content_type: 'text/csv' } });
    expect(first.resource.reference).toMatch(/^mcp:resource:/);
    rig.upstream.daily = 'day,n\ntuesday,2\n';
    const second = ok(await rig.call('api_export', { path: '/reports/daily', resource: to }));
    expect(second).toMatchObject({ outcome: 'revised', resource: { id: first.resource.id, version: 2 } });

    const five = failed(await rig.call('api_export', { path: '/reports/fail', resource: to }));
    expect(five).toMatch(/api "partner" \(\/v1\/reports\/fail\) answered 500.*nothing was exported, and partner\/daily\.csv keeps its last version/);
    const broken = failed(await rig.call('api_export', { path: '/reports/broken', resource: to }));
    expect(broken).toMatch(/failed while sending.*partner\/daily\.csv keeps its last version/);
    expect(await rig.versions(first.resource.id)).toEqual([1, 2]);
    expect((await rig.content(first.resource.id)).toString()).toBe('day,n\ntuesday,2\n');
  });

  it('api_export sends the configured headers and credential to the upstream, and POSTs a JSON body with query parameters', async () => {
    const out = ok(await rig.call('api_export', { method: 'POST', path: '/reports/query', query: { day: 'monday', n: 3 }, body: { want: ['a', 'b'] }, resource: { path: 'partner', filename: 'query.json' } }));
    expect(out.resource.content_type).toBe('application/json');
    expect(JSON.parse((await rig.content(out.resource.id)).toString())).toEqual({ received: { want: ['a', 'b'] } });
    const request = rig.upstream.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/reports/query?day=monday&n=3' });
    expect(request.headers).toMatchObject({ authorization: `Bearer ${API_TOKEN}`, 'x-client': 'platform-tests', 'content-type': 'application/json' });
  });

  it('api_export refuses every path that leaves the allowed prefix, before any request', async () => {
    const before = rig.upstream.requests.length;
    const attempts = [
      '/secret',
      '/reports/../secret',
      '/reports/./daily',
      '/reports/%2e%2e/secret',
      '/reports/%2E%2E%2Fsecret',
      '/reports%2fsecret',
      '/reports/%252e%252e/secret',
      '/reports\\..\\secret',
      '/reports-secret',
      'reports/daily',
      'http://127.0.0.1:1/v1/reports/daily',
      '//evil.example/v1/reports/daily',
      '/reports/daily?x=1',
      '/reports/daily#frag',
      '/reports/da ily',
      '/reports/daily\u0000',
      // What a server may resolve differently than the check: Java path parameters, encoded
      // semicolons, empty segments, overlong UTF-8, fullwidth dots, trailing-space dot segments.
      '/reports/..;/secret',
      '/reports;x/../secret',
      '/reports/..%3b/secret',
      '/reports//..//secret',
      '/reports/%c0%ae%c0%ae/secret',
      '/reports/%ef%bc%8e%ef%bc%8e/secret',
      '/reports/..%20/secret',
    ];
    for (const path of attempts) {
      const text = failed(await rig.call('api_export', { path, resource: { path: 'escapes', filename: 'x.txt' } }));
      expect(text, path).toMatch(/api_export refused: .*nothing was requested/);
    }
    expect(rig.upstream.requests.length).toBe(before);
    expect(hits('/v1/secret')).toBe(0);
    const stored = await rig.env.db.query(`SELECT count(*)::int AS n FROM resources WHERE folder_path = 'escapes'`);
    expect(stored.rows[0].n).toBe(0);
  });

  it('api_export follows a redirect inside the upstream and refuses one leaving it, storing nothing', async () => {
    rig.upstream.daily = 'day,n\nredirected,3\n';
    const inside = ok(await rig.call('api_export', { path: '/reports/redirect-in', resource: { path: 'partner', filename: 'redirected.csv' } }));
    expect((await rig.content(inside.resource.id)).toString()).toBe('day,n\nredirected,3\n');
    for (const elsewhere of ['http://127.0.0.2:9/elsewhere', `${rig.upstream.url}/v1/secret`, `${rig.upstream.url}/v1/reports/%2e%2e/secret`, `${rig.upstream.url}/v1/reports/..;/secret`]) {
      rig.upstream.elsewhere = elsewhere;
      const text = failed(await rig.call('api_export', { path: '/reports/redirect-out', resource: { path: 'partner', filename: 'off.csv' } }));
      expect(text, elsewhere).toMatch(/redirected elsewhere .*the redirect was not followed and nothing was stored/);
    }
    expect(hits('/v1/secret')).toBe(0);
  });

  it('api_export refuses an answer past max_bytes and one that times out, keeping the last version', async () => {
    const to = { path: 'partner', filename: 'bounded.txt' };
    rig.upstream.bigBytes = 100;
    const first = ok(await rig.call('api_export', { path: '/reports/big', resource: to }));
    rig.upstream.bigBytes = 5000;
    expect(failed(await rig.call('api_export', { path: '/reports/big', resource: to }))).toMatch(/more than its max_bytes of 4096 bytes/);
    // Declared past the cap: refused at once, not streamed until the timeout.
    expect(failed(await rig.call('api_export', { path: '/reports/declared-huge', resource: to }))).toMatch(/more than its max_bytes of 4096 bytes/);
    expect(failed(await rig.call('api_export', { path: '/reports/slow', resource: to }))).toMatch(/gave no complete answer within 2000 ms; nothing was stored/);
    expect(await rig.versions(first.resource.id)).toEqual([1]);
  });

  it('graphql_export stores the JSON answer, revising the same file; a GraphQL errors answer leaves it at its last version', async () => {
    const to = { path: 'graph', filename: 'items.json' };
    const first = ok(await rig.call('graphql_export', { endpoint: 'items', query: 'query Items($n: Int) { items(limit: $n) { id name } }', variables: { n: 2 }, resource: to }));
    expect(first).toMatchObject({ outcome: 'created', endpoint: 'items', table_changes: [], resource: { version: 1, content_type: 'application/json' } });
    expect(JSON.parse((await rig.content(first.resource.id)).toString())).toEqual({ data: { items: [{ id: 1, name: 'item-1' }, { id: 2, name: 'item-2' }] } });
    expect(rig.upstream.requests.at(-1)!.headers['x-api-key']).toBe(API_TOKEN);
    const second = ok(await rig.call('graphql_export', { query: '{ items { id } }', resource: to }));
    expect(second).toMatchObject({ outcome: 'revised', resource: { id: first.resource.id, version: 2 } });

    const partial = failed(await rig.call('graphql_export', { query: '{ items { id } fail }', resource: to }));
    expect(partial).toMatch(/graphql "items" answered with GraphQL errors: the catalog is on fire; nothing was exported/);
    const invalid = failed(await rig.call('graphql_export', { query: '{ nope }', resource: to }));
    expect(invalid).toMatch(/GraphQL errors: Cannot query field "nope"/);
    expect(await rig.versions(first.resource.id)).toEqual([1, 2]);
    expect(JSON.parse((await rig.content(first.resource.id)).toString())).toEqual({ data: { items: [1, 2, 3, 4, 5].map((id) => ({ id })) } });
  });

  it('graphql_export sends queries only: a mutation or an unparsable document is refused before anything is sent', async () => {
    const before = rig.upstream.requests.length;
    expect(failed(await rig.call('graphql_export', { query: 'mutation { drop }', resource: { path: 'graph', filename: 'm.json' } }))).toMatch(/queries only.*nothing was sent/);
    expect(failed(await rig.call('graphql_export', { query: '{ items { id }', resource: { path: 'graph', filename: 'm.json' } }))).toMatch(/does not parse.*nothing was sent/);
    expect(rig.upstream.requests.length).toBe(before);
  });

  it("graphql_export reaches a catalog instance's GraphQL API with its token, for a persona that may use the catalog read tools", async () => {
    const out = ok(await rig.call('graphql_export', { endpoint: 'catalog:main', query: '{ dataset(urn: "urn:li:dataset:1") { name } }', resource: { path: 'graph', filename: 'catalog.json' } }, { caller: cataloguer }));
    expect(out.endpoint).toBe('catalog:main');
    const request = rig.upstream.requests.at(-1)!;
    expect(request.url).toBe('/api/graphql');
    expect(request.headers.authorization).toBe(`Bearer ${CATALOG_TOKEN}`);
    const local = ok(await rig.call('graphql_export', { endpoint: 'catalog:main', query: '{ dataset(urn: "urn:li:dataset:1") { name } }', resource: { path: 'graph', filename: 'catalog.json' } }, { caller: caller('operator', [], { authType: 'local' }) }));
    expect(local.resource.version).toBe(2);
  });

  it('graphql_export to a catalog is refused, nothing sent or stored, for a persona denied any catalog read tool', async () => {
    const before = rig.upstream.requests.length;
    for (const who of [caller('alice', ['exporter']), caller('alice', ['schema_reader']), caller('alice')]) {
      const refusal = await rig.call('graphql_export', { endpoint: 'catalog:main', query: '{ dataset(urn: "urn:li:dataset:1") { urn name } }', resource: { path: 'graph', filename: 'denied.json' } }, { caller: who });
      expect(failed(refusal)).toMatch(/graphql_export to catalog:main needs a persona that may use the catalog read tools .*; nothing was sent/);
      expect(refusal.structuredContent).toMatchObject({ error: 'forbidden' });
    }
    expect(rig.upstream.requests.length).toBe(before);
    const stored = await rig.env.db.query("SELECT 1 FROM resources WHERE file_name = 'denied.json'");
    expect(stored.rowCount).toBe(0);
    // The same persona still exports from a GraphQL endpoint that is not a catalog.
    ok(await rig.call('graphql_export', { endpoint: 'items', query: '{ items(limit: 1) { id } }', resource: { path: 'graph', filename: 'allowed.json' } }, { caller: caller('alice', ['exporter']) }));
  });

  it('graphql_export to a catalog may ask only for what the catalog tools read: secrets, other fields and introspection are refused, nothing sent', async () => {
    const before = rig.upstream.requests.length;
    for (const query of [
      '{ getSecretValues { name value } }',
      '{ dataset(urn: "u") { urn } items { id } }',
      'query { ...Leak } fragment Leak on Query { getSecretValues { value } }',
      '{ ... on Query { getSecretValues { value } } }',
      '{ __schema { types { name } } }',
    ]) {
      const refusal = await rig.call('graphql_export', { endpoint: 'catalog:main', query, resource: { path: 'graph', filename: 'secrets.json' } }, { caller: cataloguer });
      expect(failed(refusal)).toMatch(/a catalog export may read only what the catalog tools read .*; nothing was sent/);
    }
    expect(rig.upstream.requests.length).toBe(before);
    // A named fragment of allowed fields still goes.
    ok(await rig.call('graphql_export', { endpoint: 'catalog:main', query: 'query { ...D } fragment D on Query { dataset(urn: "u") { name } __typename }', resource: { path: 'graph', filename: 'fragment.json' } }, { caller: cataloguer }));
  });

  it('credentials never appear in a result, a refusal or a log line', async () => {
    const { log, lines } = capturingLogger('trace');
    const results = [
      await rig.call('api_export', { path: '/reports/daily', resource: { path: 'partner', filename: 'leak.csv' } }, { log }),
      await rig.call('api_export', { path: '/reports/fail', resource: { path: 'partner', filename: 'leak.csv' } }, { log }),
      await rig.call('api_export', { path: '/reports/../secret', resource: { path: 'partner', filename: 'leak.csv' } }, { log }),
      await rig.call('graphql_export', { query: '{ items { id } fail }', resource: { path: 'graph', filename: 'leak.json' } }, { log }),
      await rig.call('graphql_export', { endpoint: 'catalog:main', query: '{ dataset(urn: "urn:li:dataset:1") { urn } }', resource: { path: 'graph', filename: 'leak.json' } }, { log, caller: cataloguer }),
    ];
    const everything = JSON.stringify(results) + lines.join('\n');
    for (const secret of [API_TOKEN, CATALOG_TOKEN, Buffer.from(API_TOKEN).toString('base64')]) expect(everything).not.toContain(secret);
  });
});
