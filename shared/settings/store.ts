/**
 * Platform settings: sections an administrator changes at run time through the admin API, as
 * opposed to platform.yaml, which a deployment fixes at start. Each section is a zod schema with
 * a default for every field; its row in `platform_settings` holds the whole section as validated.
 * A section never written reads as its defaults.
 *
 * Every read goes to Postgres (one primary-key lookup), so a write on one replica is what every
 * replica reads on its next request; nothing is cached. A stored value the section's schema no
 * longer accepts (a schema tightened after the write) is refused, never guessed at: the caller
 * fails closed.
 *
 * A new section: a schema and `{name, schema}` beside the feature it configures (the first is
 * `bot_check`, shared/botcheck/settings.ts), and admin routes reading and writing it through here.
 */
import { z } from 'zod';
import type { Db } from '../db/index.js';

export interface SettingsSection<S extends z.ZodType> {
  /** The row's key: lowercase letters, digits and `_`. */
  name: string;
  /** Validates a whole section; `{}` must parse to the defaults. */
  schema: S;
}

/** A stored section that no longer validates. Its message names the section and the fields, never a value. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

function fieldsOf(error: z.ZodError): string {
  return [...new Set(error.issues.map((issue) => issue.path.join('.') || '(section)'))].join(', ');
}

export class PlatformSettings {
  constructor(private readonly db: Db) {}

  /** The section as stored, its defaults filled in; the defaults when it was never written. */
  async read<S extends z.ZodType>(section: SettingsSection<S>): Promise<z.output<S>> {
    const { rows } = await this.db.query<{ value: unknown }>('SELECT value FROM platform_settings WHERE section = $1', [section.name]);
    const parsed = section.schema.safeParse(rows[0]?.value ?? {});
    if (!parsed.success) throw new SettingsError(`settings section ${section.name} as stored is not valid (${fieldsOf(parsed.error)}): write it again`);
    return parsed.data;
  }

  /** Validates and stores a whole section (replacing what was there); answers it as stored. */
  async write<S extends z.ZodType>(section: SettingsSection<S>, value: z.input<S>, by: string, at: Date): Promise<z.output<S>> {
    const stored = section.schema.parse(value);
    await this.db.query(
      `INSERT INTO platform_settings (section, value, updated_at, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (section) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
      [section.name, JSON.stringify(stored), at, by],
    );
    return stored;
  }
}
