import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type ConfigIssue } from '../../shared/config/index.js';

function issues(text: string, env: Record<string, string | undefined>): ConfigIssue[] {
  try {
    parseConfig(text, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
}

describe('${VAR} expansion', () => {
  it('replaces a set variable', () => {
    const c = parseConfig('database:\n  dsn: ${DATABASE_DSN}\n', { DATABASE_DSN: 'postgres://db/platform' }).config;
    expect(c.database.dsn).toBe('postgres://db/platform');
  });

  it('replaces several variables inside one string', () => {
    const c = parseConfig('database:\n  dsn: "postgres://${DB_USER}:${DB_PASS}@db/platform"\n', { DB_USER: 'u', DB_PASS: 'p' }).config;
    expect(c.database.dsn).toBe('postgres://u:p@db/platform');
  });

  it('an unset variable is an issue naming the key and the variable, not an empty string', () => {
    expect(issues('database:\n  dsn: ${DATABASE_DSN}\n', {})).toEqual([
      { path: 'database.dsn', message: 'environment variable DATABASE_DSN is not set' },
    ]);
  });

  it('an unset variable inside a list names the element', () => {
    expect(issues('server:\n  tags: [sales, "${REGION}"]\n', {})).toEqual([
      { path: 'server.tags[1]', message: 'environment variable REGION is not set' },
    ]);
  });

  it('an unset variable for a required key is reported once', () => {
    const text = 'toolkits:\n  catalog:\n    main:\n      url: ${CATALOG_URL}\n';
    expect(issues(text, {})).toEqual([{ path: 'toolkits.catalog.main.url', message: 'environment variable CATALOG_URL is not set' }]);
  });

  it('an empty variable is set (empty), not missing', () => {
    const c = parseConfig('server:\n  version: "v${SUFFIX}"\n', { SUFFIX: '' }).config;
    expect(c.server.version).toBe('v');
  });

  it.each([
    ['unset', {}, 'fallback'],
    ['empty', { V: '' }, 'fallback'],
    ['set', { V: 'value' }, 'value'],
  ])('${VAR:-default} when %s', (_case, env, expected) => {
    const c = parseConfig('server:\n  description: ${V:-fallback}\n', env).config;
    expect(c.server.description).toBe(expected);
  });

  it('the default may be empty, which leaves an optional key unset', () => {
    const c = parseConfig('database:\n  dsn: ${DATABASE_DSN:-}\n', {}).config;
    expect(c.database.dsn).toBeUndefined();
  });

  it('$${VAR} is the literal text ${VAR}', () => {
    const c = parseConfig('server:\n  description: "cost is $${AMOUNT}"\n', {}).config;
    expect(c.server.description).toBe('cost is ${AMOUNT}');
  });

  it('a lone $ stays', () => {
    const c = parseConfig('server:\n  description: "costs $5"\n', {}).config;
    expect(c.server.description).toBe('costs $5');
  });

  it('a malformed reference is an issue', () => {
    expect(issues('server:\n  description: "${not valid}"\n', {})[0]).toMatchObject({ path: 'server.description' });
    expect(issues('server:\n  description: "${OPEN"\n', {})[0]).toMatchObject({ path: 'server.description' });
  });

  it('expanded strings feed integers and booleans', () => {
    const c = parseConfig(
      'auth:\n  allow_anonymous: ${ANON}\ndatabase:\n  max_open_conns: ${CONNS:-40}\n',
      { ANON: 'true' },
    ).config;
    expect(c.auth.allow_anonymous).toBe(true);
    expect(c.database.max_open_conns).toBe(40);
  });

  it('an expanded value that is not a number is an issue for an integer key', () => {
    expect(issues('database:\n  max_open_conns: ${CONNS}\n', { CONNS: 'many' })).toEqual([
      { path: 'database.max_open_conns', message: 'expected an integer' },
    ]);
  });

  it('cannot inject YAML: the value stays one string', () => {
    const evil = 'x\nauth:\n  allow_anonymous: true\n"quoted": [1, 2]';
    const c = parseConfig('server:\n  description: ${DESC}\n', { DESC: evil }).config;
    expect(c.server.description).toBe(evil);
    expect(c.auth.allow_anonymous).toBe(false);
  });

  it('cannot inject YAML into a key that follows', () => {
    const c = parseConfig('server:\n  name: "${NAME}"\n  transport: http\n', { NAME: 'a"\n  transport: stdio\n  x: "' }).config;
    expect(c.server.transport).toBe('http');
    expect(c.server.name).toBe('a"\n  transport: stdio\n  x: "');
  });

  it('map keys are not expanded', () => {
    const c = parseConfig('tools:\n  description_overrides:\n    "${TOOL}": text\n', { TOOL: 'sql_query' }).config;
    expect(c.tools.description_overrides).toEqual({ '${TOOL}': 'text' });
  });

  it('reads process.env when no env is passed', () => {
    const name = 'PLATFORM_CONFIG_TEST_VAR';
    process.env[name] = 'from-process';
    try {
      expect(parseConfig(`server:\n  description: \${${name}}\n`).config.server.description).toBe('from-process');
    } finally {
      delete process.env[name];
    }
  });
});
