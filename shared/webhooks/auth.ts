/**
 * Webhook authentication (document 3, "Webhook auth"): the verification of one request over the
 * raw body bytes as sent, under a source's stored auth settings (source-config.ts).
 *
 * Secrets are handed in as bytes, current first, then a previous one still inside its rotation
 * overlap; every comparison of secret material goes through `secretEquals` (constant time over
 * SHA-256 digests, so neither content nor length leaks). Refusal reasons are stored and shown
 * to administrators, so they name headers and rules but never a secret, a signature or the body.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { UNSIGNED_TIMESTAMP, type WebhookAuthSettings } from './source-config.js';

export type HmacAuth = Extract<WebhookAuthSettings, { mode: 'hmac' }>;

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface WebhookRequestToVerify {
  auth: WebhookAuthSettings;
  /** Current secret first, then a previous one still inside its rotation overlap. */
  secrets: readonly Uint8Array[];
  /** Lower-case names, values as Node gives them (one character per byte sent). */
  headers: RequestHeaders;
  /** The body exactly as received. */
  body: Uint8Array;
  /** The `{secret}` path segment, decoded, when the request came to `/hooks/{name}/{secret}`. */
  pathSecret?: string;
  nowMs: number;
}

export type WebhookAuthResult = { ok: true } | { ok: false; reason: string };

const refuse = (reason: string): WebhookAuthResult => ({ ok: false, reason });
const ACCEPTED: WebhookAuthResult = { ok: true };

const NO_BODY = new Uint8Array();

/**
 * The verdict from the headers and path alone, before the body is read: every mode but hmac (whose
 * signature covers the body) is decided by them, and so is an hmac request that cannot authenticate
 * whatever its body (no secret, a path token). Undefined: only the body can tell.
 */
export function verifyWebhookHeaders(input: Omit<WebhookRequestToVerify, 'body'>): WebhookAuthResult | undefined {
  const bodyDecides = input.auth.mode === 'hmac' && input.secrets.length > 0 && input.pathSecret === undefined;
  return bodyDecides ? undefined : verifyWebhookRequest({ ...input, body: NO_BODY });
}

/** Whether the request authenticates under the source's auth and any of its secrets. */
export function verifyWebhookRequest(input: WebhookRequestToVerify): WebhookAuthResult {
  const { auth, secrets } = input;
  if (secrets.length === 0) return refuse('the source has no secret set');
  if (auth.mode !== 'path_token' && input.pathSecret !== undefined) return refuse(`path token sent to a source using ${auth.mode}`);
  switch (auth.mode) {
    case 'hmac':
      return verifyHmac(auth, input);
    case 'header_token':
      return verifyHeaderToken(auth.header, input);
    case 'basic':
      return verifyBasic(auth.username, input);
    case 'path_token':
      if (!input.pathSecret) return refuse('no path token');
      return anySecretEquals(secrets, Buffer.from(input.pathSecret, 'utf8')) ? ACCEPTED : refuse('path token does not match');
  }
}

/** Constant-time equality of two byte strings of any lengths. */
export function secretEquals(a: Uint8Array, b: Uint8Array): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * Constant-time equality of a digest we computed and one presented: a digest's length is the
 * algorithm's, public, so unequal lengths need no hiding (secretEquals hashes both sides to hide a
 * secret's length; two hashes per request on the webhook path).
 */
function digestEquals(expected: Uint8Array, presented: Uint8Array): boolean {
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}

/** Tries every secret without stopping at a match, so the time taken does not say which one matched. */
function anySecretEquals(
  secrets: readonly Uint8Array[],
  presented: Uint8Array,
  expectedFor: (secret: Uint8Array) => Uint8Array = (s) => s,
  equals: (expected: Uint8Array, presented: Uint8Array) => boolean = secretEquals,
): boolean {
  let matched = false;
  for (const secret of secrets) matched = equals(expectedFor(secret), presented) || matched;
  return matched;
}

type HeaderRead = { ok: true; value: string } | { ok: false; reason: string };

/** Reads a header by its configured name; Node gives request header names lower-case. */
function readHeader(headers: RequestHeaders, configured: string, what: string): HeaderRead {
  const name = configured.toLowerCase();
  const raw = headers[name];
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (values.length > 1) return { ok: false, reason: `${what} ${name} sent more than once` };
  const value = values[0];
  if (value === undefined || value === '') return { ok: false, reason: `missing ${what} ${name}` };
  return { ok: true, value };
}

/** Header text back to the bytes sent (Node decodes header bytes one-to-one as latin1). */
const headerBytes = (value: string): Buffer => Buffer.from(value, 'latin1');

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function verifyHmac(auth: HmacAuth, input: WebhookRequestToVerify): WebhookAuthResult {
  const signatureName = auth.signature_header.toLowerCase();
  const timestampName = auth.timestamp_header?.toLowerCase();
  const signatureHeader = readHeader(input.headers, signatureName, 'signature header');
  if (!signatureHeader.ok) return refuse(signatureHeader.reason);
  let encoded = signatureHeader.value.trim();
  if (auth.prefix !== undefined) {
    if (!encoded.startsWith(auth.prefix)) return refuse(`signature in ${signatureName} lacks the prefix ${auth.prefix}`);
    encoded = encoded.slice(auth.prefix.length);
  }
  if (auth.encoding === 'hex' ? !HEX.test(encoded) : !BASE64.test(encoded)) {
    return refuse(`signature in ${signatureName} is not ${auth.encoding}`);
  }
  const presented = Buffer.from(encoded, auth.encoding);

  let signedPrefix: Buffer | undefined;
  if (timestampName !== undefined) {
    // Settings stored before source-config.ts refused this: the tolerance would check nothing.
    if (auth.signed !== 'timestamp.body') return refuse(`the source's hmac settings are refused: ${UNSIGNED_TIMESTAMP}`);
    const timestampHeader = readHeader(input.headers, timestampName, 'timestamp header');
    if (!timestampHeader.ok) return refuse(timestampHeader.reason);
    const sentMs = timestampMs(timestampHeader.value);
    if (sentMs === undefined) return refuse(`timestamp header ${timestampName} is not a number`);
    if (Math.abs(sentMs - input.nowMs) > auth.tolerance_seconds * 1000) {
      return refuse(`timestamp outside the tolerance of ${auth.tolerance_seconds} s`);
    }
    signedPrefix = Buffer.concat([headerBytes(timestampHeader.value), Buffer.from('.')]);
  }

  const expectedFor = (secret: Uint8Array): Uint8Array => {
    const mac = createHmac(auth.algorithm, secret);
    if (signedPrefix) mac.update(signedPrefix);
    return mac.update(input.body).digest();
  };
  return anySecretEquals(input.secrets, presented, expectedFor, digestEquals) ? ACCEPTED : refuse('signature does not match');
}

/** A value above this is read as milliseconds since the epoch, below it as seconds (document 3). */
export const MILLISECONDS_ABOVE = 1e12;

/** The send time a timestamp header gives, in milliseconds; undefined when it is not a non-negative number. */
export function timestampMs(value: string): number | undefined {
  const text = value.trim();
  if (!/^\d{1,20}(\.\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return n > MILLISECONDS_ABOVE ? n : n * 1000;
}

const BEARER = /^bearer[ \t]+(\S+)$/i;

function verifyHeaderToken(header: string, input: WebhookRequestToVerify): WebhookAuthResult {
  const token = readHeader(input.headers, header, 'token header');
  if (!token.ok) return refuse(token.reason);
  const bearer = header.toLowerCase() === 'authorization' ? BEARER.exec(token.value.trim())?.[1] : undefined;
  const plain = anySecretEquals(input.secrets, headerBytes(token.value));
  const asBearer = bearer !== undefined && anySecretEquals(input.secrets, headerBytes(bearer));
  return plain || asBearer ? ACCEPTED : refuse('token does not match');
}

const BASIC = /^basic[ \t]+([A-Za-z0-9+/]+={0,2})$/i;

function verifyBasic(username: string, input: WebhookRequestToVerify): WebhookAuthResult {
  const header = readHeader(input.headers, 'authorization', 'header');
  if (!header.ok) return refuse(header.reason);
  const encoded = BASIC.exec(header.value.trim())?.[1];
  if (encoded === undefined) return refuse('authorization header is not Basic credentials');
  const decoded = Buffer.from(encoded, 'base64');
  const colon = decoded.indexOf(0x3a);
  if (colon < 0) return refuse('Basic credentials lack the user:password separator');
  // The user name and the password are both compared before answering, so a wrong user takes as long as a wrong password.
  const userMatches = secretEquals(Buffer.from(username, 'utf8'), decoded.subarray(0, colon));
  const passwordMatches = anySecretEquals(input.secrets, decoded.subarray(colon + 1));
  return userMatches && passwordMatches ? ACCEPTED : refuse('basic credentials do not match');
}
