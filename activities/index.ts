/** Every activity the platform worker registers, created with the resources they use. */
import { createHousekeepingActivities, type ActivityDeps as HousekeepingDeps, type HousekeepingActivities } from './housekeeping.js';
import { createWebhookActivities, type WebhookActivities, type WebhookActivityDeps } from './webhooks.js';

export type { WebhookActivities, WebhookActivityDeps, WebhookWindowRef, CompactedWindow } from './webhooks.js';

export interface ActivityDeps extends HousekeepingDeps {
  /** Given on a worker that compacts webhook windows. */
  webhooks?: WebhookActivityDeps;
}
export type { HousekeepingActivities, HousekeepingTask, PurgeExpiredSessionsTask, PurgeOAuthRecordsTask, TaskOutcome } from './housekeeping.js';

export type PlatformActivities = HousekeepingActivities & Partial<WebhookActivities>;

export function createActivities(deps: ActivityDeps): PlatformActivities {
  return {
    ...createHousekeepingActivities(deps),
    ...(deps.webhooks ? createWebhookActivities(deps.webhooks) : {}),
  };
}
