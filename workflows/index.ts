/** Entry point of the workflow bundle: every workflow the platform worker runs is exported here. */
export { housekeeping } from './housekeeping.js';
export type { HousekeepingInput, HousekeepingResult, HousekeepingTaskResult } from './housekeeping.js';
