/**
 * From an accepted webhook body to events (document 3, "Webhook source" and "Webhook table"):
 * the body read as JSON (or a form post's `payload` field), split into events by the source's
 * `split` path, and each event's columns (event id, type, key, content hash, payload).
 * Refusal reasons are stored and shown to administrators, so they never quote the body.
 */
import { createHash } from 'node:crypto';
import { readJsonPath, type JsonPath } from './json-path.js';

export type BodyResult = { ok: true; value: unknown } | { ok: false; reason: string };
export type SplitResult = { ok: true; events: unknown[] } | { ok: false; reason: string };

/**
 * The deepest nesting a body may have. JSON.parse reads any depth, but JSON.stringify (the
 * payload column) overflows the stack a few thousand levels down; no event needs more.
 */
export const MAX_JSON_DEPTH = 256;

const FORM = 'application/x-www-form-urlencoded';
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/;

/** `application/json`, `text/json` and any `…+json` (e.g. `application/cloudevents+json`). */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType === 'text/json' || mediaType.endsWith('+json');
}

/**
 * The body's JSON value: the whole body for a JSON content type or none, the `payload` field
 * for a form post. Anything else, invalid UTF-8 or invalid JSON is refused.
 */
export function parseWebhookBody(body: Uint8Array, contentType: string | undefined): BodyResult {
  const mediaType = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return { ok: false, reason: 'body is not valid UTF-8' };
  }
  if (mediaType === FORM) {
    const payloads = new URLSearchParams(text).getAll('payload');
    if (payloads.length === 0) return { ok: false, reason: 'form post has no payload field' };
    if (payloads.length > 1) return { ok: false, reason: 'form post has more than one payload field' };
    return parseJsonText(payloads[0]!, 'payload field');
  }
  if (mediaType !== '' && !isJsonMediaType(mediaType)) {
    const named = MEDIA_TYPE.test(mediaType) ? `content type ${mediaType}` : 'content type';
    return { ok: false, reason: `${named} is neither JSON nor a form post` };
  }
  return parseJsonText(text, 'body');
}

function parseJsonText(text: string, what: string): BodyResult {
  if (text.trim() === '') return { ok: false, reason: `${what} is empty` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the input: never passed on.
    return { ok: false, reason: `${what} is not valid JSON` };
  }
  if (nestingDepth(text) > MAX_JSON_DEPTH) return { ok: false, reason: `${what} nests deeper than ${MAX_JSON_DEPTH} levels` };
  return { ok: true, value };
}

/** The deepest array/object nesting of valid JSON text, counted outside strings. */
function nestingDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/**
 * The events of a body: unset `split`, the body is one event; a path to an array, each element
 * is one (`$`: the body itself must be an array). An empty array is zero events.
 */
export function splitEvents(value: unknown, split: JsonPath | undefined): SplitResult {
  if (split === undefined) return { ok: true, events: [value] };
  const target = readJsonPath(value, split);
  if (split.steps.length === 0) {
    return Array.isArray(target) ? { ok: true, events: target } : { ok: false, reason: 'body is not an array (split is $)' };
  }
  if (target === undefined) return { ok: false, reason: `split path ${split.text} is missing from the body` };
  if (!Array.isArray(target)) return { ok: false, reason: `split path ${split.text} is not an array` };
  return { ok: true, events: target };
}

/** JSON with every object's keys sorted (by UTF-16 code units) and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface EventPaths {
  eventIdPath?: JsonPath;
  eventTypePath?: JsonPath;
  keyPath?: JsonPath;
}

/** One event's columns of the webhook table, before the receiving replica stamps times and windows. */
export interface DescribedEvent {
  eventId: string;
  eventType: string | null;
  key: string | null;
  /** Hex SHA-256 of the event's canonical JSON, so the same content hashes the same however it was formatted. */
  contentHash: string;
  /** The event's JSON. */
  payload: string;
}

export function describeEvent(event: unknown, paths: EventPaths): DescribedEvent {
  const contentHash = createHash('sha256').update(canonicalJson(event)).digest('hex');
  const eventId = readColumn(event, paths.eventIdPath);
  return {
    // An empty id cannot tell events apart, so it falls back to the content hash like an absent one.
    eventId: eventId === null || eventId === '' ? contentHash : eventId,
    eventType: readColumn(event, paths.eventTypePath),
    key: readColumn(event, paths.keyPath),
    contentHash,
    payload: JSON.stringify(event),
  };
}

/** A path's value as column text: strings as they are, numbers and booleans by String, objects and arrays as canonical JSON; null when unset, absent or null. */
function readColumn(event: unknown, path: JsonPath | undefined): string | null {
  if (path === undefined) return null;
  const value = readJsonPath(event, path);
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return canonicalJson(value);
  return String(value);
}
