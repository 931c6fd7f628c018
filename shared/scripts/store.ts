/**
 * Managed scripts in Postgres (migrations/0015_scripts.sql): create, new versions, reads, state
 * changes and deletion, each under the rules of source.ts (syntax, kind, imports), states.ts
 * (transitions) and authority.ts (owner or administrator), each change audited (events.ts) on its
 * own transaction. A script is named by its id or its name (names never look like ids).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { uuidv7 } from '../crypto/index.js';
import type { PlatformConfig } from '../config/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { requireChange, requireCreate, scriptActions } from './authority.js';
import { recordScriptChange, type ScriptChange } from './events.js';
import { analyzeSource, checkName, UUID_PATTERN } from './source.js';
import { importable, transition, type StateAction } from './states.js';
import {
  ScriptError,
  type EntryPoint,
  type LibraryPinView,
  type LibraryResolver,
  type ResolvedLibrary,
  type RunImports,
  type RunTarget,
  type ScriptActor,
  type ScriptDetail,
  type ScriptKind,
  type ScriptState,
  type ScriptVersionView,
  type ScriptView,
  type SourceShape,
} from './types.js';

type Client = Db | pg.PoolClient;

export interface ScriptStoreOptions {
  db: Db;
  /** For audit rows (audit.enabled with database.dsn). */
  config: PlatformConfig;
  /** Milliseconds since the epoch. */
  clock?: () => number;
}

interface ScriptRow {
  id: string;
  name: string;
  owner_subject: string;
  owner_email: string | null;
  kind: ScriptKind;
  state: ScriptState;
  superseded_by: string | null;
  superseded_by_name: string | null;
  current_version: number;
  created_at: Date;
  updated_at: Date;
  entry_points: EntryPoint[];
  imports: string[];
}

interface VersionRecordRow {
  number: number;
  sha256: string;
  author_subject: string;
  author_email: string | null;
  author_roles: string[];
  kind: ScriptKind;
  entry_points: EntryPoint[];
  imports: string[];
  created_at: Date;
}

interface VersionRow extends VersionRecordRow {
  source: string;
}

/** A library version a save resolved, by the name it is imported as (script_version_pins). */
interface LibraryPin {
  library: string;
  id: string;
  version: number;
}

/** A library as resolution reads it: the version, and the library's state now (all null but the name: a deleted pinned library). */
interface LibraryRow {
  id: string | null;
  name: string;
  kind: ScriptKind | null;
  state: ScriptState | null;
  superseded_by_name: string | null;
  version: number | null;
  source: string | null;
  imports: string[] | null;
}

const selectScript = `SELECT s.id, s.name, s.owner_subject, s.owner_email, s.kind, s.state, s.superseded_by, r.name AS superseded_by_name,
       s.current_version, s.created_at, s.updated_at, v.entry_points, v.imports
  FROM scripts s
  JOIN script_versions v ON v.script_id = s.id AND v.number = s.current_version
  LEFT JOIN scripts r ON r.id = s.superseded_by`;

/** A version's record without its source (listing versions reads no sources). */
const versionRecordColumns = 'number, sha256, author_subject, author_email, author_roles, kind, entry_points, imports, created_at';

function sha256(source: string): string {
  return createHash('sha256').update(source, 'utf8').digest('hex');
}

export interface SaveOutcome {
  /** `unchanged`: the source was the current version's, so no version was written. */
  outcome: 'created' | 'revised' | 'unchanged';
  script: ScriptDetail;
}

export class ScriptStore implements LibraryResolver {
  private readonly db: Db;
  private readonly config: PlatformConfig;
  private readonly clock: () => number;

  constructor(opts: ScriptStoreOptions) {
    this.db = opts.db;
    this.config = opts.config;
    this.clock = opts.clock ?? Date.now;
  }

  /** A new script owned by the actor, its source as version 1. */
  async create(actor: ScriptActor, input: { name: string; source: string }): Promise<SaveOutcome> {
    requireCreate(actor);
    checkName(input.name);
    const shape = analyzeSource(input.source);
    const id = uuidv7();
    const now = new Date(this.clock());
    try {
      await withTransaction(this.db, async (client) => {
        const pins = await this.pinImports(client, input.name, shape);
        await client.query(
          `INSERT INTO scripts (id, name, owner_subject, owner_email, kind, state, current_version, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, 'active', 1, $6, $6)`,
          [id, input.name, actor.subject, actor.email ?? null, shape.kind, now],
        );
        // After the insert, which waits for a concurrent deletion of that name to end.
        const { rowCount } = await client.query('SELECT 1 FROM retired_script_names WHERE name = $1', [input.name]);
        if (rowCount) {
          throw new ScriptError('name_taken', `"${input.name}" was the name of a deleted script: its principal script:${input.name} keeps what that script wrote, so the name is not reused`);
        }
        await this.insertVersion(client, id, 1, { source: input.source, shape, pins }, actor, now);
        await this.record(client, actor, { scriptId: id, name: input.name, action: 'create', version: 1, to: 'active' }, now);
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new ScriptError('name_taken', `a script named "${input.name}" already exists`);
      throw error;
    }
    return { outcome: 'created', script: await this.get(actor, id) };
  }

  /**
   * Saves `source` as the next version, its imports pinned to the libraries' current versions —
   * none when both the source and those pins are the current version's (re-saving an unchanged
   * source is how its imports are upgraded). Refused when the script is bound to an endpoint and
   * the source no longer defines handle, and when a library other scripts import would stop being one.
   */
  async update(actor: ScriptActor, ref: string, input: { source: string }): Promise<SaveOutcome> {
    const shape = analyzeSource(input.source);
    const digest = sha256(input.source);
    const outcome = await withTransaction(this.db, async (client) => {
      const row = await this.row(client, ref, 'update');
      requireChange(actor, this.owned(row), 'update');
      const current = await this.versionRow(client, row.id, row.current_version);
      const pins = await this.pinImports(client, row.name, shape);
      if (current.sha256 === digest && samePins((await this.pinsOf(client, row.id)).get(current.number) ?? [], pins)) return 'unchanged' as const;
      if (!shape.entryPoints.includes('handle')) {
        const endpoint = await this.endpointOf(client, row.id);
        if (endpoint) {
          throw new ScriptError('bound', `"${row.name}" is bound to the endpoint "${endpoint}": its source must keep defining handle(req)`, { endpoint });
        }
      }
      if (row.kind === 'library' && shape.kind !== 'library') {
        const importers = await this.importers(client, row);
        if (importers.length > 0) {
          throw new ScriptError('in_use', `"${row.name}" is imported by ${quoted(importers)}: it must stay a library (no main or handle)`, { importers });
        }
      }
      const now = new Date(this.clock());
      const number = row.current_version + 1;
      await this.insertVersion(client, row.id, number, { source: input.source, shape, pins }, actor, now);
      await client.query('UPDATE scripts SET current_version = $2, kind = $3, updated_at = $4 WHERE id = $1', [row.id, number, shape.kind, now]);
      await this.record(client, actor, { scriptId: row.id, name: row.name, action: 'update', version: number }, now);
      return 'revised' as const;
    });
    return { outcome, script: await this.get(actor, ref) };
  }

  /** A script with its versions (newest first) and the source of `version` (default current) when the actor may read it. */
  async get(actor: ScriptActor, ref: string, opts: { version?: number } = {}): Promise<ScriptDetail> {
    const row = await this.row(this.db, ref);
    const view = this.view(actor, row);
    const { rows: versions } = await this.db.query<VersionRecordRow>(
      `SELECT ${versionRecordColumns} FROM script_versions WHERE script_id = $1 ORDER BY number DESC`,
      [row.id],
    );
    const sourceVersion = opts.version ?? row.current_version;
    if (!versions.some((v) => v.number === sourceVersion)) {
      throw new ScriptError('not_found', `"${row.name}" has no version ${sourceVersion} (versions 1 to ${row.current_version})`);
    }
    const source = view.allowed_actions.read_source ? (await this.versionRow(this.db, row.id, sourceVersion)).source : undefined;
    const pins = await this.pinsOf(this.db, row.id);
    return {
      ...view,
      versions: versions.map((v) => versionView(v, pins.get(v.number) ?? [])),
      ...(source !== undefined ? { source } : {}),
      source_version: sourceVersion,
    };
  }

  /**
   * The script's runs, newest first (draft and scheduled; docs/scripts.md, "Runs"), for its owner
   * and administrators (403 otherwise: a run's console and error are the script's own). Paged by
   * `before`, the cursor of the last run of the previous page.
   */
  async runs(actor: ScriptActor, ref: string, opts: { limit: number; before?: string }): Promise<{ runs: ScriptRunView[]; next_cursor: string | null }> {
    const row = await this.row(this.db, ref);
    if (!scriptActions(actor, this.owned(row)).change) {
      throw new ScriptError('forbidden', `not allowed to read the runs of "${row.name}": only its owner (${row.owner_subject}) and administrators do`);
    }
    const cursor = opts.before === undefined ? undefined : parseRunCursor(opts.before);
    const { rows } = await this.db.query<RunRow>(
      `SELECT id, version, trigger, scheduled_at, status, error, duration_ms, console_excerpt, started_at, finished_at, caller_subject, principal, retry_of
         FROM script_runs WHERE script_id = $1 ${cursor ? 'AND (started_at, id) < ($3, $4)' : ''}
        ORDER BY started_at DESC, id DESC LIMIT $2`,
      cursor ? [row.id, opts.limit + 1, cursor.startedAt, cursor.id] : [row.id, opts.limit + 1],
    );
    const page = rows.slice(0, opts.limit);
    const last = page[page.length - 1];
    return {
      runs: page.map(runView),
      next_cursor: rows.length > opts.limit && last ? Buffer.from(`${last.started_at.toISOString()}|${last.id}`).toString('base64url') : null,
    };
  }

  /** Every script, by name: names, kinds, states and owners are visible to everyone who may manage scripts. */
  async list(actor: ScriptActor): Promise<ScriptView[]> {
    const { rows } = await this.db.query<ScriptRow>(`${selectScript} ORDER BY s.name`);
    return rows.map((row) => this.view(actor, row));
  }

  /** disable, enable, deprecate or supersede (`supersededBy`: the replacement's id or name). */
  async changeState(actor: ScriptActor, ref: string, action: StateAction, supersededBy?: string): Promise<ScriptView> {
    await withTransaction(this.db, async (client) => {
      // Supersedes take turns, and each holds its replacement against a concurrent change, so two
      // scripts can never end up superseding each other.
      if (action === 'supersede') await client.query("SELECT pg_advisory_xact_lock(hashtext('scripts:supersede'))");
      const row = await this.row(client, ref, 'update');
      requireChange(actor, this.owned(row), action);
      const replacement = action === 'supersede' && supersededBy !== undefined ? await this.row(client, supersededBy, 'share', 'superseded_by') : undefined;
      const next = transition(
        { id: row.id, name: row.name, kind: row.kind, state: row.state, ...(row.superseded_by ? { supersededBy: row.superseded_by } : {}) },
        action,
        replacement,
      );
      if (!next.changes) return;
      const now = new Date(this.clock());
      await client.query('UPDATE scripts SET state = $2, superseded_by = $3, updated_at = $4 WHERE id = $1', [row.id, next.to, replacement?.id ?? null, now]);
      await this.record(
        client,
        actor,
        { scriptId: row.id, name: row.name, action, from: row.state, to: next.to, ...(replacement ? { supersededBy: replacement.id } : {}) },
        now,
      );
    });
    return this.view(actor, await this.row(this.db, ref));
  }

  /**
   * Deletes a script and its versions, retiring its name (never another script's: that one would
   * act as the same principal); refused while it is bound, replaces others, or (a library) is pinned.
   */
  async delete(actor: ScriptActor, ref: string): Promise<ScriptView> {
    return withTransaction(this.db, async (client) => {
      const row = await this.row(client, ref, 'update');
      requireChange(actor, this.owned(row), 'delete');
      const endpoint = await this.endpointOf(client, row.id);
      if (endpoint) throw new ScriptError('bound', `"${row.name}" is bound to the endpoint "${endpoint}": unbind it (manage_script endpoint_remove, DELETE …/endpoint) before deleting the script`, { endpoint });
      const { rows: replaced } = await client.query<{ name: string }>('SELECT name FROM scripts WHERE superseded_by = $1 ORDER BY name', [row.id]);
      if (replaced.length > 0) {
        const names = replaced.map((r) => r.name);
        throw new ScriptError('in_use', `"${row.name}" supersedes ${quoted(names)}: enable or supersede those first`, { superseded: names });
      }
      const importers = row.kind === 'library' ? await this.importers(client, row) : [];
      if (importers.length > 0) throw new ScriptError('in_use', `"${row.name}" is imported by ${quoted(importers)}`, { importers });
      const view = this.view(actor, row);
      const now = new Date(this.clock());
      await client.query('DELETE FROM scripts WHERE id = $1', [row.id]);
      await client.query('INSERT INTO retired_script_names (name, script_id, retired_at) VALUES ($1, $2, $3)', [row.name, row.id, now]);
      await this.record(client, actor, { scriptId: row.id, name: row.name, action: 'delete', from: row.state }, now);
      return view;
    });
  }

  /** What a run of the script `ref` needs: its identity, owner, state and current version (source, author's roles). */
  async runTarget(ref: string): Promise<RunTarget> {
    const row = await this.row(this.db, ref);
    const version = await this.versionRow(this.db, row.id, row.current_version);
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      state: row.state,
      ownerSubject: row.owner_subject,
      version: row.current_version,
      source: version.source,
      authorRoles: version.author_roles,
      entryPoints: version.entry_points,
    };
  }

  /**
   * The current version of the library named `name`, as an unsaved source imports it: active or
   * deprecated libraries resolve; a disabled or superseded one, a script, or no such name is refused.
   */
  async resolveLibrary(name: string): Promise<ResolvedLibrary> {
    return this.resolveOn(this.db, name);
  }

  /**
   * The version of `name` that a saved version pinned at its save, as its runs import it: never a
   * later one. The library's state is read now, so disabling it still stops its importers.
   */
  async resolvePinned(imports: Exclude<RunImports, 'current'>, name: string): Promise<ResolvedLibrary> {
    const { rows } = await this.db.query<LibraryRow>(
      `SELECT p.library_id AS id, p.library AS name, l.kind, l.state, r.name AS superseded_by_name, p.library_version AS version, lv.source, lv.imports
         FROM script_version_pins p
         LEFT JOIN scripts l ON l.id = p.library_id
         LEFT JOIN scripts r ON r.id = l.superseded_by
         LEFT JOIN script_versions lv ON lv.script_id = p.library_id AND lv.number = p.library_version
        WHERE p.script_id = $1 AND p.number = $2 AND p.library = $3`,
      [imports.scriptId, imports.version, name],
    );
    const row = rows[0];
    if (!row) throw new ScriptError('not_found', `version ${imports.version} of this script does not import "${name}"`, { library: name });
    if (row.id === null) throw new ScriptError('state', `the library "${name}" this version was saved against was deleted: save the script again`, { library: name });
    // A pinned version is a library whatever the library became since (it cannot become a script while pinned).
    return importableLibrary({ ...row, kind: 'library' });
  }

  private async resolveOn(q: Client, name: string, lock = false): Promise<ResolvedLibrary> {
    const { rows } = await q.query<LibraryRow>(
      `SELECT s.id, s.name, s.kind, s.state, r.name AS superseded_by_name, s.current_version AS version, v.source, v.imports
         FROM scripts s
         JOIN script_versions v ON v.script_id = s.id AND v.number = s.current_version
         LEFT JOIN scripts r ON r.id = s.superseded_by
        WHERE s.name = $1${lock ? ' FOR SHARE OF s' : ''}`,
      [name],
    );
    if (!rows[0]) throw new ScriptError('not_found', `no library named "${name}"`, { library: name });
    return importableLibrary(rows[0]);
  }

  /**
   * Every library a source reaches, directly or through other libraries' current versions, pinned
   * at that version: each must resolve now (a typo is caught at save, not at the first run), and
   * none may lead back to the source itself. The libraries are locked against a concurrent deletion.
   */
  private async pinImports(client: pg.PoolClient, name: string, shape: SourceShape): Promise<LibraryPin[]> {
    const pins = new Map<string, LibraryPin>();
    const queue = shape.imports.map((library) => ({ library, through: [] as string[] }));
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { library, through } = next;
      const via = through.length > 0 ? ` (through ${quoted(through)})` : '';
      if (library === name) throw new ScriptError('invalid', `"${name}" cannot import itself${via}`);
      if (pins.has(library)) continue;
      let resolved: ResolvedLibrary;
      try {
        resolved = await this.resolveOn(client, library, true);
      } catch (error) {
        if (error instanceof ScriptError) throw new ScriptError('invalid', `import "${library}"${via}: ${error.message}`, error.details);
        throw error;
      }
      pins.set(library, { library, id: resolved.id, version: resolved.version });
      queue.push(...resolved.imports.map((imported) => ({ library: imported, through: [...through, library] })));
    }
    return [...pins.values()];
  }

  /** Every version's pins of the script `id`, by version number. */
  private async pinsOf(q: Client, id: string): Promise<Map<number, LibraryPinView[]>> {
    const { rows } = await q.query<LibraryPinView & { number: number }>(
      'SELECT number, library, library_id, library_version AS version FROM script_version_pins WHERE script_id = $1 ORDER BY number, library',
      [id],
    );
    const pins = new Map<number, LibraryPinView[]>();
    for (const { number, ...pin } of rows) pins.set(number, [...(pins.get(number) ?? []), pin]);
    return pins;
  }

  private async insertVersion(
    client: pg.PoolClient,
    id: string,
    number: number,
    version: { source: string; shape: SourceShape; pins: readonly LibraryPin[] },
    actor: ScriptActor,
    at: Date,
  ): Promise<void> {
    const { source, shape, pins } = version;
    await client.query(
      `INSERT INTO script_versions (script_id, number, source, sha256, author_subject, author_email, author_roles, kind, entry_points, imports, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [id, number, source, sha256(source), actor.subject, actor.email ?? null, actor.roles, shape.kind, shape.entryPoints, shape.imports, at],
    );
    await client.query(
      `INSERT INTO script_version_pins (script_id, number, library, library_id, library_version)
       SELECT $1, $2, p.library, p.id, p.version FROM unnest($3::text[], $4::text[], $5::int[]) AS p (library, id, version)`,
      [id, number, pins.map((p) => p.library), pins.map((p) => p.id), pins.map((p) => p.version)],
    );
  }

  /** The script `ref` names (id or name), locked for the transaction when asked; not_found otherwise. */
  private async row(q: Client, ref: string, lock?: 'update' | 'share', field?: string): Promise<ScriptRow> {
    const byId = UUID_PATTERN.test(ref);
    const locking = lock ? ` FOR ${lock.toUpperCase()} OF s` : '';
    const { rows } = await q.query<ScriptRow>(`${selectScript} WHERE ${byId ? 's.id' : 's.name'} = $1${locking}`, [byId ? ref.toLowerCase() : ref]);
    if (!rows[0]) throw new ScriptError('not_found', `${field ? `${field}: ` : ''}no script ${byId ? 'with the id' : 'named'} "${ref}"`);
    return rows[0];
  }

  private async versionRow(q: Client, id: string, number: number): Promise<VersionRow> {
    const { rows } = await q.query<VersionRow>(`SELECT ${versionRecordColumns}, source FROM script_versions WHERE script_id = $1 AND number = $2`, [id, number]);
    return rows[0]!;
  }

  private async endpointOf(q: Client, id: string): Promise<string | undefined> {
    const { rows } = await q.query<{ endpoint: string }>('SELECT endpoint FROM endpoint_bindings WHERE script_id = $1', [id]);
    return rows[0]?.endpoint;
  }

  /** Other scripts whose current version pins a version of this library (directly or through other libraries), by name. */
  private async importers(q: Client, library: ScriptRow): Promise<string[]> {
    const { rows } = await q.query<{ name: string }>(
      `SELECT s.name FROM scripts s JOIN script_version_pins p ON p.script_id = s.id AND p.number = s.current_version
        WHERE p.library_id = $1 AND s.id <> $1 ORDER BY s.name`,
      [library.id],
    );
    return rows.map((r) => r.name);
  }

  private async record(client: pg.PoolClient, actor: ScriptActor, change: ScriptChange, at: Date): Promise<void> {
    await recordScriptChange(client, this.config, actor, change, at);
  }

  private owned(row: ScriptRow): { name: string; kind: ScriptKind; ownerSubject: string } {
    return { name: row.name, kind: row.kind, ownerSubject: row.owner_subject };
  }

  private view(actor: ScriptActor, row: ScriptRow): ScriptView {
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      state: row.state,
      ...(row.superseded_by ? { superseded_by: { id: row.superseded_by, name: row.superseded_by_name ?? row.superseded_by } } : {}),
      owner: { subject: row.owner_subject, ...(row.owner_email ? { email: row.owner_email } : {}) },
      current_version: row.current_version,
      entry_points: row.entry_points,
      imports: row.imports,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      allowed_actions: scriptActions(actor, this.owned(row)),
    };
  }
}

/** A resolved library row as a run imports it; refused when it is not a library, or not importable in its state now. */
function importableLibrary(row: LibraryRow): ResolvedLibrary {
  const { name } = row;
  if (row.kind !== 'library') throw new ScriptError('invalid', `"${name}" is a script (it exports main or handle), not a library`, { library: name });
  if (!importable(row.state!)) {
    const instead = row.superseded_by_name ? `; import "${row.superseded_by_name}" instead` : '';
    throw new ScriptError('state', `the library "${name}" is ${row.state}${instead}`, { library: name, state: row.state });
  }
  return { id: row.id!, name, version: row.version!, source: row.source!, imports: row.imports! };
}

function samePins(a: readonly LibraryPinView[], b: readonly LibraryPin[]): boolean {
  const byName = new Map(b.map((p) => [p.library, p]));
  return a.length === b.length && a.every((p) => byName.get(p.library)?.id === p.library_id && byName.get(p.library)?.version === p.version);
}

function versionView(row: VersionRecordRow, pins: LibraryPinView[]): ScriptVersionView {
  return {
    number: row.number,
    sha256: row.sha256,
    author: { subject: row.author_subject, ...(row.author_email ? { email: row.author_email } : {}) },
    author_roles: row.author_roles,
    kind: row.kind,
    entry_points: row.entry_points,
    imports: row.imports,
    pins,
    created_at: row.created_at.toISOString(),
  };
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

interface RunRow {
  id: string;
  version: number | null;
  trigger: 'draft' | 'schedule';
  scheduled_at: Date | null;
  status: ScriptRunView['status'];
  error: string | null;
  duration_ms: number;
  console_excerpt: string;
  started_at: Date;
  finished_at: Date;
  caller_subject: string;
  principal: string;
  retry_of: string | null;
}

/** A run as the script's page lists it. */
export interface ScriptRunView {
  id: string;
  version: number | null;
  trigger: 'draft' | 'schedule';
  scheduled_at: string | null;
  status: 'ok' | 'error' | 'timeout' | 'memory' | 'busy';
  error: string | null;
  duration_ms: number;
  console: string;
  started_at: string;
  finished_at: string;
  started_by: string;
  principal: string;
  retry_of: string | null;
}

function runView(r: RunRow): ScriptRunView {
  return {
    id: r.id,
    version: r.version,
    trigger: r.trigger,
    scheduled_at: r.scheduled_at ? r.scheduled_at.toISOString() : null,
    status: r.status,
    error: r.error,
    duration_ms: r.duration_ms,
    console: r.console_excerpt,
    started_at: r.started_at.toISOString(),
    finished_at: r.finished_at.toISOString(),
    started_by: r.caller_subject,
    principal: r.principal,
    retry_of: r.retry_of,
  };
}

function parseRunCursor(text: string): { startedAt: Date; id: string } {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const bar = decoded.indexOf('|');
  const startedAt = new Date(decoded.slice(0, bar));
  if (bar < 0 || Number.isNaN(startedAt.getTime())) throw new ScriptError('invalid', 'before: not a cursor this route gave');
  return { startedAt, id: decoded.slice(bar + 1) };
}
