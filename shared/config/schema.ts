/**
 * The platform.yaml schema: every key of spec documents 1, 2 and 3 with its
 * documented type and default, plus the keys this implementation adds.
 *
 * Conventions
 * - Key names are exactly the spec's (snake_case; "key name as written" keys such
 *   as `portal.s3_bucket` and `injection.trino_semantic_enrichment` kept verbatim).
 * - Durations are strings (`30s`, `5m`, `8h`, `1h30m`, `250ms`, `2d`) parsed to a
 *   whole number of MILLISECONDS. A bare number is refused (no unit is ambiguous).
 * - Integers, floats and booleans may also be given as strings ("8080", "true"), so a
 *   `${VAR}` (always a string after expansion) can feed them.
 * - A spec default of "none" is `undefined` here; "empty" is `''`; a "none" array or
 *   map default is `[]` / `{}` where the key is a list of rules or entries.
 * - An empty string for an optional "none" key counts as unset, so
 *   `dsn: ${DATABASE_DSN:-}` means "no database".
 * - Every object is strict: a key the schema does not know is reported as a warning
 *   ("unknown key") by the loader and then ignored.
 * - Defaults that depend on other keys are resolved after parsing (resolveDerived):
 *   sessions.ttl / sessions.idle_timeout / injection.session_dedup.session_timeout
 *   default to server.streamable.session_timeout; injection.session_dedup.entry_ttl to
 *   semantic.cache.ttl; auth.oidc.audience to auth.oidc.client_id; a toolkit
 *   instance's connection_name to its instance name; toolkits.sql port to 443 with
 *   ssl, else 8080; an MCP app's resource_uri to ui://<name>.
 *   The DuckDB file and filesystem objstore root default to places under data_dir but are
 *   NOT filled in here (the CLI may still change data_dir): use duckdbPath / objstoreRoot.
 *
 * Where the sections live (this module composes them, fills the derived defaults and
 * names the exported types)
 * - schema-fields.ts     the field builders every section is made of (the conventions above)
 * - schema-server.ts     server, audit; our own temporal, secrets, metrics
 * - schema-access.ts     sessions, auth, oauth, database, personas
 * - schema-toolkits.ts   toolkits (sql, catalog, objstore), semantic, query, storage, injection
 * - schema-mcp.ts        tools, elicitation, icons, tuning, workflow, knowledge, mcpapps
 * - schema-resources.ts  resources, portal, admin
 * - schema-webhooks.ts   webhooks
 * - schema-scripts.ts    scripts (managed scripts' runs)
 * - schema-botcheck.ts   bot_check (the bot check's siteverify URLs)
 *
 * Keys this implementation adds (not in the spec; documented in platform.example.yaml) are
 * listed in the header of their section's module. The one at the root:
 * - data_dir                    default `./.data` (the CLI, not this module, reads PLATFORM_DATA_DIR)
 */

import { z } from 'zod';
import { obj, str } from './schema-fields.js';
import { auth, database, oauth, personas, sessions } from './schema-access.js';
import { elicitation, icons, knowledge, mcpapps, tools, tuning, workflow } from './schema-mcp.js';
import { admin, portal, resources } from './schema-resources.js';
import { audit, metrics, secrets, server, temporal } from './schema-server.js';
import { injection, query, semantic, storage, toolkits } from './schema-toolkits.js';
import { webhooks } from './schema-webhooks.js';
import { scripts } from './schema-scripts.js';
import { botCheck } from './schema-botcheck.js';

export { decodeBase64Key, decodeHmacKey } from './schema-fields.js';

// ---------------------------------------------------------------------------
// root

export const configObjectSchema = obj({
  server: server.prefault({}),
  sessions: sessions.prefault({}),
  auth: auth.prefault({}),
  oauth: oauth.prefault({}),
  database: database.prefault({}),
  personas: personas.prefault({}),
  toolkits: toolkits.prefault({}),
  semantic: semantic.prefault({}),
  query: query.prefault({}),
  storage: storage.prefault({}),
  tools: tools.prefault({}),
  elicitation: elicitation.prefault({}),
  icons: icons.prefault({}),
  resources: resources.prefault({}),
  portal: portal.prefault({}),
  admin: admin.prefault({}),
  injection: injection.prefault({}),
  tuning: tuning.prefault({}),
  workflow: workflow.prefault({}),
  audit: audit.prefault({}),
  knowledge: knowledge.prefault({}),
  mcpapps: mcpapps.prefault({}),
  webhooks: webhooks.prefault({}),
  scripts: scripts.prefault({}),
  bot_check: botCheck.prefault({}),
  temporal: temporal.prefault({}),
  data_dir: str().min(1, 'must not be empty').default('./.data'),
  secrets: secrets.prefault({}),
  metrics: metrics.prefault({}),
});

export type ParsedConfig = z.output<typeof configObjectSchema>;

function mapValues<V, R>(m: Record<string, V>, f: (v: V, name: string) => R): Record<string, R> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v, k)]));
}

/** Fills the defaults the spec defines in terms of other keys (see the header comment). */
export function resolveDerived(p: ParsedConfig) {
  const sessionTimeout = p.server.streamable.session_timeout;
  return {
    ...p,
    sessions: {
      ...p.sessions,
      ttl: p.sessions.ttl ?? sessionTimeout,
      idle_timeout: p.sessions.idle_timeout ?? sessionTimeout,
    },
    auth: {
      ...p.auth,
      oidc: { ...p.auth.oidc, audience: p.auth.oidc.audience ?? p.auth.oidc.client_id },
    },
    injection: {
      ...p.injection,
      session_dedup: {
        ...p.injection.session_dedup,
        entry_ttl: p.injection.session_dedup.entry_ttl ?? p.semantic.cache.ttl,
        session_timeout: p.injection.session_dedup.session_timeout ?? sessionTimeout,
      },
    },
    toolkits: {
      ...p.toolkits,
      sql: mapValues(p.toolkits.sql, (inst, name) => ({
        ...inst,
        port: inst.port ?? (inst.ssl ? 443 : 8080),
        connection_name: inst.connection_name ?? name,
      })),
      catalog: mapValues(p.toolkits.catalog, (inst, name) => ({
        ...inst,
        connection_name: inst.connection_name ?? name,
      })),
      objstore: mapValues(p.toolkits.objstore, (inst, name) => ({
        ...inst,
        connection_name: inst.connection_name ?? name,
      })),
    },
    mcpapps: {
      ...p.mcpapps,
      apps: mapValues(p.mcpapps.apps, (app, name) => ({ ...app, resource_uri: app.resource_uri ?? `ui://${name}` })),
    },
  };
}

/** The whole schema: parse, defaults, then the derived defaults. */
export const platformConfigSchema = configObjectSchema.transform(resolveDerived);

/** The validated configuration passed down to every component. Durations are milliseconds. */
export type PlatformConfig = z.output<typeof platformConfigSchema>;
export type SqlInstanceConfig = PlatformConfig['toolkits']['sql'][string];
export type CatalogInstanceConfig = PlatformConfig['toolkits']['catalog'][string];
export type ObjstoreInstanceConfig = PlatformConfig['toolkits']['objstore'][string];
export type PersonaConfig = PlatformConfig['personas']['definitions'][string];
export type McpAppConfig = PlatformConfig['mcpapps']['apps'][string];
export type ResourceIndexRule = PlatformConfig['resources']['index'][number];
