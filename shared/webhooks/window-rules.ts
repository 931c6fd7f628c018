/**
 * The rules of a webhook window's compaction state (spec document 3, "Webhook window") as pure
 * functions: when a window has ended, when it is owed a compaction, how long a failing one waits
 * before its next try, and the `YYYY-MM-DDTHH:MM` name the admin API gives a window. The store
 * (windows.ts) applies the same rules in SQL; these are what the workflows and routes compute with.
 */

/** A window of a source, by its partition values. */
export interface WindowKey {
  sourceId: string;
  /** YYYY-MM-DD (UTC). */
  dt: string;
  /** HH. */
  hour: string;
  /** MM, the window's start minute. */
  minute: string;
}

/** The longest wait between two tries of a failing compaction (unless the base itself is longer). */
export const MAX_RETRY_DELAY_MS = 60 * 60_000;

/** When a window ends: its start plus its (longest) length. */
export function windowEndMs(window: { startMs: number; lengthMinutes: number }): number {
  return window.startMs + window.lengthMinutes * 60_000;
}

/** Whether the sweep may take a window: it ended at least `graceMs` ago. */
export function windowEndedAfterGrace(window: { startMs: number; lengthMinutes: number }, nowMs: number, graceMs: number): boolean {
  return windowEndMs(window) + graceMs <= nowMs;
}

/**
 * Whether a window is owed a compaction: never compacted, or a segment landed after the landing
 * its last compaction started from (`landedSeq` > `compactedSeq`).
 */
export function windowOwed(window: { landedSeq: number; compactedSeq: number | null }): boolean {
  return window.compactedSeq === null || window.landedSeq > window.compactedSeq;
}

/**
 * The wait after the `attempt`-th failure in a row (1 for the first): `webhooks.compactor.retry_backoff`
 * doubled with each further failure, at most an hour (or the base, when that is longer).
 */
export function retryDelayMs(attempt: number, baseMs: number): number {
  const cap = Math.max(MAX_RETRY_DELAY_MS, baseMs);
  const doublings = Math.max(0, Math.floor(attempt) - 1);
  // 2^31 × any positive base is past the cap: no overflow to Infinity arithmetic needed.
  return doublings >= 31 ? cap : Math.min(cap, baseMs * 2 ** doublings);
}

/** A window's name in the admin API: `YYYY-MM-DDTHH:MM`. */
export function windowName(key: Pick<WindowKey, 'dt' | 'hour' | 'minute'>): string {
  return `${key.dt}T${key.hour}:${key.minute}`;
}

const WINDOW_NAME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

/** The partition values named by `YYYY-MM-DDTHH:MM` (a real UTC date and time), else undefined. */
export function parseWindowName(name: string): Pick<WindowKey, 'dt' | 'hour' | 'minute'> | undefined {
  const match = WINDOW_NAME.exec(name);
  if (!match) return undefined;
  const [, dt, hour, minute] = match as unknown as [string, string, string, string];
  const parsed = new Date(`${dt}T${hour}:${minute}:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 16) !== name) return undefined;
  return { dt, hour, minute };
}
