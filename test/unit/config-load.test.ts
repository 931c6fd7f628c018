import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile, parseConfig } from '../../shared/config/index.js';

const dir = mkdtempSync(join(tmpdir(), 'config-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('a file with several mistakes', () => {
  const text = `
server:
  transport: websocket          # not an accepted transport
  address: "8080"               # not a listen address
  streamable:
    session_timeout: 30         # duration without unit
  tls:
    enabled: true               # but no cert_file / key_file
database:
  max_open_conns: -1            # below the minimum
auth:
  api_keys:
    enabled: true
    keys:
      - key: \${MISSING_KEY}
        name: ci
      - key: second
        name: ci                # duplicate name
toolkits:
  catalog:
    main:
      timeout: 10s              # url missing
oauth:
  enabled: true                 # no issuer
`;
  const err = errorOf(() => parseConfig(text, {}));

  it('lists every problem with its path in one ConfigError', () => {
    const paths = err.issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'server.transport',
        'server.address',
        'server.streamable.session_timeout',
        'server.tls.cert_file',
        'server.tls.key_file',
        'database.max_open_conns',
        'auth.api_keys.keys[0].key',
        'auth.api_keys.keys[1].name',
        'toolkits.catalog.main.url',
        'oauth.issuer',
      ]),
    );
    expect(err.issues).toHaveLength(10);
  });

  it('the message has one "path: message" line per issue', () => {
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('Invalid configuration (10 problems):');
    expect(lines.slice(1)).toEqual(err.issues.map((i) => `${i.path}: ${i.message}`));
    expect(err.message).toContain('auth.api_keys.keys[0].key: environment variable MISSING_KEY is not set');
    expect(err.message).toContain('toolkits.catalog.main.url: required');
  });
});

describe('unknown keys', () => {
  it('warn with their path and are dropped', () => {
    const { config, warnings } = parseConfig(
      'server:\n  name: acme\n  colour: blue\nsurprise: 1\ntoolkits:\n  sql:\n    wh: { engine: duckdb, hostname: x }\n',
      {},
    );
    expect(warnings).toHaveLength(3);
    expect(warnings).toEqual(
      expect.arrayContaining([
        { path: 'server.colour', message: 'unknown key' },
        { path: 'surprise', message: 'unknown key' },
        { path: 'toolkits.sql.wh.hostname', message: 'unknown key' },
      ]),
    );
    expect(config.server.name).toBe('acme');
    expect(config).not.toHaveProperty('surprise');
    expect(config.toolkits.sql.wh).not.toHaveProperty('hostname');
  });

  it('free-form maps (mcpapps config, description overrides) are not checked for unknown keys', () => {
    const { warnings, config } = parseConfig(
      'mcpapps:\n  apps:\n    charts:\n      assets_path: /srv/charts\n      config: { brand_name: Acme, anything: [1, 2] }\ntools:\n  description_overrides:\n    sql_query: Run SQL\n',
      {},
    );
    expect(warnings).toEqual([]);
    expect(config.mcpapps.apps.charts?.config).toEqual({ brand_name: 'Acme', anything: [1, 2] });
  });
});

describe('YAML problems', () => {
  it('a syntax error names the line', () => {
    const err = errorOf(() => parseConfig('server:\n  name: ok\n  tags: [a, b\nauth: {}\n', {}));
    expect(err.issues[0]?.path).toBe('(yaml)');
    expect(err.issues[0]?.message).toMatch(/^line \d+, column \d+: /);
  });

  it('a duplicate key is an error with its line', () => {
    const err = errorOf(() => parseConfig('server:\n  name: a\n  name: b\n', {}));
    expect(err.issues[0]?.message).toMatch(/^line 3, column 3: .*unique/i);
  });

  it('a top level that is not a mapping is an error', () => {
    expect(errorOf(() => parseConfig('- a\n- b\n', {})).issues[0]).toMatchObject({ path: '(root)' });
    expect(errorOf(() => parseConfig('just text', {})).issues[0]).toMatchObject({ path: '(root)' });
  });

  it('a section of the wrong shape names it', () => {
    expect(errorOf(() => parseConfig('server: 5\n', {})).issues).toEqual([{ path: 'server', message: 'expected a mapping, got number 5' }]);
    expect(errorOf(() => parseConfig('server:\n  tags: sales\n', {})).issues).toEqual([
      { path: 'server.tags', message: 'expected a list of strings' },
    ]);
  });

  it('YAML 1.2 scalars: yes/no are strings, so a boolean key refuses them', () => {
    expect(errorOf(() => parseConfig('auth:\n  allow_anonymous: yes\n', {})).issues).toEqual([
      { path: 'auth.allow_anonymous', message: 'expected true or false' },
    ]);
  });

  it('anchors and merge keys work', () => {
    const { config } = parseConfig(
      'toolkits:\n  sql:\n    a: &base { host: trino, user: svc, read_only: true }\n    b: { <<: *base, host: trino2 }\n',
      {},
    );
    expect(config.toolkits.sql.b).toMatchObject({ host: 'trino2', user: 'svc', read_only: true });
  });
});

describe('scalar types', () => {
  it.each([
    ['a fractional integer', 'database:\n  max_open_conns: 2.5\n', 'database.max_open_conns', 'expected an integer'],
    ['an unsafe int64', 'resources:\n  managed:\n    max_upload_bytes: 9007199254740993\n', 'resources.managed.max_upload_bytes', 'expected an integer'],
    ['a float out of range', 'tuning:\n  rules:\n    quality_threshold: 1.5\n', 'tuning.rules.quality_threshold', 'must be at most 1'],
    ['a number for a string', 'server:\n  version: 1.0\n', 'server.version', 'expected a string'],
    ['a bad URL', 'oauth:\n  issuer: not a url\n', 'oauth.issuer', 'expected an http(s) URL'],
    ['a bad icon source', 'icons:\n  tools:\n    sql_query: { src: "http://x/icon.svg" }\n', 'icons.tools.sql_query.src', 'https://'],
    ['a bad instance name', 'toolkits:\n  objstore:\n    "my lake": {}\n', 'toolkits.objstore["my lake"]', 'invalid name'],
    ['a bad lineage inherit value', 'semantic:\n  lineage:\n    inherit: [owners]\n', 'semantic.lineage.inherit[0]', 'glossary_terms, descriptions, tags'],
    ['a temporal address without host', 'temporal:\n  address: ":7233"\n', 'temporal.address', 'expected host:port'],
    ['a listen address without port', 'metrics:\n  address: localhost\n', 'metrics.address', 'expected a listen address'],
    ['an index rule without index', 'resources:\n  index:\n    - { folder: "data/**" }\n', 'resources.index[0].index', 'required'],
  ])('%s', (_name, text, path, message) => {
    const err = errorOf(() => parseConfig(text, {}));
    expect(err.issues).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('int64 values keep their exact value when safe', () => {
    const { config } = parseConfig('toolkits:\n  objstore:\n    lake: { max_put_size: 5368709120 }\n', {});
    expect(config.toolkits.objstore.lake?.max_put_size).toBe(5_368_709_120);
  });
});

describe('loadConfigFile', () => {
  it('reads and parses a file', () => {
    const file = join(dir, 'platform.yaml');
    writeFileSync(file, 'server:\n  name: from-file\ndatabase:\n  dsn: ${DSN}\n');
    const { config } = loadConfigFile(file, { DSN: 'postgres://x/y' });
    expect(config.server.name).toBe('from-file');
    expect(config.database.dsn).toBe('postgres://x/y');
  });

  it('a missing file is a ConfigError naming the file', () => {
    const file = join(dir, 'nope.yaml');
    const err = errorOf(() => loadConfigFile(file, {}));
    expect(err.file).toBe(file);
    expect(err.message).toContain(file);
    expect(err.issues[0]?.message).toContain('file not found');
  });

  it('an unreadable file is a ConfigError naming the file', () => {
    if (process.getuid?.() === 0) return; // root reads anything
    const file = join(dir, 'locked.yaml');
    writeFileSync(file, 'server: {}\n');
    chmodSync(file, 0o000);
    const err = errorOf(() => loadConfigFile(file, {}));
    expect(err.message).toContain(file);
  });

  it('problems in a file name the file', () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'server:\n  transport: carrier-pigeon\n');
    const err = errorOf(() => loadConfigFile(file, {}));
    expect(err.message.split('\n')[0]).toBe(`Invalid configuration file ${file} (1 problem):`);
  });
});

describe('platform.example.yaml', () => {
  const text = readFileSync(new URL('../../platform.example.yaml', import.meta.url), 'utf8');
  const env = {
    DATABASE_DSN: 'postgres://platform:pw@db:5432/platform',
    PLATFORM_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    SESSION_SIGNING_KEY: Buffer.alloc(32, 9).toString('base64'),
    OAUTH_SIGNING_KEY: 'an-oauth-signing-key-of-32-bytes-or-more',
    OIDC_CLIENT_SECRET: 'oidc-secret',
    UPSTREAM_CLIENT_SECRET: 'upstream-secret',
    CLAUDE_CLIENT_SECRET: 'claude-secret',
    CI_API_KEY: 'ci-key',
    ETL_API_KEY: 'etl-key',
    TRINO_PASSWORD: 'trino-pw',
    CATALOG_TOKEN: 'catalog-token',
    AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    OPENAI_API_KEY: 'embedding-key',
    BILLING_TOKEN: 'billing-token',
    CRM_KEY: 'crm-key',
  };

  it('parses with no errors and no warnings', () => {
    const { config, warnings } = parseConfig(text, env);
    expect(warnings).toEqual([]);
    expect(config.server.transport).toBe('http');
    expect(config.database.dsn).toBe(env.DATABASE_DSN);
  });

  it('names every top-level section of the schema', () => {
    const { config } = parseConfig(text, env);
    for (const section of Object.keys(config)) expect(text).toMatch(new RegExp(`^${section}:`, 'm'));
  });

  it('refuses to start when a secret variable is missing', () => {
    const { DATABASE_DSN: _omit, ...rest } = env;
    const err = errorOf(() => parseConfig(text, rest));
    expect(err.issues).toEqual([{ path: 'database.dsn', message: 'environment variable DATABASE_DSN is not set' }]);
  });
});
