/**
 * platform.yaml sections of the toolkits (document 1 and toolkits.md): the sql, catalog and
 * objstore instances, the semantic/query/storage providers, and cross-injection (see schema.ts).
 *
 * Keys this implementation adds here (not in the spec; documented in platform.example.yaml)
 * - toolkits.objstore.<i>.driver `s3` (default) or `filesystem`; `.root` directory for filesystem;
 *   `.internal` (default false): for the platform's own storage only, invisible to the objstore tools
 * - toolkits.sql.<i>.engine     `trino` (default) or `duckdb`; `.path` DuckDB file.
 *                                host and user are required only for trino.
 * - toolkits.sql.<i>.max_result_bytes  default 8388608: row values one sql_query/sql_execute
 *                                returns at most (both engines); beyond it the answer is truncated.
 * - toolkits.sql.<i>.memory_limit, .threads, .max_temp_directory_size  DuckDB only: its engine
 *                                process's bounds (bytes; default 1 GiB, 2, 4 GiB).
 * - toolkits.sql.<i>.description, .scratch.catalog/.scratch.schema and
 *   toolkits.objstore.<i>.public_endpoint come from toolkits.md (the anchor's keys).
 * - toolkits.api.<i>          an HTTP upstream api_export may call (issue 20): base_url, headers,
 *                                auth (bearer / basic / header; values usually `${ENV}`), allowed_paths
 *                                (path prefixes under the base URL; default ['/'], everything under it),
 *                                timeout (default 60s), max_bytes (default 100 MiB), description.
 * - toolkits.graphql.<i>      a GraphQL endpoint graphql_export may query: url, headers, auth,
 *                                timeout, max_bytes, description (docs/resources.md, "Export tools").
 */

import { z } from 'zod';
import {
  bool,
  dur,
  duration,
  emptyToUndefined,
  httpUrl,
  int,
  int64,
  namedMap,
  obj,
  oneOf,
  optHttpUrl,
  optStr,
  str,
  strMap,
} from './schema-fields.js';

// ---------------------------------------------------------------------------
// toolkits

const sqlInstance = obj({
  engine: oneOf(['trino', 'duckdb']).default('trino'),
  /** DuckDB database file (engine duckdb); unset: duckdbPath(config, name) = `<data_dir>/sql/<instance>.duckdb`. */
  path: optStr(),
  host: optStr(),
  port: int({ min: 1, max: 65535 }).optional(),
  user: optStr(),
  password: optStr(),
  catalog: optStr(),
  schema: optStr(),
  ssl: bool().default(false),
  ssl_verify: bool().default(true),
  timeout: dur('120s'),
  default_limit: int({ min: 1 }).default(1000),
  max_limit: int({ min: 1 }).default(10000),
  read_only: bool().default(false),
  connection_name: optStr(),
  descriptions: strMap().default({}),
  // ours: result byte budget (both engines); DuckDB's engine-process bounds
  max_result_bytes: int({ min: 1 }).default(8_388_608),
  memory_limit: int({ min: 1 }).default(1_073_741_824),
  threads: int({ min: 1 }).default(2),
  max_temp_directory_size: int64().default(4_294_967_296),
  // from toolkits.md 1.1
  description: optStr(),
  scratch: obj({ catalog: optStr(), schema: optStr() }).optional(),
});

const catalogInstance = obj({
  url: httpUrl(),
  token: optStr(),
  timeout: dur('30s'),
  default_limit: int({ min: 1 }).default(10),
  max_limit: int({ min: 1 }).default(100),
  max_lineage_depth: int({ min: 1 }).default(5),
  connection_name: optStr(),
  debug: bool().default(false),
  read_only: bool().default(false),
  descriptions: strMap().default({}),
});

const objstoreInstance = obj({
  driver: oneOf(['s3', 'filesystem']).default('s3'),
  /** Directory holding the buckets (driver filesystem); unset: objstoreRoot(config, name) = `<data_dir>/objstore/<instance>`. */
  root: optStr(),
  region: str().default('us-east-1'),
  endpoint: optHttpUrl(),
  public_endpoint: optHttpUrl(),
  access_key_id: optStr(),
  secret_access_key: optStr(),
  session_token: optStr(),
  profile: optStr(),
  use_path_style: bool().default(false),
  timeout: dur('30s'),
  disable_ssl: bool().default(false),
  read_only: bool().default(false),
  max_get_size: int64().default(10_485_760),
  max_put_size: int64().default(104_857_600),
  connection_name: optStr(),
  bucket_prefix: optStr(),
  /** ours: the platform stores through this instance, the objstore tools cannot name it (docs/objstore.md). */
  internal: bool().default(false),
});

/**
 * How the platform authenticates to an export upstream. The secret values are written as `${ENV}`
 * references in platform.yaml; they are sent only to the upstream's own origin and never logged
 * or returned.
 */
const upstreamAuth = z.discriminatedUnion(
  'type',
  [
    obj({ type: z.literal('bearer'), token: str().min(1, 'must not be empty') }),
    obj({ type: z.literal('basic'), username: str(), password: str() }),
    obj({
      type: z.literal('header'),
      /** A header name such as X-API-Key. */
      name: str().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected an HTTP header name'),
      value: str().min(1, 'must not be empty'),
    }),
  ],
  { error: 'expected auth.type bearer, basic or header' },
);

/** Extra request headers: names as HTTP allows, values on one line. */
const upstreamHeaders = () =>
  z.record(str().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected an HTTP header name'), str().regex(/^[^\r\n]*$/, 'must be one line'), {
    error: 'expected a map of header names to values',
  });

const apiInstance = obj({
  base_url: httpUrl(),
  headers: upstreamHeaders().default({}),
  auth: upstreamAuth.optional(),
  /** Prefixes of the path under base_url a request may name (e.g. /reports); default ['/']: everything under it. */
  allowed_paths: z.array(str().regex(/^\//, 'expected a path starting with / like /reports')).default(['/']),
  timeout: dur('60s'),
  max_bytes: int64().default(104_857_600),
  description: optStr(),
});

const graphqlInstance = obj({
  url: httpUrl(),
  headers: upstreamHeaders().default({}),
  auth: upstreamAuth.optional(),
  timeout: dur('60s'),
  max_bytes: int64().default(104_857_600),
  description: optStr(),
});

export const toolkits = obj({
  sql: namedMap(sqlInstance).default({}),
  catalog: namedMap(catalogInstance).default({}),
  objstore: namedMap(objstoreInstance).default({}),
  api: namedMap(apiInstance).default({}),
  graphql: namedMap(graphqlInstance).default({}),
});

// ---------------------------------------------------------------------------
// providers, semantic enrichment

export const semantic = obj({
  provider: z.preprocess(emptyToUndefined, oneOf(['catalog', 'noop']).optional()),
  instance: optStr(),
  cache: obj({
    enabled: bool().default(false),
    ttl: dur('5m'),
  }).prefault({}),
  lineage: obj({
    enabled: bool().default(false),
    max_hops: int({ min: 1 }).default(2),
    inherit: z.array(oneOf(['glossary_terms', 'descriptions', 'tags'])).default([]),
    prefer_column_lineage: bool().default(false),
    conflict_resolution: oneOf(['nearest', 'all']).default('nearest'),
    cache_ttl: dur('10m'),
    timeout: dur('5s'),
    column_transforms: z
      .array(obj({ target_pattern: str().min(1, 'must not be empty'), strip_prefix: str().default('') }))
      .default([]),
  }).prefault({}),
  urn_mapping: obj({
    platform: str().default('sql'),
    catalog_mapping: strMap().default({}),
  }).prefault({}),
});

export const query = obj({
  provider: z.preprocess(emptyToUndefined, oneOf(['sql', 'noop']).optional()),
  instance: optStr(),
  urn_mapping: obj({
    catalog_mapping: strMap().default({}),
  }).prefault({}),
});

export const storage = obj({
  provider: z.preprocess(emptyToUndefined, oneOf(['objstore', 'noop']).optional()),
  instance: optStr(),
});

// ---------------------------------------------------------------------------
// injection (cross-injection, toolkits.md 5)

export const injection = obj({
  trino_semantic_enrichment: bool().default(false),
  datahub_query_enrichment: bool().default(false),
  s3_semantic_enrichment: bool().default(false),
  datahub_storage_enrichment: bool().default(false),
  column_context_filtering: bool().default(true),
  search_schema_preview: bool().default(true),
  schema_preview_max_columns: int({ min: 1 }).default(15),
  session_dedup: obj({
    enabled: bool().default(true),
    mode: oneOf(['reference', 'summary', 'none']).default('reference'),
    entry_ttl: duration({ positive: true }).optional(),
    session_timeout: duration({ positive: true }).optional(),
  }).prefault({}),
});
