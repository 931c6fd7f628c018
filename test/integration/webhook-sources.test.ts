/**
 * Webhook sources (issue 14, item 1): the admin REST API over real HTTP on the real service and
 * Postgres — every config default and allowed value, the immutable fields, secrets sealed at rest
 * and never returned or logged, rotation with an overlap on an injected clock, ciphertexts bound to
 * their row, the key from secrets.encryption_key or generated, the error statuses, creation rolled
 * back when the table cannot be made, delete marking the source as being removed, and the last 50
 * rejections.
 */
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type PlatformConfig } from '../../shared/config/index.js';
import { SecretBoxError } from '../../shared/crypto/index.js';
import { createPool, migrate, type Db } from '../../shared/db/index.js';
import { silentLogger, type Logger } from '../../shared/logging/index.js';
import { createMetrics } from '../../shared/metrics/index.js';
import { buildMcpSurface } from '../../api/mcp/surface.js';
import { startApi, type RunningApi } from '../../api/start.js';
import {
  KEPT_REJECTIONS,
  WebhookRejections,
  WebhookRequestCounts,
  WebhookSources,
  WebhookWindows,
  secretsAt,
  webhookSecretBox,
  windowLengths,
  type WebhookSourceView,
  type WebhookTables,
} from '../../shared/webhooks/index.js';
import { createTestDatabase } from '../support/postgres.js';
import { capturingLogger } from '../support/logs.js';

const ADMIN_KEY = 'admin-key-0123456789';
const ANALYST_KEY = 'analyst-key-0123456789';
const SECRET = 'whsec-first-S3CR3T-never-shown';
const MiB = 1024 * 1024;
const START = Date.parse('2025-06-01T12:00:00.000Z');

/**
 * The scratch catalogs, faithfully for what sources see: each connection holds tables by name,
 * may refuse with a reason, and can fail to create a table.
 */
class ScratchTables implements WebhookTables {
  readonly calls: string[] = [];
  readonly tables = new Set<string>();
  readonly refusals = new Map<string, string>();
  failCreate: string | undefined;

  async check(connection: string) {
    this.calls.push(`check ${connection}`);
    const reason = this.refusals.get(connection);
    return reason ? { ok: false as const, reason } : { ok: true as const };
  }
  async create(source: WebhookSourceView) {
    this.calls.push(`create ${source.connection}.${source.table}`);
    if (this.failCreate) throw new Error(this.failCreate);
    const key = `${source.connection}.${source.table}`;
    if (this.tables.has(key)) throw new Error(`table ${key} already exists`);
    this.tables.add(key);
  }
}

/** The secrets the receiver would accept for source `name` at `nowMs`, as text. */
async function secretsOf(sources: WebhookSources, name: string, nowMs: number): Promise<string[]> {
  const source = await sources.receiving(name);
  if (!source) throw new Error(`no source ${name}`);
  return secretsAt(source.secrets, nowMs).map((s) => Buffer.from(s).toString());
}

function configYaml(opts: { dataDir: string; encryptionKey?: string; admin?: string }): string {
  return `
data_dir: ${JSON.stringify(opts.dataDir)}
server:
  address: "127.0.0.1:0"
  transport: http
  shutdown:
    pre_shutdown_delay: 0s
    grace_period: 5s
auth:
  api_keys:
    enabled: true
    keys:
      - { key: ${ADMIN_KEY}, name: root, roles: [admin] }
      - { key: ${ANALYST_KEY}, name: ann, roles: [analyst] }
personas:
  definitions:
    admin: { roles: [admin] }
    analyst: { roles: [analyst] }
    sales: { roles: [sales] }
${opts.admin ?? 'admin:\n  enabled: true'}
toolkits:
  sql:
    warehouse: { engine: duckdb }
    lake: { engine: duckdb }
${opts.encryptionKey ? `secrets:\n  encryption_key: ${opts.encryptionKey}` : ''}
`;
}

interface Answer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads parsed JSON freely
  json: any;
}

let database: { dsn: string; drop(): Promise<void> };
let db: Db;
let dataDir: string;
let config: PlatformConfig;
let api: RunningApi;
let now = START;
const clock = () => now;
const tables = new ScratchTables();
let sources: WebhookSources;
let rejections: WebhookRejections;
const logged = capturingLogger('trace');
const encryptionKey = randomBytes(32).toString('base64');

async function startAdminApi(cfg: PlatformConfig, log: Logger = silentLogger()): Promise<RunningApi> {
  return startApi({
    config: cfg,
    log,
    metrics: createMetrics({ defaultMetrics: false }),
    surface: buildMcpSurface({ config: cfg, log }),
    db,
    webhooks: { sources, rejections, windows: new WebhookWindows(db), requestCounts: new WebhookRequestCounts({ db, log }) },
  });
}

async function call(method: string, path: string, body?: unknown, key: string | null = ADMIN_KEY, base = api.url): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/v1/admin/webhooks/sources${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

const hmac = { mode: 'hmac', signature_header: 'X-Signature', secret: SECRET };

async function create(name: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const answer = await call('POST', '', { name, connection: 'warehouse', auth: hmac, ...extra });
  expect(answer.status, answer.text).toBe(201);
  return answer;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPool({ dsn: database.dsn, maxOpenConns: 8 });
  await migrate(db);
  dataDir = await mkdtemp(join(tmpdir(), 'webhook-sources-'));
  config = parseConfig(configYaml({ dataDir, encryptionKey }), {}).config;
  sources = new WebhookSources({ db, config, box: await webhookSecretBox(config), tables, clock });
  rejections = new WebhookRejections(db);
  api = await startAdminApi(config, logged.log);
});

afterAll(async () => {
  await api?.stop();
  await db?.end();
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('creating a source', () => {
  it('fills every config and auth default, names the table, and creates it after checking the scratch catalog', async () => {
    tables.calls.length = 0;
    const { json } = await create('orders-eu');
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      name: 'orders-eu',
      table: 'webhook_orders_eu',
      path: '/hooks/orders-eu',
      connection: 'warehouse',
      enabled: true,
      state: 'enabled',
      auth: { mode: 'hmac', algorithm: 'sha256', signature_header: 'X-Signature', encoding: 'hex', tolerance_seconds: 300, signed: 'body', secret_set: true },
      config: {
        handshake: 'none',
        max_body_bytes: MiB,
        compact_every_minutes: 60,
        flush_max_events: 5000,
        flush_max_interval_ms: 1000,
        flush_max_bytes: 8 * MiB,
        buffer_limit: 50_000,
        raw_retention_days: 7,
        compacted_retention_days: 400,
        persona: 'admin',
      },
      created_at: new Date(START).toISOString(),
      updated_at: new Date(START).toISOString(),
      created_by: 'apikey:root',
    });
    expect(tables.calls).toEqual(['check warehouse', 'create warehouse.webhook_orders_eu']);
    expect((await call('GET', '/orders-eu')).json).toEqual(json);
    expect((await call('GET', '')).json.sources.map((s: WebhookSourceView) => s.name)).toContain('orders-eu');
  });

  it('takes each auth mode with its own settings and defaults', async () => {
    const modes = [
      [{ mode: 'header_token', header: 'X-Token', secret: 'tok' }, { mode: 'header_token', header: 'X-Token', secret_set: true }],
      [{ mode: 'basic', username: 'partner', secret: 'pw' }, { mode: 'basic', username: 'partner', secret_set: true }],
      [{ mode: 'path_token', secret: 'Abc-123_x.y~z' }, { mode: 'path_token', secret_set: true }],
      [
        { mode: 'hmac', algorithm: 'sha1', signature_header: 'X-Hub-Signature', encoding: 'base64', prefix: 'sha1=', timestamp_header: 'X-Time', tolerance_seconds: 60, signed: 'timestamp.body', secret: 's' },
        { mode: 'hmac', algorithm: 'sha1', signature_header: 'X-Hub-Signature', encoding: 'base64', prefix: 'sha1=', timestamp_header: 'X-Time', tolerance_seconds: 60, signed: 'timestamp.body', secret_set: true },
      ],
    ] as const;
    for (const [index, [auth, view]] of modes.entries()) {
      const { json } = await create(`auth-mode-${index}`, { auth });
      expect(json.auth).toEqual(view);
    }
  });

  it('accepts every allowed value, at the bounds', async () => {
    const { json } = await create('bounds', {
      enabled: false,
      config: {
        handshake: 'cloudevents',
        max_body_bytes: 10 * MiB,
        split: '$',
        event_id_path: "$['event id']",
        event_type_path: '$.type',
        key_path: '$.data.items[0].customer',
        compact_every_minutes: 1,
        flush_max_events: 1,
        flush_max_interval_ms: 1,
        flush_max_bytes: 1,
        buffer_limit: 1,
        rate_limit_per_minute: 600,
        rate_limit_burst: 50,
        raw_retention_days: 1,
        compacted_retention_days: 0,
        persona: 'sales',
      },
    });
    expect(json.enabled).toBe(false);
    expect(json.config).toMatchObject({ handshake: 'cloudevents', max_body_bytes: 10 * MiB, split: '$', compacted_retention_days: 0, persona: 'sales', rate_limit_burst: 50 });
    for (const minutes of windowLengths) {
      const answer = await call('PUT', '/bounds', { auth: { mode: 'hmac', signature_header: 'X-Signature' }, config: { compact_every_minutes: minutes, max_body_bytes: 1, persona: 'sales' } });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json.config).toMatchObject({ compact_every_minutes: minutes, max_body_bytes: 1 });
    }
  });

  const refused: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an uppercase name', { name: 'Orders' }, /^name: /],
    ['a name starting with a digit', { name: '1orders' }, /^name: .*starting with a letter/],
    ['an underscore in the name', { name: 'a_b' }, /^name: /],
    ['a name of 64 characters', { name: `a${'b'.repeat(63)}` }, /^name: at most 63/],
    ['no name', { name: undefined }, /^name: is required/],
    ['an unknown connection', { connection: 'nowhere' }, /^connection: no SQL connection named "nowhere"/],
    ['an unknown persona', { config: { persona: 'nobody' } }, /^config\.persona: no persona named "nobody"/],
    ['an unknown handshake', { config: { handshake: 'websub' } }, /^config\.handshake: /],
    ['an empty body limit', { config: { max_body_bytes: 0 } }, /^config\.max_body_bytes: /],
    ['a body limit over 10 MiB', { config: { max_body_bytes: 10 * MiB + 1 } }, /^config\.max_body_bytes: /],
    ['a window of 7 minutes', { config: { compact_every_minutes: 7 } }, /^config\.compact_every_minutes: /],
    ['split that is not a JSON path', { config: { split: 'data.items' } }, /^config\.split: invalid JSON path "data\.items" at character 1: expected \$/],
    ['event_id_path with an empty member', { config: { event_id_path: '$.' } }, /^config\.event_id_path: invalid JSON path/],
    ['no flush events', { config: { flush_max_events: 0 } }, /^config\.flush_max_events: /],
    ['a fractional flush interval', { config: { flush_max_interval_ms: 1.5 } }, /^config\.flush_max_interval_ms: /],
    ['an empty buffer', { config: { buffer_limit: 0 } }, /^config\.buffer_limit: /],
    ['a burst without a rate', { config: { rate_limit_burst: 10 } }, /^config\.rate_limit_burst: needs rate_limit_per_minute/],
    ['raw retention of 0 days', { config: { raw_retention_days: 0 } }, /^config\.raw_retention_days: /],
    ['negative compacted retention', { config: { compacted_retention_days: -1 } }, /^config\.compacted_retention_days: /],
    ['an unknown config field', { config: { compact_every_minute: 5 } }, /^config: unknown field compact_every_minute/],
    ['an unknown auth mode', { auth: { mode: 'oauth', secret: 's' } }, /^auth\.mode: /],
    ['hmac without its signature header', { auth: { mode: 'hmac', secret: 's' } }, /^auth\.signature_header: is required/],
    ['an unknown hmac algorithm', { auth: { ...hmac, algorithm: 'md5' } }, /^auth\.algorithm: /],
    ['an unknown hmac encoding', { auth: { ...hmac, encoding: 'base32' } }, /^auth\.encoding: /],
    ['timestamp.body without a timestamp header', { auth: { ...hmac, signed: 'timestamp.body' } }, /^auth\.timestamp_header: is required when signed is timestamp\.body/],
    ['a tolerance of 0 seconds', { auth: { ...hmac, timestamp_header: 'X-Time', signed: 'timestamp.body', tolerance_seconds: 0 } }, /^auth\.tolerance_seconds: /],
    ['an unsigned timestamp header (signed: body)', { auth: { ...hmac, timestamp_header: 'X-Time', signed: 'body' } }, /^auth\.signed: timestamp_header is only checked when it is signed.*Set signed: timestamp\.body .* or remove timestamp_header$/],
    ['a header name with a space', { auth: { ...hmac, signature_header: 'X Signature' } }, /^auth\.signature_header: an HTTP header name/],
    ['header_token without its header', { auth: { mode: 'header_token', secret: 's' } }, /^auth\.header: is required/],
    ['basic without a username', { auth: { mode: 'basic', secret: 's' } }, /^auth\.username: is required/],
    ['a basic username with a colon', { auth: { mode: 'basic', username: 'a:b', secret: 's' } }, /^auth\.username: no colon/],
    ['a path token that is not a path segment', { auth: { mode: 'path_token', secret: 'a/b' } }, /^auth\.secret: a path_token secret is a URL path segment/],
    ['a path_token setting of another mode', { auth: { mode: 'path_token', header: 'X-Token', secret: 's' } }, /^auth: unknown field header/],
    ['no secret', { auth: { mode: 'hmac', signature_header: 'X-Signature' } }, /^auth\.secret: is required when a source is created/],
    ['a rotation overlap without a new secret', { auth: { mode: 'hmac', signature_header: 'X-Signature', rotation_overlap_seconds: 60 } }, /auth\.rotation_overlap_seconds: needs a new secret/],
    ['an unknown top-level field', { owner: 'me' }, /^unknown field owner/],
  ];
  it.each(refused)('refuses %s with 400 naming the field, storing nothing', async (_what, change, message) => {
    tables.calls.length = 0;
    const body: Record<string, unknown> = { name: 'refused', connection: 'warehouse', auth: hmac, ...change };
    const answer = await call('POST', '', body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toEqual({ error: 'invalid', message: expect.stringMatching(message) });
    expect(answer.text).not.toContain(SECRET);
    expect(tables.calls).toEqual([]);
    expect((await call('GET', '/refused')).status).toBe(404);
  });

  it('answers 409 for a name already taken, without touching the scratch catalog', async () => {
    await create('taken');
    tables.calls.length = 0;
    const answer = await call('POST', '', { name: 'taken', connection: 'lake', auth: hmac });
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ error: 'conflict', message: 'a webhook source named "taken" already exists' });
    expect(tables.calls).toEqual([]);
  });

  it("answers 422 with the scratch catalog's reason verbatim when it cannot hold the table, storing nothing", async () => {
    const reason = "Trino reads the platform's storage only over S3, and toolkits.objstore.local uses the filesystem driver";
    tables.refusals.set('lake', reason);
    try {
      tables.calls.length = 0;
      const answer = await call('POST', '', { name: 'in-lake', connection: 'lake', auth: hmac });
      expect(answer.status).toBe(422);
      expect(answer.json).toEqual({ error: 'scratch_refused', message: reason });
      expect(tables.calls).toEqual(['check lake']);
      expect((await call('GET', '/in-lake')).status).toBe(404);
    } finally {
      tables.refusals.delete('lake');
    }
  });

  it('keeps no half-made source when the table cannot be created, and a later creation succeeds', async () => {
    tables.failCreate = 'the metastore is unreachable';
    try {
      const answer = await call('POST', '', { name: 'half-made', connection: 'warehouse', auth: hmac });
      expect(answer.status).toBe(502);
      expect(answer.json).toEqual({ error: 'table_failed', message: 'the table webhook_half_made could not be created through connection warehouse: the metastore is unreachable' });
      expect((await call('GET', '/half-made')).status).toBe(404);
      expect((await db.query("SELECT count(*)::int AS n FROM webhook_sources WHERE name = 'half-made'")).rows[0].n).toBe(0);
    } finally {
      tables.failCreate = undefined;
    }
    await create('half-made');
    expect(tables.tables.has('warehouse.webhook_half_made')).toBe(true);
  });
});

describe('updating a source', () => {
  it('refuses to change name, connection or persona, naming the field; repeating them is fine', async () => {
    await create('immutable', { config: { persona: 'sales' } });
    const auth = { mode: 'hmac', signature_header: 'X-Signature' };
    for (const [change, message] of [
      [{ name: 'renamed' }, 'name: cannot change after creation (it is "immutable")'],
      [{ connection: 'lake' }, 'connection: cannot change after creation (it is "warehouse")'],
      [{ config: { persona: 'analyst' } }, 'config.persona: cannot change after creation (it is "sales")'],
    ] as const) {
      const answer = await call('PUT', '/immutable', { auth, ...change });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: 'invalid', message });
    }
    const same = await call('PUT', '/immutable', { name: 'immutable', connection: 'warehouse', auth, config: { persona: 'sales' } });
    expect(same.status, same.text).toBe(200);
    // Omitting the persona keeps it: it is fixed at creation.
    const omitted = await call('PUT', '/immutable', { auth });
    expect(omitted.json.config.persona).toBe('sales');
  });

  it('replaces every setting, so omitted ones return to their defaults; a new window length is stored for later events', async () => {
    await create('replaced', { config: { compact_every_minutes: 5, buffer_limit: 10 } });
    now = START + 60_000;
    const answer = await call('PUT', '/replaced', { enabled: false, auth: { mode: 'header_token', header: 'X-Token' }, config: { compact_every_minutes: 15 } });
    now = START;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ enabled: false, auth: { mode: 'header_token', header: 'X-Token', secret_set: true }, updated_at: new Date(START + 60_000).toISOString() });
    expect(answer.json.config).toMatchObject({ compact_every_minutes: 15, buffer_limit: 50_000 });
    expect((await call('GET', '/replaced')).json.config.compact_every_minutes).toBe(15);
  });

  it('keeps the stored secret when the update has no auth.secret', async () => {
    const { json } = await create('keeps-secret');
    const answer = await call('PUT', '/keeps-secret', { auth: { mode: 'hmac', signature_header: 'X-Other' } });
    expect(answer.json.auth).toMatchObject({ signature_header: 'X-Other', secret_set: true });
    expect(await secretsOf(sources, json.name, now)).toEqual([SECRET]);
  });

  it('with rotation_overlap_seconds accepts the previous secret until the overlap ends, then only the new one', async () => {
    const { json } = await create('rotating');
    const secrets = async (at: number) => await secretsOf(sources, json.name, at);
    now = START + 1000;
    const rotated = await call('PUT', '/rotating', { auth: { ...hmac, secret: 'whsec-second', rotation_overlap_seconds: 600 } });
    expect(rotated.json.auth).toMatchObject({ secret_set: true, previous_secret_until: new Date(START + 1000 + 600_000).toISOString() });
    expect(await secrets(START + 1000)).toEqual(['whsec-second', SECRET]);
    expect(await secrets(START + 1000 + 599_999)).toEqual(['whsec-second', SECRET]);
    expect(await secrets(START + 1000 + 600_000)).toEqual(['whsec-second']);
    now = START + 1000 + 600_000;
    expect((await call('GET', '/rotating')).json.auth).not.toHaveProperty('previous_secret_until');
    now = START;
  });

  it('without an overlap replaces the secret at once, ending any earlier overlap', async () => {
    const { json } = await create('replacing');
    await call('PUT', '/replacing', { auth: { ...hmac, secret: 'whsec-second', rotation_overlap_seconds: 600 } });
    const answer = await call('PUT', '/replacing', { auth: { ...hmac, secret: 'whsec-third' } });
    expect(answer.json.auth).not.toHaveProperty('previous_secret_until');
    expect(await secretsOf(sources, json.name, now)).toEqual(['whsec-third']);
  });
});

describe('secrets at rest', () => {
  it('never returns a secret, never logs one, and stores only ciphertext', async () => {
    const before = logged.lines.length;
    const { json } = await create('never-shown');
    const answers = [
      await call('GET', '/never-shown'),
      await call('GET', ''),
      await call('PUT', '/never-shown', { auth: { ...hmac, secret: `${SECRET}-rotated`, rotation_overlap_seconds: 60 } }),
      await call('POST', '', { name: 'never-shown', connection: 'warehouse', auth: hmac }),
      await call('POST', '', { name: 'never-shown-bad', connection: 'warehouse', auth: { ...hmac, algorithm: 'md5' } }),
    ];
    tables.failCreate = 'the metastore is unreachable';
    answers.push(await call('POST', '', { name: 'never-shown-failed', connection: 'warehouse', auth: hmac }));
    tables.failCreate = undefined;
    for (const answer of [JSON.stringify(json), ...answers.map((a) => a.text)]) expect(answer).not.toContain(SECRET);
    await expect.poll(() => logged.lines.slice(before).filter((l) => l.includes('"request completed"')).length).toBeGreaterThanOrEqual(answers.length + 1);
    const lines = logged.lines.slice(before).join('\n');
    expect(lines).toContain('webhook source table operation failed');
    expect(lines).not.toContain(SECRET);
    const { rows } = await db.query('SELECT auth::text, config::text, secret_ciphertext, previous_secret_ciphertext FROM webhook_sources WHERE id = $1', [json.id]);
    const row = rows[0];
    expect(`${row.auth}${row.config}`).not.toContain('secret"');
    for (const sealed of [row.secret_ciphertext, row.previous_secret_ciphertext] as Buffer[]) {
      expect(sealed.includes(Buffer.from(SECRET))).toBe(false);
      expect(sealed[0]).toBe(1);
    }
  });

  it('binds a ciphertext to its source: copied into another source, it does not open', async () => {
    const a = (await create('bound-a')).json;
    const b = (await create('bound-b', { auth: { ...hmac, secret: 'other' } })).json;
    await db.query('UPDATE webhook_sources SET secret_ciphertext = (SELECT secret_ciphertext FROM webhook_sources WHERE id = $1) WHERE id = $2', [a.id, b.id]);
    await expect(secretsOf(sources, b.name, now)).rejects.toThrow(SecretBoxError);
    expect(await secretsOf(sources, a.name, now)).toEqual([SECRET]);
  });

  it('seals under secrets.encryption_key, which every replica shares whatever its data dir', async () => {
    const otherDir = await mkdtemp(join(tmpdir(), 'webhook-replica-'));
    try {
      const replica = new WebhookSources({ db, config, box: await webhookSecretBox({ secrets: { encryption_key: encryptionKey }, data_dir: otherDir }), tables, clock });
      const { json } = await create('shared-key');
      expect(await secretsOf(replica, json.name, now)).toEqual([SECRET]);
      const otherKey = new WebhookSources({ db, config, box: await webhookSecretBox({ secrets: { encryption_key: randomBytes(32).toString('base64') }, data_dir: dataDir }), tables, clock });
      await expect(secretsOf(otherKey, json.name, now)).rejects.toThrow(SecretBoxError);
      await expect(access(join(otherDir, 'secrets', 'webhook-secrets.key'))).rejects.toThrow();
    } finally {
      await rm(otherDir, { recursive: true, force: true });
    }
  });

  it('without secrets.encryption_key, seals under a key generated into the data dir (platform dev)', async () => {
    const devDir = await mkdtemp(join(tmpdir(), 'webhook-dev-'));
    const elsewhere = await mkdtemp(join(tmpdir(), 'webhook-elsewhere-'));
    try {
      const dev = new WebhookSources({ db, config, box: await webhookSecretBox({ secrets: {}, data_dir: devDir }), tables, clock });
      const made = await dev.create({ name: 'dev-key', connection: 'warehouse', auth: hmac }, 'local');
      await access(join(devDir, 'secrets', 'webhook-secrets.key'));
      const restarted = new WebhookSources({ db, config, box: await webhookSecretBox({ secrets: {}, data_dir: devDir }), tables, clock });
      expect(await secretsOf(restarted, made.name, now)).toEqual([SECRET]);
      const stranger = new WebhookSources({ db, config, box: await webhookSecretBox({ secrets: {}, data_dir: elsewhere }), tables, clock });
      await expect(secretsOf(stranger, made.name, now)).rejects.toThrow(SecretBoxError);
      await expect(secretsOf(sources, made.name, now)).rejects.toThrow(SecretBoxError);
    } finally {
      await rm(devDir, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('deleting a source', () => {
  it('marks it as being removed (202, state removing, again for a second delete): it refuses updates and its name stays taken until the removal deletes the row', async () => {
    const { json } = await create('deleted');
    await rejections.record(json.id, 'unauthorized', 'signature does not match', new Date(now));
    tables.calls.length = 0;
    const answer = await call('DELETE', '/deleted');
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ ...json, state: 'removing', removing_since: new Date(now).toISOString() });
    // The table stays for the removal workflow (shared/webhooks/removal.ts): nothing is dropped here.
    expect(tables.calls).toEqual([]);
    now += 60_000;
    const again = await call('DELETE', '/deleted');
    expect(again.status).toBe(202);
    expect(again.json.removing_since).toBe(answer.json.removing_since);
    expect((await call('GET', '/deleted')).json.state).toBe('removing');
    expect(await sources.receiving('deleted')).toBeUndefined();
    const update = await call('PUT', '/deleted', { auth: { mode: 'hmac', signature_header: 'X-Signature' } });
    expect(update.status).toBe(409);
    expect(update.json).toEqual({ error: 'conflict', message: 'the webhook source "deleted" is being removed; its name is free once that finished' });
    const taken = await call('POST', '', { name: 'deleted', connection: 'warehouse', auth: hmac });
    expect(taken.status).toBe(409);
    expect(taken.json.message).toBe('the webhook source "deleted" is being removed; its name is free once that finished');

    // The removal's last steps: its table dropped, then the row goes with its rejections, and the name is free.
    tables.tables.delete('warehouse.webhook_deleted');
    await sources.forget(json.id);
    expect((await call('GET', '/deleted')).status).toBe(404);
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_rejections WHERE source_id = $1', [json.id])).rows[0].n).toBe(0);
    expect((await create('deleted')).status).toBe(201);
  });

  it('forget deletes only a source being removed', async () => {
    const { json } = await create('kept');
    await sources.forget(json.id);
    expect((await call('GET', '/kept')).status).toBe(200);
  });
});

describe('rejected requests', () => {
  it('keeps the last 50 per source, newest first, with time, outcome and reason only', async () => {
    const { json } = await create('rejecting');
    const other = (await create('rejecting-other')).json;
    await rejections.record(other.id, 'too_large', 'body over 1048576 bytes', new Date(START));
    for (let i = 0; i < 55; i++) await rejections.record(json.id, i % 2 ? 'unauthorized' : 'rate_limited', `reason ${i}`, new Date(START + i * 1000));
    const answer = await call('GET', '/rejecting/rejections');
    expect(answer.status).toBe(200);
    expect(answer.json.rejections).toHaveLength(KEPT_REJECTIONS);
    expect(answer.json.rejections[0]).toEqual({ at: new Date(START + 54_000).toISOString(), outcome: 'rate_limited', reason: 'reason 54' });
    expect(answer.json.rejections.at(-1).reason).toBe('reason 5');
    expect((await db.query('SELECT count(*)::int AS n FROM webhook_rejections WHERE source_id = $1', [json.id])).rows[0].n).toBe(KEPT_REJECTIONS);
    expect((await call('GET', '/rejecting-other/rejections')).json.rejections).toEqual([
      { at: new Date(START).toISOString(), outcome: 'too_large', reason: 'body over 1048576 bytes' },
    ]);
  });
});

describe('access and routing', () => {
  it('answers 401 without credentials and 403 to a caller outside admin.persona, before reading the body', async () => {
    tables.calls.length = 0;
    const anonymous = await call('POST', '', { name: 'nope', connection: 'warehouse', auth: hmac }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('unauthorized');
    const analyst = await call('POST', '', { name: 'nope', connection: 'warehouse', auth: hmac }, ANALYST_KEY);
    expect(analyst.status).toBe(403);
    expect(analyst.json).toEqual({ error: 'forbidden', message: 'the admin API is for members of the persona "admin" (admin.persona)' });
    for (const [method, path] of [['GET', ''], ['GET', '/orders-eu'], ['PUT', '/orders-eu'], ['DELETE', '/orders-eu'], ['GET', '/orders-eu/rejections']] as const) {
      expect((await call(method, path, undefined, ANALYST_KEY)).status).toBe(403);
      expect((await call(method, path, undefined, 'wrong-key-0123456789')).status).toBe(401);
    }
    expect(tables.calls).toEqual([]);
  });

  it("leaves malformed JSON and oversized bodies to the app's own answers", async () => {
    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const malformed = await fetch(`${api.url}/api/v1/admin/webhooks/sources`, { method: 'POST', headers, body: '{"name": ' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    const oversized = await fetch(`${api.url}/api/v1/admin/webhooks/sources`, { method: 'POST', headers, body: JSON.stringify({ name: 'x'.repeat(config.server.body_limit) }) });
    expect(oversized.status).toBe(413);
    expect(await oversized.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('answers 404 for an unknown source on every route', async () => {
    const auth = { mode: 'hmac', signature_header: 'X-Signature' };
    for (const [method, path, body] of [['GET', '/unknown'], ['PUT', '/unknown', { auth }], ['DELETE', '/unknown'], ['GET', '/unknown/rejections']] as const) {
      const answer = await call(method, path, body);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ error: 'not_found', message: 'no webhook source named "unknown"' });
    }
  });

  it('documents every route in the OpenAPI document', async () => {
    const document = (await (await fetch(`${api.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/v1/admin/webhooks/sources'] ?? {})).toEqual(expect.arrayContaining(['post', 'get']));
    expect(Object.keys(document.paths['/api/v1/admin/webhooks/sources/{name}'] ?? {})).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    expect(Object.keys(document.paths['/api/v1/admin/webhooks/sources/{name}/rejections'] ?? {})).toEqual(['get']);
    const created = document.paths['/api/v1/admin/webhooks/sources']!.post as { requestBody: unknown; responses: Record<string, unknown> };
    expect(Object.keys(created.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '422', '502']));
    // The secret is write-only: in the create body, never in an answer.
    expect(JSON.stringify(created.requestBody)).toContain('"secret":{"writeOnly":true');
    expect(JSON.stringify(created.responses['201'])).toContain('secret_set');
    expect(JSON.stringify(created.responses['201'])).not.toContain('"secret"');
  });

  it('serves the routes only when admin.enabled, under admin.path_prefix', async () => {
    const off = await startAdminApi(parseConfig(configYaml({ dataDir, encryptionKey, admin: 'admin:\n  enabled: false' }), {}).config);
    const moved = await startAdminApi(parseConfig(configYaml({ dataDir, encryptionKey, admin: 'admin:\n  enabled: true\n  path_prefix: /ops' }), {}).config);
    try {
      expect((await call('GET', '', undefined, ADMIN_KEY, off.url)).status).toBe(404);
      expect((await call('GET', '', undefined, ADMIN_KEY, moved.url)).status).toBe(404);
      const listed = await fetch(`${moved.url}/ops/webhooks/sources`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(listed.status).toBe(200);
    } finally {
      await off.stop();
      await moved.stop();
    }
  });
});
