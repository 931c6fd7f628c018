/**
 * Webhook authentication (document 3, "Webhook auth"): the settings of the four modes, their
 * admin-API schema, and the verification of one request over the raw body bytes as sent.
 *
 * Secrets are handed in as bytes, current first, then a previous one still inside its rotation
 * overlap; every comparison of secret material goes through `secretEquals` (constant time over
 * SHA-256 digests, so neither content nor length leaks). Refusal reasons are stored and shown
 * to administrators, so they name headers and rules but never a secret, a signature or the body.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

export const WEBHOOK_AUTH_MODES = ['hmac', 'header_token', 'basic', 'path_token'] as const;

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const required = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : what);

/** A header name, stored lower-case since the request's headers arrive lower-case. */
const headerName = (example: string) =>
  z
    .string({ error: required(`expected a header name such as ${example}`) })
    .regex(HEADER_NAME, { error: `expected a header name such as ${example} (letters, digits and !#$%&'*+.^_\`|~-)` })
    .toLowerCase();

const hmacAuthSchema = z
  .object({
    mode: z.literal('hmac'),
    algorithm: z.enum(['sha256', 'sha1'], { error: 'expected sha256 or sha1' }).default('sha256'),
    signature_header: headerName('x-signature').describe('Header carrying the signature'),
    encoding: z.enum(['hex', 'base64'], { error: 'expected hex or base64' }).default('hex'),
    prefix: z
      .preprocess((v) => (v === '' ? undefined : v), z.string({ error: 'expected a string such as sha256=' }).optional())
      .describe('Text before the signature in the header, e.g. `sha256=`; required in the header when set'),
    timestamp_header: headerName('x-timestamp')
      .optional()
      .describe('Header carrying the send time in Unix seconds (milliseconds when above 10^12)'),
    tolerance_seconds: z
      .number({ error: 'expected a whole number of seconds' })
      .int({ error: 'expected a whole number of seconds' })
      .min(1, { error: 'must be at least 1' })
      .default(300)
      .describe('How far the timestamp may be from the platform clock, either way'),
    signed: z
      .enum(['body', 'timestamp.body'], { error: 'expected body or timestamp.body' })
      .default('body')
      .describe('`body`, or `timestamp.body`: the timestamp as sent, a dot, then the body'),
  })
  .refine((a) => a.signed !== 'timestamp.body' || a.timestamp_header !== undefined, {
    error: 'signed timestamp.body needs a timestamp_header',
    path: ['timestamp_header'],
  })
  .describe('HMAC of the raw body (or of timestamp.body) under the secret, in a header');

const headerTokenAuthSchema = z
  .object({ mode: z.literal('header_token'), header: headerName('x-webhook-token').describe('Header carrying the secret') })
  .describe('The secret in a header (for `authorization`, also as `Bearer <secret>`)');

const basicAuthSchema = z
  .object({
    mode: z.literal('basic'),
    username: z
      .string({ error: required('expected a user name') })
      .min(1, { error: 'must not be empty' })
      .refine((v) => !v.includes(':'), { error: 'must not contain ":" (HTTP Basic splits user and password at the first one)' })
      .describe('User name the sender must present; the secret is the password'),
  })
  .describe('HTTP Basic credentials, the secret as password');

const pathTokenAuthSchema = z.object({ mode: z.literal('path_token') }).describe('The secret as the last path segment: /hooks/{name}/{secret}');

/**
 * The `auth` object of a webhook source without its secret (the admin API takes `secret` and
 * `rotation_overlap_seconds` beside these fields; unknown fields are dropped, so the route may
 * parse the same object for them). Defaults are applied here.
 */
export const webhookAuthSchema = z.discriminatedUnion('mode', [hmacAuthSchema, headerTokenAuthSchema, basicAuthSchema, pathTokenAuthSchema], {
  error: required(`expected one of: ${WEBHOOK_AUTH_MODES.join(', ')}`),
});

export type WebhookAuth = z.output<typeof webhookAuthSchema>;
export type HmacAuth = Extract<WebhookAuth, { mode: 'hmac' }>;

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface WebhookRequestToVerify {
  auth: WebhookAuth;
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

/** Tries every secret without stopping at a match, so the time taken does not say which one matched. */
function anySecretEquals(secrets: readonly Uint8Array[], presented: Uint8Array, expectedFor: (secret: Uint8Array) => Uint8Array = (s) => s): boolean {
  let matched = false;
  for (const secret of secrets) matched = secretEquals(expectedFor(secret), presented) || matched;
  return matched;
}

type HeaderRead = { ok: true; value: string } | { ok: false; reason: string };

function readHeader(headers: RequestHeaders, name: string, what: string): HeaderRead {
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
  const signatureHeader = readHeader(input.headers, auth.signature_header, 'signature header');
  if (!signatureHeader.ok) return refuse(signatureHeader.reason);
  let encoded = signatureHeader.value.trim();
  if (auth.prefix !== undefined) {
    if (!encoded.startsWith(auth.prefix)) return refuse(`signature in ${auth.signature_header} lacks the prefix ${auth.prefix}`);
    encoded = encoded.slice(auth.prefix.length);
  }
  if (auth.encoding === 'hex' ? !HEX.test(encoded) : !BASE64.test(encoded)) {
    return refuse(`signature in ${auth.signature_header} is not ${auth.encoding}`);
  }
  const presented = Buffer.from(encoded, auth.encoding);

  let signedPrefix: Buffer | undefined;
  if (auth.timestamp_header !== undefined) {
    const timestampHeader = readHeader(input.headers, auth.timestamp_header, 'timestamp header');
    if (!timestampHeader.ok) return refuse(timestampHeader.reason);
    const sentMs = timestampMs(timestampHeader.value);
    if (sentMs === undefined) return refuse(`timestamp header ${auth.timestamp_header} is not a number`);
    if (Math.abs(sentMs - input.nowMs) > auth.tolerance_seconds * 1000) {
      return refuse(`timestamp outside the tolerance of ${auth.tolerance_seconds} s`);
    }
    if (auth.signed === 'timestamp.body') signedPrefix = Buffer.concat([headerBytes(timestampHeader.value), Buffer.from('.')]);
  }

  const expectedFor = (secret: Uint8Array): Uint8Array => {
    const mac = createHmac(auth.algorithm, secret);
    if (signedPrefix) mac.update(signedPrefix);
    return mac.update(input.body).digest();
  };
  return anySecretEquals(input.secrets, presented, expectedFor) ? ACCEPTED : refuse('signature does not match');
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
  const bearer = header === 'authorization' ? BEARER.exec(token.value.trim())?.[1] : undefined;
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
