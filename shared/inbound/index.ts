/**
 * Rules for what callers send, applied the same way on every surface before any handler runs:
 * JSON nesting (json.ts) and NUL characters (nul.ts).
 */
export { MAX_JSON_DEPTH, nestsDeeperThan, parseCallerJson, tooDeepReason, type CallerJson } from './json.js';
export { fieldsHaveNul, targetHasNul } from './nul.js';
