export { workflowBundle, workflowsEntry } from './bundle.js';
export type { SessionsConfig, WorkerConfig } from './config.js';
export { housekeepingSchedule, housekeepingScheduleId, housekeepingTasks, housekeepingWorkflowType } from './housekeeping.js';
export { installTemporalRuntime } from './runtime.js';
export { platformSchedules, registerSchedules, type PlatformSchedule } from './schedules.js';
export { taskQueues, type TaskQueueName } from './task-queues.js';
export { createPlatformWorker, type PlatformWorker, type PlatformWorkerDeps } from './worker.js';
export {
  compactorSettings,
  webhookActivityQueue,
  webhookJobs,
  webhookRetentionScheduleId,
  webhookSweepScheduleId,
  type CompactorConfig,
  type CompactorWorkerConfig,
} from './webhooks.js';
export {
  scriptActivityQueue,
  scriptReconcileSchedule,
  scriptReconcileScheduleId,
  scriptRunSettings,
  scriptScheduleClient,
  type ScriptScheduleClient,
  type ScriptScheduleConfig,
} from './script-schedules.js';
export { indexSweepSchedule, indexSweepScheduleId, searchActivityQueue } from './search.js';
export { temporalJobStarter } from './resource-jobs.js';
export { resourceActivityQueue, resourceRequestClient } from './resource-requests.js';
