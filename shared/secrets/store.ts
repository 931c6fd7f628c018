/**
 * Stored secrets: named values an administrator puts through the admin API for the platform's own
 * connections to use (the first: the hosted bot-check providers' secret keys, connection
 * `bot_check`). A value is sealed at rest with the `stored-secrets` purpose key (AES-256-GCM, the
 * row's name as associated data) and leaves this module only through `secretFor`, on the server:
 * no listing, answer, error or log line carries it.
 *
 * `secretFor(name, connection)` hands a value to a platform connection only when the secret's
 * allow_connections names that connection and it lists no personas: a secret meant for personas'
 * own use is never one the platform reads on their behalf.
 */
import { z } from 'zod';
import type { PlatformConfig } from '../config/index.js';
import { createSecretBox, purposeKey, SecretBoxError, type SecretBox } from '../crypto/index.js';
import type { Db } from '../db/index.js';

export const SECRET_NAME_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;
export const MAX_SECRET_NAME_LENGTH = 128;
/** Largest value, in UTF-8 bytes: provider keys are tens of bytes; this leaves room for certificates. */
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;
/** Most connections or personas one secret lists. */
export const MAX_SECRET_GRANTS = 64;

const grantName = z.string().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit');

export const secretNameSchema = z
  .string()
  .min(1)
  .max(MAX_SECRET_NAME_LENGTH)
  .regex(SECRET_NAME_PATTERN, 'lowercase letters, digits, ".", "_" and "-", starting with a letter or digit')
  .describe(`Secret name: lowercase letters, digits, ".", "_" and "-", starting with a letter or digit; at most ${MAX_SECRET_NAME_LENGTH}`);

export const secretPutSchema = z
  .strictObject({
    value: z
      .string()
      .min(1)
      .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_SECRET_VALUE_BYTES, `at most ${MAX_SECRET_VALUE_BYTES} bytes (UTF-8)`)
      .optional()
      .describe(`The secret (write-only: never returned). Required to create; omitted on a replace, the stored value stays. At most ${MAX_SECRET_VALUE_BYTES} bytes`),
    allow_connections: z
      .array(grantName)
      .max(MAX_SECRET_GRANTS)
      .default([])
      .describe('Platform connections that may read the value on the server (e.g. bot_check)'),
    personas: z
      .array(grantName)
      .max(MAX_SECRET_GRANTS)
      .default([])
      .describe('Personas the secret is for; a secret listing any is never read by a platform connection'),
  })
  .describe('A stored secret: create or replace');

export type SecretPut = z.input<typeof secretPutSchema>;

export const secretViewSchema = z
  .object({
    name: z.string(),
    allow_connections: z.array(z.string()),
    personas: z.array(z.string()),
    created_at: z.string(),
    created_by: z.string(),
    updated_at: z.string(),
    updated_by: z.string(),
  })
  .describe('A stored secret: its name and grants, never its value');

export type SecretView = z.output<typeof secretViewSchema>;

export type SecretErrorCode = 'invalid' | 'not_found' | 'not_allowed';

/** A refusal: invalid 400, not_found 404; not_allowed is a server-side read refused. Never carries a value. */
export class SecretError extends Error {
  constructor(
    readonly code: SecretErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretError';
  }
}

/** The box for stored secrets: a key derived from `secrets.encryption_key`, else generated into the data dir. */
export async function storedSecretBox(config: Pick<PlatformConfig, 'secrets' | 'data_dir'>): Promise<SecretBox> {
  const encryptionKey = config.secrets.encryption_key;
  return createSecretBox(await purposeKey({ purpose: 'stored-secrets', dataDir: config.data_dir, ...(encryptionKey ? { encryptionKey } : {}) }));
}

interface SecretRow {
  name: string;
  allow_connections: string[];
  personas: string[];
  created_at: Date;
  created_by: string;
  updated_at: Date;
  updated_by: string;
}

const viewColumns = 'name, allow_connections, personas, created_at, created_by, updated_at, updated_by';

function viewOf(row: SecretRow): SecretView {
  return {
    name: row.name,
    allow_connections: row.allow_connections,
    personas: row.personas,
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    updated_at: row.updated_at.toISOString(),
    updated_by: row.updated_by,
  };
}

/** The associated data binding a sealed value to its row. */
function sealContext(name: string): string {
  return `stored-secret:${name}`;
}

/** Whether a platform connection may read a secret with these grants; if not, why (no value in it). */
export function connectionMayRead(secret: Pick<SecretRow, 'name' | 'allow_connections' | 'personas'>, connection: string): { ok: true } | { ok: false; reason: string } {
  if (!secret.allow_connections.includes(connection)) {
    return { ok: false, reason: `stored secret "${secret.name}" does not allow connection ${connection} (allow_connections)` };
  }
  if (secret.personas.length > 0) {
    return { ok: false, reason: `stored secret "${secret.name}" lists personas, so no platform connection reads it` };
  }
  return { ok: true };
}

function validName(name: string): string {
  const parsed = secretNameSchema.safeParse(name);
  if (!parsed.success) throw new SecretError('invalid', `invalid secret name: ${parsed.error.issues[0]?.message ?? 'not a secret name'}`);
  return parsed.data;
}

export interface SecretStoreOptions {
  db: Db;
  /** Seals the values (storedSecretBox). */
  box: SecretBox;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

export class SecretStore {
  readonly #db: Db;
  readonly #box: SecretBox;
  readonly #clock: () => number;

  constructor(opts: SecretStoreOptions) {
    this.#db = opts.db;
    this.#box = opts.box;
    this.#clock = opts.clock ?? Date.now;
  }

  /** Every stored secret by name, without values. */
  async list(): Promise<SecretView[]> {
    const { rows } = await this.#db.query<SecretRow>(`SELECT ${viewColumns} FROM stored_secrets ORDER BY name`);
    return rows.map(viewOf);
  }

  /** Creates or replaces a secret; without `value` a replace keeps the stored value (a create needs one). */
  async put(name: string, input: SecretPut, by: string): Promise<{ created: boolean; secret: SecretView }> {
    validName(name);
    const parsed = secretPutSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SecretError('invalid', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    const { value, allow_connections: connections, personas } = parsed.data;
    const at = new Date(this.#clock());
    if (value === undefined) {
      const { rows } = await this.#db.query<SecretRow>(
        `UPDATE stored_secrets SET allow_connections = $2, personas = $3, updated_at = $4, updated_by = $5 WHERE name = $1 RETURNING ${viewColumns}`,
        [name, connections, personas, at, by],
      );
      if (!rows[0]) throw new SecretError('invalid', `value: required to create stored secret "${name}"`);
      return { created: false, secret: viewOf(rows[0]) };
    }
    const sealed = Buffer.from(this.#box.seal(Buffer.from(value, 'utf8'), sealContext(name)));
    // xmax = 0 only for a row this statement inserted: how an upsert tells a create from a replace.
    const { rows } = await this.#db.query<SecretRow & { inserted: boolean }>(
      `INSERT INTO stored_secrets (name, ciphertext, allow_connections, personas, created_at, created_by, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $5, $6)
       ON CONFLICT (name) DO UPDATE SET ciphertext = EXCLUDED.ciphertext, allow_connections = EXCLUDED.allow_connections,
         personas = EXCLUDED.personas, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by
       RETURNING ${viewColumns}, (xmax = 0) AS inserted`,
      [name, sealed, connections, personas, at, by],
    );
    const row = rows[0]!;
    return { created: row.inserted, secret: viewOf(row) };
  }

  /** Removes a secret; false when there was none. */
  async delete(name: string): Promise<boolean> {
    validName(name);
    const result = await this.#db.query('DELETE FROM stored_secrets WHERE name = $1', [name]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Whether `connection` could read the secret (without opening it): for checks when settings name one. */
  async usableBy(name: string, connection: string): Promise<{ ok: true } | { ok: false; reason: string }> {
    const { rows } = await this.#db.query<SecretRow>(`SELECT ${viewColumns} FROM stored_secrets WHERE name = $1`, [name]);
    if (!rows[0]) return { ok: false, reason: `no stored secret named "${name}"` };
    return connectionMayRead(rows[0], connection);
  }

  /**
   * The value, for a platform connection on the server. Refused (SecretError not_found or
   * not_allowed) unless the secret exists, its allow_connections names `connection` and it lists
   * no personas; a value that does not open (another encryption key, a copied row) is not_found.
   */
  async secretFor(name: string, connection: string): Promise<string> {
    const { rows } = await this.#db.query<SecretRow & { ciphertext: Buffer }>(`SELECT ${viewColumns}, ciphertext FROM stored_secrets WHERE name = $1`, [name]);
    const row = rows[0];
    if (!row) throw new SecretError('not_found', `no stored secret named "${name}"`);
    const allowed = connectionMayRead(row, connection);
    if (!allowed.ok) throw new SecretError('not_allowed', allowed.reason);
    try {
      return Buffer.from(this.#box.open(row.ciphertext, sealContext(row.name))).toString('utf8');
    } catch (error) {
      if (error instanceof SecretBoxError) throw new SecretError('not_found', `stored secret "${name}" does not open: ${error.message}`);
      throw error;
    }
  }
}
