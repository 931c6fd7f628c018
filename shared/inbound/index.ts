/**
 * Rules for what callers send, applied the same way on every surface before any handler runs:
 * JSON nesting (json.ts), NUL characters (nul.ts), and the budget and deadline of bodies read
 * before their request authenticated (bodies.ts).
 */
export { BodyRefusal, bodiesFull, bodyTimeout, UnauthenticatedBytes } from './bodies.js';
export { MAX_JSON_DEPTH, nestsDeeperThan, parseCallerJson, tooDeepReason, type CallerJson } from './json.js';
export { nulField, nulInTarget } from './nul.js';
