import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPlatform } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

describe('platform CLI', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cli-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('config check lists every problem with its key path and exits non-zero', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      `
server:
  transport: carrier-pigeon
  streamable:
    session_timeout: soon
sessions:
  store: database
oauth:
  enabled: true
database:
  max_open_conns: -3
`,
    );
    const { code, stdout } = await runPlatform(['config', 'check', file]);
    expect(code).not.toBe(0);
    for (const key of ['server.transport', 'server.streamable.session_timeout', 'sessions.store', 'oauth.issuer', 'database.max_open_conns']) {
      expect(stdout).toContain(`${key}:`);
    }
  });

  it('config check accepts the shipped example file', async () => {
    const key32 = Buffer.alloc(32, 7).toString('base64');
    const secrets = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'BILLING_TOKEN', 'CATALOG_TOKEN', 'CI_API_KEY', 'CLAUDE_CLIENT_SECRET', 'CRM_KEY', 'ETL_API_KEY',
      'OIDC_CLIENT_SECRET', 'OPENAI_API_KEY', 'TRINO_PASSWORD', 'UPSTREAM_CLIENT_SECRET'];
    const { code, stdout } = await runPlatform(['config', 'check', 'platform.example.yaml'], {
      ...Object.fromEntries(secrets.map((name) => [name, `value-of-${name.toLowerCase()}`])),
      DATABASE_DSN: 'postgresql://postgres@127.0.0.1:5432/postgres',
      PLATFORM_ENCRYPTION_KEY: key32,
      SESSION_SIGNING_KEY: key32,
      OAUTH_SIGNING_KEY: key32,
    });
    expect(stdout).toContain('platform.example.yaml: ok');
    expect(code).toBe(0);
  });

  it('serve refuses an invalid file, naming the keys', async () => {
    const file = join(dir, 'serve.yaml');
    await writeFile(file, 'server:\n  address: 12\n  shutdown:\n    grace_period: forever\n');
    const { code, stderr } = await runPlatform(['serve', '--config', file]);
    expect(code).toBe(2);
    expect(stderr).toContain('server.shutdown.grace_period');
  });

  it('a config file named explicitly must exist', async () => {
    const { code, stderr } = await runPlatform(['serve', '--config', join(dir, 'missing.yaml')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/missing\.yaml/);
  });

  it('migrate applies the migrations once, then reports them as applied', async () => {
    const database = await createTestDatabase();
    try {
      const file = join(dir, 'migrate.yaml');
      await writeFile(file, `database:\n  dsn: \${TEST_DSN}\n`);
      const first = await runPlatform(['migrate', '--config', file], { TEST_DSN: database.dsn });
      expect(first.stdout).toMatch(/^applied [1-9]\d* migration\(s\); 0 already applied/);
      const second = await runPlatform(['migrate', '--config', file], { TEST_DSN: database.dsn });
      expect(second.stdout).toMatch(/^applied 0 migration\(s\); [1-9]\d* already applied/);
      expect(second.code).toBe(0);
    } finally {
      await database.drop();
    }
  });

  it('--help explains the commands and the --config option', async () => {
    const { stdout } = await runPlatform(['--help']);
    for (const word of ['serve', 'worker', 'stdio', 'dev', 'migrate', 'config', '--config', 'PLATFORM_CONFIG']) expect(stdout).toContain(word);
  });
});
