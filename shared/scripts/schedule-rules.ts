/**
 * The rules of a script's schedule (pure; docs/scripts.md, "Schedules"): a cron expression or an
 * interval, never both, read in an IANA time zone (default UTC). A cron's shape is checked here (five
 * fields of cron characters, or one of the @ shorthands); what Temporal's Schedule spec refuses
 * beyond that is answered as `invalid` by the sync when it is pushed (worker/script-schedules.ts).
 */
import { parseDuration } from '../config/duration.js';
import { ScriptError } from './types.js';

/** Scheduled runs are at most a minute apart: scripts are jobs, not a busy loop. */
export const MIN_SCHEDULE_INTERVAL_MS = 60_000;

const CRON_SHORTHANDS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'] as const;
/** One cron field: digits, names (JAN, MON), and * , - / ? L W #. */
const CRON_FIELD = /^[0-9A-Za-z*,\-/?#]+$/;

/** What a caller asks for: `cron` or `every` (a duration like 15m). */
export interface ScheduleInput {
  cron?: string;
  every?: string;
  time_zone?: string;
}

/** A schedule as stored: exactly one of cron and intervalMs. */
export interface ScheduleSpec {
  cron?: string;
  intervalMs?: number;
  timeZone: string;
}

function cronProblem(cron: string): string | undefined {
  const text = cron.trim();
  if (text.startsWith('@')) return (CRON_SHORTHANDS as readonly string[]).includes(text) ? undefined : `unknown shorthand "${text}" (${CRON_SHORTHANDS.join(', ')})`;
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return `a cron expression has 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`;
  const bad = fields.find((f) => !CRON_FIELD.test(f));
  return bad === undefined ? undefined : `"${bad}" is not a cron field`;
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The schedule `input` asks for, or an `invalid` refusal naming the rule. */
export function scheduleSpec(input: ScheduleInput): ScheduleSpec {
  const timeZone = input.time_zone ?? 'UTC';
  if (!validTimeZone(timeZone)) throw new ScriptError('invalid', `time_zone: "${timeZone}" is not an IANA time zone (e.g. Europe/Paris, UTC)`);
  if ((input.cron === undefined) === (input.every === undefined)) throw new ScriptError('invalid', 'a schedule takes cron or every (an interval like 15m), exactly one');
  if (input.cron !== undefined) {
    const problem = cronProblem(input.cron);
    if (problem) throw new ScriptError('invalid', `cron: ${problem}`);
    return { cron: input.cron.trim().replace(/\s+/g, ' '), timeZone };
  }
  let intervalMs: number;
  try {
    intervalMs = parseDuration(input.every!);
  } catch (error) {
    throw new ScriptError('invalid', `every: ${(error as Error).message}`);
  }
  if (intervalMs < MIN_SCHEDULE_INTERVAL_MS) throw new ScriptError('invalid', `every: at least 1m between scheduled runs, got ${input.every}`);
  return { intervalMs, timeZone };
}

/** `script-schedule:{scriptId}`: the Temporal Schedule of a script. */
export const SCRIPT_SCHEDULE_PREFIX = 'script-schedule:';
export function scriptScheduleId(scriptId: string): string {
  return `${SCRIPT_SCHEDULE_PREFIX}${scriptId}`;
}

/**
 * `script-run:{scriptId}`: the workflow id prefix of a script's scheduled runs; Temporal appends
 * `-{scheduled time, RFC 3339}` to it, so a run's id is fixed by its script and scheduled time.
 */
export function scriptRunWorkflowPrefix(scriptId: string): string {
  return `script-run:${scriptId}`;
}
