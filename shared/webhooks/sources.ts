/**
 * Webhook sources (spec document 3, "Webhook source"): their rows in Postgres, their secrets sealed
 * at rest, and the lifecycle of their table. Creation validates, asks the connection's scratch
 * catalog whether it can hold the table, creates the table and stores the row, so there is never
 * a source without its table. Deletion marks the source as being removed (`markRemoving`); the
 * `webhookSourceRemoval` workflow (removal.ts) removes what it holds and then its row (`forget`).
 */
import type pg from 'pg';
import { uuidv7 } from '../crypto/index.js';
import type { PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { webhookTableName } from './layout.js';
import { createSecretBox, purposeKey, type SecretBox } from '../crypto/index.js';
import {
  parseSettings,
  webhookSourceCreateSchema,
  webhookSourceUpdateSchema,
  type WebhookAuthInput,
  type WebhookAuthSettings,
  type WebhookSourceConfig,
  type WebhookSourceView,
} from './source-config.js';

/**
 * The table side of a source, through its connection's scratch catalog (the view webhook_{name}
 * over its raw segments and compacted windows).
 */
export interface WebhookTables {
  /** Whether this connection's scratch catalog can hold webhook tables; if not, why (shown verbatim). */
  check(connection: string): Promise<{ ok: true } | { ok: false; reason: string }>;
  create(source: WebhookSourceView): Promise<void>;
}

export type WebhookSourceErrorCode = 'invalid' | 'not_found' | 'name_taken' | 'removing' | 'scratch_refused' | 'table_failed';

/** A refusal the admin API answers with its status (invalid 400, not_found 404, name_taken and removing 409, scratch_refused 422, table_failed 502). */
export class WebhookSourceError extends Error {
  constructor(
    readonly code: WebhookSourceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSourceError';
  }
}

export interface WebhookSourcesOptions {
  db: Db;
  config: Pick<PlatformConfig, 'toolkits' | 'personas' | 'admin'>;
  /** Seals the secrets (webhookSecretBox). */
  box: SecretBox;
  tables: WebhookTables;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/** The box for webhook secrets: a key derived from `secrets.encryption_key`, else generated into the data dir. */
export async function webhookSecretBox(config: Pick<PlatformConfig, 'secrets' | 'data_dir'>): Promise<SecretBox> {
  const encryptionKey = config.secrets.encryption_key;
  return createSecretBox(await purposeKey({ purpose: 'webhook-secrets', dataDir: config.data_dir, ...(encryptionKey ? { encryptionKey } : {}) }));
}

interface SourceRow {
  id: string;
  name: string;
  connection: string;
  enabled: boolean;
  persona: string;
  auth: WebhookAuthSettings;
  config: WebhookSourceConfig;
  secret_ciphertext: Buffer | null;
  previous_secret_ciphertext: Buffer | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
  removing_since: Date | null;
}

const sourceColumns = `id, name, connection, enabled, persona, auth, config, secret_ciphertext, previous_secret_ciphertext,
  previous_secret_expires_at, created_at, updated_at, created_by, removing_since`;
const selectSource = `SELECT ${sourceColumns} FROM webhook_sources`;

/** The associated data binding a sealed secret to its source row. */
function secretContext(sourceId: string): string {
  return `webhook-source:${sourceId}`;
}

function parsed<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new WebhookSourceError('invalid', result.message);
  return result.value;
}

function splitAuth(auth: WebhookAuthInput): { settings: WebhookAuthSettings; secret?: string; overlapSeconds: number } {
  const { secret, rotation_overlap_seconds: overlap, ...settings } = auth;
  return { settings, ...(secret !== undefined ? { secret } : {}), overlapSeconds: overlap ?? 0 };
}

/** A stored secret; a previous one is accepted until `untilMs` (the end of its rotation overlap). */
export interface SecretCandidate {
  secret: Uint8Array;
  untilMs?: number;
}

/** A source being removed, as the removal workflow carries it. */
export interface RemovingSource {
  id: string;
  name: string;
  connection: string;
  persona: string;
}

/** A source as the receiver sees it. */
export interface ReceivingSource {
  id: string;
  name: string;
  connection: string;
  enabled: boolean;
  auth: WebhookAuthSettings;
  config: WebhookSourceConfig;
  /** Current first, then a previous one inside or past its overlap (secretsAt picks). */
  secrets: SecretCandidate[];
}

/** The secrets a request may be signed with at `nowMs`: the current one, then a previous one while its overlap lasts. */
export function secretsAt(candidates: readonly SecretCandidate[], nowMs: number): Uint8Array[] {
  return candidates.filter((c) => c.untilMs === undefined || c.untilMs > nowMs).map((c) => c.secret);
}

export class WebhookSources {
  private readonly db: Db;
  private readonly config: WebhookSourcesOptions['config'];
  private readonly box: SecretBox;
  private readonly tables: WebhookTables;
  private readonly clock: () => number;

  constructor(opts: WebhookSourcesOptions) {
    this.db = opts.db;
    this.config = opts.config;
    this.box = opts.box;
    this.tables = opts.tables;
    this.clock = opts.clock ?? Date.now;
  }

  /** Creates a source from a create body (validated here) and its table; `createdBy` is the administrator's subject. */
  async create(input: unknown, createdBy: string): Promise<WebhookSourceView> {
    const body = parsed(parseSettings(webhookSourceCreateSchema, input));
    if (!(body.connection in this.config.toolkits.sql)) {
      throw new WebhookSourceError('invalid', `connection: no SQL connection named "${body.connection}" (toolkits.sql)`);
    }
    const { persona: askedPersona, ...config } = body.config;
    const persona = askedPersona ?? this.config.admin.persona;
    if (!(persona in this.config.personas.definitions)) {
      throw new WebhookSourceError('invalid', `config.persona: no persona named "${persona}" in personas.definitions${askedPersona ? '' : ' (admin.persona, the default)'}`);
    }
    const existing = await this.find(body.name);
    if (existing) throw existing.removing_since ? beingRemoved(body.name) : nameTaken(body.name);
    const check = await this.tables.check(body.connection);
    if (!check.ok) throw new WebhookSourceError('scratch_refused', check.reason);

    const { settings, secret } = splitAuth(body.auth);
    const id = uuidv7();
    const now = new Date(this.clock());
    const planned: SourceRow = {
      id,
      name: body.name,
      connection: body.connection,
      enabled: body.enabled,
      persona,
      auth: settings,
      config,
      secret_ciphertext: secret === undefined ? null : this.seal(id, secret),
      previous_secret_ciphertext: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
      created_by: createdBy,
      removing_since: null,
    };
    // The table first (creating it again changes nothing), then the row: a crash between the two
    // leaves an unused table that the next creation under this name takes over, never a source
    // without its table.
    const planView = this.view(planned);
    try {
      await this.tables.create(planView);
    } catch (error) {
      throw new WebhookSourceError('table_failed', `the table ${planView.table} could not be created through connection ${planView.connection}: ${(error as Error).message}`);
    }
    let row: SourceRow;
    try {
      const result = await this.db.query<SourceRow>(
        `INSERT INTO webhook_sources (id, name, connection, enabled, persona, auth, config, secret_ciphertext, created_at, updated_at, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)
         RETURNING ${sourceColumns}`,
        [id, planned.name, planned.connection, planned.enabled, persona, settings, config, planned.secret_ciphertext, now, createdBy],
      );
      row = result.rows[0]!;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw nameTaken(body.name);
      throw error;
    }
    const view = this.view(row);
    return view;
  }

  /** Every source, by name. */
  async list(): Promise<WebhookSourceView[]> {
    const { rows } = await this.db.query<SourceRow>(`${selectSource} ORDER BY name`);
    return rows.map((row) => this.view(row));
  }

  /** The source of that name; not_found when there is none. */
  async get(name: string): Promise<WebhookSourceView> {
    const row = await this.find(name);
    if (!row) throw notFound(name);
    return this.view(row);
  }

  /**
   * Replaces the settings of a source from an update body (validated here). name, connection and
   * config.persona cannot change. Without `auth.secret` the stored secrets stay; with one, the
   * current secret becomes the previous one for `rotation_overlap_seconds` (none without it).
   */
  async update(name: string, input: unknown): Promise<WebhookSourceView> {
    const body = parsed(parseSettings(webhookSourceUpdateSchema, input));
    const row = await withTransaction(this.db, async (client) => {
      const current = (await client.query<SourceRow>(`${selectSource} WHERE name = $1 FOR UPDATE`, [name])).rows[0];
      if (!current) throw notFound(name);
      if (current.removing_since) throw beingRemoved(name);
      const { persona, ...config } = body.config;
      for (const [field, given, stored] of [
        ['name', body.name, current.name],
        ['connection', body.connection, current.connection],
        ['config.persona', persona, current.persona],
      ] as const) {
        if (given !== undefined && given !== stored) {
          throw new WebhookSourceError('invalid', `${field}: cannot change after creation (it is "${stored}")`);
        }
      }
      const { settings, secret, overlapSeconds } = splitAuth(body.auth);
      const now = this.clock();
      const secrets = secret === undefined ? undefined : this.rotated(current, secret, overlapSeconds, now);
      return this.updateRow(client, current.id, { enabled: body.enabled, auth: settings, config, updatedAt: new Date(now), ...(secrets ? { secrets } : {}) });
    });
    return this.view(row);
  }

  /**
   * Deletes a source: marks it as being removed (once; a second delete changes nothing) and
   * answers its view. From the commit on it receives nothing (windows.ts `landed` refuses it), the
   * sweep and retention skip it, and its name stays taken until `forget` — the removal
   * workflow's last step — deletes the row.
   */
  async markRemoving(name: string): Promise<WebhookSourceView> {
    const { rows } = await this.db.query<SourceRow>(
      `UPDATE webhook_sources SET removing_since = COALESCE(removing_since, $2) WHERE name = $1 RETURNING ${sourceColumns}`,
      [name, new Date(this.clock())],
    );
    if (!rows[0]) throw notFound(name);
    return this.view(rows[0]);
  }

  /** Every source being removed, oldest mark first: the sweep starts a removal for each whose workflow is not running. */
  async removing(): Promise<RemovingSource[]> {
    const { rows } = await this.db.query<Pick<SourceRow, 'id' | 'name' | 'connection' | 'persona'>>(
      'SELECT id, name, connection, persona FROM webhook_sources WHERE removing_since IS NOT NULL ORDER BY removing_since, name',
    );
    return rows.map((row) => ({ id: row.id, name: row.name, connection: row.connection, persona: row.persona }));
  }

  /** Whether the source is being removed (or already gone): its compactions are refused. */
  async isRemoving(id: string): Promise<boolean> {
    const { rows } = await this.db.query<{ removing: boolean }>('SELECT removing_since IS NOT NULL AS removing FROM webhook_sources WHERE id = $1', [id]);
    return rows[0]?.removing ?? true;
  }

  /** The removal's last step: deletes the row of a source being removed (its windows, counts and rejections cascade). */
  async forget(id: string): Promise<void> {
    await this.db.query('DELETE FROM webhook_sources WHERE id = $1 AND removing_since IS NOT NULL', [id]);
  }

  /**
   * What the receiver needs of the source named `name` (undefined when there is none, or it is
   * being removed): its settings and its secrets, opened — the current one, then the previous one
   * with the end of its rotation overlap. Decrypted on each call; the receiver holds them for its
   * short cache only.
   */
  async receiving(name: string): Promise<ReceivingSource | undefined> {
    const row = await this.find(name);
    if (!row || row.removing_since) return undefined;
    const context = secretContext(row.id);
    const secrets: SecretCandidate[] = [];
    if (row.secret_ciphertext) secrets.push({ secret: this.box.open(row.secret_ciphertext, context) });
    if (row.previous_secret_ciphertext && row.previous_secret_expires_at) {
      secrets.push({ secret: this.box.open(row.previous_secret_ciphertext, context), untilMs: row.previous_secret_expires_at.getTime() });
    }
    return { id: row.id, name: row.name, connection: row.connection, enabled: row.enabled, auth: row.auth, config: row.config, secrets };
  }

  private async find(name: string): Promise<SourceRow | undefined> {
    return (await this.db.query<SourceRow>(`${selectSource} WHERE name = $1`, [name])).rows[0];
  }

  private seal(sourceId: string, secret: string): Buffer {
    return Buffer.from(this.box.seal(Buffer.from(secret, 'utf8'), secretContext(sourceId)));
  }

  /** The secret columns after a new secret: the current one kept as previous for the overlap, if any. */
  private rotated(current: SourceRow, secret: string, overlapSeconds: number, nowMs: number): SecretColumns {
    const keepPrevious = overlapSeconds > 0 && current.secret_ciphertext !== null;
    return {
      secret: this.seal(current.id, secret),
      previous: keepPrevious ? current.secret_ciphertext : null,
      previousExpiresAt: keepPrevious ? new Date(nowMs + overlapSeconds * 1000) : null,
    };
  }

  private async updateRow(
    client: pg.PoolClient,
    id: string,
    change: { enabled: boolean; auth: WebhookAuthSettings; config: WebhookSourceConfig; updatedAt: Date; secrets?: SecretColumns },
  ): Promise<SourceRow> {
    const values: unknown[] = [id, change.enabled, change.auth, change.config, change.updatedAt];
    let setSecrets = '';
    if (change.secrets) {
      values.push(change.secrets.secret, change.secrets.previous, change.secrets.previousExpiresAt);
      setSecrets = ', secret_ciphertext = $6, previous_secret_ciphertext = $7, previous_secret_expires_at = $8';
    }
    const { rows } = await client.query<SourceRow>(
      `UPDATE webhook_sources SET enabled = $2, auth = $3, config = $4, updated_at = $5${setSecrets} WHERE id = $1
       RETURNING ${sourceColumns}`,
      values,
    );
    return rows[0]!;
  }

  /** What an administrator sees: the settings and whether secrets are set, never a secret. */
  private view(row: SourceRow): WebhookSourceView {
    const previousUntil = row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > this.clock() ? row.previous_secret_expires_at : undefined;
    return {
      id: row.id,
      name: row.name,
      table: webhookTableName(row.name),
      path: `/hooks/${row.name}`,
      connection: row.connection,
      enabled: row.enabled,
      state: row.removing_since ? 'removing' : row.enabled ? 'enabled' : 'disabled',
      ...(row.removing_since ? { removing_since: row.removing_since.toISOString() } : {}),
      auth: { ...row.auth, secret_set: row.secret_ciphertext !== null, ...(previousUntil ? { previous_secret_until: previousUntil.toISOString() } : {}) },
      config: { ...row.config, persona: row.persona },
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      created_by: row.created_by,
    };
  }
}

interface SecretColumns {
  secret: Buffer;
  previous: Buffer | null;
  previousExpiresAt: Date | null;
}

function notFound(name: string): WebhookSourceError {
  return new WebhookSourceError('not_found', `no webhook source named "${name}"`);
}

function nameTaken(name: string): WebhookSourceError {
  return new WebhookSourceError('name_taken', `a webhook source named "${name}" already exists`);
}

function beingRemoved(name: string): WebhookSourceError {
  return new WebhookSourceError('removing', `the webhook source "${name}" is being removed; its name is free once that finished`);
}
