import type { Readable } from 'node:stream';
import type { ResourceThumbnails } from './thumbnails/service.js';
import type { FolderRenameInput, FolderRenameResult } from './folder-rename.js';

/**
 * Managed resources (spec document 2): the shared vocabulary of the domain. The service
 * (service.ts) implements `ResourceService`; REST routes (api/resources/) and the MCP surface
 * (resources/* methods and the manage_resource tool) call only this interface.
 */

/** A library (the spec's scope). Persons are keyed by subject. */
export type Library =
  | { kind: 'person'; subject: string }
  | { kind: 'persona'; name: string }
  | { kind: 'global' };

/**
 * Text form of a library, as routes and tools take and answer it:
 * `personal` (the caller's own; input only), `person:<subject>`, `persona:<name>`, `global`.
 */
export type LibraryText = string;

export type SearchSetting = 'default' | 'contents' | 'details_only' | 'not_indexed';

/**
 * Where a write came from, recorded on every version (index rules match on it): `portal` a person
 * through the portal or REST, `agent` an MCP tool call, `script` a managed script's own write
 * (`manage_resource`, `platform.publish_data`), `export` an upstream's answer streamed in
 * (`platform.export`), `webhook` a webhook window's compaction.
 */
export type WriteOrigin = 'portal' | 'agent' | 'script' | 'export' | 'webhook';

/** The door a content read came through (usage is counted per door). */
export type ReadDoor = 'resources_read' | 'search_fetch' | 'portal_download' | 'portal_preview';

export type IfExists = 'fail' | 'skip_unchanged' | 'replace';

export type CreateOutcome = 'created' | 'revised' | 'unchanged';

/** Who is acting, with everything authority needs (resolved from the caller and personas). */
export interface ResourceActor {
  subject: string;
  email?: string;
  /** Personas the caller is a member of (membership, not only the active one). */
  personas: readonly string[];
  /** Personas named by the caller's `persona-admin:{name}` roles. */
  adminOfPersonas: readonly string[];
  /** Platform administrator: member of the persona `admin.persona` names. */
  platformAdmin: boolean;
  /** For writer records: a person (portal) or an agent session (MCP), or a managed script. */
  writer: { kind: 'person'; subject: string } | { kind: 'agent_session'; sessionId: string } | { kind: 'script'; scriptId: string; name?: string };
  /** How the caller authenticated (audit entries of reads carry it). */
  authType?: string;
  /** The caller's active persona, if any (audit entries of reads carry it). */
  activePersona?: string;
  /** Every configured persona: the persona libraries a platform administrator is offered as move targets. */
  configuredPersonas?: readonly string[];
}

/**
 * What the caller may do with a resource (spec document 2, end of "Authentication"), from the
 * same authority rules the service enforces (authority.ts), so a UI offers a control exactly
 * where the request would be accepted.
 */
export interface ResourceActions {
  /** Details, download, versions, usage (the by-id rule). */
  read: boolean;
  /** Edit details, move to another folder, replace content, restore a version. */
  change: boolean;
  /** Delete (a referenced file still needs `force` on manage_resource). */
  delete: boolean;
  /** Libraries the file may be moved into (own, personas, global); other people's: `move_to_people`. */
  move_targets: LibraryText[];
  /** Whether `person:<subject>` of people the platform has seen is offered too (platform administrators; GET …/move-targets lists them). */
  move_to_people: boolean;
  /** Recapture the thumbnail. */
  recapture: boolean;
  /** Register as a query table. */
  register: boolean;
  /** Open in the source editor and save (change, on a text-family file within the inline preview limit: source.ts). */
  edit_source: boolean;
}

/** What the caller may do in a folder ('' path: a library's top-level folder). */
export interface FolderActions {
  /** List its files. */
  list: boolean;
  /** Add here: upload into it, create a folder in it. */
  add: boolean;
  /** Describe it (folders only, not a top-level folder). */
  describe: boolean;
  /** Delete it when empty (folders only). */
  delete: boolean;
}

/** The libraries a resource may be moved into, as the move-targets route answers. */
export interface MoveTargetsView {
  /** The caller's own library, personas and global, where offered. */
  libraries: LibraryText[];
  /** `person:<subject>` of people the platform has seen (platform administrators), by subject, paged. */
  people: LibraryText[];
  next_cursor: string | null;
}

/** A resource as every surface answers it (REST JSON uses these field names). */
export interface ResourceView {
  id: string;
  library: LibraryText;
  /** Folder path inside the library; '' at the library root. */
  path: string;
  file_name: string;
  display_name: string;
  description: string;
  tags: string[];
  content_type: string;
  size: number;
  content_sha256: string | null;
  uploader: string;
  created_at: string;
  updated_at: string;
  version: number;
  reference: string;
  uri: string;
  search_setting: SearchSetting;
  /** Present only for platform administrators (spec: Last read is admin-only). */
  last_read_at?: string | null;
  /** What the caller may do with it. */
  allowed_actions: ResourceActions;
}

export interface VersionView {
  version: number;
  uploader: string;
  created_at: string;
  size: number;
  content_type: string;
  content_sha256: string | null;
  change_summary: string | null;
  restored_from: number | null;
  /** Where the write of this version came from; null for a version written before origins were recorded whose origin is unknown. */
  origin: WriteOrigin | null;
}

export interface CreateInput {
  library: Library;
  /** Folder path inside the library ('' for the root). */
  path: string;
  file_name: string;
  display_name?: string;
  description?: string;
  tags?: string[];
  /** Declared type; sniffed bytes and the extension are checked too. */
  content_type?: string;
  search_setting?: SearchSetting;
  if_exists: IfExists;
  change_summary?: string;
  origin: WriteOrigin;
  body: Readable;
  /**
   * Stores this version's bytes as `<id>/<version uuid>/<object_name>` instead of `<id>/<version
   * uuid>`: a directory holding exactly this one file, which a Hive partition can point at (webhook
   * compaction). A file name (names.ts rule).
   */
  object_name?: string;
}

export interface CreateResult {
  outcome: CreateOutcome;
  resource: ResourceView;
}

export interface UpdateInput {
  display_name?: string;
  description?: string;
  /** The whole tag list (replaces it); not with add_tags / remove_tags. */
  tags?: string[];
  /** Tags added to the file's current ones, applied under the row lock (no lost update). */
  add_tags?: string[];
  /** Tags taken off the file's current ones, likewise. */
  remove_tags?: string[];
  search_setting?: SearchSetting;
  /** Move: another library and/or folder. One URI rewrite, one alias, one event. */
  library?: Library;
  path?: string;
}

export interface ReplaceInput {
  body: Readable;
  content_type?: string;
  change_summary?: string;
  origin: WriteOrigin;
  /** As on create: stores the bytes as `<id>/<version uuid>/<object_name>` (a table's corrected copy). */
  object_name?: string;
  /**
   * Replace only while this version is still the head (checked under the row lock; a `conflict`
   * otherwise, nothing stored): a rewrite of one version never lands above a newer upload.
   */
  if_head?: number;
}

/** `last_read` / `last_read_asc`: platform administrators only (they alone see last read). */
export type ListSort = 'name' | 'name_desc' | 'updated' | 'updated_asc' | 'size' | 'size_desc' | 'last_read' | 'last_read_asc';

export interface ListQuery {
  /**
   * `<library>/<folder path>`; absent or '' = the unnarrowed listing: every library the caller may
   * list (every library for a platform administrator).
   */
  path?: string;
  /** One level only (the folder's own files), else everything beneath. A top-level root (the root of all libraries, a library's own root) lists no files one level only. */
  direct?: boolean;
  sort?: ListSort;
  cursor?: string;
  limit?: number;
}

export interface ListPage<T> {
  items: T[];
  next_cursor: string | null;
}

export interface FolderFacet {
  /** `<library>/<folder path>` ('' path = the library itself). */
  path: string;
  library: LibraryText;
  /** Files filed in this folder or beneath it. */
  count: number;
  /** Files filed directly in this folder. */
  direct_count: number;
  /** Last file written into, removed from or moved out of anything beneath; null when nothing ever was. */
  last_changed_at: string | null;
  description: string;
}

export interface FacetsQuery {
  /** `<library>/<folder path>` the answer is narrowed to; absent or '' = the root of all libraries. */
  path?: string;
  /** Levels beneath `path` to answer (1 = its children), its own entry included; absent = every depth. */
  depth?: number;
}

/** What every top-level folder that is a library shows (top-level.ts), with counts as facets give them for its root. */
export interface LibraryFolderFields {
  /** What the portal shows: My Resources, the persona's display name (else its name), Global; a person's email (else subject). */
  name: string;
  library: LibraryText;
  /** The library as listing and facet paths write it (`<library text>`, percent-encoded). */
  path: string;
  /** The persona's description from the configuration (persona folders); '' otherwise. */
  description: string;
  /** Files beneath, at every depth. */
  count: number;
  /** Files filed at the top level itself (not in a folder). */
  direct_count: number;
  last_changed_at: string | null;
  allowed_actions: FolderActions;
}

/** My Resources (`personal`), a persona's folder, or Global. */
export type LibraryFolderView =
  | (LibraryFolderFields & { kind: 'personal' | 'global' })
  | (LibraryFolderFields & { kind: 'persona'; /** The persona's name. */ persona: string });

/** People (platform administrators): one folder per person whose resources exist, listed by `people`. */
export interface PeopleFolderView {
  kind: 'people';
  name: string;
  /** People whose personal library holds a file or a folder (the caller aside). */
  people: number;
  /** Files beneath, in all of their libraries. */
  count: number;
  last_changed_at: string | null;
}

export type TopLevelFolderView = LibraryFolderView | PeopleFolderView;

/** A person's library under People. */
export interface PersonFolderView extends LibraryFolderFields {
  kind: 'person';
  /** The owner's subject (`library` is person:<subject>). */
  subject: string;
}

export interface PeopleQuery {
  /** Only people whose subject contains this text (case-insensitive). */
  q?: string;
  cursor?: string;
  limit?: number;
}

/** Usage counted from the audit trail (docs/audit.md), or, with audit off, that none is recorded. */
export type UsageView = RecordedUsage | UnrecordedUsage;

export interface RecordedUsage {
  recorded: true;
  /** The last content read on record (image tiles do not count). */
  last_read_at: string | null;
  /** A file at least 30 days old with no content read on record. */
  never_read: boolean;
  /** Reads per door over the last 30 and 90 days (never further back than retention_days). */
  last_30_days: Record<ReadDoor, number>;
  last_90_days: Record<ReadDoor, number>;
  /** audit.retention_days: how far back the trail reaches. */
  retention_days: number;
}

export interface UnrecordedUsage {
  recorded: false;
  /** Why there is nothing to show (audit is off). */
  message: string;
}

/** Things that point at a resource; features that add such links (assets, prompts, tables) register a counter. */
export interface ReferenceCounts {
  assets: number;
  prompts: number;
  tables: number;
}

/** One entry of Written by: who created or modified the file, most recent first. */
export interface WriterView {
  kind: 'person' | 'agent_session' | 'script';
  /** Subject, MCP session id, or script id. */
  id: string;
  /** What to show: a person's email or subject, a script's name; the id otherwise. */
  display: string;
  /** True: this writer created the file; false: only modified it. */
  created: boolean;
  last_written_at: string;
}

/** One asset pointing at a resource, as Used by names it to a caller who may open it. */
export interface ReferencingAsset {
  id: string;
  name: string;
  /** The asset carries a live public share link. */
  public_link: boolean;
}

/** The assets pointing at a resource, as one caller sees them (spec document 2, "Asset reference"). */
export interface ReferencingAssets {
  /** Those the caller may open, named. */
  named: ReferencingAsset[];
  /** Those the caller may not open: counted, never named. */
  hidden: number;
  /** Some referencing asset (named or not) carries a live public share link. */
  public_link: boolean;
}

/** Used by: the counts of what points at the file, and the referencing assets the caller may open. */
export interface UsedBy extends ReferenceCounts {
  referencing_assets: ReferencingAsset[];
  /** Referencing assets the caller may not open (counted in `assets`, not named). */
  assets_not_shown: number;
  /** Some referencing asset carries a live public share link. */
  public_link: boolean;
}

/**
 * Something that can point at a resource (assets, prompts, registered tables). Delete asks every
 * registered counter; a non-zero total refuses the delete unless forced.
 */
export interface ReferenceCounter {
  count(resourceId: string): Promise<Partial<ReferenceCounts>>;
  /** The assets among the references, as `actor` may see them (the assets' counter only). */
  referencingAssets?(resourceId: string, actor: ResourceActor): Promise<ReferencingAssets>;
  /** Called after a forced delete of a referenced resource (e.g. drop tables over it). */
  released?(resourceId: string): Promise<void>;
}

/** How a delete treats what points at the file (delete-rule.ts). */
export interface DeleteOptions {
  /** Delete even when assets, prompts or a registered table point at the file. */
  force: boolean;
  /** `portal`: prompts do not hold the delete (they report the material as missing). Absent: every reference does. */
  origin?: WriteOrigin;
}

export type ResourceChangeKind = 'created' | 'replaced' | 'updated' | 'deleted';

export interface ResourceChangeEvent {
  kind: ResourceChangeKind;
  resource: Pick<ResourceView, 'id' | 'library' | 'uri'>;
  /** The library a move took the resource out of; only when it changed library. */
  previousLibrary?: string;
}

/** How much of the head content a read streams. */
export interface ContentReadOptions {
  /**
   * Decides the byte range to stream from the head version's size and SHA-256 (hex, null for a
   * legacy row): inclusive bounds, or undefined for every byte. It may throw to refuse the read
   * before anything is read or recorded (a range past the end).
   */
  range?: (head: { size: number; sha256: string | null }) => { start: number; end: number } | undefined;
}

export interface ResourceService {
  create(actor: ResourceActor, input: CreateInput): Promise<CreateResult>;
  get(actor: ResourceActor, id: string): Promise<ResourceView>;
  /** By `mcp:resource:<id>`, canonical URI or alias (a live address wins over a vacated one). */
  resolve(actor: ResourceActor, referenceOrAddress: string): Promise<ResourceView>;
  /**
   * Streams the head content; stamps last read and records the read by door. `access` is the
   * authority row that admits the read: `read` (membership-scoped: MCP resources/read, the default
   * for its door) or `dereference` (a named file: by-id routes, fetch, manage_resource; the default
   * for the other doors).
   */
  openContent(
    actor: ResourceActor,
    id: string,
    door: ReadDoor,
    access?: 'read' | 'dereference',
    opts?: ContentReadOptions,
  ): Promise<{ resource: ResourceView; body: Readable; range?: { start: number; end: number; size: number } }>;
  list(actor: ResourceActor, query: ListQuery): Promise<ListPage<ResourceView>>;
  /**
   * Every resource the actor may read, membership-scoped (own library, member personas, global),
   * ordered by id and paged by cursor: for MCP resources/list. Administrators see no more here.
   */
  listReadable(actor: ResourceActor, query?: { cursor?: string; limit?: number }): Promise<ListPage<ResourceView>>;
  facets(actor: ResourceActor, query?: FacetsQuery): Promise<FolderFacet[]>;
  /**
   * The file manager's top-level folders in the order it shows them: My Resources, the personas
   * (every persona for a platform administrator), Global, and People for a platform administrator.
   */
  topLevelFolders(actor: ResourceActor): Promise<TopLevelFolderView[]>;
  /** People (platform administrators only): the personal libraries of people whose resources exist, by subject, paged. */
  people(actor: ResourceActor, query?: PeopleQuery): Promise<ListPage<PersonFolderView>>;
  update(actor: ResourceActor, id: string, input: UpdateInput): Promise<ResourceView>;
  /**
   * Where the caller may move the resource: libraries offered (the rule of `update`'s move), and
   * for platform administrators the people the platform has seen, filtered by `q` (a substring of
   * the subject) and paged by subject.
   */
  moveTargets(actor: ResourceActor, id: string, query?: { q?: string; cursor?: string; limit?: number }): Promise<MoveTargetsView>;
  replaceContent(actor: ResourceActor, id: string, input: ReplaceInput): Promise<ResourceView>;
  /**
   * Where the head version's bytes are stored, for the platform's own readers of its files (webhook
   * compaction): the by-id rule, and no read is stamped or audited (nobody read the content).
   */
  headObject(actor: ResourceActor, id: string): Promise<{ resource: ResourceView; object: { bucket: string; key: string } }>;
  delete(actor: ResourceActor, id: string, opts: DeleteOptions): Promise<void>;
  versions(actor: ResourceActor, id: string): Promise<VersionView[]>;
  restore(actor: ResourceActor, id: string, version: number): Promise<ResourceView>;
  usage(actor: ResourceActor, id: string): Promise<UsageView>;
  usedBy(actor: ResourceActor, id: string): Promise<UsedBy>;
  /** Written by: persons, agent sessions and scripts that created or modified the file, most recent first. */
  writers(actor: ResourceActor, id: string): Promise<WriterView[]>;
  createFolder(actor: ResourceActor, library: Library, path: string): Promise<void>;
  deleteFolder(actor: ResourceActor, library: Library, path: string): Promise<void>;
  describeFolder(actor: ResourceActor, library: Library, path: string, description: string): Promise<void>;
  /**
   * Renames or moves a folder within its library: every resource and stored folder beneath, in one
   * transaction, each resource leaving an alias (folder-rename.ts). Callers outside the worker go
   * through the renameFolder workflow (docs/resources.md, "Renaming folders").
   */
  renameFolder(actor: ResourceActor, input: FolderRenameInput): Promise<FolderRenameResult>;
  /**
   * Subscribes to this service's committed changes (create, replace, delete, move), announced in
   * process after commit. Every change is also published to the other replicas (change-feed.ts).
   * For change notifications only: background work a write starts goes through the outbox
   * (jobs/), which survives a crash after the commit; this hook does not.
   */
  onChange(listener: (event: ResourceChangeEvent) => void): () => void;
  /** Names this service in the changes it publishes, so its own replica can tell them apart. */
  readonly changeOrigin: string;
  /** Thumbnail state, tile images and Recapture (thumbnails/service.ts). */
  readonly thumbnails: ResourceThumbnails;
}

/**
 * Errors every surface maps the same way: REST status, MCP error text. `code` is stable.
 * not_found 404, forbidden 403, conflict 409 (address taken, collision, folder not empty,
 * referenced), invalid 400 (folder rule, bad input), too_large 413, unsupported 415 (executables),
 * upstream 502 (an export's upstream answered an error or broke off: nothing stored).
 */
export type ResourceErrorCode = 'not_found' | 'forbidden' | 'conflict' | 'invalid' | 'too_large' | 'unsupported' | 'upstream';

export class ResourceError extends Error {
  constructor(
    readonly code: ResourceErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}
