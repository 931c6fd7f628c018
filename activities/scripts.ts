/**
 * The activities of scheduled script runs (workflows/scripts.ts): one run of a script's current
 * version through the ScriptRunner (recorded and audited as trigger `schedule`), and the reconcile
 * pass that makes Temporal's script Schedules match the rows in Postgres.
 */
import type { ScriptRunner } from '../shared/scripts/index.js';

export interface ScheduledRunOutcome {
  status: 'ok' | 'error' | 'timeout' | 'memory' | 'busy' | 'skipped';
  run_id?: string;
  error?: string;
  /** skipped: why (the script's state, or deleted). */
  reason?: string;
}

export interface ScriptActivities {
  runScheduledScript(input: { scriptId: string; scheduledAt: string; retryOf?: string }): Promise<ScheduledRunOutcome>;
  reconcileScriptSchedules(): Promise<{ applied: number; deleted: number }>;
}

export interface ScriptActivityDeps {
  runner: ScriptRunner;
  reconcile(): Promise<{ applied: number; deleted: number }>;
}

export function createScriptActivities(deps: ScriptActivityDeps): ScriptActivities {
  return {
    async runScheduledScript({ scriptId, scheduledAt, retryOf }) {
      const answer = await deps.runner.runScheduled(scriptId, new Date(scheduledAt), retryOf);
      if ('skipped' in answer) return { status: 'skipped', reason: answer.skipped };
      return { status: answer.status, run_id: answer.run_id, ...(answer.error !== undefined ? { error: answer.error } : {}) };
    },
    reconcileScriptSchedules: () => deps.reconcile(),
  };
}
