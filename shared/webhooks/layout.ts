/**
 * Where a webhook source's data lives (spec document 3, "Storage layout" and "Webhook table"), as
 * pure functions: windows, raw segment keys, the rows of a segment, the table names. The receiver
 * writes by these rules and the compactor reads by them, so both agree without talking.
 *
 *   raw segment   {resources bucket}/webhooks/{source}/raw/dt=YYYY-MM-DD/hour=HH/minute=MM/{replica}-{start}-{sequence}.jsonl.gz
 *   raw table     webhook_{source}_raw        (gzipped JSON lines, one partition per window)
 *   compacted     webhook_{source}_compacted  (Parquet, one partition per compacted window)
 *   view          webhook_{source}            (compacted for a registered window, raw until then)
 *
 * `{start}` is when the writing replica started (ms since the epoch) and `{sequence}` counts its
 * segments from 1, so a replica restarted under the same id never reuses a name.
 */

/** Window lengths a source may use (minutes; each divides an hour). */
export const windowLengths = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;
export type WindowLength = (typeof windowLengths)[number];

/** A window of a source: its partition values and its bounds. */
export interface Window {
  /** YYYY-MM-DD (UTC). */
  dt: string;
  /** HH. */
  hour: string;
  /** MM, the start minute of the window; 00 for hourly sources. */
  minute: string;
  startMs: number;
  endMs: number;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The window (of `minutes` length, aligned to the hour, UTC) that `atMs` falls in. */
export function windowOf(atMs: number, minutes: WindowLength): Window {
  const lengthMs = minutes * 60_000;
  const startMs = Math.floor(atMs / lengthMs) * lengthMs;
  const start = new Date(startMs);
  return {
    dt: start.toISOString().slice(0, 10),
    hour: two(start.getUTCHours()),
    minute: two(start.getUTCMinutes()),
    startMs,
    endMs: startMs + lengthMs,
  };
}

/** The partition values of a window, in the tables' partition column order. */
export const windowValues = (w: Pick<Window, 'dt' | 'hour' | 'minute'>): [string, string, string] => [w.dt, w.hour, w.minute];

/** The scratch table name of a source: `webhook_` then the name with each `-` as `_`. */
export function webhookTableName(source: string): string {
  return `webhook_${source.replaceAll('-', '_')}`;
}

/** The prefix of a source's raw segments (all windows). */
export const rawPrefix = (source: string) => `webhooks/${source}/raw/`;

/** The prefix of one window's raw segments: the raw table's partition location. */
export const rawWindowPrefix = (source: string, w: Pick<Window, 'dt' | 'hour' | 'minute'>) => `${rawPrefix(source)}dt=${w.dt}/hour=${w.hour}/minute=${w.minute}/`;

/** The key of one raw segment. */
export function segmentKey(source: string, w: Pick<Window, 'dt' | 'hour' | 'minute'>, replica: string, startMs: number, sequence: number): string {
  return `${rawWindowPrefix(source, w)}${replica}-${startMs}-${sequence}.jsonl.gz`;
}

/** A timestamp as the tables' JSON lines carry it: `YYYY-MM-DD HH:MM:SS.ffffff`, UTC. */
export function tableTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  const micros = Math.round((ms - second * 1000) * 1000);
  // Every event received is stamped: the date and time of the last second are kept.
  if (second !== lastSecond.second) {
    const iso = new Date(second * 1000).toISOString();
    lastSecond.second = second;
    lastSecond.text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
  }
  return `${lastSecond.text}.${String(micros).padStart(6, '0')}`;
}

const lastSecond = { second: Number.NaN, text: '' };

/** One event as a row of the webhook table (the partition columns come from its window). */
export interface WebhookRow {
  receivedAtMs: number;
  eventId: string;
  eventType: string | null;
  key: string | null;
  contentHash: string;
  payload: string;
}

/**
 * A segment's JSON line for a row in two parts around its `landed_at` value, which is known only
 * when the segment is written: the line is `before + tableTimestamp(landedAtMs) + after`.
 */
export function segmentLineParts(row: WebhookRow, replica: string): [before: string, after: string] {
  const rest = JSON.stringify({
    event_id: row.eventId,
    event_type: row.eventType,
    key: row.key,
    content_hash: row.contentHash,
    replica,
    payload: row.payload,
  });
  return [`{"received_at":"${tableTimestamp(row.receivedAtMs)}","landed_at":"`, `",${rest.slice(1)}`];
}

/** A segment's JSON line for a row, written when the segment lands (`landedAtMs`) by `replica`. */
export function segmentLine(row: WebhookRow, landedAtMs: number, replica: string): string {
  const [before, after] = segmentLineParts(row, replica);
  return before + tableTimestamp(landedAtMs) + after;
}
