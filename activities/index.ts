/** Every activity the platform worker registers, created with the resources they use. */
import { createHousekeepingActivities, type ActivityDeps, type HousekeepingActivities } from './housekeeping.js';

export type { ActivityDeps } from './housekeeping.js';
export type { HousekeepingActivities, HousekeepingTask, PurgeExpiredSessionsTask, PurgeOAuthRecordsTask, TaskOutcome } from './housekeeping.js';

export type PlatformActivities = HousekeepingActivities;

export function createActivities(deps: ActivityDeps): PlatformActivities {
  return {
    ...createHousekeepingActivities(deps),
  };
}
