/**
 * Share links of an asset (spec document 1, "share creation body", public viewer): created and
 * revoked by whoever may change the asset, opened by their token. A token is 32 random bytes kept
 * only as its SHA-256; a revoked, expired or unknown token, and a private share opened by someone
 * other than the person it names (or the owner), all answer the same not_found.
 */
import { auditRow, insertAuditRows, type AuditEntry } from '../audit/index.js';
import { auditActive, type PlatformConfig } from '../config/index.js';
import { uuidv7 } from '../crypto/index.js';
import { withTransaction, type Db } from '../db/index.js';
import { isTokenShaped, newShareToken, normaliseShare, tokenDigest } from './rules.js';
import { assetColumns, iso, shareNotFound, type AssetRow, type Client, type ShareRow } from './rows.js';
import { AssetError, type AssetActor, type AssetContent, type AssetService, type AssetView, type CreatedShare, type ShareInput, type ShareOpening, type ShareView } from './types.js';

/** What share operations need of the asset service. */
export interface ShareContext {
  config: PlatformConfig;
  db: Db;
  clock: () => Date;
  baseUrl: () => string | undefined;
  /** The asset when the caller may change it (else not_found / forbidden), locked when asked. */
  changeable(actor: AssetActor, id: string, q?: Db | Client, lock?: boolean): Promise<AssetRow>;
  recordEvent(actor: AssetActor, tool: string, parameters: Record<string, unknown>, q?: Db | Client): Promise<void>;
  toView(actor: AssetActor, row: AssetRow): AssetView;
  contentOf(actor: AssetActor, row: AssetRow, version: number): Promise<AssetContent>;
}

type ShareOperations = Pick<AssetService, 'createShare' | 'listShares' | 'revokeShare' | 'openShare' | 'openSharedContent'>;

function shareState(row: ShareRow, now: Date): ShareView['state'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at <= now) return 'expired';
  return 'active';
}

export function toShareView(row: ShareRow, now: Date): ShareView {
  return {
    id: row.id,
    asset_id: row.asset_id,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    expires_at: iso(row.expires_at),
    shared_with_user_id: row.shared_with_user_id,
    shared_with_email: row.shared_with_email,
    public: row.shared_with_user_id === null && row.shared_with_email === null,
    hide_expiration: row.hide_expiration,
    notice_text: row.notice_text,
    state: shareState(row, now),
    revoked_at: iso(row.revoked_at),
    view_count: row.view_count,
    last_viewed_at: iso(row.last_viewed_at),
  };
}

export function createShareOperations(ctx: ShareContext): ShareOperations {
  const { config, db, clock, baseUrl, changeable, recordEvent, toView, contentOf } = ctx;

  async function createShare(actor: AssetActor, id: string, input: ShareInput): Promise<CreatedShare> {
    const body = normaliseShare(input);
    const token = newShareToken();
    const row = await withTransaction(db, async (client) => {
      await changeable(actor, id, client, true);
      const now = clock();
      const res = await client.query<ShareRow>(
        `INSERT INTO asset_shares (id, asset_id, token_sha256, created_by, created_at, expires_at, shared_with_user_id, shared_with_email, hide_expiration, notice_text)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [
          uuidv7(),
          id,
          tokenDigest(token),
          actor.subject,
          now,
          body.expiresInMs === null ? null : new Date(now.getTime() + body.expiresInMs),
          body.sharedWithUserId,
          body.sharedWithEmail,
          body.hideExpiration,
          body.noticeText,
        ],
      );
      const share = res.rows[0]!;
      await recordEvent(actor, 'portal_share_create', { asset_id: id, share_id: share.id, public: !share.shared_with_user_id && !share.shared_with_email, expires_in: input.expires_in ?? null }, client);
      return share;
    });
    const path = `/portal/view/${token}`;
    const base = baseUrl();
    return { share: toShareView(row, clock()), token, path, ...(base ? { url: `${base}${path}` } : {}) };
  }

  async function listShares(actor: AssetActor, id: string): Promise<ShareView[]> {
    await changeable(actor, id);
    const res = await db.query<ShareRow>(`SELECT * FROM asset_shares WHERE asset_id = $1 ORDER BY created_at DESC, id DESC`, [id]);
    const now = clock();
    return res.rows.map((r) => toShareView(r, now));
  }

  async function revokeShare(actor: AssetActor, id: string, shareId: string): Promise<ShareView> {
    const row = await withTransaction(db, async (client) => {
      await changeable(actor, id, client, true);
      const res = await client.query<ShareRow>(
        `UPDATE asset_shares SET revoked_at = COALESCE(revoked_at, $3), revoked_by = COALESCE(revoked_by, $4) WHERE id = $1 AND asset_id = $2 RETURNING *`,
        [shareId, id, clock(), actor.subject],
      );
      const share = res.rows[0];
      if (!share) throw new AssetError('not_found', 'share not found');
      await recordEvent(actor, 'portal_share_revoke', { asset_id: id, share_id: shareId }, client);
      return share;
    });
    return toShareView(row, clock());
  }

  /** The share a token names when it opens for `viewer` now; the same not_found for every other case. */
  async function shareFor(token: string, viewer: AssetActor | undefined): Promise<{ share: ShareRow; asset: AssetRow } | 'sign_in'> {
    if (!isTokenShaped(token)) throw shareNotFound();
    const now = clock();
    const res = await db.query<ShareRow>(`SELECT * FROM asset_shares WHERE token_sha256 = $1`, [tokenDigest(token)]);
    const share = res.rows[0];
    if (!share || shareState(share, now) !== 'active') throw shareNotFound();
    const viewerActor = viewer ?? { subject: '', personas: [], adminOfPersonas: [], platformAdmin: false, writer: { kind: 'person' as const, subject: '' } };
    const assetRes = await db.query<AssetRow>(`SELECT ${assetColumns} FROM assets a WHERE a.id = $4`, [now, viewerActor.subject, viewerActor.email?.toLowerCase() ?? null, share.asset_id]);
    const asset = assetRes.rows[0];
    if (!asset) throw shareNotFound();
    const isPrivate = share.shared_with_user_id !== null || share.shared_with_email !== null;
    if (isPrivate) {
      if (!viewer) return 'sign_in';
      const email = viewer.email?.toLowerCase();
      const named = share.shared_with_user_id === viewer.subject || (email !== undefined && share.shared_with_email === email);
      if (!named && asset.owner !== viewer.subject) throw shareNotFound();
    }
    return { share, asset };
  }

  const anonymous: AssetActor = { subject: '', personas: [], adminOfPersonas: [], platformAdmin: false, writer: { kind: 'person', subject: '' } };

  async function openShare(token: string, viewer: AssetActor | undefined, opts: { countView?: boolean } = {}): Promise<ShareOpening> {
    const found = await shareFor(token, viewer);
    if (found === 'sign_in') return { state: 'sign_in' };
    const now = clock();
    const readOnly = { read: true, change: false, delete: false, share: false };
    if (opts.countView === false) return { state: 'open', share: toShareView(found.share, now), asset: { ...toView(viewer ?? anonymous, found.asset), allowed_actions: readOnly } };
    const counted = await db.query<ShareRow>(`UPDATE asset_shares SET view_count = view_count + 1, last_viewed_at = $2 WHERE id = $1 RETURNING *`, [found.share.id, now]);
    if (auditActive(config)) {
      const entry: AuditEntry = {
        occurredAt: now,
        subject: viewer?.subject || 'anonymous',
        ...(viewer?.email ? { email: viewer.email } : {}),
        authType: viewer?.authType ?? 'share_link',
        tool: 'portal_share_view',
        parameters: { asset_id: found.asset.id, share_id: found.share.id },
        durationMs: 0,
        outcome: 'ok',
      };
      await insertAuditRows(db, [auditRow(entry, now.getTime())]);
    }
    // The viewer acts on nothing: its view of the asset allows nothing.
    return { state: 'open', share: toShareView(counted.rows[0] ?? found.share, now), asset: { ...toView(viewer ?? anonymous, found.asset), allowed_actions: readOnly } };
  }

  async function openSharedContent(token: string, viewer: AssetActor | undefined): Promise<AssetContent> {
    const found = await shareFor(token, viewer);
    if (found === 'sign_in') throw shareNotFound();
    const content = await contentOf(viewer ?? anonymous, found.asset, found.asset.head_version);
    return { ...content, asset: { ...content.asset, allowed_actions: { read: true, change: false, delete: false, share: false } } };
  }

  return { createShare, listShares, revokeShare, openShare, openSharedContent };
}
