/**
 * The settings of a webhook source (spec document 3, "Webhook source" and "Webhook auth") as zod
 * schemas: what the admin API accepts (create and update bodies, with every default filled),
 * what is stored, and what a source view shows (never a secret). Pure: no I/O.
 */
import { z } from 'zod';
import { parseJsonPath } from './json-path.js';
import { windowLengths } from './layout.js';

const MiB = 1024 * 1024;

/** `/hooks/{name}`: lowercase letters, digits and `-`, starting with a letter. */
export const SOURCE_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;
export const MAX_SOURCE_NAME_LENGTH = 63;

/** Longest rotation overlap: a year (an older secret should not outlive a rotation by more). */
export const MAX_ROTATION_OVERLAP_SECONDS = 365 * 24 * 3600;

export const sourceNameSchema = z
  .string()
  .min(1)
  .max(MAX_SOURCE_NAME_LENGTH, `at most ${MAX_SOURCE_NAME_LENGTH} characters`)
  .regex(SOURCE_NAME_PATTERN, 'lowercase letters, digits and -, starting with a letter')
  .describe('Path segment of /hooks/{name}; the table is webhook_{name} with each - as _. Cannot change');

// ---------------------------------------------------------------------------
// JSON paths

/** The spec's JSON path (json-path.ts): `$`, then `.name` or `['name']` members and `[n]` elements. */
const jsonPathSchema = z
  .string()
  .max(256)
  .superRefine((text, ctx) => {
    try {
      parseJsonPath(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    }
  });

// ---------------------------------------------------------------------------
// auth

/** An HTTP header name (RFC 9110 token); requests are matched case-insensitively. */
const headerNameSchema = z.string().max(128).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'an HTTP header name');

const hmacSettings = z.strictObject({
  mode: z.literal('hmac'),
  algorithm: z.enum(['sha256', 'sha1']).default('sha256'),
  signature_header: headerNameSchema.describe('Header carrying the signature'),
  encoding: z.enum(['hex', 'base64']).default('hex'),
  prefix: z.string().min(1).max(64).optional().describe('Text before the signature in its header, e.g. `sha256=`'),
  timestamp_header: headerNameSchema.optional().describe('Header carrying the send time (seconds, or milliseconds above 10^12); needs signed: timestamp.body'),
  tolerance_seconds: z.int().min(1).default(300).describe('Largest distance of that timestamp from the platform clock'),
  signed: z.enum(['body', 'timestamp.body']).default('body').describe('`timestamp.body` signs the timestamp, a dot, and the body'),
});
const headerTokenSettings = z.strictObject({
  mode: z.literal('header_token'),
  header: headerNameSchema.describe('Header carrying the secret'),
});
const basicSettings = z.strictObject({
  mode: z.literal('basic'),
  username: z.string().min(1).max(256).regex(/^[^:]*$/, 'no colon (HTTP Basic)'),
});
const pathTokenSettings = z.strictObject({ mode: z.literal('path_token') });

const authModes = [hmacSettings, headerTokenSettings, basicSettings, pathTokenSettings] as const;

/**
 * Why a timestamp header is accepted only when it is signed: with `signed: body` anyone holding a
 * captured request sends it again with a fresh timestamp, so the tolerance would promise a
 * freshness it cannot give. (The other modes check no freshness at all.)
 */
export const UNSIGNED_TIMESTAMP =
  'timestamp_header is only checked when it is signed: with signed: body the tolerance applies to an unsigned header, so an old request replays with a fresh timestamp. Set signed: timestamp.body (the sender signs "<timestamp>.<body>"), or remove timestamp_header';

/** Rules across fields of one auth object (a discriminated union takes plain objects only). */
function checkAuth(auth: { mode: string; signed?: string; timestamp_header?: string | undefined }, ctx: z.RefinementCtx): void {
  if (auth.mode !== 'hmac') return;
  if (auth.signed === 'timestamp.body' && !auth.timestamp_header) {
    ctx.addIssue({ code: 'custom', path: ['timestamp_header'], message: 'is required when signed is timestamp.body' });
  }
  if (auth.signed !== 'timestamp.body' && auth.timestamp_header) ctx.addIssue({ code: 'custom', path: ['signed'], message: UNSIGNED_TIMESTAMP });
}

/** The auth settings as stored (defaults filled, no secret). */
export const webhookAuthSettingsSchema = z.discriminatedUnion('mode', authModes).superRefine(checkAuth);
export type WebhookAuthSettings = z.output<typeof webhookAuthSettingsSchema>;

const writeOnlySecretFields = {
  secret: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .meta({ writeOnly: true })
    .describe('The signing secret, token or password (<SIGNING_SECRET>). Write-only: never returned. Required at creation; an update without it keeps the stored one'),
  rotation_overlap_seconds: z
    .int()
    .min(0)
    .max(MAX_ROTATION_OVERLAP_SECONDS)
    .optional()
    .describe('With a new secret: the previous one stays valid this many seconds'),
};

/** The auth object of a create or update body: the settings plus the write-only secret fields. */
export const webhookAuthInputSchema = z
  .discriminatedUnion('mode', [
    hmacSettings.extend(writeOnlySecretFields),
    headerTokenSettings.extend(writeOnlySecretFields),
    basicSettings.extend(writeOnlySecretFields),
    pathTokenSettings.extend(writeOnlySecretFields),
  ])
  .superRefine((auth, ctx) => {
    checkAuth(auth, ctx);
    if (auth.rotation_overlap_seconds !== undefined && auth.secret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['rotation_overlap_seconds'], message: 'needs a new secret in auth.secret' });
    }
    // The path_token secret is a path segment of /hooks/{name}/{secret}.
    if (auth.mode === 'path_token' && auth.secret !== undefined && !/^[A-Za-z0-9._~-]+$/.test(auth.secret)) {
      ctx.addIssue({ code: 'custom', path: ['secret'], message: 'a path_token secret is a URL path segment: letters, digits and . _ ~ - only' });
    }
  })
  .describe('How senders authenticate (auth.mode: hmac, header_token, basic, path_token)');
export type WebhookAuthInput = z.output<typeof webhookAuthInputSchema>;

const secretStateFields = {
  secret_set: z.boolean().describe('Whether a secret is stored (the secret itself is never returned)'),
  previous_secret_until: z.string().optional().describe('While a rotation overlap lasts: when the previous secret stops being accepted'),
};

/** The auth object of a source view. */
export const webhookAuthViewSchema = z.discriminatedUnion('mode', [
  hmacSettings.extend(secretStateFields),
  headerTokenSettings.extend(secretStateFields),
  basicSettings.extend(secretStateFields),
  pathTokenSettings.extend(secretStateFields),
]);
export type WebhookAuthView = z.output<typeof webhookAuthViewSchema>;

// ---------------------------------------------------------------------------
// config

const configFields = {
  handshake: z.enum(['none', 'cloudevents']).default('none').describe('`cloudevents` answers the CloudEvents webhook OPTIONS handshake'),
  max_body_bytes: z.int().min(1).max(10 * MiB).default(MiB).describe('Larger bodies get 413 and are not stored'),
  split: jsonPathSchema.optional().describe('Unset: the body is one event; a JSON path to an array: each element is an event; `$`: the body is itself an array'),
  event_id_path: jsonPathSchema.optional().describe("JSON path to the sender's event id; unset or absent: SHA-256 of the event's JSON (keys sorted)"),
  event_type_path: jsonPathSchema.optional().describe('JSON path to the event type (column event_type)'),
  key_path: jsonPathSchema.optional().describe('JSON path to the entity the event concerns (column key)'),
  compact_every_minutes: z.literal(windowLengths).default(60).describe('Window length in minutes; changes apply to events received afterwards'),
  flush_max_events: z.int().min(1).default(5000),
  flush_max_interval_ms: z.int().min(1).default(1000),
  flush_max_bytes: z.int().min(1).default(8 * MiB),
  buffer_limit: z.int().min(1).default(50_000).describe('Events one replica holds in memory for this source before answering 503'),
  rate_limit_per_minute: z.int().min(1).optional().describe('Requests per minute to this source (not per client)'),
  rate_limit_burst: z.int().min(1).optional().describe('Requests allowed at once above the steady rate; needs rate_limit_per_minute'),
  raw_retention_days: z.int().min(1).default(7),
  compacted_retention_days: z.int().min(0).default(400).describe('0 keeps compacted windows forever'),
};

function checkConfig(config: { rate_limit_per_minute?: number | undefined; rate_limit_burst?: number | undefined }, ctx: z.RefinementCtx): void {
  if (config.rate_limit_burst !== undefined && config.rate_limit_per_minute === undefined) {
    ctx.addIssue({ code: 'custom', path: ['rate_limit_burst'], message: 'needs rate_limit_per_minute' });
  }
}

/** config as stored: every default filled; persona lives beside it (it never changes). */
export const webhookSourceConfigSchema = z.strictObject(configFields).superRefine(checkConfig);
export type WebhookSourceConfig = z.output<typeof webhookSourceConfigSchema>;

const personaField = z.string().min(1).max(256);

const configInputSchema = z
  .strictObject({
    ...configFields,
    persona: personaField
      .optional()
      .describe('Persona whose members see the compacted files in Resources and search; unset: admin.persona. Fixed at creation'),
  })
  .superRefine(checkConfig);

/** config of a source view: the stored config with its persona. */
export const webhookSourceConfigViewSchema = z.strictObject({ ...configFields, persona: personaField });

// ---------------------------------------------------------------------------
// bodies

const connectionField = z.string().min(1).max(256);

/** POST {admin.path_prefix}/webhooks/sources */
export const webhookSourceCreateSchema = z
  .strictObject({
    name: sourceNameSchema,
    connection: connectionField.describe('toolkits.sql connection whose scratch catalog holds the table. Cannot change'),
    enabled: z.boolean().default(true).describe('A disabled source answers 404, like an unknown name'),
    auth: webhookAuthInputSchema,
    config: configInputSchema.prefault({}),
  })
  .superRefine((body, ctx) => {
    if (body.auth.secret === undefined) ctx.addIssue({ code: 'custom', path: ['auth', 'secret'], message: 'is required when a source is created' });
  });
export type WebhookSourceCreate = z.output<typeof webhookSourceCreateSchema>;

/**
 * PUT {admin.path_prefix}/webhooks/sources/{name}: replaces every setting (omitted ones take their
 * defaults), except that an auth without `secret` keeps the stored one. name, connection and
 * config.persona may be repeated but not changed.
 */
export const webhookSourceUpdateSchema = z.strictObject({
  name: z.string().optional().describe('Must equal the current name when given'),
  connection: connectionField.optional().describe('Must equal the current connection when given'),
  enabled: z.boolean().default(true).describe('A disabled source answers 404, like an unknown name'),
  auth: webhookAuthInputSchema,
  config: configInputSchema.prefault({}),
});
export type WebhookSourceUpdate = z.output<typeof webhookSourceUpdateSchema>;

// ---------------------------------------------------------------------------
// view

export const webhookSourceViewSchema = z.object({
  id: z.string().describe('UUIDv7'),
  name: z.string(),
  table: z.string().describe("The view webhook_{name} in the connection's scratch schema"),
  path: z.string().describe('Where senders POST: /hooks/{name} (path_token: /hooks/{name}/{secret})'),
  connection: z.string(),
  enabled: z.boolean(),
  state: z
    .enum(['enabled', 'disabled', 'removing'])
    .describe('removing: deleted, its table, windows, resources and segments being removed (it receives nothing; its name stays taken until the removal finished)'),
  removing_since: z.string().optional().describe('When the source was deleted (only while removing)'),
  auth: webhookAuthViewSchema,
  config: webhookSourceConfigViewSchema,
  created_at: z.string(),
  updated_at: z.string(),
  created_by: z.string().describe('Subject of the administrator who created it'),
});
export type WebhookSourceView = z.output<typeof webhookSourceViewSchema>;

// ---------------------------------------------------------------------------
// messages

/** Zod's messages, with a missing value said plainly; never the value itself (it may be a secret). */
function issueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  return issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined;
}

/** Parses with `schema`, or a message naming each field and its rule (`config.split: …; auth.header: is required`). */
export function parseSettings<S extends z.ZodType>(schema: S, input: unknown): { ok: true; value: z.output<S> } | { ok: false; message: string } {
  const result = schema.safeParse(input, { error: issueMessage });
  if (result.success) return { ok: true, value: result.data };
  const message = result.error.issues
    .map((issue) => {
      const at = issue.path.map(String).join('.');
      if (issue.code === 'unrecognized_keys') return `${at ? `${at}: ` : ''}unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`;
      return `${at || 'body'}: ${issue.message}`;
    })
    .join('; ');
  return { ok: false, message };
}
