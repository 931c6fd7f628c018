import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditActive, ConfigError, parseConfig, type ConfigIssue, type PlatformConfig } from '../../shared/config/index.js';

type Outcome = { config?: PlatformConfig; errors: ConfigIssue[]; warnings: ConfigIssue[] };

function run(text: string, env: Record<string, string> = {}): Outcome {
  try {
    const { config, warnings } = parseConfig(text, env);
    return { config, errors: [], warnings };
  } catch (err) {
    if (err instanceof ConfigError) return { errors: err.issues, warnings: [] };
    throw err;
  }
}

const KEY32 = randomBytes(32).toString('base64');
const KEY16 = randomBytes(16).toString('base64');
const DB = 'database:\n  dsn: postgres://localhost/platform\n';
const OBJSTORE = 'toolkits:\n  objstore:\n    lake: {}\n';

interface RuleCase {
  rule: string;
  bad: string;
  /** [path, message fragment] of an expected error */
  error: [string, string];
  good: string;
}

const cases: RuleCase[] = [
  {
    rule: 'sessions.store database requires database.dsn',
    bad: 'sessions:\n  store: database\n',
    error: ['sessions.store', 'requires database.dsn'],
    good: `sessions:\n  store: database\n${DB}`,
  },
  {
    rule: 'portal.enabled requires database.dsn',
    bad: `portal:\n  enabled: true\n  s3_bucket: artifacts\n${OBJSTORE}`,
    error: ['portal.enabled', 'requires database.dsn'],
    good: `portal:\n  enabled: true\n  s3_bucket: artifacts\n${OBJSTORE}${DB}`,
  },
  {
    rule: 'portal.enabled requires an objstore instance',
    bad: `portal:\n  enabled: true\n  s3_bucket: artifacts\n${DB}`,
    error: ['portal.enabled', 'at least one toolkits.objstore instance'],
    good: `portal:\n  enabled: true\n  s3_bucket: artifacts\n${OBJSTORE}${DB}`,
  },
  {
    rule: 'portal.enabled requires portal.s3_bucket',
    bad: `portal:\n  enabled: true\n${OBJSTORE}${DB}`,
    error: ['portal.s3_bucket', 'required when portal.enabled'],
    good: `portal:\n  enabled: true\n  s3_bucket: artifacts\n${OBJSTORE}${DB}`,
  },
  {
    rule: 'portal.s3_connection names an objstore instance',
    bad: `portal:\n  s3_connection: nowhere\n${OBJSTORE}`,
    error: ['portal.s3_connection', 'no toolkits.objstore instance named "nowhere"'],
    good: `portal:\n  s3_connection: lake\n${OBJSTORE}`,
  },
  {
    rule: 'oauth.enabled requires oauth.issuer',
    bad: 'oauth:\n  enabled: true\n',
    error: ['oauth.issuer', 'required when oauth.enabled'],
    good: 'oauth:\n  enabled: true\n  issuer: https://mcp.example.com\n',
  },
  {
    rule: 'oauth.upstream, when set, needs issuer, client_id and redirect_uri',
    bad: 'oauth:\n  upstream:\n    issuer: https://idp.example.com\n',
    error: ['oauth.upstream.client_id', 'required when oauth.upstream is configured'],
    good: 'oauth:\n  issuer: https://mcp.example.com\n  upstream:\n    issuer: https://idp.example.com\n    client_id: mcp\n    redirect_uri: https://mcp.example.com/oauth/callback\n',
  },
  {
    rule: 'oauth.clients ids are unique',
    bad: 'oauth:\n  clients:\n    - { id: a, secret: s, redirect_uris: ["http://localhost"] }\n    - { id: a, secret: t, redirect_uris: ["http://127.0.0.1"] }\n',
    error: ['oauth.clients[1].id', 'duplicate client id "a"'],
    good: 'oauth:\n  clients:\n    - { id: a, secret: s, redirect_uris: ["http://localhost"] }\n    - { id: b, secret: t, redirect_uris: ["http://127.0.0.1"] }\n',
  },
  {
    rule: 'server.transport accepts stdio, http, sse',
    bad: 'server:\n  transport: websocket\n',
    error: ['server.transport', 'expected one of: stdio, http, sse'],
    good: 'server:\n  transport: sse\n',
  },
  {
    rule: 'auth.oidc.enabled requires auth.oidc.issuer',
    bad: 'auth:\n  oidc:\n    enabled: true\n',
    error: ['auth.oidc.issuer', 'required when auth.oidc.enabled'],
    good: 'auth:\n  oidc:\n    enabled: true\n    issuer: https://idp.example.com/realms/main\n',
  },
  {
    rule: 'auth.browser_session.enabled requires auth.oidc.enabled',
    bad: `auth:\n  browser_session:\n    enabled: true\n    signing_key: ${KEY32}\n`,
    error: ['auth.browser_session.enabled', 'require auth.oidc.enabled'],
    good: `auth:\n  oidc: { enabled: true, issuer: "https://idp.example.com", client_id: portal }\n  browser_session:\n    enabled: true\n    signing_key: ${KEY32}\n`,
  },
  {
    rule: 'auth.browser_session.enabled requires a signing_key',
    bad: 'auth:\n  oidc: { enabled: true, issuer: "https://idp.example.com", client_id: portal }\n  browser_session:\n    enabled: true\n',
    error: ['auth.browser_session.signing_key', 'required when browser sessions are enabled'],
    good: `auth:\n  oidc: { enabled: true, issuer: "https://idp.example.com", client_id: portal }\n  browser_session:\n    enabled: true\n    signing_key: ${KEY32}\n`,
  },
  {
    rule: 'auth.browser_session.enabled requires auth.oidc.client_id',
    bad: `auth:\n  oidc: { enabled: true, issuer: "https://idp.example.com" }\n  browser_session:\n    enabled: true\n    signing_key: ${KEY32}\n`,
    error: ['auth.oidc.client_id', 'required when browser sessions are enabled'],
    good: `auth:\n  oidc: { enabled: true, issuer: "https://idp.example.com", client_id: portal }\n  browser_session:\n    enabled: true\n    signing_key: ${KEY32}\n`,
  },
  {
    rule: 'auth.browser_session.signing_key is base64 of at least 32 bytes',
    bad: `auth:\n  browser_session:\n    signing_key: ${KEY16}\n`,
    error: ['auth.browser_session.signing_key', 'at least 32 bytes'],
    good: `auth:\n  browser_session:\n    signing_key: ${randomBytes(48).toString('base64')}\n`,
  },
  {
    rule: 'resources.custom: content and content_file are mutually exclusive',
    bad: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain, content: hi, content_file: /etc/x }\n',
    error: ['resources.custom[0]', 'mutually exclusive'],
    good: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain, content_file: /etc/x }\n',
  },
  {
    rule: 'resources.custom: one of content and content_file is required',
    bad: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain }\n',
    error: ['resources.custom[0]', 'one of content or content_file is required'],
    good: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain, content: "" }\n',
  },
  {
    rule: 'resources.custom uris are unique',
    bad: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain, content: a }\n    - { uri: "a://x", name: Y, mime_type: text/plain, content: b }\n',
    error: ['resources.custom[1].uri', 'duplicate resource URI'],
    good: 'resources:\n  custom:\n    - { uri: "a://x", name: X, mime_type: text/plain, content: a }\n    - { uri: "a://y", name: Y, mime_type: text/plain, content: b }\n',
  },
  {
    rule: 'server.tls.enabled requires cert_file',
    bad: 'server:\n  tls:\n    enabled: true\n    key_file: /tls/key.pem\n',
    error: ['server.tls.cert_file', 'required when server.tls.enabled'],
    good: 'server:\n  tls:\n    enabled: true\n    cert_file: /tls/cert.pem\n    key_file: /tls/key.pem\n',
  },
  {
    rule: 'server.tls.enabled requires key_file',
    bad: 'server:\n  tls:\n    enabled: true\n    cert_file: /tls/cert.pem\n',
    error: ['server.tls.key_file', 'required when server.tls.enabled'],
    good: 'server:\n  tls:\n    enabled: false\n    cert_file: /tls/cert.pem\n',
  },
  {
    rule: 'auth.api_keys.enabled: every key has a key',
    bad: 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { name: ci, key: "" }\n',
    error: ['auth.api_keys.keys[0].key', 'must not be empty'],
    good: 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { name: ci, key: k-1 }\n',
  },
  {
    rule: 'auth.api_keys.enabled: every key has a name',
    bad: 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { key: k-1 }\n',
    error: ['auth.api_keys.keys[0].name', 'must not be empty'],
    good: 'auth:\n  api_keys:\n    enabled: false\n    keys:\n      - { key: k-1 }\n',
  },
  {
    rule: 'auth.api_keys.enabled: names are unique',
    bad: 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { name: ci, key: k-1 }\n      - { name: ci, key: k-2 }\n',
    error: ['auth.api_keys.keys[1].name', 'duplicate key name "ci"'],
    good: 'auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { name: ci, key: k-1 }\n      - { name: cd, key: k-2 }\n',
  },
  {
    rule: 'server.prompts names are unique',
    bad: 'server:\n  prompts:\n    - { name: a, content: x }\n    - { name: a, content: y }\n',
    error: ['server.prompts[1].name', 'duplicate prompt name "a"'],
    good: 'server:\n  prompts:\n    - { name: a, content: x }\n    - { name: b, content: y }\n',
  },
  {
    rule: 'toolkits.sql with engine trino requires host',
    bad: 'toolkits:\n  sql:\n    wh: { user: svc }\n',
    error: ['toolkits.sql.wh.host', 'required for engine trino'],
    good: 'toolkits:\n  sql:\n    wh: { engine: duckdb }\n',
  },
  {
    rule: 'toolkits.sql with engine trino requires user',
    bad: 'toolkits:\n  sql:\n    wh: { host: trino }\n',
    error: ['toolkits.sql.wh.user', 'required for engine trino'],
    good: 'toolkits:\n  sql:\n    wh: { host: trino, user: svc }\n',
  },
  {
    rule: 'toolkits.sql default_limit does not exceed max_limit',
    bad: 'toolkits:\n  sql:\n    wh: { engine: duckdb, default_limit: 500, max_limit: 100 }\n',
    error: ['toolkits.sql.wh.default_limit', 'must not exceed max_limit'],
    good: 'toolkits:\n  sql:\n    wh: { engine: duckdb, default_limit: 100, max_limit: 100 }\n',
  },
  {
    rule: 'knowledge.enabled requires database.dsn',
    bad: 'knowledge:\n  enabled: true\n',
    error: ['knowledge.enabled', 'requires database.dsn'],
    good: `knowledge:\n  enabled: true\n${DB}`,
  },
  {
    rule: 'knowledge.apply.datahub_connection names a catalog instance',
    bad: 'knowledge:\n  apply:\n    datahub_connection: other\n',
    error: ['knowledge.apply.datahub_connection', 'no toolkits.catalog instance named "other"'],
    good: 'knowledge:\n  apply:\n    datahub_connection: main\ntoolkits:\n  catalog:\n    main: { url: "https://dh.example.com" }\n',
  },
  {
    rule: 'semantic.provider catalog needs a catalog instance',
    bad: 'semantic:\n  provider: catalog\n',
    error: ['semantic.instance', 'required when semantic.provider is "catalog"'],
    good: 'semantic:\n  provider: catalog\n  instance: main\ntoolkits:\n  catalog:\n    main: { url: "https://dh.example.com" }\n',
  },
  {
    rule: 'query.instance names a sql instance',
    bad: 'query:\n  provider: sql\n  instance: missing\n',
    error: ['query.instance', 'no toolkits.sql instance named "missing"'],
    good: 'query:\n  provider: noop\n',
  },
  {
    rule: 'metrics.address differs from server.address',
    bad: 'metrics:\n  address: 0.0.0.0:8080\n',
    error: ['metrics.address', 'must differ from server.address'],
    good: 'metrics:\n  address: 127.0.0.1:9090\n',
  },
  {
    rule: 'webhooks.receiver.address differs from server.address',
    bad: 'server:\n  address: 127.0.0.1:9000\nwebhooks:\n  receiver:\n    address: ":9000"\n',
    error: ['webhooks.receiver.address', 'must differ from server.address'],
    good: 'server:\n  address: 127.0.0.1:9000\nwebhooks:\n  receiver:\n    address: ":9001"\n',
  },
  {
    rule: 'mcpapps custom apps need an absolute assets_path',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: relative/dir }\n',
    error: ['mcpapps.apps.charts.assets_path', 'absolute'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts }\n    platform-info: { config: { brand_name: Acme } }\n',
  },
  {
    rule: 'mcpapps entry_point stays inside assets_path',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, entry_point: ../secrets/index.html }\n',
    error: ['mcpapps.apps.charts.entry_point', 'relative to assets_path'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, entry_point: dist/index.html }\n',
  },
  {
    rule: 'mcpapps entry_point is not absolute',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, entry_point: /etc/passwd }\n',
    error: ['mcpapps.apps.charts.entry_point', 'relative to assets_path'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, entry_point: main.html }\n',
  },
  {
    rule: 'mcpapps resource_uri is a ui:// URI',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, resource_uri: "https://charts.example.com" }\n',
    error: ['mcpapps.apps.charts.resource_uri', 'ui:// URI'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, resource_uri: "ui://sales/charts" }\n',
  },
  {
    rule: 'mcpapps resource_uri unique among apps and custom resources',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, resource_uri: "ui://platform-info" }\n',
    error: ['mcpapps.apps.charts.resource_uri', 'already the URI of mcpapps.apps.platform-info'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, resource_uri: "ui://platform-info" }\n    platform-info: { enabled: false }\n',
  },
  {
    rule: 'mcpapps resource_uri does not take a custom resource\'s URI',
    bad: 'resources:\n  custom: [{ uri: "ui://charts", name: c, mime_type: text/html, content: x }]\nmcpapps:\n  apps:\n    charts: { assets_path: /srv/charts }\n',
    error: ['mcpapps.apps.charts.resource_uri', 'already the URI of resources.custom'],
    good: 'resources:\n  custom: [{ uri: "ui://charts", name: c, mime_type: text/html, content: x }]\nmcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, enabled: false }\n',
  },
  {
    rule: 'mcpapps csp domains are origins (no directives, paths or quotes)',
    bad: 'mcpapps:\n  apps:\n    charts:\n      assets_path: /srv/charts\n      csp: { connect_domains: ["https://api.example.com; script-src *"] }\n',
    error: ['mcpapps.apps.charts.csp.connect_domains[0]', 'is not an origin'],
    good: 'mcpapps:\n  apps:\n    charts:\n      assets_path: /srv/charts\n      csp: { connect_domains: ["https://api.example.com", "wss://live.example.com:8443"], resource_domains: ["https://*.cdn.example.com"] }\n',
  },
  {
    rule: 'mcpapps a tool surfaces one app (platform_info surfaces platform-info by default)',
    bad: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, tools: [platform_info] }\n',
    error: ['mcpapps.apps.charts.tools', 'tool platform_info already surfaces app platform-info'],
    good: 'mcpapps:\n  apps:\n    charts: { assets_path: /srv/charts, tools: [platform_info] }\n    platform-info: { tools: [] }\n',
  },
  {
    rule: 'mcpapps platform-info brand_url is an http(s) URL',
    bad: 'mcpapps:\n  apps:\n    platform-info: { config: { brand_url: "javascript:alert(1)" } }\n',
    error: ['mcpapps.apps.platform-info.config.brand_url', 'http:// or https:// URL'],
    good: 'mcpapps:\n  apps:\n    platform-info: { config: { brand_url: "https://acme.example.com/about" } }\n',
  },
  {
    rule: 'mcpapps platform-info brand keys are strings',
    bad: 'mcpapps:\n  apps:\n    platform-info: { config: { brand_name: [Acme] } }\n',
    error: ['mcpapps.apps.platform-info.config.brand_name', 'expected a string'],
    good: 'mcpapps:\n  apps:\n    platform-info: { config: { brand_name: Acme } }\n',
  },
  {
    rule: 'personas.default_persona names a defined persona',
    bad: 'personas:\n  default_persona: analyst\n',
    error: ['personas.default_persona', 'no persona named "analyst"'],
    good: 'personas:\n  default_persona: analyst\n  definitions:\n    analyst: { roles: [analyst] }\n',
  },
  {
    rule: 'personas.role_mapping targets are defined personas',
    bad: 'personas:\n  role_mapping:\n    user_personas:\n      "ann@example.com": ghost\n',
    error: ['personas.role_mapping.user_personas["ann@example.com"]', 'no persona named "ghost"'],
    good: 'personas:\n  definitions: { analyst: {} }\n  role_mapping:\n    user_personas:\n      "ann@example.com": analyst\n',
  },
  {
    rule: 'secrets.encryption_key is base64 of exactly 32 bytes',
    bad: `secrets:\n  encryption_key: ${randomBytes(31).toString('base64')}\n`,
    error: ['secrets.encryption_key', 'exactly 32 bytes'],
    good: `secrets:\n  encryption_key: ${KEY32}\n`,
  },
  {
    rule: 'temporal.tls cert_file and key_file come together',
    bad: 'temporal:\n  tls:\n    enabled: true\n    cert_file: /tls/client.pem\n',
    error: ['temporal.tls.key_file', 'set together'],
    good: 'temporal:\n  address: temporal.internal:7233\n  tls:\n    enabled: true\n    ca_file: /tls/ca.pem\n',
  },
  {
    rule: 'server.allowed_origins are origins',
    bad: 'server:\n  allowed_origins: ["https://app.example.com/path"]\n',
    error: ['server.allowed_origins[0]', 'expected an origin'],
    good: 'server:\n  allowed_origins: ["https://app.example.com", "http://localhost:5173"]\n',
  },
  {
    rule: 'oauth.dcr.allowed_redirect_patterns are regular expressions',
    bad: 'oauth:\n  dcr:\n    allowed_redirect_patterns: ["^http://localhost(:[0-9+$"]\n',
    error: ['oauth.dcr.allowed_redirect_patterns[0]', 'regular expression'],
    good: 'oauth:\n  dcr:\n    allowed_redirect_patterns: ["^http://localhost(:[0-9]+)?/.*$"]\n',
  },
  {
    rule: 'audit.on_queue_full is drop or block',
    bad: 'audit:\n  on_queue_full: wait\n',
    error: ['audit.on_queue_full', 'expected one of: drop, block'],
    good: 'audit:\n  on_queue_full: block\n',
  },
];

describe.each(cases)('$rule', ({ bad, error, good }) => {
  it('error case names the key', () => {
    const out = run(bad);
    expect(out.errors).toContainEqual({ path: error[0], message: expect.stringContaining(error[1]) });
  });
  it('ok case parses', () => {
    const out = run(good);
    expect(out.errors).toEqual([]);
  });
});

describe('rules with warnings and adjusted values', () => {
  it('sessions.store database forces stateless and warns when the file said false', () => {
    const forced = run(`sessions:\n  store: database\nserver:\n  streamable:\n    stateless: false\n${DB}`);
    expect(forced.config?.server.streamable.stateless).toBe(true);
    expect(forced.warnings).toContainEqual({ path: 'server.streamable.stateless', message: expect.stringContaining('forced to true') });

    const silent = run(`sessions:\n  store: database\n${DB}`);
    expect(silent.config?.server.streamable.stateless).toBe(true);
    expect(silent.warnings).toEqual([]);

    const memory = run('sessions:\n  store: memory\n');
    expect(memory.config?.server.streamable.stateless).toBe(false);
  });

  it('audit.enabled without a database warns, keeps the value, and is not active', () => {
    const out = run('audit:\n  enabled: true\n');
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([{ path: 'audit.enabled', message: 'no database.dsn: tool calls are not audited, except under `platform dev`, which audits into its embedded PostgreSQL' }]);
    expect(out.config?.audit.enabled).toBe(true);
    expect(auditActive(out.config as PlatformConfig)).toBe(false);

    const withDb = run(`audit:\n  enabled: true\n${DB}`);
    expect(withDb.warnings).toEqual([]);
    expect(auditActive(withDb.config as PlatformConfig)).toBe(true);
  });

  it('oauth without signing_key warns that tokens do not survive a restart', () => {
    const out = run('oauth:\n  enabled: true\n  issuer: https://mcp.example.com\n');
    expect(out.warnings.map((w) => w.path)).toContain('oauth.signing_key');
  });

  it('enrichment without its provider warns', () => {
    const out = run('injection:\n  trino_semantic_enrichment: true\n');
    expect(out.warnings).toEqual([{ path: 'injection.trino_semantic_enrichment', message: 'has no effect without semantic.provider' }]);
  });

  it('MCP_OBJSTORE_* variables are not read here: the object-store connections read them once (readObjstoreEnv)', () => {
    const text = 'toolkits:\n  objstore:\n    lake: { max_get_size: 2000 }\n';
    const out = run(text, { MCP_OBJSTORE_EXT_READONLY: 'true', MCP_OBJSTORE_MAX_GET_SIZE: '0', MCP_OBJSTORE_MAX_PUT_SIZE: 'big' });
    expect(out.errors).toEqual([]);
    expect(out.config?.toolkits.objstore.lake).toMatchObject({ read_only: false, max_get_size: 2000, max_put_size: 104_857_600 });
  });

  it('API key values are never echoed in messages', () => {
    const out = run('auth:\n  api_keys:\n    enabled: true\n    keys:\n      - { name: a, key: super-secret-1 }\n      - { name: b, key: super-secret-1 }\n');
    expect(out.errors).toEqual([{ path: 'auth.api_keys.keys[1].key', message: 'the same key value is used twice' }]);
    expect(JSON.stringify(out.errors)).not.toContain('super-secret-1');
  });
});

describe('issue 9 item 1: platform storage in the configuration', () => {
  const fs = (name: string, root: string, extra = '') => `    ${name}: { driver: filesystem, root: ${JSON.stringify(root)}${extra} }\n`;
  const objstore = (...instances: string[]) => `data_dir: /srv/platform\ntoolkits:\n  objstore:\n${instances.join('')}`;

  it('refuses a filesystem root inside another instance\'s root, naming both keys', () => {
    const out = run(objstore(fs('outer', '/srv/files'), fs('inner', '/srv/files/team')));
    expect(out.errors).toEqual([
      { path: 'toolkits.objstore.inner.root', message: expect.stringContaining('lies inside toolkits.objstore.outer.root (/srv/files)') },
    ]);
    // A default root (<data_dir>/objstore/<name>) counts too.
    const defaults = run(objstore(fs('all', '/srv/platform/objstore'), '    mine: { driver: filesystem }\n'));
    expect(defaults.errors.map((e) => e.path)).toEqual(['toolkits.objstore.mine.root']);
    // The very same root is one location, not a nesting; siblings are fine.
    expect(run(objstore(fs('a', '/srv/files'), fs('b', '/srv/files/'), fs('c', '/srv/files-2'))).errors).toEqual([]);
  });

  it('refuses a filesystem root that is or holds data_dir (database, DuckDB files, keys)', () => {
    for (const root of ['/srv/platform', '/srv', '/']) {
      expect(run(objstore(fs('lake', root))).errors, root).toEqual([
        { path: 'toolkits.objstore.lake.root', message: expect.stringContaining('holds data_dir (/srv/platform)') },
      ]);
    }
    expect(run(objstore(fs('lake', '/srv/platform/objstore/lake'))).errors).toEqual([]);
    // PLATFORM_DATA_DIR replaces data_dir at start: the check follows it.
    expect(run(objstore(fs('lake', '/opt')), { PLATFORM_DATA_DIR: '/opt/platform' }).errors.map((e) => e.path)).toEqual(['toolkits.objstore.lake.root']);
  });

  it('toolkits.objstore.<i>.internal defaults to false', () => {
    expect(run(OBJSTORE).config?.toolkits.objstore.lake?.internal).toBe(false);
  });

  it('warns when the managed-resource store is a connection of the objstore tools, and says what that means', () => {
    const out = run(OBJSTORE);
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([{ path: 'toolkits.objstore.lake', message: expect.stringContaining('also a connection of the objstore_* tools') }]);
    expect(out.warnings[0]?.message).toContain('refuse the platform\'s own buckets to every caller, administrators included');
    expect(out.warnings[0]?.message).toContain('internal: true');
    // resources.managed.connection wins over portal.s3_connection, which wins over the first instance.
    const named = run(objstore(fs('a', '/srv/a'), fs('b', '/srv/b', ', internal: true')) + 'resources:\n  managed:\n    connection: b\n');
    expect(named.warnings).toEqual([]);
    const portal = run(objstore(fs('a', '/srv/a', ', internal: true'), fs('b', '/srv/b')) + 'portal:\n  s3_connection: b\n');
    expect(portal.warnings.map((w) => w.path)).toEqual(['toolkits.objstore.b']);
  });

  it('warns when a tools-visible instance reaches the same storage as an internal resource store', () => {
    const shared = run(objstore(fs('lake', '/srv/files'), fs('platform', '/srv/files', ', internal: true')) + 'resources:\n  managed:\n    connection: platform\n');
    expect(shared.warnings).toEqual([
      { path: 'toolkits.objstore.lake', message: expect.stringContaining('reaches the same storage as toolkits.objstore.platform') },
    ]);
    const s3 = (name: string, lines: string) => `    ${name}: { ${lines} }\n`;
    const sameService = run(
      objstore(s3('lake', 'endpoint: "http://MinIO:9000/"'), s3('platform', 'endpoint: "http://minio:9000", internal: true')) +
        'resources:\n  managed:\n    connection: platform\n',
    );
    expect(sameService.warnings.map((w) => w.path)).toEqual(['toolkits.objstore.lake']);
    // Other credentials, or another service: the warning does not apply (the reservation still does).
    const otherKeys = run(
      objstore(s3('lake', 'endpoint: "http://minio:9000", access_key_id: a'), s3('platform', 'endpoint: "http://minio:9000", access_key_id: b, internal: true')) +
        'resources:\n  managed:\n    connection: platform\n',
    );
    expect(otherKeys.warnings).toEqual([]);
  });
});

describe('mcpapps: the built-in platform-info app', () => {
  it('warns about config keys the built-in app does not know, and still starts', () => {
    const out = run('mcpapps:\n  apps:\n    platform-info: { config: { brand_name: Acme, colour: red } }\n');
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([{ path: 'mcpapps.apps.platform-info.config.colour', message: expect.stringContaining('brand_name, brand_url, logo_svg') }]);
  });

  it('checks no ui:// URI or tool of an app while it or the master switch is off', () => {
    const off = run('mcpapps:\n  enabled: false\n  apps:\n    charts: { assets_path: /srv/charts, resource_uri: "ui://platform-info", tools: [platform_info] }\n');
    expect(off.errors).toEqual([]);
  });
});
