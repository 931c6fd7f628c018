/**
 * Pure rules of assets: the content-type allow-list and what each type's bytes must be, the size
 * limit, the resource references an asset's content makes, share tokens (unguessable, kept only as
 * their SHA-256), the share creation body (spec document 1, "Share creation body") and list cursors.
 */
import { createHash, randomBytes } from 'node:crypto';
import { parseDuration } from '../config/index.js';
import { AssetError, type ShareInput } from './types.js';

/** The types an asset may have (issue 38: markdown, HTML, JSX, SVG, CSV, JSON, plain text, PNG). */
export const ASSET_CONTENT_TYPES = ['text/markdown', 'text/html', 'text/jsx', 'image/svg+xml', 'text/csv', 'application/json', 'text/plain', 'image/png'] as const;
export type AssetContentType = (typeof ASSET_CONTENT_TYPES)[number];

/** Names agents commonly write for the allowed types, and what they mean. */
const aliases: Record<string, AssetContentType> = {
  'text/x-markdown': 'text/markdown',
  'text/md': 'text/markdown',
  'application/jsx': 'text/jsx',
  'text/x-jsx': 'text/jsx',
  'text/svg+xml': 'image/svg+xml',
  'application/csv': 'text/csv',
  'text/json': 'application/json',
};

/** Limits of the fields (spec toolkits §4.1 save_asset). */
export const MAX_NAME_CHARS = 255;
export const MAX_DESCRIPTION_CHARS = 2000;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 100;
export const MAX_SOURCES = 100;
export const MAX_SOURCE_CHARS = 2000;
export const MAX_CHANGE_SUMMARY_CHARS = 500;
/** Spec document 1, Limits: "Share notice text: at most 500 characters". */
export const MAX_NOTICE_CHARS = 500;
/** Versions kept per asset; a save past it removes the oldest (never the head). */
export const MAX_ASSET_VERSIONS = 20;
/** Distinct resource references recorded per version, at most (the rest are ignored). */
export const MAX_REFERENCES = 200;
/** Tool calls kept as a version's provenance, at most (the latest ones). */
export const MAX_PROVENANCE_CALLS = 200;
/** A share's life, at most (also keeps the timestamp inside what Postgres stores). */
export const MAX_SHARE_DAYS = 3650;

/** Spec document 1: the notice a share shows when its body gave none (notice_text omitted or null). */
export const DEFAULT_NOTICE =
  'Confidential. This content was shared with you by its owner: do not forward, copy or publish it without their permission.';

/** The allowed type a declared content type names (parameters such as charset dropped), or a refusal. */
export function assetContentType(declared: string): AssetContentType {
  const bare = declared.split(';')[0]!.trim().toLowerCase();
  const type = (ASSET_CONTENT_TYPES as readonly string[]).includes(bare) ? (bare as AssetContentType) : aliases[bare];
  if (!type) {
    throw new AssetError('unsupported', `content_type "${declared.slice(0, 100)}" is not allowed for assets; use one of ${ASSET_CONTENT_TYPES.join(', ')}`, {
      allowed: [...ASSET_CONTENT_TYPES],
    });
  }
  return type;
}

export function isTextType(type: string): boolean {
  return type !== 'image/png';
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Refuses content larger than `maxBytes` (portal.max_content_size). */
export function checkSize(size: number, maxBytes: number): void {
  if (size > maxBytes) {
    throw new AssetError('too_large', `the content is ${size} bytes; assets hold at most ${maxBytes} bytes (portal.max_content_size)`, {
      size,
      limit_bytes: maxBytes,
    });
  }
}

/** Refuses bytes that are not what their type says: text must be UTF-8 without NUL, JSON must parse, SVG must be an SVG document, PNG a PNG. */
export function checkContent(type: AssetContentType, bytes: Buffer): void {
  if (type === 'image/png') {
    if (bytes.length < 8 || !bytes.subarray(0, 8).equals(pngSignature)) throw new AssetError('invalid', 'content_type is image/png but the content is not a PNG image (give it as content_base64)');
    return;
  }
  if (bytes.includes(0)) throw new AssetError('invalid', `content_type is ${type} but the content has NUL bytes: text assets are UTF-8 text`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AssetError('invalid', `content_type is ${type} but the content is not valid UTF-8 text`);
  }
  if (type === 'application/json') {
    try {
      JSON.parse(text);
    } catch (error) {
      throw new AssetError('invalid', `content_type is application/json but the content is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (type === 'image/svg+xml' && !/<svg[\s>]/i.test(text)) {
    throw new AssetError('invalid', 'content_type is image/svg+xml but the content has no <svg> element');
  }
}

const uuid = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const referencePattern = new RegExp(`mcp:resource:(${uuid})`, 'g');
/** A canonical URI of a managed resource (shared/resources/uri.ts), up to a character no URI segment holds. */
const uriPattern = /mcp:\/\/(?:user|persona|global)\/[^\s"'<>`()[\]{}|\\^]+/g;

/** What an asset points at, before resolution: resource ids (from references) and canonical URIs. */
export interface ReferenceCandidates {
  ids: string[];
  uris: string[];
}

/**
 * The resource references in an asset's text and in its sources: every `mcp:resource:<id>` and
 * every canonical URI (`mcp://user|persona|global/…`), distinct, at most MAX_REFERENCES together.
 * Trailing punctuation a sentence or markdown adds to a URI (`.`, `,`, `;`, `:`, `!`, `?`) is not part of it.
 */
export function referenceCandidates(texts: readonly string[]): ReferenceCandidates {
  const ids = new Set<string>();
  const uris = new Set<string>();
  for (const text of texts) {
    for (const m of text.matchAll(referencePattern)) {
      if (ids.size + uris.size >= MAX_REFERENCES) break;
      ids.add(m[1]!.toLowerCase());
    }
    for (const m of text.matchAll(uriPattern)) {
      if (ids.size + uris.size >= MAX_REFERENCES) break;
      uris.add(m[0].replace(/[.,;:!?]+$/, ''));
    }
  }
  return { ids: [...ids], uris: [...uris] };
}

/** A share link's token: 32 random bytes, base64url (43 characters). */
export function newShareToken(): string {
  return randomBytes(32).toString('base64url');
}

const tokenShape = /^[A-Za-z0-9_-]{43}$/;

/** Whether text could be a token at all (anything else is answered not found without a lookup). */
export function isTokenShaped(text: string): boolean {
  return tokenShape.test(text);
}

/** What is kept of a token: its SHA-256, hex. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The normalised share body, or a refusal naming the rule broken. */
export interface NormalisedShare {
  expiresInMs: number | null;
  sharedWithUserId: string | null;
  sharedWithEmail: string | null;
  hideExpiration: boolean;
  noticeText: string | null;
}

const emailShape = /^[^\s@]+@[^\s@]+$/;

export function normaliseShare(input: ShareInput): NormalisedShare {
  let expiresInMs: number | null = null;
  if (input.expires_in !== undefined && input.expires_in !== '') {
    try {
      expiresInMs = parseDuration(input.expires_in);
    } catch (error) {
      throw new AssetError('invalid', `expires_in: ${(error as Error).message}`);
    }
    if (expiresInMs < 60_000) throw new AssetError('invalid', 'expires_in must be at least 1m');
    if (expiresInMs > MAX_SHARE_DAYS * 86_400_000) throw new AssetError('invalid', `expires_in must be at most ${MAX_SHARE_DAYS}d`);
  }
  const userId = input.shared_with_user_id?.trim() || null;
  if (userId !== null && userId.length > 500) throw new AssetError('invalid', 'shared_with_user_id is longer than 500 characters');
  const email = input.shared_with_email?.trim().toLowerCase() || null;
  if (email !== null && (email.length > 320 || !emailShape.test(email))) throw new AssetError('invalid', `shared_with_email "${email.slice(0, 100)}" is not an email address`);
  const notice = input.notice_text ?? null;
  if (notice !== null && [...notice].length > MAX_NOTICE_CHARS) {
    throw new AssetError('invalid', `notice_text is ${[...notice].length} characters; a notice holds at most ${MAX_NOTICE_CHARS}`, { limit_chars: MAX_NOTICE_CHARS });
  }
  return { expiresInMs, sharedWithUserId: userId, sharedWithEmail: email, hideExpiration: input.hide_expiration ?? false, noticeText: notice };
}

/** The notice a share shows: its own text, the built-in one when it gave none, nothing when it gave ''. */
export function shownNotice(noticeText: string | null): string | null {
  if (noticeText === null) return DEFAULT_NOTICE;
  return noticeText === '' ? null : noticeText;
}

/** Tags as stored: trimmed, without empties and duplicates, within the limits. */
export function normaliseTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag === '' || out.includes(tag)) continue;
    if ([...tag].length > MAX_TAG_CHARS) throw new AssetError('invalid', `tag "${tag.slice(0, 40)}…" is longer than ${MAX_TAG_CHARS} characters`);
    out.push(tag);
  }
  if (out.length > MAX_TAGS) throw new AssetError('invalid', `${out.length} tags; an asset has at most ${MAX_TAGS}`);
  return out;
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new AssetError('invalid', 'name must not be empty');
  if ([...trimmed].length > MAX_NAME_CHARS) throw new AssetError('invalid', `name is longer than ${MAX_NAME_CHARS} characters`);
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw new AssetError('invalid', 'name must not hold control characters');
  return trimmed;
}

export function checkDescription(description: string): string {
  if ([...description].length > MAX_DESCRIPTION_CHARS) throw new AssetError('invalid', `description is longer than ${MAX_DESCRIPTION_CHARS} characters`);
  return description;
}

export function checkSources(sources: readonly string[]): string[] {
  if (sources.length > MAX_SOURCES) throw new AssetError('invalid', `${sources.length} sources; at most ${MAX_SOURCES}`);
  const out: string[] = [];
  for (const s of sources) {
    const t = s.trim();
    if (t === '') continue;
    if (t.length > MAX_SOURCE_CHARS) throw new AssetError('invalid', `a source is longer than ${MAX_SOURCE_CHARS} characters`);
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** Keyset cursor of the asset lists: the last row's updated_at and id. */
export function encodeAssetCursor(updatedAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([updatedAt.toISOString(), id])).toString('base64url');
}

export function decodeAssetCursor(cursor: string): { updatedAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const updatedAt = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(updatedAt.getTime())) throw new Error('bad');
    return { updatedAt, id };
  } catch {
    throw new AssetError('invalid', 'cursor is not one this list gave');
  }
}

/** The file name a download of the asset gets: its name with the type's extension. */
export function downloadName(name: string, type: string): string {
  const ext: Record<string, string> = {
    'text/markdown': '.md',
    'text/html': '.html',
    'text/jsx': '.jsx',
    'image/svg+xml': '.svg',
    'text/csv': '.csv',
    'application/json': '.json',
    'text/plain': '.txt',
    'image/png': '.png',
  };
  const suffix = ext[type] ?? '';
  const base = name.replace(/[/\\]/g, '-');
  return base.toLowerCase().endsWith(suffix) ? base : `${base}${suffix}`;
}
