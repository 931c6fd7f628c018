/**
 * The assets store's rows and the small pure pieces the service builds its SQL and answers from:
 * row shapes, the live/private share conditions, the column list, refusals, and byte helpers.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import type { AssetContentType } from './rules.js';
import { AssetError, type ProvenanceCall } from './types.js';

export interface AssetRow {
  id: string;
  owner: string;
  owner_email: string | null;
  name: string;
  description: string;
  tags: string[];
  content_type: AssetContentType;
  size: string | number;
  content_sha256: string;
  head_version: number;
  created_at: Date;
  updated_at: Date;
  active_shares?: number;
  public_link?: boolean;
  recipient?: boolean;
}

export interface VersionRow {
  asset_id: string;
  version: number;
  content_type: AssetContentType;
  size: string | number;
  content_sha256: string;
  object_bucket: string;
  object_key: string;
  author: string;
  origin: 'agent' | 'person';
  change_summary: string | null;
  restored_from: number | null;
  session_id: string | null;
  calls: ProvenanceCall[];
  sources: string[];
  created_at: Date;
}

export interface ShareRow {
  id: string;
  asset_id: string;
  token_sha256: string;
  created_by: string;
  created_at: Date;
  expires_at: Date | null;
  shared_with_user_id: string | null;
  shared_with_email: string | null;
  hide_expiration: boolean;
  notice_text: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  view_count: number;
  last_viewed_at: Date | null;
}

export type Client = pg.PoolClient;

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** SQL: a share that still opens at $now. */
export const live = (alias: string, now: string) => `${alias}.revoked_at IS NULL AND (${alias}.expires_at IS NULL OR ${alias}.expires_at > ${now})`;
export const privateShare = (alias: string) => `(${alias}.shared_with_user_id IS NOT NULL OR ${alias}.shared_with_email IS NOT NULL)`;
/** SQL: a live private share naming the caller ($subject, $email). */
export const namesCaller = (alias: string, now: string, subject: string, email: string) =>
  `${live(alias, now)} AND (${alias}.shared_with_user_id = ${subject} OR (${email}::text IS NOT NULL AND ${alias}.shared_with_email = ${email}))`;

/** Columns every asset read adds: live shares, a public link among them, and whether the caller is a recipient ($1 now, $2 subject, $3 email). */
export const assetColumns = `a.*,
  (SELECT count(*) FROM asset_shares s WHERE s.asset_id = a.id AND ${live('s', '$1')})::int AS active_shares,
  EXISTS (SELECT 1 FROM asset_shares s WHERE s.asset_id = a.id AND ${live('s', '$1')} AND NOT ${privateShare('s')}) AS public_link,
  EXISTS (SELECT 1 FROM asset_shares s WHERE s.asset_id = a.id AND ${namesCaller('s', '$1', '$2', '$3')}) AS recipient`;

export function notFound(): AssetError {
  return new AssetError('not_found', 'asset not found');
}

export function shareNotFound(): AssetError {
  return new AssetError('not_found', 'this link does not open anything: it may have expired or been revoked, or it was never valid');
}

export function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}


export function createHashHex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function readBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
