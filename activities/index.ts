/** Every activity the platform worker registers, created with the resources they use. */
import { createHousekeepingActivities, type ActivityDeps as HousekeepingDeps, type HousekeepingActivities } from './housekeeping.js';

export type { ResourceActivityDeps, ResourceRequestActivities } from './resources.js';
export type { WebhookActivities, WebhookActivityDeps, WebhookWindowRef, CompactedWindow } from './webhooks.js';

/** The webhook activities run on a task queue of their own (worker/worker.ts), so they are not among these. */
export type ActivityDeps = HousekeepingDeps;
export type { HousekeepingActivities, HousekeepingTask, PurgeBotCheckAnswersTask, PurgeExpiredSessionsTask, PurgeOAuthRecordsTask, TaskOutcome } from './housekeeping.js';

export type PlatformActivities = HousekeepingActivities;

export function createActivities(deps: ActivityDeps): PlatformActivities {
  return {
    ...createHousekeepingActivities(deps),
  };
}
