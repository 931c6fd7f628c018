/**
 * Resource jobs (docs/architecture.md, "Resource job hand-off"): the kinds a write may ask for,
 * the outbox it records them in inside its own transaction, and the dispatcher and sweeper that
 * start their workflows in Temporal.
 */
export { resourceJobKinds, jobsForChange, thumbnailWorkflowId, widerTableMode, type TableJobMode, type ThumbnailJobParams, jobSpec, isJobKind, type JobKind, type JobKindSpec, type JobRequest } from './kinds.js';
export { recordJobs, claimJobs, finishJob, failJob, jobBacklog, type ClaimedJob } from './outbox.js';
export {
  ResourceJobDispatcher,
  RESOURCE_JOB_DEFAULTS,
  type JobStart,
  type JobStarter,
  type ResourceJobHandOff,
  type ResourceJobDispatcherOptions,
} from './dispatcher.js';
export { resourceJobMetrics, type ResourceJobMetrics } from './metrics.js';
