export type { GatingSettings, GatingState } from './rules.js';
export { gatingNotice } from './rules.js';
export type { GatingStore } from './store.js';
export { memoryGatingStore, databaseGatingStore } from './store.js';
export { workflowGatingMiddleware } from './middleware.js';
