export type { ElicitationTrigger } from './middleware.js';
export { elicitationMiddleware, declinedMessage } from './middleware.js';
