/**
 * Rules that involve more than one key (spec document 1 unless noted). Each is a
 * pure function of the parsed config; each issue names the key to look at.
 *
 * Errors (startup refuses):
 * - sessions.store: database requires database.dsn (and forces server.streamable.stateless)
 * - portal.enabled requires database.dsn, at least one toolkits.objstore instance and
 *   portal.s3_bucket; portal.s3_connection must name an objstore instance (required
 *   when there are several)
 * - oauth.enabled requires oauth.issuer; oauth.upstream, when partly set, needs issuer,
 *   client_id and redirect_uri; oauth.clients[].id unique
 * - auth.oidc.enabled requires auth.oidc.issuer
 * - auth.browser_session.enabled requires auth.oidc.enabled, auth.oidc.client_id (the sign-in's client)
 *   and a signing_key (≥ 32 bytes base64)
 * - auth.api_keys.enabled: every key has a non-empty key and name; names and keys unique
 * - server.tls.enabled requires cert_file and key_file; temporal.tls cert/key come in pairs
 * - server.prompts[].name unique; a prompt's argument names unique
 * - resources.custom[]: exactly one of content / content_file; uri unique
 * - knowledge.enabled requires database.dsn; knowledge.apply.datahub_connection names a catalog instance
 * - semantic/query/storage.provider (other than noop) needs an instance of that kind
 * - toolkits.sql.<i> with engine trino requires host and user; default_limit ≤ max_limit
 *   (sql and catalog)
 * - mcpapps.*: rules-mcpapps.ts (assets_path, entry_point, resource_uri, csp origins, one app per tool,
 *   the built-in app's brand keys)
 * - personas.default_persona and role_mapping targets name defined personas (`default` is built in)
 * - metrics.address and webhooks.receiver.address differ from server.address
 * - server.workers above 1 (ours): sessions.store database, an HTTP transport, no DuckDB
 *   toolkits.sql instance
 * - toolkits.objstore.<i>.root (driver filesystem): not inside another instance's root, and not
 *   data_dir itself or a directory holding it (checked against PLATFORM_DATA_DIR when set)
 *
 * Warnings (startup continues):
 * - sessions.store: database while the file sets server.streamable.stateless false (forced to true)
 * - audit.enabled without database.dsn: nothing is audited, but under `platform dev` (its embedded PostgreSQL; use
 *   auditActive(config) from helpers.ts to know whether audit actually runs); audit.log_tool_calls without audit.enabled
 * - oauth.enabled without signing_key (tokens do not survive a restart) or without upstream;
 *   oauth.dcr.enabled with no allowed_redirect_patterns; upstream.redirect_uri not {issuer}/oauth/callback
 * - auth.api_keys.enabled with no keys; admin.enabled with an undefined admin persona
 * - injection.* enrichment switched on without the provider it needs (no-op)
 * - the managed-resource store is an objstore instance the objstore_* tools can use (not
 *   `internal`), or another such instance reaches the same storage
 *
 * The MCP_OBJSTORE_* variables of document 3 are read once, where the object-store connections
 * are built (readObjstoreEnv in shared/objstore/rules.ts), not here.
 */

import path from 'node:path';
import type { Env, RawIssue } from './env.js';
import { objstoreRoot, resourceStoreName } from './helpers.js';
import { getAt, type KeyPath } from './paths.js';
import { checkMcpApps } from './rules-mcpapps.js';
import type { ObjstoreInstanceConfig, PlatformConfig } from './schema.js';

export interface RuleResult {
  config: PlatformConfig;
  errors: RawIssue[];
  warnings: RawIssue[];
}

const p = (dotted: string): KeyPath => dotted.split('.');

export function applyCrossKeyRules(input: PlatformConfig, raw: unknown, env: Env): RuleResult {
  const errors: RawIssue[] = [];
  const warnings: RawIssue[] = [];
  const err = (path: KeyPath, message: string, ...involves: string[]) => errors.push({ path, message, involves: involves.map(p) });
  const warn = (path: KeyPath, message: string, ...involves: string[]) => warnings.push({ path, message, involves: involves.map(p) });
  let config = input;
  const hasDb = config.database.dsn !== undefined;

  // sessions
  if (config.sessions.store === 'database') {
    if (!hasDb) err(p('sessions.store'), 'sessions.store "database" requires database.dsn', 'database.dsn');
    if (getAt(raw, p('server.streamable.stateless')) === false) {
      warn(p('server.streamable.stateless'), 'forced to true because sessions.store is "database"');
    }
    if (!config.server.streamable.stateless) {
      config = { ...config, server: { ...config.server, streamable: { ...config.server.streamable, stateless: true } } };
    }
  }

  // audit
  if (config.audit.enabled && !hasDb) warn(p('audit.enabled'), 'no database.dsn: tool calls are not audited, except under `platform dev`, which audits into its embedded PostgreSQL', 'database.dsn');
  if (config.audit.log_tool_calls && !config.audit.enabled) {
    warn(p('audit.log_tool_calls'), 'has no effect while audit.enabled is false');
  }

  // portal
  const objstoreNames = Object.keys(config.toolkits.objstore);
  if (config.portal.enabled) {
    if (!hasDb) err(p('portal.enabled'), 'the portal requires database.dsn', 'database.dsn');
    if (objstoreNames.length === 0) err(p('portal.enabled'), 'the portal requires at least one toolkits.objstore instance', 'toolkits.objstore');
    if (config.portal.s3_bucket === undefined) err(p('portal.s3_bucket'), 'required when portal.enabled is true');
    if (config.portal.s3_connection === undefined && objstoreNames.length > 1) {
      err(p('portal.s3_connection'), `required when several toolkits.objstore instances exist (${objstoreNames.join(', ')})`, 'toolkits.objstore');
    }
  }
  if (config.resources.managed.connection !== undefined && !objstoreNames.includes(config.resources.managed.connection)) {
    err(p('resources.managed.connection'), `no toolkits.objstore instance named "${config.resources.managed.connection}"`, 'toolkits.objstore');
  }
  if (config.portal.s3_connection !== undefined && !objstoreNames.includes(config.portal.s3_connection)) {
    err(p('portal.s3_connection'), `no toolkits.objstore instance named "${config.portal.s3_connection}"`, 'toolkits.objstore');
  }

  // oauth
  const oauth = config.oauth;
  if (oauth.enabled) {
    if (oauth.issuer === undefined) err(p('oauth.issuer'), 'required when oauth.enabled is true');
    if (oauth.signing_key === undefined) {
      warn(p('oauth.signing_key'), 'not set: a key is generated at startup and issued tokens do not survive a restart');
    }
    const up = oauth.upstream;
    const upstreamSet = [up.issuer, up.client_id, up.client_secret, up.redirect_uri].some((v) => v !== undefined);
    if (!upstreamSet) {
      warn(p('oauth.upstream'), 'not configured: authorization requests will fail with "upstream IdP not configured"');
    }
    if (oauth.dcr.enabled && oauth.dcr.allowed_redirect_patterns.length === 0) {
      warn(p('oauth.dcr.allowed_redirect_patterns'), 'empty: every dynamic registration will be refused');
    }
  }
  {
    const up = oauth.upstream;
    const upstreamSet = [up.issuer, up.client_id, up.client_secret, up.redirect_uri].some((v) => v !== undefined);
    if (upstreamSet) {
      for (const k of ['issuer', 'client_id', 'redirect_uri'] as const) {
        if (up[k] === undefined) err(['oauth', 'upstream', k], 'required when oauth.upstream is configured');
      }
      if (oauth.issuer !== undefined && up.redirect_uri !== undefined) {
        const expected = `${oauth.issuer.replace(/\/+$/, '')}/oauth/callback`;
        if (up.redirect_uri !== expected) warn(p('oauth.upstream.redirect_uri'), `expected ${expected}`, 'oauth.issuer');
      }
    }
  }
  reportDuplicates(oauth.clients.map((c) => c.id), (i, v) => err(['oauth', 'clients', i, 'id'], `duplicate client id "${v}"`));

  // auth
  const a = config.auth;
  if (a.oidc.enabled && a.oidc.issuer === undefined) err(p('auth.oidc.issuer'), 'required when auth.oidc.enabled is true');
  if (a.browser_session.enabled) {
    if (!a.oidc.enabled) err(p('auth.browser_session.enabled'), 'browser sessions require auth.oidc.enabled', 'auth.oidc.enabled');
    if (a.oidc.enabled && a.oidc.client_id === undefined) {
      err(p('auth.oidc.client_id'), 'required when browser sessions are enabled (the client people sign in through)', 'auth.browser_session.enabled');
    }
    if (a.browser_session.signing_key === undefined) {
      err(p('auth.browser_session.signing_key'), 'required when browser sessions are enabled (base64 of at least 32 bytes)');
    }
  }
  if (a.api_keys.enabled) {
    if (a.api_keys.keys.length === 0) warn(p('auth.api_keys.keys'), 'API keys are enabled but none is defined');
    a.api_keys.keys.forEach((k, i) => {
      if (k.key.trim() === '') err(['auth', 'api_keys', 'keys', i, 'key'], 'must not be empty');
      if (k.name.trim() === '') err(['auth', 'api_keys', 'keys', i, 'name'], 'must not be empty');
    });
    reportDuplicates(a.api_keys.keys.map((k) => k.name), (i, v) => err(['auth', 'api_keys', 'keys', i, 'name'], `duplicate key name "${v}"`));
    // Never echo a key value: it is a secret.
    reportDuplicates(a.api_keys.keys.map((k) => k.key), (i) => err(['auth', 'api_keys', 'keys', i, 'key'], 'the same key value is used twice'));
  }

  // server
  if (config.server.tls.enabled) {
    if (config.server.tls.cert_file === undefined) err(p('server.tls.cert_file'), 'required when server.tls.enabled is true');
    if (config.server.tls.key_file === undefined) err(p('server.tls.key_file'), 'required when server.tls.enabled is true');
  }
  checkWorkers(config, err);
  reportDuplicates(config.server.prompts.map((x) => x.name), (i, v) => err(['server', 'prompts', i, 'name'], `duplicate prompt name "${v}"`));
  config.server.prompts.forEach((prompt, i) => {
    reportDuplicates(prompt.arguments.map((x) => x.name), (j, v) =>
      err(['server', 'prompts', i, 'arguments', j, 'name'], `duplicate argument name "${v}"`),
    );
  });
  for (const key of ['metrics', 'webhooks.receiver'] as const) {
    const addr = key === 'metrics' ? config.metrics.address : config.webhooks.receiver.address;
    if (addr && sameListener(addr, config.server.address)) {
      err([...p(key), 'address'], `must differ from server.address (${config.server.address})`, 'server.address');
    }
  }

  // temporal
  const ttls = config.temporal.tls;
  if ((ttls.cert_file === undefined) !== (ttls.key_file === undefined)) {
    err(p(ttls.cert_file === undefined ? 'temporal.tls.cert_file' : 'temporal.tls.key_file'), 'temporal.tls.cert_file and key_file are set together (client certificate)');
  }

  // resources
  config.resources.custom.forEach((r, i) => {
    const hasContent = r.content !== undefined;
    const hasFile = r.content_file !== undefined;
    if (hasContent && hasFile) err(['resources', 'custom', i], 'content and content_file are mutually exclusive');
    if (!hasContent && !hasFile) err(['resources', 'custom', i], 'one of content or content_file is required');
  });
  reportDuplicates(config.resources.custom.map((r) => r.uri), (i, v) => err(['resources', 'custom', i, 'uri'], `duplicate resource URI "${v}"`));

  // knowledge
  if (config.knowledge.enabled && !hasDb) err(p('knowledge.enabled'), 'knowledge capture requires database.dsn', 'database.dsn');
  const dc = config.knowledge.apply.datahub_connection;
  if (dc !== undefined && !(dc in config.toolkits.catalog)) {
    err(p('knowledge.apply.datahub_connection'), `no toolkits.catalog instance named "${dc}"`, 'toolkits.catalog');
  }
  if (config.knowledge.apply.enabled && !config.knowledge.enabled) {
    warn(p('knowledge.apply.enabled'), 'has no effect while knowledge.enabled is false');
  }

  // providers
  const providerKinds = [
    ['semantic', config.semantic.provider, config.semantic.instance, 'catalog'],
    ['query', config.query.provider, config.query.instance, 'sql'],
    ['storage', config.storage.provider, config.storage.instance, 'objstore'],
  ] as const;
  for (const [section, provider, instance, kind] of providerKinds) {
    if (provider === undefined || provider === 'noop') continue;
    const names = Object.keys(config.toolkits[kind]);
    if (instance === undefined) err([section, 'instance'], `required when ${section}.provider is "${provider}" (a toolkits.${kind} instance name)`);
    else if (!names.includes(instance)) err([section, 'instance'], `no toolkits.${kind} instance named "${instance}"`, `toolkits.${kind}`);
  }
  const needs = [
    ['trino_semantic_enrichment', config.semantic.provider, 'semantic.provider'],
    ['s3_semantic_enrichment', config.semantic.provider, 'semantic.provider'],
    ['datahub_query_enrichment', config.query.provider, 'query.provider'],
    ['datahub_storage_enrichment', config.storage.provider, 'storage.provider'],
  ] as const;
  for (const [key, provider, providerKey] of needs) {
    if (config.injection[key] && (provider === undefined || provider === 'noop')) {
      warn(['injection', key], `has no effect without ${providerKey}`, providerKey);
    }
  }

  // toolkits
  for (const [name, inst] of Object.entries(config.toolkits.sql)) {
    if (inst.engine === 'trino') {
      if (inst.host === undefined) err(['toolkits', 'sql', name, 'host'], 'required for engine trino');
      if (inst.user === undefined) err(['toolkits', 'sql', name, 'user'], 'required for engine trino');
    }
    if (inst.default_limit > inst.max_limit) err(['toolkits', 'sql', name, 'default_limit'], `must not exceed max_limit (${inst.max_limit})`);
  }
  for (const [name, inst] of Object.entries(config.toolkits.catalog)) {
    if (inst.default_limit > inst.max_limit) err(['toolkits', 'catalog', name, 'default_limit'], `must not exceed max_limit (${inst.max_limit})`);
  }
  checkPlatformStorage(config, env, err, warn);

  checkMcpApps(config, err, warn);

  // personas
  const personaNames = new Set(['default', ...Object.keys(config.personas.definitions)]);
  if (!personaNames.has(config.personas.default_persona)) {
    err(p('personas.default_persona'), `no persona named "${config.personas.default_persona}" in personas.definitions`, 'personas.definitions');
  }
  for (const mapKey of ['oidc_to_persona', 'user_personas'] as const) {
    for (const [from, to] of Object.entries(config.personas.role_mapping[mapKey])) {
      if (!personaNames.has(to)) err(['personas', 'role_mapping', mapKey, from], `no persona named "${to}" in personas.definitions`, 'personas.definitions');
    }
  }
  if (config.admin.enabled && !(config.admin.persona in config.personas.definitions)) {
    warn(p('admin.persona'), `no persona named "${config.admin.persona}" in personas.definitions: nobody can use the admin API`, 'personas.definitions');
  }

  return { config, errors, warnings };
}

function reportDuplicates(values: Array<string | undefined>, report: (index: number, value: string) => void): void {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (v === undefined || v === '') return;
    if (seen.has(v)) report(i, v);
    seen.add(v);
  });
}

/** Two listen addresses collide when their ports match and either binds every interface or both hosts match. */
function sameListener(a: string, b: string): boolean {
  const split = (s: string) => {
    const i = s.lastIndexOf(':');
    return { host: s.slice(0, i), port: s.slice(i + 1) };
  };
  const x = split(a);
  const y = split(b);
  if (x.port !== y.port || x.port === '0') return false;
  const any = (h: string) => h === '' || h === '0.0.0.0' || h === '[::]';
  return any(x.host) || any(y.host) || x.host === y.host;
}

type Report = (path: KeyPath, message: string, ...involves: string[]) => void;

/**
 * Several api processes on one port (server.workers, ours) share nothing but the database: each
 * request may reach any of them. So sessions must live in the database, the transport must be
 * HTTP (stdio is one process), and no DuckDB file may be configured (one process per file).
 */
function checkWorkers(config: PlatformConfig, err: Report): void {
  const workers = config.server.workers;
  if (workers <= 1) return;
  const key = p('server.workers');
  if (config.sessions.store !== 'database') {
    err(key, `${workers} workers need sessions.store "database": in-memory sessions would be split between the worker processes`, 'sessions.store');
  }
  if (config.server.transport === 'stdio') {
    err(key, `${workers} workers need server.transport "http" or "sse": stdio is served by one process`, 'server.transport');
  }
  for (const [name, inst] of Object.entries(config.toolkits.sql)) {
    if (inst.engine === 'duckdb') {
      err(key, `${workers} workers cannot share the DuckDB file of toolkits.sql.${name} (one engine process per file): use Trino, or one worker`, `toolkits.sql.${name}.engine`);
    }
  }
}

/** `child` lies strictly inside `parent` (both resolved). */
function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * Object storage the platform keeps for itself (docs/objstore.md, "Platform storage"). Filesystem
 * roots must not nest, nor hold data_dir (the platform's database, DuckDB files and keys): one
 * store's buckets would be folders of another's. And a warning says when the managed-resource
 * store is reachable by the objstore tools, and what that means.
 */
function checkPlatformStorage(config: PlatformConfig, env: Env, err: Report, warn: Report): void {
  const instances = config.toolkits.objstore;
  // The CLI lets PLATFORM_DATA_DIR replace data_dir after loading: check the one that will be used.
  const dataDir = path.resolve(env.PLATFORM_DATA_DIR || config.data_dir);
  const rootOf = (name: string) => path.resolve(objstoreRoot({ ...config, data_dir: dataDir }, name));
  const roots = Object.keys(instances)
    .filter((name) => instances[name]!.driver === 'filesystem')
    .map((name) => ({ name, dir: rootOf(name) }));
  for (const a of roots) {
    const key = ['toolkits', 'objstore', a.name, 'root'];
    if (a.dir === dataDir || isInside(dataDir, a.dir)) {
      err(key, `${a.dir} holds data_dir (${dataDir}), where the platform keeps its database, DuckDB files and keys: use a directory outside it, or under ${path.join(dataDir, 'objstore')}`, 'data_dir');
    }
    for (const b of roots) {
      if (isInside(a.dir, b.dir)) {
        err(key, `${a.dir} lies inside toolkits.objstore.${b.name}.root (${b.dir}): one store's buckets would be folders of the other's; give each instance a directory of its own (or the very same one)`, `toolkits.objstore.${b.name}.root`);
      }
    }
  }

  const store = resourceStoreName(config);
  const holder = store === undefined ? undefined : instances[store];
  if (store === undefined || holder === undefined) return;
  if (!holder.internal) {
    warn(
      ['toolkits', 'objstore', store],
      `holds the managed-resource files (bucket "${holder.bucket_prefix ?? ''}resources") and is also a connection of the objstore_* tools: ` +
        'the tools refuse the platform\'s own buckets to every caller, administrators included, but everything else on it is open to them. ' +
        'Set internal: true on it to hide it from the tools, or point resources.managed.connection at an instance of its own',
    );
    return;
  }
  for (const [name, other] of Object.entries(instances)) {
    if (name === store || other.internal || !sameStorage(holder, rootOf(store), other, rootOf(name))) continue;
    warn(
      ['toolkits', 'objstore', name],
      `reaches the same storage as toolkits.objstore.${store}, which holds the managed-resource files: internal: true does not hide that storage from this instance. ` +
        'The objstore_* tools refuse the platform\'s buckets here too, to every caller; give the platform storage of its own (another root, endpoint or credentials) to keep them apart',
      `toolkits.objstore.${store}`,
    );
  }
}

/**
 * Best effort, for the warning only (the reservation itself does not depend on it): the same
 * filesystem root, or the same S3 service (any AWS endpoint is one namespace) with the same credentials.
 */
function sameStorage(a: ObjstoreInstanceConfig, aRoot: string, b: ObjstoreInstanceConfig, bRoot: string): boolean {
  if (a.driver !== b.driver) return false;
  if (a.driver === 'filesystem') return aRoot === bRoot;
  const service = (i: ObjstoreInstanceConfig) => {
    if (i.endpoint === undefined) return 'aws';
    const url = new URL(i.endpoint);
    const host = url.host.toLowerCase();
    return host === 'amazonaws.com' || host.endsWith('.amazonaws.com') ? 'aws' : `${host}${url.pathname.replace(/\/+$/, '')}`;
  };
  const identity = (i: ObjstoreInstanceConfig) => i.access_key_id ?? (i.profile !== undefined ? `profile ${i.profile}` : 'default chain');
  return service(a) === service(b) && identity(a) === identity(b);
}
