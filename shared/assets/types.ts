/**
 * Assets (issue 38; spec document 1 "portal", document 2 "Asset reference"): the shared vocabulary
 * of the domain. The service (service.ts) implements `AssetService`; the REST routes
 * (api/portal/assets.ts), the public viewer (api/portal/viewer.ts) and the MCP tools (tools.ts)
 * call only this interface. The acting caller is a ResourceActor (shared/resources): the same
 * subject, email and platform-administrator rule the resources use.
 */
import type { Readable } from 'node:stream';
import type { ResourceActor } from '../resources/index.js';
import type { AssetContentType } from './rules.js';

export type AssetActor = ResourceActor;

/** What the caller may do with an asset: the rules the service enforces, for a UI to follow. */
export interface AssetActions {
  /** Details, content, versions, provenance: the owner, administrators, and recipients of a live private share. */
  read: boolean;
  /** Edit details, save a new version, restore one: the owner and administrators. */
  change: boolean;
  /** Delete: the owner and administrators. */
  delete: boolean;
  /** Create, list and revoke shares: the owner and administrators. */
  share: boolean;
}

/** One resource an asset's head version points at, as the caller may see it. */
export interface AssetResourceReference {
  resource_id: string;
  reference: string;
  /** The resource no longer exists (deleted with force): the asset reports the file as missing. */
  missing: boolean;
  /** The caller may open the resource; name and uri are given only then. */
  readable: boolean;
  name?: string;
  uri?: string;
}

export interface AssetView {
  id: string;
  name: string;
  description: string;
  tags: string[];
  content_type: AssetContentType;
  size: number;
  content_sha256: string;
  version: number;
  owner: { subject: string; email?: string };
  created_at: string;
  updated_at: string;
  /** The portal's address of the asset (portal.public_base_url + /portal/assets/<id>), when a base URL is known. */
  portal_url?: string;
  /** Live shares: how many, and whether one of them is a public link. */
  shares: { active: number; public_link: boolean };
  allowed_actions: AssetActions;
}

export interface AssetDetail extends AssetView {
  references: AssetResourceReference[];
  provenance: Provenance;
}

/** Who and what produced a version (spec toolkits §4.1 save_asset: provenance_captured, calls_recorded). */
export interface Provenance {
  origin: 'agent' | 'person';
  author: string;
  /** The MCP session that saved it (agents only). */
  session_id: string | null;
  /** The session's tool calls on record before the save, oldest first (audit_log ids). */
  calls: ProvenanceCall[];
  /** What the agent said it drew on (references, URLs, call ids), as given. */
  sources: string[];
}

export interface ProvenanceCall {
  id: string;
  tool: string;
  at: string;
  outcome: string;
}

export interface AssetVersionView {
  version: number;
  content_type: AssetContentType;
  size: number;
  content_sha256: string;
  author: string;
  origin: 'agent' | 'person';
  change_summary: string | null;
  restored_from: number | null;
  session_id: string | null;
  calls_recorded: number;
  created_at: string;
}

export interface ShareView {
  id: string;
  asset_id: string;
  created_by: string;
  created_at: string;
  expires_at: string | null;
  /** Private share: who may open it (subject and/or address); both null for a public link. */
  shared_with_user_id: string | null;
  shared_with_email: string | null;
  public: boolean;
  hide_expiration: boolean;
  /** null: the built-in confidentiality notice; '': no notice. */
  notice_text: string | null;
  state: 'active' | 'expired' | 'revoked';
  revoked_at: string | null;
  view_count: number;
  last_viewed_at: string | null;
}

/** A share as created: the only moment its link (and token) is shown. */
export interface CreatedShare {
  share: ShareView;
  token: string;
  /** Path of the public viewer (/portal/view/<token>). */
  path: string;
  /** portal.public_base_url + path, when a base URL is known. */
  url?: string;
}

/** The share creation body (spec document 1, "Share creation body"). */
export interface ShareInput {
  expires_in?: string | undefined;
  shared_with_user_id?: string | undefined;
  shared_with_email?: string | undefined;
  hide_expiration?: boolean | undefined;
  notice_text?: string | null | undefined;
}

export type AssetListScope = 'mine' | 'shared_with_me' | 'all';

export interface AssetListQuery {
  scope: AssetListScope;
  /** Words matched against name, description and tags (case-insensitive). */
  query?: string;
  limit?: number;
  cursor?: string;
}

export interface AssetListPage {
  items: AssetView[];
  next_cursor: string | null;
}

export interface SaveInput {
  /** A new version of this asset; absent: a new asset. */
  asset_id?: string;
  name?: string;
  description?: string;
  tags?: string[];
  content_type: string;
  content: Buffer;
  /** What it drew on: resource references or URIs (recorded as references too), URLs, call ids. */
  sources?: string[];
  change_summary?: string;
}

export interface SaveResult {
  asset: AssetView;
  created: boolean;
  version: number;
  provenance: { captured: boolean; calls_recorded: number; session_id: string | null };
}

export interface AssetUpdate {
  name?: string;
  description?: string;
  tags?: string[];
}

/** What the public viewer gets for a token: the share and its asset, or that the named person must sign in. */
export type ShareOpening =
  | { state: 'open'; share: ShareView; asset: AssetView }
  | { state: 'sign_in' };

export interface AssetContent {
  asset: AssetView;
  version: AssetVersionView;
  body: Readable;
}

export interface AssetService {
  save(actor: AssetActor, input: SaveInput): Promise<SaveResult>;
  list(actor: AssetActor, query: AssetListQuery): Promise<AssetListPage>;
  get(actor: AssetActor, id: string): Promise<AssetDetail>;
  /** The head (or the given version) with its bytes. */
  openContent(actor: AssetActor, id: string, version?: number): Promise<AssetContent>;
  versions(actor: AssetActor, id: string): Promise<AssetVersionView[]>;
  restore(actor: AssetActor, id: string, version: number): Promise<AssetView>;
  update(actor: AssetActor, id: string, changes: AssetUpdate): Promise<AssetView>;
  delete(actor: AssetActor, id: string): Promise<void>;
  createShare(actor: AssetActor, id: string, input: ShareInput): Promise<CreatedShare>;
  listShares(actor: AssetActor, id: string): Promise<ShareView[]>;
  revokeShare(actor: AssetActor, id: string, shareId: string): Promise<ShareView>;
  /**
   * The share a viewer token names, for `viewer` (undefined: nobody signed in). Unknown, revoked
   * and expired tokens, and a private share opened by someone else, all throw the same not_found.
   */
  openShare(token: string, viewer: AssetActor | undefined, opts?: { countView?: boolean }): Promise<ShareOpening>;
  /** The shared asset's head bytes, under the same rule as openShare (a private share's sign-in is not_found here). */
  openSharedContent(token: string, viewer: AssetActor | undefined): Promise<AssetContent>;
}

export type AssetErrorCode = 'not_found' | 'forbidden' | 'invalid' | 'too_large' | 'unsupported' | 'conflict';

export class AssetError extends Error {
  constructor(
    readonly code: AssetErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AssetError';
  }
}
