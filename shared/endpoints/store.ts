/**
 * Endpoint bindings in Postgres (migrations/0015 and 0019; spec document 3, "Endpoint binding" and
 * "Endpoint and script"; docs/endpoints.md, "Binding"): set (create or replace a script's one
 * binding), enable, disable — platform administrators only, never a script run —, read by the
 * script's owner and administrators with the endpoint's recent failed requests, and listed. Each
 * change is a `script_change` audit row on its own transaction, as every other script change.
 * A script is named by its id or its name, optionally with its owner's email (the tool's fields).
 */
import type pg from 'pg';
import type { PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { recordScriptChange, ScriptError, UUID_PATTERN, type EntryPoint, type ScriptActor, type ScriptChangeAction, type ScriptKind } from '../scripts/index.js';
import { listEndpointFailures } from './failures.js';
import { normaliseBinding, requireBindable, requireBindingAuthority, requireBindingRead, type BindingInput } from './rules.js';
import { BINDING_COLUMNS, bindingOf, type BindingRow } from './target.js';
import type { AuthMode, EndpointFailureView, EndpointMethod } from './types.js';

type Client = Db | pg.PoolClient;

/** How many of an endpoint's failed requests (of the seven days kept) a read shows, newest first. */
export const RECENT_FAILURES = 50;

export interface EndpointStoreOptions {
  db: Db;
  /** For audit rows (audit.enabled with database.dsn). */
  config: PlatformConfig;
  /**
   * Why a `public` endpoint may not be bound now, or undefined when it may: the bot-check settings
   * refuse while their provider is `none` unless `allow_public_without_check`. Absent — this server
   * has no bot-check settings to ask — every public binding is refused (fail closed).
   */
  publicEndpointRefusal?: () => Promise<string | undefined>;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

/** A binding as every surface answers it. */
export interface BindingView {
  endpoint: string;
  script: { id: string; name: string };
  methods: EndpointMethod[];
  path: string;
  auth_mode: AuthMode;
  open_reads: boolean;
  timeout_seconds: number;
  max_memory_bytes: number;
  max_body_bytes: number;
  allowed_origins: string[];
  rate_limit: number;
  caller_rate_limit: number;
  enabled: boolean;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
}

/** A script's binding with its endpoint's recent failed requests (newest first, within seven days). */
export interface BindingDetail {
  binding: BindingView;
  failures: EndpointFailureView[];
}

/** Names the script together with `ref`: its owner's email, which must match (the tool's owner_email). */
export interface ScriptNaming {
  ownerEmail?: string;
}

interface TargetRow {
  id: string;
  name: string;
  kind: ScriptKind;
  owner_subject: string;
  owner_email: string | null;
  entry_points: EntryPoint[];
}

type ViewRow = BindingRow & { name: string };

const selectBinding = `SELECT ${BINDING_COLUMNS}, s.name, s.kind, s.owner_subject FROM endpoint_bindings b JOIN scripts s ON s.id = b.script_id`;

export class EndpointStore {
  private readonly db: Db;
  private readonly config: PlatformConfig;
  private readonly clock: () => number;

  constructor(private readonly opts: EndpointStoreOptions) {
    this.db = opts.db;
    this.config = opts.config;
    this.clock = opts.clock ?? Date.now;
  }

  /**
   * Creates the binding of the script `ref` or replaces it (every field from `input`, defaults for
   * those left out; the endpoint may be renamed; an endpoint keeps its enabled state).
   */
  async set(actor: ScriptActor, ref: string, input: BindingInput, naming: ScriptNaming = {}): Promise<BindingView> {
    requireBindingAuthority(actor, 'set');
    const settings = normaliseBinding(input);
    if (settings.authMode === 'public') await this.requirePublicAllowed();
    try {
      return await withTransaction(this.db, async (client) => {
        const script = await this.target(client, ref, naming, true);
        requireBindable({ name: script.name, kind: script.kind, entryPoints: script.entry_points });
        const holder = await this.holder(client, settings.endpoint);
        if (holder && holder.id !== script.id) throw nameTaken(settings.endpoint, holder);
        const now = new Date(this.clock());
        await client.query(
          `INSERT INTO endpoint_bindings (endpoint, script_id, methods, path, auth_mode, open_reads, timeout_seconds, max_memory_bytes, max_body_bytes,
                                          allowed_origins, rate_limit, caller_rate_limit, enabled, created_by, created_at, updated_by, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, $13, $14, $13, $14)
           ON CONFLICT (script_id) DO UPDATE SET endpoint = EXCLUDED.endpoint, methods = EXCLUDED.methods, path = EXCLUDED.path,
             auth_mode = EXCLUDED.auth_mode, open_reads = EXCLUDED.open_reads, timeout_seconds = EXCLUDED.timeout_seconds,
             max_memory_bytes = EXCLUDED.max_memory_bytes, max_body_bytes = EXCLUDED.max_body_bytes, allowed_origins = EXCLUDED.allowed_origins,
             rate_limit = EXCLUDED.rate_limit, caller_rate_limit = EXCLUDED.caller_rate_limit, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
          [
            settings.endpoint,
            script.id,
            settings.methods,
            settings.path,
            settings.authMode,
            settings.openReads,
            settings.timeoutSeconds,
            settings.maxMemoryBytes,
            settings.maxBodyBytes,
            settings.allowedOrigins,
            settings.rateLimit,
            settings.callerRateLimit,
            actor.subject,
            now,
          ],
        );
        const view = (await this.bindingOn(client, script.id))!;
        await this.record(client, actor, script, 'endpoint_set', settings.endpoint, now, settingsOf(view));
        return view;
      });
    } catch (error) {
      // Another script took the name between our check and our insert.
      if ((error as { code?: string }).code === '23505') {
        const holder = await this.holder(this.db, settings.endpoint);
        if (holder) throw nameTaken(settings.endpoint, holder);
      }
      throw error;
    }
  }

  /** Turns the endpoint of the script `ref` on: requests are answered again. */
  async enable(actor: ScriptActor, ref: string, naming: ScriptNaming = {}): Promise<BindingView> {
    return this.switch(actor, ref, naming, true);
  }

  /** Turns the endpoint of the script `ref` off: its requests answer 404; the script is untouched. */
  async disable(actor: ScriptActor, ref: string, naming: ScriptNaming = {}): Promise<BindingView> {
    return this.switch(actor, ref, naming, false);
  }

  /**
   * Unbinds the script `ref` (ours: the spec names no way; a bound script cannot be deleted):
   * its endpoint answers 404 from the next request and the name is free. Administrators only.
   */
  async remove(actor: ScriptActor, ref: string, naming: ScriptNaming = {}): Promise<BindingView> {
    requireBindingAuthority(actor, 'remove');
    return withTransaction(this.db, async (client) => {
      const script = await this.target(client, ref, naming, true);
      const binding = await this.bindingOn(client, script.id);
      if (!binding) throw new ScriptError('not_found', `"${script.name}" is not bound to an endpoint: nothing to remove`);
      await client.query('DELETE FROM endpoint_bindings WHERE script_id = $1', [script.id]);
      await this.record(client, actor, script, 'endpoint_remove', binding.endpoint, new Date(this.clock()));
      return binding;
    });
  }

  /** The binding of the script `ref` and its recent failed requests: the owner and administrators; not_found when unbound. */
  async get(actor: ScriptActor, ref: string, naming: ScriptNaming = {}): Promise<BindingDetail> {
    const script = await this.target(this.db, ref, naming, false);
    requireBindingRead(actor, { name: script.name, kind: script.kind, ownerSubject: script.owner_subject });
    const binding = await this.bindingOn(this.db, script.id);
    if (!binding) throw new ScriptError('not_found', `"${script.name}" is not bound to an endpoint`);
    const failures = await listEndpointFailures(this.db, binding.endpoint, { limit: RECENT_FAILURES, now: new Date(this.clock()) });
    return { binding, failures };
  }

  /**
   * Every binding the actor's scripts have (the spec's endpoint_list without a name), by endpoint
   * name; with `ownerEmail`, those of the scripts of the owner with that email (any case) — an
   * administrator may name anyone, others only themselves.
   */
  async list(actor: ScriptActor, ownerEmail?: string): Promise<BindingView[]> {
    if (ownerEmail === undefined) {
      // Anonymous callers share one subject, so none of them owns anything.
      if (actor.authType === 'anonymous') return [];
      const { rows } = await this.db.query<ViewRow>(`${selectBinding} WHERE s.owner_subject = $1 ORDER BY b.endpoint`, [actor.subject]);
      return rows.map(bindingView);
    }
    if (!actor.platformAdmin && actor.email?.toLowerCase() !== ownerEmail.toLowerCase()) {
      throw new ScriptError('forbidden', `owner_email: only administrators list the bindings of another owner's scripts`);
    }
    const { rows } = await this.db.query<ViewRow>(`${selectBinding} WHERE lower(s.owner_email) = lower($1) ORDER BY b.endpoint`, [ownerEmail]);
    return rows.map(bindingView);
  }

  /** Enable or disable; asking for the state the endpoint is in changes nothing (no audit row). */
  private async switch(actor: ScriptActor, ref: string, naming: ScriptNaming, enabled: boolean): Promise<BindingView> {
    const action = enabled ? 'enable' : 'disable';
    requireBindingAuthority(actor, action);
    return withTransaction(this.db, async (client) => {
      const script = await this.target(client, ref, naming, true);
      const binding = await this.bindingOn(client, script.id);
      if (!binding) throw new ScriptError('not_found', `"${script.name}" is not bound to an endpoint: nothing to ${action}`);
      if (binding.enabled === enabled) return binding;
      const now = new Date(this.clock());
      await client.query('UPDATE endpoint_bindings SET enabled = $2, updated_by = $3, updated_at = $4 WHERE script_id = $1', [script.id, enabled, actor.subject, now]);
      await this.record(client, actor, script, enabled ? 'endpoint_enable' : 'endpoint_disable', binding.endpoint, now);
      return (await this.bindingOn(client, script.id))!;
    });
  }

  private async requirePublicAllowed(): Promise<void> {
    const refusal = this.opts.publicEndpointRefusal
      ? await this.opts.publicEndpointRefusal()
      : 'this server has no bot-check settings to protect it';
    if (refusal !== undefined) throw new ScriptError('invalid', `auth_mode: a public endpoint is refused: ${refusal}`, { field: 'auth_mode' });
  }

  /**
   * The script `ref` names (id or name) with its current version's entry points, locked against a
   * concurrent save or deletion when `lock`; `naming.ownerEmail`, when given, must be its owner's.
   */
  private async target(q: Client, ref: string, naming: ScriptNaming, lock: boolean): Promise<TargetRow> {
    const byId = UUID_PATTERN.test(ref);
    const { rows } = await q.query<TargetRow>(
      `SELECT s.id, s.name, s.kind, s.owner_subject, s.owner_email, v.entry_points
         FROM scripts s JOIN script_versions v ON v.script_id = s.id AND v.number = s.current_version
        WHERE ${byId ? 's.id' : 's.name'} = $1${lock ? ' FOR UPDATE OF s' : ''}`,
      [byId ? ref.toLowerCase() : ref],
    );
    const row = rows[0];
    if (!row) throw new ScriptError('not_found', `no script ${byId ? 'with the id' : 'named'} "${ref}"`);
    if (naming.ownerEmail !== undefined) {
      if (!row.owner_email) throw new ScriptError('invalid', `owner_email: the owner of "${row.name}" has no email on record`, { field: 'owner_email' });
      if (row.owner_email.toLowerCase() !== naming.ownerEmail.toLowerCase()) {
        throw new ScriptError('invalid', `owner_email: "${naming.ownerEmail}" is not the email of the owner of "${row.name}"`, { field: 'owner_email' });
      }
    }
    return row;
  }

  /** The script holding the endpoint `name`, if any. */
  private async holder(q: Client, name: string): Promise<{ id: string; name: string } | undefined> {
    const { rows } = await q.query<{ id: string; name: string }>('SELECT s.id, s.name FROM endpoint_bindings b JOIN scripts s ON s.id = b.script_id WHERE b.endpoint = $1', [name]);
    return rows[0];
  }

  private async bindingOn(q: Client, scriptId: string): Promise<BindingView | undefined> {
    const { rows } = await q.query<ViewRow>(`${selectBinding} WHERE b.script_id = $1`, [scriptId]);
    return rows[0] ? bindingView(rows[0]) : undefined;
  }

  private async record(
    client: pg.PoolClient,
    actor: ScriptActor,
    script: TargetRow,
    action: ScriptChangeAction,
    endpoint: string,
    at: Date,
    binding?: Record<string, unknown>,
  ): Promise<void> {
    await recordScriptChange(client, this.config, actor, { scriptId: script.id, name: script.name, action, endpoint, ...(binding ? { binding } : {}) }, at);
  }
}

function nameTaken(endpoint: string, holder: { id: string; name: string }): ScriptError {
  return new ScriptError('name_taken', `the endpoint "${endpoint}" is already bound to the script "${holder.name}"`, { endpoint, script: holder });
}

/** The settings an endpoint_set wrote (the audit row's `binding`): the view without its identity, state and record fields. */
function settingsOf(view: BindingView): Record<string, unknown> {
  const { endpoint: _endpoint, script: _script, enabled: _enabled, created_by: _cb, created_at: _ca, updated_by: _ub, updated_at: _ua, ...settings } = view;
  return settings;
}

function bindingView(row: ViewRow): BindingView {
  const b = bindingOf(row);
  return {
    endpoint: b.endpoint,
    script: { id: b.scriptId, name: row.name },
    methods: b.methods,
    path: b.path,
    auth_mode: b.authMode,
    open_reads: b.openReads,
    timeout_seconds: b.timeoutSeconds,
    max_memory_bytes: b.maxMemoryBytes,
    max_body_bytes: b.maxBodyBytes,
    allowed_origins: b.allowedOrigins,
    rate_limit: b.rateLimit,
    caller_rate_limit: b.callerRateLimit,
    enabled: b.enabled,
    created_by: b.createdBy,
    created_at: b.createdAt.toISOString(),
    updated_by: b.updatedBy,
    updated_at: b.updatedAt.toISOString(),
  };
}
