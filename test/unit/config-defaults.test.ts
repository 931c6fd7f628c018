import { describe, expect, it } from 'vitest';
import {
  BUILTIN_PORTAL_TITLE,
  BUILTIN_SERVER_NAME,
  BUILTIN_WORKFLOW_ESCALATION,
  BUILTIN_WORKFLOW_WARNING,
  defaultConfig,
  duckdbPath,
  objstoreRoot,
  parseConfig,
} from '../../shared/config/index.js';

/** Reads a dotted path (instance names contain no dots here). */
function at(root: unknown, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], root);
}

const MIN = 60_000;
const H = 60 * MIN;

// Spec document 1, "Resources and their fields": every key with its documented default.
// "none" is undefined; "empty" is ''; durations are milliseconds.
const doc1Defaults: Array<[string, unknown]> = [
  // server
  ['server.name', BUILTIN_SERVER_NAME],
  ['server.version', '1.0.0'],
  ['server.description', undefined],
  ['server.tags', []],
  ['server.agent_instructions', undefined],
  ['server.prompts', []],
  ['server.transport', 'stdio'],
  ['server.address', ':8080'],
  ['server.streamable.session_timeout', 30 * MIN],
  ['server.streamable.stateless', false],
  ['server.tls.enabled', false],
  ['server.tls.cert_file', undefined],
  ['server.tls.key_file', undefined],
  ['server.shutdown.grace_period', 25_000],
  ['server.shutdown.pre_shutdown_delay', 2_000],
  // sessions
  ['sessions.store', 'memory'],
  ['sessions.ttl', 30 * MIN],
  ['sessions.idle_timeout', 30 * MIN],
  ['sessions.cleanup_interval', MIN],
  // auth
  ['auth.allow_anonymous', false],
  ['auth.oidc.enabled', false],
  ['auth.oidc.issuer', undefined],
  ['auth.oidc.client_id', undefined],
  ['auth.oidc.audience', undefined],
  ['auth.oidc.role_claim_path', undefined],
  ['auth.oidc.role_prefix', undefined],
  ['auth.oidc.clock_skew_seconds', 30],
  ['auth.oidc.max_token_age', undefined],
  ['auth.oidc.client_secret', undefined],
  ['auth.oidc.scopes', undefined],
  ['auth.api_keys.enabled', false],
  ['auth.api_keys.keys', []],
  ['auth.browser_session.enabled', false],
  ['auth.browser_session.cookie_name', 'mcp_session'],
  ['auth.browser_session.signing_key', undefined],
  ['auth.browser_session.ttl', 8 * H],
  ['auth.browser_session.secure', true],
  ['auth.browser_session.domain', undefined],
  // oauth
  ['oauth.enabled', false],
  ['oauth.issuer', undefined],
  ['oauth.signing_key', undefined],
  ['oauth.clients', []],
  ['oauth.dcr.enabled', false],
  ['oauth.dcr.allowed_redirect_patterns', []],
  ['oauth.upstream.issuer', undefined],
  ['oauth.upstream.client_id', undefined],
  ['oauth.upstream.client_secret', undefined],
  ['oauth.upstream.redirect_uri', undefined],
  // database
  ['database.dsn', undefined],
  ['database.max_open_conns', 25],
  // personas
  ['personas.definitions', {}],
  ['personas.default_persona', 'default'],
  ['personas.role_mapping.oidc_to_persona', {}],
  ['personas.role_mapping.user_personas', {}],
  // toolkits (instances are checked in the next table)
  ['toolkits.sql', {}],
  ['toolkits.catalog', {}],
  ['toolkits.objstore', {}],
  ['toolkits.api', {}],
  ['toolkits.graphql', {}],
  // providers, semantic enrichment, URN mapping
  ['semantic.provider', undefined],
  ['semantic.instance', undefined],
  ['semantic.cache.enabled', false],
  ['semantic.cache.ttl', 5 * MIN],
  ['semantic.lineage.enabled', false],
  ['semantic.lineage.max_hops', 2],
  ['semantic.lineage.inherit', []],
  ['semantic.lineage.prefer_column_lineage', false],
  ['semantic.lineage.conflict_resolution', 'nearest'],
  ['semantic.lineage.cache_ttl', 10 * MIN],
  ['semantic.lineage.timeout', 5_000],
  ['semantic.lineage.column_transforms', []],
  ['semantic.urn_mapping.platform', 'sql'],
  ['semantic.urn_mapping.catalog_mapping', {}],
  ['query.provider', undefined],
  ['query.instance', undefined],
  ['query.urn_mapping.catalog_mapping', {}],
  ['storage.provider', undefined],
  ['storage.instance', undefined],
  // tools, elicitation, icons
  ['tools.allow', []],
  ['tools.deny', []],
  ['tools.description_overrides', {}],
  ['elicitation.enabled', false],
  ['elicitation.cost_estimation.enabled', false],
  ['elicitation.cost_estimation.row_threshold', 1_000_000],
  ['elicitation.pii_consent.enabled', false],
  ['icons.enabled', false],
  ['icons.tools', {}],
  ['icons.resources', {}],
  ['icons.prompts', {}],
  // resources (MCP)
  ['resources.enabled', false],
  ['resources.custom', []],
  // portal, admin
  ['portal.enabled', false],
  ['portal.title', BUILTIN_PORTAL_TITLE],
  ['portal.logo', ''],
  ['portal.logo_light', ''],
  ['portal.logo_dark', ''],
  ['portal.s3_connection', undefined],
  ['portal.s3_bucket', undefined],
  ['portal.s3_prefix', ''],
  ['portal.public_base_url', ''],
  ['portal.max_content_size', 10_485_760],
  ['portal.implementor.name', ''],
  ['portal.implementor.logo', ''],
  ['portal.implementor.url', ''],
  ['admin.enabled', false],
  ['admin.persona', 'admin'],
  ['admin.path_prefix', '/api/v1/admin'],
  // injection, tuning, workflow, audit, knowledge, mcpapps
  ['injection.trino_semantic_enrichment', false],
  ['injection.datahub_query_enrichment', false],
  ['injection.s3_semantic_enrichment', false],
  ['injection.datahub_storage_enrichment', false],
  ['injection.column_context_filtering', true],
  ['injection.search_schema_preview', true],
  ['injection.schema_preview_max_columns', 15],
  ['injection.session_dedup.enabled', true],
  ['injection.session_dedup.mode', 'reference'],
  ['injection.session_dedup.entry_ttl', 5 * MIN],
  ['injection.session_dedup.session_timeout', 30 * MIN],
  ['tuning.rules.require_datahub_check', false],
  ['tuning.rules.warn_on_deprecated', false],
  ['tuning.rules.quality_threshold', 0.7],
  ['tuning.prompts_dir', undefined],
  ['workflow.require_discovery_before_query', false],
  ['workflow.discovery_tools', ['catalog_*']],
  ['workflow.query_tools', ['sql_query', 'sql_execute']],
  ['workflow.warning_message', BUILTIN_WORKFLOW_WARNING],
  ['workflow.escalation.after_warnings', 3],
  ['workflow.escalation.escalation_message', BUILTIN_WORKFLOW_ESCALATION],
  ['audit.enabled', false],
  ['audit.log_tool_calls', false],
  ['audit.retention_days', 90],
  ['knowledge.enabled', false],
  ['knowledge.apply.enabled', false],
  ['knowledge.apply.datahub_connection', undefined],
  ['knowledge.apply.require_confirmation', false],
  ['mcpapps.enabled', true],
  ['mcpapps.apps', {}],
];

// Documents 2 and 3 deployment keys, and the keys this implementation adds.
const otherDefaults: Array<[string, unknown]> = [
  ['resources.managed.max_upload_bytes', 104_857_600],
  ['resources.managed.max_versions', 10],
  ['resources.index', []],
  ['resources.search.embeddings.provider', 'none'],
  ['resources.search.embeddings.timeout', 30_000],
  ['resources.search.embeddings.batch', 32],
  ['resources.search.embeddings.retries', 2],
  ['resources.pdf.threads', 2],
  ['resources.pdf.queue', 32],
  ['webhooks.receiver.enabled', true],
  ['webhooks.receiver.address', ''],
  ['webhooks.receiver.write_timeout', 30_000],
  ['webhooks.compactor.enabled', true],
  ['webhooks.compactor.grace', 2 * MIN],
  ['webhooks.compactor.poll', 30_000],
  ['webhooks.compactor.lease', 10 * MIN],
  ['webhooks.compactor.batch', 4],
  ['webhooks.compactor.retry_backoff', MIN],
  ['webhooks.compactor.retention_every', 10 * MIN],
  ['webhooks.compactor.memory_limit', 1_073_741_824],
  ['scripts.max_concurrent_runs', 32],
  ['scripts.max_runs_per_caller', 8],
  ['scripts.handler_reserved_runs', 8],
  ['scripts.run_memory_bytes', 64 * 1024 * 1024],
  ['scripts.run_deadline', 30_000],
  ['scripts.console_limit_bytes', 64 * 1024],
  ['scripts.fetch.allow_hosts', []],
  ['scripts.fetch.timeout', 10_000],
  ['scripts.fetch.max_response_bytes', 4 * 1024 * 1024],
  // bot_check (ours; docs/botcheck.md)
  ['bot_check.hosted_a_verify_url', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'],
  ['bot_check.hosted_b_verify_url', 'https://api.hcaptcha.com/siteverify'],
  ['bot_check.verify_timeout', 5_000],
  ['temporal.address', undefined],
  ['temporal.namespace', 'default'],
  ['temporal.task_queue', 'platform'],
  ['temporal.ui_url', ''], // ours: the Temporal Web UI the portal links workflows to
  ['temporal.tls.enabled', false],
  ['temporal.tls.cert_file', undefined],
  ['temporal.tls.key_file', undefined],
  ['temporal.tls.ca_file', undefined],
  ['temporal.tls.server_name', undefined],
  ['data_dir', './.data'],
  ['secrets.encryption_key', undefined],
  ['metrics.address', undefined],
  ['server.body_limit', 4_194_304],
  ['server.headers_timeout', 10_000],
  ['server.request_timeout', 300_000],
  ['server.body_read_timeout', 30_000],
  ['server.unauthenticated_body_bytes', 67_108_864],
  ['server.allowed_origins', []],
  ['server.workers', 1],
  ['server.streamable.retry_interval', 1000],
  ['server.streamable.keep_alive', 15_000],
  ['server.streamable.replay_window', 500],
  ['server.streamable.replay_ttl', 300_000],
  ['server.streamable.json_answer_within', 1_000],
  ['sessions.max_per_subject', 64],
  ['oauth.refresh_token_ttl', 30 * 24 * 3600_000],
  ['oauth.dcr.registrations_per_minute', 30],
  ['audit.queue_size', 10_000],
  ['audit.on_queue_full', 'drop'],
];

describe('an empty file yields every documented default', () => {
  const { config, warnings } = parseConfig('', {});

  it('has no warnings', () => expect(warnings).toEqual([]));

  it.each(doc1Defaults)('document 1: %s', (path, expected) => {
    expect(at(config, path)).toEqual(expected);
  });

  it.each(otherDefaults)('documents 2, 3 and ours: %s', (path, expected) => {
    expect(at(config, path)).toEqual(expected);
  });

  it('the tables cover every key the default config holds', () => {
    const rows = new Set([...doc1Defaults, ...otherDefaults].map(([p]) => p));
    const leaves: string[] = [];
    const walk = (node: unknown, path: string) => {
      const isObj = typeof node === 'object' && node !== null && !Array.isArray(node);
      if (isObj && Object.keys(node).length > 0) {
        for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
      } else leaves.push(path);
    };
    walk(config, '');
    const uncovered = leaves.filter((l) => !rows.has(l) && ![...rows].some((r) => r.startsWith(`${l}.`)));
    expect(uncovered).toEqual([]);
  });

  it('defaultConfig() equals parsing an empty file, and a comment-only file', () => {
    expect(defaultConfig()).toEqual(config);
    expect(parseConfig('# nothing here\n\n   # still nothing\n', {}).config).toEqual(config);
    expect(parseConfig('---\n', {}).config).toEqual(config);
  });

  it('a key written with no value keeps its default', () => {
    const c = parseConfig('server:\n  description:\n  address:\nauth:\n', {}).config;
    expect(c.server.address).toBe(':8080');
    expect(c.server.description).toBeUndefined();
  });
});

describe('instance and list-entry defaults', () => {
  const { config } = parseConfig(
    `
toolkits:
  sql:
    warehouse: { host: trino.internal, user: svc }
    secure: { host: trino.internal, user: svc, ssl: true }
    local: { engine: duckdb }
  catalog:
    main: { url: "https://catalog.example.com" }
  objstore:
    lake: {}
    files: { driver: filesystem }
  api:
    partner: { base_url: "https://api.example.com/v1" }
  graphql:
    items: { url: "https://graph.example.com/graphql" }
personas:
  definitions:
    analyst: {}
mcpapps:
  apps:
    charts: { assets_path: /srv/apps/charts }
server:
  prompts:
    - name: report
      content: "Write a report on {topic}"
      arguments: [{ name: topic }]
resources:
  custom:
    - { uri: "docs://guide", name: Guide, mime_type: text/markdown, content: "# Guide" }
`,
    {},
  );

  const rows: Array<[string, unknown]> = [
    ['toolkits.sql.warehouse.engine', 'trino'],
    ['toolkits.sql.warehouse.port', 8080],
    ['toolkits.sql.secure.port', 443],
    ['toolkits.sql.warehouse.password', undefined],
    ['toolkits.sql.warehouse.catalog', undefined],
    ['toolkits.sql.warehouse.schema', undefined],
    ['toolkits.sql.warehouse.ssl', false],
    ['toolkits.sql.warehouse.ssl_verify', true],
    ['toolkits.sql.warehouse.timeout', 120_000],
    ['toolkits.sql.warehouse.default_limit', 1000],
    ['toolkits.sql.warehouse.max_limit', 10000],
    ['toolkits.sql.warehouse.read_only', false],
    ['toolkits.sql.warehouse.connection_name', 'warehouse'],
    ['toolkits.sql.warehouse.descriptions', {}],
    ['toolkits.sql.warehouse.path', undefined],
    ['toolkits.sql.local.engine', 'duckdb'],
    ['toolkits.catalog.main.token', undefined],
    ['toolkits.catalog.main.timeout', 30_000],
    ['toolkits.catalog.main.default_limit', 10],
    ['toolkits.catalog.main.max_limit', 100],
    ['toolkits.catalog.main.max_lineage_depth', 5],
    ['toolkits.catalog.main.connection_name', 'main'],
    ['toolkits.catalog.main.debug', false],
    ['toolkits.catalog.main.read_only', false],
    ['toolkits.catalog.main.descriptions', {}],
    ['toolkits.objstore.lake.driver', 's3'],
    ['toolkits.objstore.lake.root', undefined],
    ['toolkits.objstore.lake.region', 'us-east-1'],
    ['toolkits.objstore.lake.endpoint', undefined],
    ['toolkits.objstore.lake.access_key_id', undefined],
    ['toolkits.objstore.lake.secret_access_key', undefined],
    ['toolkits.objstore.lake.session_token', undefined],
    ['toolkits.objstore.lake.profile', undefined],
    ['toolkits.objstore.lake.use_path_style', false],
    ['toolkits.objstore.lake.timeout', 30_000],
    ['toolkits.objstore.lake.disable_ssl', false],
    ['toolkits.objstore.lake.read_only', false],
    ['toolkits.objstore.lake.max_get_size', 10_485_760],
    ['toolkits.objstore.lake.max_put_size', 104_857_600],
    ['toolkits.objstore.lake.connection_name', 'lake'],
    ['toolkits.objstore.lake.bucket_prefix', undefined],
    ['toolkits.api.partner.headers', {}],
    ['toolkits.api.partner.auth', undefined],
    ['toolkits.api.partner.allowed_paths', ['/']],
    ['toolkits.api.partner.timeout', 60_000],
    ['toolkits.api.partner.max_bytes', 104_857_600],
    ['toolkits.graphql.items.headers', {}],
    ['toolkits.graphql.items.auth', undefined],
    ['toolkits.graphql.items.timeout', 60_000],
    ['toolkits.graphql.items.max_bytes', 104_857_600],
    ['personas.definitions.analyst.display_name', undefined],
    ['personas.definitions.analyst.description', undefined],
    ['personas.definitions.analyst.roles', []],
    ['personas.definitions.analyst.tools.allow', ['*']],
    ['personas.definitions.analyst.tools.deny', []],
    ['personas.definitions.analyst.prompts.system_prefix', undefined],
    ['personas.definitions.analyst.prompts.system_suffix', undefined],
    ['personas.definitions.analyst.prompts.instructions', undefined],
    ['personas.definitions.analyst.hints', {}],
    ['personas.definitions.analyst.priority', 0],
    ['mcpapps.apps.charts.enabled', true],
    ['mcpapps.apps.charts.entry_point', 'index.html'],
    ['mcpapps.apps.charts.resource_uri', 'ui://charts'],
    ['mcpapps.apps.charts.tools', undefined],
    ['mcpapps.apps.charts.csp', undefined],
    ['mcpapps.apps.charts.config', undefined],
  ];

  it.each(rows)('%s', (path, expected) => {
    expect(at(config, path)).toEqual(expected);
  });

  it('prompt argument and custom resource defaults', () => {
    expect(config.server.prompts[0]?.arguments[0]).toEqual({ name: 'topic', required: false });
    expect(config.server.prompts[0]?.description).toBeUndefined();
    expect(config.resources.custom[0]?.description).toBe('');
  });

  it('DuckDB files and filesystem roots default to places under data_dir, read at use time', () => {
    expect(duckdbPath(config, 'local')).toBe('.data/sql/local.duckdb');
    expect(objstoreRoot(config, 'files')).toBe('.data/objstore/files');
    const moved = { ...config, data_dir: '/var/lib/platform' };
    expect(duckdbPath(moved, 'local')).toBe('/var/lib/platform/sql/local.duckdb');
  });

  it('auth.oidc.audience defaults to client_id; dedup TTLs follow their sources', () => {
    const c = parseConfig(
      `
auth: { oidc: { client_id: platform } }
server: { streamable: { session_timeout: 1h } }
semantic: { cache: { ttl: 2m } }
`,
      {},
    ).config;
    expect(c.auth.oidc.audience).toBe('platform');
    expect(c.sessions.ttl).toBe(H);
    expect(c.sessions.idle_timeout).toBe(H);
    expect(c.injection.session_dedup.session_timeout).toBe(H);
    expect(c.injection.session_dedup.entry_ttl).toBe(2 * MIN);
    const explicit = parseConfig('sessions: { ttl: 10m, idle_timeout: 5m }\nserver: { streamable: { session_timeout: 1h } }', {}).config;
    expect(explicit.sessions.ttl).toBe(10 * MIN);
    expect(explicit.sessions.idle_timeout).toBe(5 * MIN);
  });
});
