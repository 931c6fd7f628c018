/**
 * Shared set-up of the export tools' tests: a resource environment (Postgres and one storage
 * driver), the toolkits the tools read (a DuckDB connection, an API and a GraphQL endpoint on the
 * stand-in upstream, a catalog instance whose GraphQL API is the same stand-in), personas that may
 * or may not read the catalog, and the tools called as an agent session of alice would call them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { exportTools, type ExportToolsDeps } from '../../shared/exports/index.js';
import type { CallerContext } from '../../shared/identity/index.js';
import { silentLogger, type Logger } from '../../shared/logging/index.js';
import type { CallToolResult, ToolDefinition } from '../../shared/mcp-tools/index.js';
import type { ResourceActor } from '../../shared/resources/index.js';
import { createSqlToolkit, type SqlToolkit } from '../../shared/sql/index.js';
import { startUpstreamApi, type UpstreamApi } from '../support/upstream-api.js';
import { agent, caller, startResourceEnv, type ResourceEnv } from './resources-core-fixtures.js';
import type { Driver } from './objstore-fixtures.js';

/** The API token of the stand-in upstream: never in a result or a log line. */
export const API_TOKEN = 'tok-3f9c1b7e-never-shown';
export const CATALOG_TOKEN = 'cat-8d2a-never-shown';

export interface ExportRig {
  env: ResourceEnv;
  upstream: UpstreamApi;
  sql: SqlToolkit;
  config: PlatformConfig;
  alice: ResourceActor;
  tools(over?: Partial<ExportToolsDeps>): ToolDefinition[];
  /** Calls a tool as alice (no roles: the deny-all default persona) unless `caller` says who. */
  call(name: string, args: Record<string, unknown>, opts?: { tools?: ToolDefinition[]; log?: Logger; signal?: AbortSignal; caller?: CallerContext }): Promise<CallToolResult>;
  versions(resourceId: string): Promise<number[]>;
  content(resourceId: string): Promise<Buffer>;
  stop(): Promise<void>;
}

export interface ExportRigOptions {
  /** Extra top-level YAML for the resource environment (e.g. a larger max_upload_bytes). */
  extraYaml?: string;
  /** More toolkits.sql entries (YAML lines under `sql:`, indented 4). */
  sqlYaml?: string[];
}

export async function startExportRig(driver: Driver, opts: ExportRigOptions = {}): Promise<ExportRig> {
  const env = await startResourceEnv(driver, opts.extraYaml ? { extraYaml: opts.extraYaml } : {});
  const upstream = await startUpstreamApi();
  const dir = await mkdtemp(join(tmpdir(), 'exports-'));
  const yaml = [
    'toolkits:',
    '  sql:',
    '    local:',
    '      engine: duckdb',
    `      path: ${join(dir, 'local.duckdb')}`,
    ...(opts.sqlYaml ?? []),
    '  api:',
    '    partner:',
    `      base_url: ${upstream.url}/v1`,
    '      allowed_paths: [/reports]',
    '      headers: { X-Client: platform-tests }',
    '      auth: { type: bearer, token: "${PARTNER_TOKEN}" }',
    '      max_bytes: 4096',
    '      timeout: 2s',
    '  graphql:',
    '    items:',
    `      url: ${upstream.url}/graphql`,
    '      auth: { type: header, name: X-Api-Key, value: "${PARTNER_TOKEN}" }',
    '  catalog:',
    '    main:',
    `      url: ${upstream.url}`,
    '      token: "${CATALOG_TOKEN}"',
    // exporter may export but not read the catalog; schema_reader reads only schemas; cataloguer reads it all.
    'personas:',
    '  definitions:',
    '    exporter: { roles: [exporter], tools: { allow: ["*_export"], deny: ["catalog_*"] } }',
    '    schema_reader: { roles: [schema_reader], tools: { allow: [graphql_export, catalog_get_schema] } }',
    '    cataloguer: { roles: [cataloguer], tools: { allow: [graphql_export, "catalog_*"] } }',
    '',
  ].join('\n');
  const parsed = parseConfig(yaml, { PARTNER_TOKEN: API_TOKEN, CATALOG_TOKEN });
  const config: PlatformConfig = {
    ...env.config,
    toolkits: { ...env.config.toolkits, sql: parsed.config.toolkits.sql, api: parsed.config.toolkits.api, graphql: parsed.config.toolkits.graphql, catalog: parsed.config.toolkits.catalog },
    personas: { ...env.config.personas, definitions: { ...env.config.personas.definitions, ...parsed.config.personas.definitions } },
  };
  const sql = createSqlToolkit(config, { log: silentLogger() });
  const alice = agent(env, 'alice');
  const deps = (over: Partial<ExportToolsDeps> = {}): ExportToolsDeps => ({ config, sql, resources: env.service, actorOf: () => alice, ...over });
  const defaultTools = exportTools(deps());
  return {
    env,
    upstream,
    sql,
    config,
    alice,
    tools: (over) => exportTools(deps(over)),
    async call(name, args, callOpts = {}) {
      const tool = (callOpts.tools ?? defaultTools).find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool.handler(tool.input.parse(args), {
        caller: callOpts.caller ?? caller('alice'),
        sessionId: 'session-1',
        signal: callOpts.signal ?? new AbortController().signal,
        log: callOpts.log ?? silentLogger(),
      });
    },
    async versions(resourceId) {
      const rows = await env.db.query('SELECT version FROM resource_versions WHERE resource_id = $1 ORDER BY version', [resourceId]);
      return rows.rows.map((r: { version: number }) => r.version);
    },
    async content(resourceId) {
      const { body } = await env.service.openContent(alice, resourceId, 'resources_read', 'dereference');
      const chunks: Buffer[] = [];
      for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks);
    },
    async stop() {
      await sql.close();
      await upstream.stop();
      await env.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read parsed JSON freely
export type Json = any;

/** The structured result of a tool call (fails the test with the text when it is an error). */
export function ok(result: CallToolResult): Json {
  if (result.isError) throw new Error(`tool failed: ${(result.content[0] as { text: string }).text}`);
  return result.structuredContent as Json;
}

/** The text of a failed call (fails the test when the call succeeded). */
export function failed(result: CallToolResult): string {
  if (!result.isError) throw new Error(`expected a refusal, got ${JSON.stringify(result.structuredContent)}`);
  return (result.content[0] as { text: string }).text;
}
