/**
 * /api/openapi.json is a document a client generator can take (the portal generates its client
 * from it): security schemes declared and named per operation, a unique camelCase operationId on
 * every operation, valid path templates (no `{*}`), /mcp documented, and the Redocly CLI's
 * `recommended` rules at 0 errors. The api is the production api role (cli/services.ts) with every
 * surface on (test/security/every-route-fixtures.ts); then one whose only credentials are API keys.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, startApiRole, type RunningApiRole } from '../../cli/services.js';
import type { Db } from '../../shared/db/index.js';
import { silentLogger } from '../../shared/logging/index.js';
import { auditedApiYaml, testConfig, type Json } from '../support/api.js';
import { createTestDatabase } from '../support/postgres.js';
import { installTool } from '../support/tools.js';
import { objstoreYaml } from './objstore-fixtures.js';
import { startEveryRouteRig, type EveryRouteRig } from '../security/every-route-fixtures.js';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let rig: EveryRouteRig;
let document: Json;

function operations(doc: Json): Array<{ path: string; method: string; operation: Json }> {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    methods.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })),
  );
}

/** `redocly lint` of `file` with the recommended rules: its problems. */
async function redoclyLint(file: string): Promise<Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>> {
  const redocly = await installTool('redocly');
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(redocly, ['lint', '--extends', 'recommended', '--format', 'json', file], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, out, stderr) => {
      // Exit code 1 means problems were found: the JSON report is still on stdout.
      if (out.trim().startsWith('{')) resolve(out);
      else reject(error ?? new Error(`redocly printed no report:\n${stderr}`));
    });
  });
  return JSON.parse(stdout).problems;
}

beforeAll(async () => {
  rig = await startEveryRouteRig();
  document = await (await fetch(`${rig.api.url}/api/openapi.json`)).json();
});

afterAll(async () => rig?.stop());

describe('the OpenAPI document of a fully configured api', () => {
  it('declares the security schemes the deployment accepts', () => {
    const schemes = document.components.securitySchemes;
    expect(schemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      oauth2: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'http://127.0.0.1:1/oauth/authorize', tokenUrl: 'http://127.0.0.1:1/oauth/token' } } },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://idp.every-route.test/.well-known/openid-configuration' },
      browserSession: { type: 'apiKey', in: 'cookie', name: 'mcp_session', description: expect.stringContaining('x-csrf-token') },
    });
  });

  it('names the security of every operation: REST routes take every scheme, /mcp header credentials only, public routes none', () => {
    const all = operations(document);
    expect(all.filter(({ operation }) => !Array.isArray(operation.security)).map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    const schemesOf = (path: string, method: string) => (document.paths[path][method].security as Json[]).map((r) => Object.keys(r)[0]);
    expect(schemesOf('/api/v1/resources', 'get')).toEqual(['apiKey', 'apiKeyHeader', 'oauth2', 'oidc', 'browserSession']);
    expect(schemesOf('/api/v1/admin/secrets', 'get')).toEqual(['apiKey', 'apiKeyHeader', 'oauth2', 'oidc', 'browserSession']);
    expect(schemesOf('/mcp', 'post')).toEqual(['apiKey', 'apiKeyHeader', 'oauth2', 'oidc']);
    for (const [path, method] of [['/healthz', 'get'], ['/portal/auth/login', 'get'], ['/hooks/{source}', 'post'], ['/objstore/{connection}/{bucket}/{key}', 'get']] as const) {
      expect(document.paths[path][method].security, `${method} ${path}`).toEqual([]);
    }
  });

  it('gives every operation a unique camelCase operationId', () => {
    const ids = operations(document).map(({ path, method, operation }) => ({ at: `${method} ${path}`, id: operation.operationId as unknown }));
    expect(ids.length).toBeGreaterThan(60);
    expect(ids.filter(({ id }) => typeof id !== 'string' || !/^[a-z][a-zA-Z0-9]*$/.test(id)).map(({ at }) => at)).toEqual([]);
    const seen = ids.map(({ id }) => id);
    expect(seen.filter((id, i) => seen.indexOf(id) !== i)).toEqual([]);
  });

  it('templates the presigned object URLs with named parameters, the key taking the rest of the path', () => {
    expect(Object.keys(document.paths).filter((path) => path.includes('*'))).toEqual([]);
    const download = document.paths['/objstore/{connection}/{bucket}/{key}'];
    expect(Object.keys(download).sort()).toEqual(['get', 'put']);
    const params = (download.get.parameters as Json[]).filter((p) => p.in === 'path');
    expect(params.map((p) => p.name).sort()).toEqual(['bucket', 'connection', 'key']);
    expect(params.find((p) => p.name === 'key').description).toMatch(/slashes/);
  });

  it('documents /mcp: POST, GET and DELETE with their content types, Mcp-Session-Id and the 401 challenge', () => {
    const mcp = document.paths['/mcp'];
    expect(Object.keys(mcp).sort()).toEqual(['delete', 'get', 'post']);
    expect(Object.keys(mcp.post.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(mcp.post.responses[200].content).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(mcp.post.responses[200].headers).toHaveProperty('Mcp-Session-Id');
    expect(Object.keys(mcp.get.responses[200].content)).toEqual(['text/event-stream']);
    for (const method of ['post', 'get', 'delete']) {
      expect((mcp[method].parameters as Json[]).map((p) => p.name)).toContain('Mcp-Session-Id');
      expect(mcp[method].responses[401].headers).toHaveProperty('WWW-Authenticate');
    }
  });

  it('passes `redocly lint` with the recommended rules at 0 errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(document));
      const problems = await redoclyLint(file);
      const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('the OpenAPI document of an api with API keys only', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let db: Db;
  let keysOnly: RunningApiRole;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'openapi-keys-'));
    const config = testConfig(`${auditedApiYaml({ dsn: database.dsn, dataDir, keys: [{ key: 'root-key-0123456789', name: 'root', roles: ['admin'] }] })}
personas: { definitions: { admin: { roles: [admin] } } }
admin: { enabled: true }
resources: { managed: { connection: main } }
${objstoreYaml({ main: ['driver: filesystem', `root: ${JSON.stringify(join(dataDir, 'objects'))}`] })}`);
    db = (await openDatabase(config, silentLogger()))!;
    keysOnly = await startApiRole({ config, log: silentLogger(), db });
  });
  afterAll(async () => {
    await keysOnly?.stop();
    await db?.end();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('declares and names only the API key schemes', async () => {
    const doc = await (await fetch(`${keysOnly.url}/api/openapi.json`)).json();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'apiKeyHeader']);
    const keys = [{ apiKey: [] }, { apiKeyHeader: [] }];
    expect(doc.paths['/mcp'].post.security).toEqual(keys);
    expect(doc.paths['/api/v1/resources'].get.security).toEqual(keys);
    expect(doc.paths['/api/v1/admin/secrets'].get.security).toEqual(keys);
  });
});
