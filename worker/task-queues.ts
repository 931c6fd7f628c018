/**
 * Task queue names. `platform` is the default of `temporal.task_queue`; the worker polls whatever
 * that key says, and anything that starts a platform workflow must use the same value.
 * Later queues (e.g. CPU-heavy thumbnails) get their own constant here.
 */
export const taskQueues = {
  platform: 'platform',
} as const;

export type TaskQueueName = (typeof taskQueues)[keyof typeof taskQueues];
