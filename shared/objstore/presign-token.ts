/**
 * Presigned URLs of the filesystem driver: platform URLs
 *   <base>/objstore/<connection>/<bucket>/<key segments>?X-Objstore-Method=GET&X-Objstore-Expires=<unix s>&X-Objstore-Signature=<b64url>
 * signed with HMAC-SHA256 over method, connection, bucket, key and expiry, so changing any of
 * them (or the expiry) invalidates the URL. The signing key is derived from the key the platform
 * hands in, so that key can serve other purposes without signatures colliding.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ObjstoreError } from './errors.js';
import type { PresignMethod } from './types.js';

export const presignRoutePrefix = '/objstore';
export const presignParams = {
  method: 'X-Objstore-Method',
  expires: 'X-Objstore-Expires',
  signature: 'X-Objstore-Signature',
} as const;

export function derivePresignKey(masterKey: Uint8Array): Buffer {
  return createHmac('sha256', masterKey).update('objstore-presign-v1').digest();
}

export interface PresignClaims {
  method: PresignMethod;
  connection: string;
  bucket: string;
  key: string;
  /** Unix seconds after which the URL is refused. */
  expires: number;
}

export function presignSignature(key: Buffer, c: PresignClaims): string {
  return createHmac('sha256', key).update([c.method, c.connection, c.bucket, c.key, String(c.expires)].join('\n')).digest('base64url');
}

/** A URL path segment that URL parsers leave alone: `.` and `..` would be resolved away. */
function isDotSegment(segment: string): boolean {
  return segment === '.' || segment === '..';
}

export function presignPath(connection: string, bucket: string, key: string): string {
  const segments = key.split('/');
  if (segments.some(isDotSegment)) {
    throw new ObjstoreError('InvalidArgument', 'a key with "." or ".." path segments cannot be presigned (URLs resolve them away)');
  }
  return `${presignRoutePrefix}/${encodeURIComponent(connection)}/${encodeURIComponent(bucket)}/${segments.map(encodeURIComponent).join('/')}`;
}

export function buildPresignedUrl(baseUrl: string, signingKey: Buffer, claims: PresignClaims): string {
  const query = new URLSearchParams({
    [presignParams.method]: claims.method,
    [presignParams.expires]: String(claims.expires),
    [presignParams.signature]: presignSignature(signingKey, claims),
  });
  return `${baseUrl.replace(/\/+$/, '')}${presignPath(claims.connection, claims.bucket, claims.key)}?${query.toString()}`;
}

export interface ParsedPresignedRequest {
  connection: string;
  bucket: string;
  key: string;
  method?: string;
  expires?: number;
  signature?: string;
}

/**
 * Reads connection, bucket and key from the raw request path (not a router's decoded params, so
 * empty segments and a trailing `/` survive) and the signing fields from the query.
 */
export function parsePresignedRequest(rawUrl: string): ParsedPresignedRequest | undefined {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  if (!path.startsWith(`${presignRoutePrefix}/`)) return undefined;
  const parts = path.slice(presignRoutePrefix.length + 1).split('/');
  if (parts.length < 3) return undefined;
  try {
    const [connection, bucket, ...keyParts] = parts.map((p) => decodeURIComponent(p));
    const expiresRaw = query.get(presignParams.expires);
    const parsed: ParsedPresignedRequest = { connection: connection!, bucket: bucket!, key: keyParts.join('/') };
    const method = query.get(presignParams.method);
    const signature = query.get(presignParams.signature);
    if (method !== null) parsed.method = method;
    if (signature !== null) parsed.signature = signature;
    if (expiresRaw !== null && /^\d{1,12}$/.test(expiresRaw)) parsed.expires = Number(expiresRaw);
    return parsed;
  } catch {
    return undefined;
  }
}

export type PresignVerdict = { ok: true; method: PresignMethod } | { ok: false; reason: string };

/** Constant-time check of the signature, then method and expiry. */
export function verifyPresigned(signingKey: Buffer, req: ParsedPresignedRequest, httpMethod: string, now: Date): PresignVerdict {
  if (req.method !== 'GET' && req.method !== 'PUT') return { ok: false, reason: 'missing or unknown signed method' };
  if (req.expires === undefined || req.signature === undefined) return { ok: false, reason: 'missing signature fields' };
  const expected = Buffer.from(presignSignature(signingKey, { ...req, method: req.method, expires: req.expires }), 'utf8');
  const given = Buffer.from(req.signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature does not match' };
  const allowed = req.method === 'GET' ? ['GET', 'HEAD'] : ['PUT'];
  if (!allowed.includes(httpMethod)) return { ok: false, reason: `the URL was signed for ${req.method}` };
  if (Math.floor(now.getTime() / 1000) > req.expires) return { ok: false, reason: 'the URL has expired' };
  return { ok: true, method: req.method };
}
