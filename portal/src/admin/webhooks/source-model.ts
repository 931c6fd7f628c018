/**
 * The webhook source form's state and the bodies it sends (POST …/webhooks/sources, PUT
 * …/{name}). Values are sent as typed: a number field holding something else goes as text, so the
 * api refuses it with its own message (the portal states no rule of its own). Empty optional
 * fields are left out: the api fills its defaults.
 */
import type { Answer } from '../../api/types';

export type SourceView = Answer<'getWebhookSource'>;
export type AuthMode = SourceView['auth']['mode'];
export type SourceState = SourceView['state'];
export type OutcomeCounts = Answer<'getWebhookSourceStatus'>['requests']['last_day'];

export const AUTH_MODES: Array<{ mode: AuthMode; label: string; description: string }> = [
  { mode: 'hmac', label: 'HMAC signature', description: 'A signature of the body (or timestamp.body) in a header' },
  { mode: 'header_token', label: 'Header token', description: 'The secret itself in a header' },
  { mode: 'basic', label: 'HTTP Basic', description: 'The secret as the password of Basic credentials' },
  { mode: 'path_token', label: 'Path token', description: 'The secret as the last path segment: /hooks/<name>/<secret>' },
];

export const WINDOW_LENGTHS = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;

export const CONFIG_NUMBERS = [
  { key: 'max_body_bytes', label: 'Largest body (bytes)', placeholder: '1048576', description: 'Larger bodies get 413 and are not stored' },
  { key: 'flush_max_events', label: 'Flush after events', placeholder: '5000' },
  { key: 'flush_max_interval_ms', label: 'Flush after (ms)', placeholder: '1000' },
  { key: 'flush_max_bytes', label: 'Flush after bytes', placeholder: '8388608' },
  { key: 'buffer_limit', label: 'Buffer limit (events)', placeholder: '50000', description: 'Events one replica holds before answering 503' },
  { key: 'rate_limit_per_minute', label: 'Rate limit per minute', placeholder: 'none', description: 'For the source, not per client' },
  { key: 'rate_limit_burst', label: 'Rate limit burst', placeholder: 'none', description: 'Needs a rate per minute' },
  { key: 'raw_retention_days', label: 'Raw retention (days)', placeholder: '7' },
  { key: 'compacted_retention_days', label: 'Compacted retention (days)', placeholder: '400', description: '0 keeps compacted windows forever' },
] as const;

export const CONFIG_PATHS = [
  { key: 'split', label: 'Split', description: 'Unset: the body is one event; a JSON path to an array: each element is one; $: the body is an array' },
  { key: 'event_id_path', label: 'Event id path', description: "Unset or absent: the SHA-256 of the event's JSON" },
  { key: 'event_type_path', label: 'Event type path', description: 'Stored as the column event_type' },
  { key: 'key_path', label: 'Key path', description: 'The entity the event concerns, stored as the column key' },
] as const;

type NumberKey = (typeof CONFIG_NUMBERS)[number]['key'];
type PathKey = (typeof CONFIG_PATHS)[number]['key'];

export interface SourceForm {
  name: string;
  connection: string;
  persona: string;
  enabled: boolean;
  mode: AuthMode;
  signature_header: string;
  algorithm: 'sha256' | 'sha1';
  encoding: 'hex' | 'base64';
  prefix: string;
  signed: 'body' | 'timestamp.body';
  timestamp_header: string;
  tolerance_seconds: string;
  header: string;
  username: string;
  /** A new secret (write-only); empty keeps the stored one on an update. */
  secret: string;
  /** Seconds the previous secret stays valid after a rotation; empty: none. */
  rotation_overlap_seconds: string;
  handshake: 'none' | 'cloudevents';
  compact_every_minutes: string;
  numbers: Record<NumberKey, string>;
  paths: Record<PathKey, string>;
}

const emptyNumbers = Object.fromEntries(CONFIG_NUMBERS.map((f) => [f.key, ''])) as Record<NumberKey, string>;
const emptyPaths = Object.fromEntries(CONFIG_PATHS.map((f) => [f.key, ''])) as Record<PathKey, string>;

export function newSourceForm(defaults: { connection: string; persona: string }): SourceForm {
  return {
    name: '',
    connection: defaults.connection,
    persona: defaults.persona,
    enabled: true,
    mode: 'hmac',
    signature_header: '',
    algorithm: 'sha256',
    encoding: 'hex',
    prefix: '',
    signed: 'body',
    timestamp_header: '',
    tolerance_seconds: '',
    header: '',
    username: '',
    secret: '',
    rotation_overlap_seconds: '',
    handshake: 'none',
    compact_every_minutes: '60',
    numbers: { ...emptyNumbers },
    paths: { ...emptyPaths },
  };
}

/** The form of a stored source: every setting as it is, the secret empty (kept unless a new one is typed). */
export function sourceFormOf(view: SourceView): SourceForm {
  const form = newSourceForm({ connection: view.connection, persona: view.config.persona });
  const auth = view.auth;
  form.name = view.name;
  form.enabled = view.enabled;
  form.mode = auth.mode;
  if (auth.mode === 'hmac') {
    form.signature_header = auth.signature_header;
    form.algorithm = auth.algorithm;
    form.encoding = auth.encoding;
    form.prefix = auth.prefix ?? '';
    form.signed = auth.signed;
    form.timestamp_header = auth.timestamp_header ?? '';
    form.tolerance_seconds = String(auth.tolerance_seconds);
  }
  if (auth.mode === 'header_token') form.header = auth.header;
  if (auth.mode === 'basic') form.username = auth.username;
  const config = view.config;
  form.handshake = config.handshake;
  form.compact_every_minutes = String(config.compact_every_minutes);
  for (const { key } of CONFIG_NUMBERS) {
    const value = config[key];
    form.numbers[key] = value === undefined ? '' : String(value);
  }
  for (const { key } of CONFIG_PATHS) form.paths[key] = config[key] ?? '';
  return form;
}

/** A number as typed: a number when it reads as one, else the text (the api names the rule it breaks). */
function typed(text: string): number | string {
  const trimmed = text.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

function authBody(form: SourceForm): Record<string, unknown> {
  const secret = form.secret !== '' ? { secret: form.secret } : {};
  const overlap = form.secret !== '' && form.rotation_overlap_seconds.trim() !== '' ? { rotation_overlap_seconds: typed(form.rotation_overlap_seconds) } : {};
  switch (form.mode) {
    case 'hmac':
      return {
        mode: 'hmac',
        signature_header: form.signature_header.trim(),
        algorithm: form.algorithm,
        encoding: form.encoding,
        ...(form.prefix !== '' ? { prefix: form.prefix } : {}),
        signed: form.signed,
        ...(form.timestamp_header.trim() !== '' ? { timestamp_header: form.timestamp_header.trim() } : {}),
        ...(form.tolerance_seconds.trim() !== '' ? { tolerance_seconds: typed(form.tolerance_seconds) } : {}),
        ...secret,
        ...overlap,
      };
    case 'header_token':
      return { mode: 'header_token', header: form.header.trim(), ...secret, ...overlap };
    case 'basic':
      return { mode: 'basic', username: form.username, ...secret, ...overlap };
    case 'path_token':
      return { mode: 'path_token', ...secret, ...overlap };
  }
}

function configBody(form: SourceForm, withPersona: boolean): Record<string, unknown> {
  const config: Record<string, unknown> = { handshake: form.handshake, compact_every_minutes: typed(form.compact_every_minutes) };
  for (const { key } of CONFIG_NUMBERS) if (form.numbers[key].trim() !== '') config[key] = typed(form.numbers[key]);
  for (const { key } of CONFIG_PATHS) if (form.paths[key].trim() !== '') config[key] = form.paths[key].trim();
  if (withPersona && form.persona !== '') config.persona = form.persona;
  return config;
}

export function createBody(form: SourceForm): Record<string, unknown> {
  return { name: form.name.trim(), connection: form.connection, enabled: form.enabled, auth: authBody(form), config: configBody(form, true) };
}

/** PUT replaces every setting: the whole form goes, name and connection as they are, the secret only when a new one was typed. */
export function updateBody(form: SourceForm): Record<string, unknown> {
  return { name: form.name, connection: form.connection, enabled: form.enabled, auth: authBody(form), config: configBody(form, false) };
}

/** The body that switches a stored source on or off, every other setting kept (PUT replaces all). */
export function toggleBody(view: SourceView, enabled: boolean): Record<string, unknown> {
  return { ...updateBody(sourceFormOf(view)), enabled };
}

export function stateTone(state: SourceState): 'ok' | 'off' | 'warn' {
  return state === 'enabled' ? 'ok' : state === 'removing' ? 'warn' : 'off';
}

export const OUTCOME_LABELS: Record<keyof OutcomeCounts, string> = {
  accepted: 'Accepted',
  unauthorized: 'Unauthorized',
  too_large: 'Too large',
  rate_limited: 'Rate limited',
  buffer_full: 'Buffer full',
  write_failed: 'Write failed',
  unknown_source: 'Disabled',
  invalid_body: 'Invalid body',
};

export function refusedRequests(counts: OutcomeCounts): number {
  return Object.entries(counts).reduce((sum, [outcome, n]) => (outcome === 'accepted' ? sum : sum + n), 0);
}
