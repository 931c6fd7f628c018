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
 * Keys this implementation adds (not in the spec; documented in platform.example.yaml)
 * - temporal.address            host:port of the Temporal frontend. Absent: `platform dev`
 *                                starts an embedded dev server; `serve`/`worker` refuse
 *                                features that need durable jobs.
 * - temporal.namespace          default `default`
 * - temporal.task_queue         default `platform`
 * - temporal.tls.enabled        default false; cert_file, key_file, ca_file, server_name
 * - data_dir                    default `./.data` (the CLI, not this module, reads PLATFORM_DATA_DIR)
 * - secrets.encryption_key      base64 of exactly 32 bytes; AES-256-GCM key for secrets at rest
 * - metrics.address             when set, Prometheus /metrics is served on its own listener there
 * - server.body_limit           bytes, default 4194304; larger HTTP bodies get 413
 * - server.allowed_origins      Origin values allowed on /mcp besides same-host origins
 * - sessions.max_per_subject   default 64: live MCP sessions one identity may hold; the next
 *                                initialize gets 429 with Retry-After
 * - audit.queue_size            default 10000: audit records held in memory (queued plus the batch
 *                                being written) before they reach the database
 * - audit.on_queue_full         what happens to a tool call's audit record when that queue is full:
 *                                `drop` (default) discards the record, counts it in
 *                                platform_audit_dropped_total{reason="queue_full"} and the call
 *                                returns at once; `block` makes the call wait until a written batch
 *                                frees room (backpressure: no record lost, calls slow down while the
 *                                database is slow or down). See docs/audit.md.
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
 * - resources.index[] rule fields (document 2 leaves them "not shown"): see indexRule below.
 */

import { z } from 'zod';
import {
  BUILTIN_PORTAL_TITLE,
  BUILTIN_SERVER_NAME,
  BUILTIN_WORKFLOW_ESCALATION,
  BUILTIN_WORKFLOW_WARNING,
} from './builtins.js';
import { DURATION_HINT, parseDuration } from './duration.js';

// ---------------------------------------------------------------------------
// Scalar builders

/** Schema-level messages: "required" for a missing key, else what was expected. */
const expected = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : what);

const numericString = /^\s*-?\d+(\.\d+)?\s*$/;
const toNumberIfNumeric = (v: unknown): unknown =>
  typeof v === 'string' && numericString.test(v) ? Number(v) : v;
const toBoolIfWord = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const w = v.trim().toLowerCase();
  return w === 'true' ? true : w === 'false' ? false : v;
};
const emptyToUndefined = (v: unknown): unknown => (v === '' ? undefined : v);

function int(opts: { min?: number; max?: number } = {}) {
  let n = z.number({ error: expected('expected an integer') }).int({ error: 'expected an integer' });
  if (opts.min !== undefined) n = n.min(opts.min, { error: `must be at least ${opts.min}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `must be at most ${opts.max}` });
  return z.preprocess(toNumberIfNumeric, n);
}
/** int64 values (byte sizes): a JavaScript number that must stay a safe integer. */
const int64 = () => int({ min: 0 });
const float = (opts: { min?: number; max?: number } = {}) => {
  let n = z.number({ error: expected('expected a number') });
  if (opts.min !== undefined) n = n.min(opts.min, { error: `must be at least ${opts.min}` });
  if (opts.max !== undefined) n = n.max(opts.max, { error: `must be at most ${opts.max}` });
  return z.preprocess(toNumberIfNumeric, n);
};
const bool = () => z.preprocess(toBoolIfWord, z.boolean({ error: expected('expected true or false') }));
const str = () => z.string({ error: expected('expected a string (quote numbers meant as text)') });
/** An optional "none"-default string; '' counts as unset. */
const optStr = () => z.preprocess(emptyToUndefined, str().optional());
const strArray = () => z.array(str(), { error: expected('expected a list of strings') });
const strMap = () => z.record(str(), str(), { error: expected('expected a map of strings') });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: expected(`expected one of: ${values.join(', ')}`) });

function duration(opts: { positive?: boolean } = {}) {
  return z.unknown().transform((v, ctx): number => {
    if (typeof v === 'number') {
      ctx.addIssue({ code: 'custom', message: `${v} has no unit: ${DURATION_HINT}` });
      return z.NEVER;
    }
    if (typeof v !== 'string') {
      ctx.addIssue({ code: 'custom', message: DURATION_HINT });
      return z.NEVER;
    }
    try {
      const ms = parseDuration(v);
      if (opts.positive && ms === 0) {
        ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
        return z.NEVER;
      }
      return ms;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });
}
const dur = (text: string, opts: { positive?: boolean } = { positive: true }) =>
  duration(opts).default(parseDuration(text));

/** `host:port`, `:port` or `[v6]:port`. */
const ADDRESS = /^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]]*):(\d{1,5})$/;
const address = () =>
  str().refine((v) => {
    const m = ADDRESS.exec(v);
    return m !== null && Number(m[2]) <= 65535;
  }, 'expected a listen address like :8080, 127.0.0.1:9090 or [::1]:8080');

const httpUrl = () =>
  str().refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'expected an http(s) URL');
const optHttpUrl = () => z.preprocess(emptyToUndefined, httpUrl().optional());
/** Portal-style "empty" URLs: '' or an http(s) URL. */
const emptyOrHttpUrl = () => z.union([z.literal(''), httpUrl()], { error: 'expected an http(s) URL' }).default('');

/** Decodes standard or URL-safe base64; undefined when the text is not base64. */
export function decodeBase64Key(text: string): Buffer | undefined {
  const t = text.trim();
  if (t === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return undefined;
  return Buffer.from(t, 'base64');
}
const base64Key = (rule: { exact?: number; min?: number }) =>
  z.preprocess(
    emptyToUndefined,
    str()
      .refine((v) => {
        const buf = decodeBase64Key(v);
        if (!buf) return false;
        return rule.exact !== undefined ? buf.length === rule.exact : buf.length >= (rule.min ?? 0);
      }, rule.exact !== undefined ? `expected base64 of exactly ${rule.exact} bytes` : `expected base64 of at least ${rule.min} bytes`)
      .optional(),
  );

const regexString = () =>
  str().refine((v) => {
    try {
      new RegExp(v);
      return true;
    } catch {
      return false;
    }
  }, 'expected a valid regular expression');

const origin = () =>
  str().refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
    } catch {
      return false;
    }
  }, 'expected an origin like https://app.example.com (scheme, host and optional port, no path)');

/** Names of toolkit instances and MCP apps: they appear in tool arguments and ui:// URIs. */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const nameKey = () => str().regex(NAME_RE, 'names use letters, digits, "_" and "-", starting with a letter or digit');
const namedMap = <T extends z.ZodType>(value: T) =>
  z.record(nameKey(), value, {
    error: (iss) =>
      iss.code === 'invalid_key'
        ? 'invalid name: use letters, digits, "_" and "-", starting with a letter or digit'
        : expected('expected a map of named entries')(iss),
  });

const obj = z.strictObject;

// ---------------------------------------------------------------------------
// server

const promptArgument = obj({
  name: str(),
  description: optStr(),
  required: bool().default(false),
});

const serverPrompt = obj({
  name: str().min(1, 'must not be empty'),
  description: optStr(),
  content: str(),
  arguments: z.array(promptArgument).default([]),
});

const server = obj({
  name: str().default(BUILTIN_SERVER_NAME),
  version: str().default('1.0.0'),
  description: optStr(),
  tags: strArray().default([]),
  agent_instructions: optStr(),
  prompts: z.array(serverPrompt).default([]),
  transport: oneOf(['stdio', 'http', 'sse']).default('stdio'),
  address: address().default(':8080'),
  streamable: obj({
    session_timeout: dur('30m'),
    stateless: bool().default(false),
  }).prefault({}),
  tls: obj({
    enabled: bool().default(false),
    cert_file: optStr(),
    key_file: optStr(),
  }).prefault({}),
  shutdown: obj({
    grace_period: dur('25s', { positive: false }),
    pre_shutdown_delay: dur('2s', { positive: false }),
  }).prefault({}),
  // ours
  body_limit: int({ min: 1 }).default(4_194_304),
  allowed_origins: z.array(origin()).default([]),
});

// ---------------------------------------------------------------------------
// sessions, auth, oauth, database

const sessions = obj({
  store: oneOf(['memory', 'database']).default('memory'),
  ttl: duration({ positive: true }).optional(),
  idle_timeout: duration({ positive: true }).optional(),
  cleanup_interval: dur('1m'),
  max_per_subject: int({ min: 1 }).default(64),
});

/** key and name default to '' so consumers get strings; with api_keys.enabled both must be non-empty (rules.ts). */
const apiKey = obj({
  key: str().default(''),
  name: str().default(''),
  roles: strArray().default([]),
});

const auth = obj({
  allow_anonymous: bool().default(false),
  oidc: obj({
    enabled: bool().default(false),
    issuer: optHttpUrl(),
    client_id: optStr(),
    audience: optStr(),
    role_claim_path: optStr(),
    role_prefix: optStr(),
    clock_skew_seconds: int({ min: 0 }).default(30),
    max_token_age: duration({ positive: true }).optional(),
    client_secret: optStr(),
    scopes: strArray().optional(),
  }).prefault({}),
  api_keys: obj({
    enabled: bool().default(false),
    keys: z.array(apiKey).default([]),
  }).prefault({}),
  browser_session: obj({
    enabled: bool().default(false),
    cookie_name: str().regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, 'expected a cookie name (token characters only)').default('mcp_session'),
    signing_key: base64Key({ min: 32 }),
    ttl: dur('8h'),
    secure: bool().default(true),
    domain: optStr(),
  }).prefault({}),
});

const oauthClient = obj({
  id: str().min(1, 'must not be empty'),
  secret: str().min(1, 'must not be empty'),
  redirect_uris: z.array(str()).min(1, 'at least one redirect URI is required'),
});

const oauth = obj({
  enabled: bool().default(false),
  issuer: optHttpUrl(),
  /** HMAC key (base64 or raw string). Absent: a key is generated at startup and tokens do not survive a restart. */
  signing_key: optStr(),
  clients: z.array(oauthClient).default([]),
  dcr: obj({
    enabled: bool().default(false),
    allowed_redirect_patterns: z.array(regexString()).default([]),
  }).prefault({}),
  upstream: obj({
    issuer: optHttpUrl(),
    client_id: optStr(),
    client_secret: optStr(),
    redirect_uri: optHttpUrl(),
  }).prefault({}),
});

const database = obj({
  dsn: optStr(),
  max_open_conns: int({ min: 1 }).default(25),
});

// ---------------------------------------------------------------------------
// personas

const persona = obj({
  display_name: optStr(),
  description: optStr(),
  roles: strArray().default([]),
  tools: obj({
    // Only an absent allow means every tool; an explicit [] allows nothing (personas/tool-rules.ts).
    allow: strArray().default(['*']),
    deny: strArray().default([]),
  }).prefault({}),
  prompts: obj({
    system_prefix: optStr(),
    system_suffix: optStr(),
    instructions: optStr(),
  }).prefault({}),
  hints: strMap().default({}),
  priority: int().default(0),
});

const personas = obj({
  definitions: z.record(str(), persona).default({}),
  default_persona: str().default('default'),
  role_mapping: obj({
    oidc_to_persona: strMap().default({}),
    user_personas: strMap().default({}),
  }).prefault({}),
});

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

const toolkits = obj({
  sql: namedMap(sqlInstance).default({}),
  catalog: namedMap(catalogInstance).default({}),
  objstore: namedMap(objstoreInstance).default({}),
});

// ---------------------------------------------------------------------------
// providers, semantic enrichment

const semantic = obj({
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

const query = obj({
  provider: z.preprocess(emptyToUndefined, oneOf(['sql', 'noop']).optional()),
  instance: optStr(),
  urn_mapping: obj({
    catalog_mapping: strMap().default({}),
  }).prefault({}),
});

const storage = obj({
  provider: z.preprocess(emptyToUndefined, oneOf(['objstore', 'noop']).optional()),
  instance: optStr(),
});

// ---------------------------------------------------------------------------
// tools, elicitation, icons

const tools = obj({
  allow: strArray().default([]),
  deny: strArray().default([]),
  description_overrides: strMap().default({}),
});

const elicitation = obj({
  enabled: bool().default(false),
  cost_estimation: obj({
    enabled: bool().default(false),
    row_threshold: int({ min: 0 }).default(1_000_000),
  }).prefault({}),
  pii_consent: obj({
    enabled: bool().default(false),
  }).prefault({}),
});

const icon = obj({
  src: str().refine((v) => v.startsWith('https://') || v.startsWith('data:'), 'expected an https:// URL or a data: URI'),
  mime_type: optStr(),
});
const iconMap = () => z.record(str(), icon).default({});

const icons = obj({
  enabled: bool().default(false),
  tools: iconMap(),
  resources: iconMap(),
  prompts: iconMap(),
});

// ---------------------------------------------------------------------------
// resources (document 1 MCP resources + document 2 managed resources)

const customResource = obj({
  uri: str().min(1, 'must not be empty'),
  name: str().min(1, 'must not be empty'),
  description: str().default(''),
  mime_type: str().min(1, 'must not be empty'),
  content: str().optional(),
  content_file: optStr(),
});

/**
 * One resources.index rule. Document 2 names what a rule decides on (folder, file
 * type, size, library, origin of the write) but not the fields; these are ours.
 * Rules are tried in order; the first whose every given condition matches decides
 * the search setting. With no matching rule the spec's built-in behaviour applies
 * (tables of values on details, everything else on contents, > 8 MB metadata only).
 */
const indexRule = obj({
  /** Glob over the folder path (`templates/**`). */
  folder: optStr(),
  /** MIME types or patterns (`text/*`, `application/pdf`) or file extensions (`.csv`). */
  types: strArray().optional(),
  min_bytes: int64().optional(),
  max_bytes: int64().optional(),
  library: z.array(oneOf(['person', 'persona', 'global'])).optional(),
  /** Origin of the write: portal upload, agent tool, managed script, webhook compaction. */
  origin: z.array(oneOf(['portal', 'agent', 'script', 'webhook'])).optional(),
  /** The search setting applied: Contents, Details only, Not indexed. */
  index: oneOf(['contents', 'details_only', 'not_indexed']),
});

const resources = obj({
  enabled: bool().default(false),
  custom: z.array(customResource).default([]),
  managed: obj({
    max_upload_bytes: int64().default(104_857_600),
    max_versions: int({ min: 1 }).default(10),
    /** ours: the objstore instance holding resource bytes (bucket `resources`); default portal.s3_connection, else the first instance. */
    connection: optStr(),
  }).prefault({}),
  index: z.array(indexRule).default([]),
});

// ---------------------------------------------------------------------------
// portal, admin

const portal = obj({
  enabled: bool().default(false),
  title: str().default(BUILTIN_PORTAL_TITLE),
  logo: str().default(''),
  logo_light: str().default(''),
  logo_dark: str().default(''),
  s3_connection: optStr(),
  s3_bucket: optStr(),
  s3_prefix: str().default(''),
  public_base_url: emptyOrHttpUrl(),
  max_content_size: int64().default(10_485_760),
  implementor: obj({
    name: str().default(''),
    logo: emptyOrHttpUrl(),
    url: emptyOrHttpUrl(),
  }).prefault({}),
});

const admin = obj({
  enabled: bool().default(false),
  persona: str().min(1, 'must not be empty').default('admin'),
  path_prefix: str()
    .regex(/^\/[A-Za-z0-9._~\-/]*[A-Za-z0-9._~-]$/, 'expected a URL path like /api/v1/admin (leading /, no trailing /)')
    .default('/api/v1/admin'),
});

// ---------------------------------------------------------------------------
// injection, tuning, workflow, audit, knowledge, mcpapps

const injection = obj({
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

const tuning = obj({
  rules: obj({
    require_datahub_check: bool().default(false),
    warn_on_deprecated: bool().default(false),
    quality_threshold: float({ min: 0, max: 1 }).default(0.7),
  }).prefault({}),
  prompts_dir: optStr(),
});

const workflow = obj({
  require_discovery_before_query: bool().default(false),
  /** Glob patterns of tool names; "all catalog_* tools" by default. */
  discovery_tools: strArray().default(['catalog_*']),
  query_tools: strArray().default(['sql_query', 'sql_execute']),
  warning_message: str().default(BUILTIN_WORKFLOW_WARNING),
  escalation: obj({
    after_warnings: int({ min: 0 }).default(3),
    escalation_message: str().default(BUILTIN_WORKFLOW_ESCALATION),
  }).prefault({}),
});

const audit = obj({
  enabled: bool().default(false),
  log_tool_calls: bool().default(false),
  retention_days: int({ min: 1 }).default(90),
  // ours
  queue_size: int({ min: 1 }).default(10_000),
  on_queue_full: oneOf(['drop', 'block']).default('drop'),
});

const knowledge = obj({
  enabled: bool().default(false),
  apply: obj({
    enabled: bool().default(false),
    datahub_connection: optStr(),
    require_confirmation: bool().default(false),
  }).prefault({}),
});

const mcpApp = obj({
  enabled: bool().default(true),
  assets_path: optStr(),
  entry_point: str().min(1, 'must not be empty').default('index.html'),
  /** Default ui://<name>, resolved after parsing. */
  resource_uri: optStr(),
  tools: strArray().optional(),
  csp: obj({
    resource_domains: strArray().optional(),
    connect_domains: strArray().optional(),
  }).optional(),
  config: z.record(z.string(), z.unknown(), { error: 'expected a mapping' }).optional(),
});

const mcpapps = obj({
  enabled: bool().default(true),
  apps: namedMap(mcpApp).default({}),
});

// ---------------------------------------------------------------------------
// webhooks (document 3 deployment keys)

const webhooks = obj({
  receiver: obj({
    enabled: bool().default(true),
    address: z.union([z.literal(''), address()], { error: 'expected a listen address like :8081' }).default(''),
    write_timeout: dur('30s'),
  }).prefault({}),
  compactor: obj({
    enabled: bool().default(true),
    grace: dur('2m', { positive: false }),
    poll: dur('30s'),
    lease: dur('10m'),
    batch: int({ min: 1 }).default(4),
    retry_backoff: dur('1m'),
    retention_every: dur('10m'),
  }).prefault({}),
});

// ---------------------------------------------------------------------------
// our own sections

const temporal = obj({
  address: z.preprocess(
    emptyToUndefined,
    str()
      .refine((v) => {
        const m = ADDRESS.exec(v);
        return m !== null && m[1] !== '' && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
      }, 'expected host:port, like temporal.internal:7233')
      .optional(),
  ),
  namespace: str().min(1, 'must not be empty').default('default'),
  task_queue: str().min(1, 'must not be empty').default('platform'),
  tls: obj({
    enabled: bool().default(false),
    cert_file: optStr(),
    key_file: optStr(),
    ca_file: optStr(),
    server_name: optStr(),
  }).prefault({}),
});

const secrets = obj({
  /** base64 of exactly 32 bytes (AES-256-GCM). */
  encryption_key: base64Key({ exact: 32 }),
});

const metrics = obj({
  address: z.preprocess(emptyToUndefined, address().optional()),
});

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
