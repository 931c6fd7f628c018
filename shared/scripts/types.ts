/** The script model's shared types: the actor, the answers, and the typed refusal every surface maps to a status. */

export const SCRIPT_KINDS = ['script', 'library'] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

export const SCRIPT_STATES = ['active', 'disabled', 'deprecated', 'superseded'] as const;
export type ScriptState = (typeof SCRIPT_STATES)[number];

/** The functions a script may export for the platform to call. */
export const ENTRY_POINTS = ['main', 'handle'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

export type ScriptErrorCode = 'invalid' | 'syntax' | 'forbidden' | 'not_found' | 'name_taken' | 'bound' | 'state' | 'in_use' | 'too_large';

/**
 * A refusal the surfaces answer with its status: invalid and syntax 400 (syntax with `line` and
 * `column`), forbidden 403, not_found 404, name_taken, bound, state and in_use 409, too_large 413.
 */
export class ScriptError extends Error {
  constructor(
    readonly code: ScriptErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** Who asks: what the script rules need of a caller (shared/scripts/actor.ts builds it). */
export interface ScriptActor {
  subject: string;
  email?: string;
  /** The caller's roles, recorded on each version it saves. */
  roles: string[];
  /** A member of `admin.persona` (or the local operator). */
  platformAdmin: boolean;
  authType: string;
  /** The active persona, for audit rows. */
  persona?: string;
  /** The MCP session, for audit rows of tool calls. */
  sessionId?: string;
}

/** What a source defines, as the rules read it. */
export interface SourceShape {
  kind: ScriptKind;
  entryPoints: EntryPoint[];
  /** Library names imported (static, re-exported or dynamic), each once, in order of appearance. */
  imports: string[];
}

/** What the caller may do with a script, carried by every answer. */
export interface ScriptActions {
  /** Update, disable, enable, deprecate, supersede, delete. */
  change: boolean;
  read_source: boolean;
}

/**
 * A library version a saved version runs, by the name it is imported as (docs/scripts.md,
 * "Imports"); `library_id` and `version` are null once that library was deleted.
 */
export interface LibraryPinView {
  library: string;
  library_id: string | null;
  version: number | null;
}

export interface ScriptVersionView {
  number: number;
  sha256: string;
  author: { subject: string; email?: string };
  author_roles: string[];
  kind: ScriptKind;
  entry_points: EntryPoint[];
  imports: string[];
  /** Every library the version reaches (directly or through libraries), at the version its save resolved: what its runs import. */
  pins: LibraryPinView[];
  created_at: string;
}

export interface ScriptView {
  id: string;
  name: string;
  kind: ScriptKind;
  state: ScriptState;
  superseded_by?: { id: string; name: string };
  owner: { subject: string; email?: string };
  current_version: number;
  entry_points: EntryPoint[];
  imports: string[];
  created_at: string;
  updated_at: string;
  allowed_actions: ScriptActions;
}

/** A script with its versions, newest first, and a version's source when the caller may read it. */
export interface ScriptDetail extends ScriptView {
  versions: ScriptVersionView[];
  /** The source of `source_version` (the current version unless another was asked for). */
  source?: string;
  source_version: number;
}

/** A version of an active or deprecated library, as a run imports it. */
export interface ResolvedLibrary {
  id: string;
  name: string;
  version: number;
  source: string;
  /** The libraries that version imports, by name. */
  imports: string[];
}

/** Which library versions a run imports: a saved version's pins, or (an unsaved source) each library's current version. */
export type RunImports = { scriptId: string; version: number } | 'current';

/** How a sandbox finds the libraries a script imports (ScriptStore is one). */
export interface LibraryResolver {
  /** The current version. Throws ScriptError not_found (no library of that name) or state (disabled or superseded). */
  resolveLibrary(name: string): Promise<ResolvedLibrary>;
  /** The version `imports` pins for `name`; not_found when it pins none, state when that library is disabled, superseded or deleted. */
  resolvePinned(imports: Exclude<RunImports, 'current'>, name: string): Promise<ResolvedLibrary>;
}

/** The current version of a script as a run takes it (ScriptStore.runTarget). */
export interface RunTarget {
  id: string;
  name: string;
  kind: ScriptKind;
  state: ScriptState;
  ownerSubject: string;
  version: number;
  source: string;
  /** The version's author's roles at save time: the run's principal holds them. */
  authorRoles: string[];
  entryPoints: EntryPoint[];
}
