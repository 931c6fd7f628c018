/**
 * Rules for what callers send, applied the same way on every surface before any handler runs:
 * JSON nesting (json.ts), NUL characters (nul.ts), and the budget and deadline of bodies read
 * before their request authenticated (bodies.ts); header rules decide once per value (header-decisions.ts).
 */
export { BodyRefusal, bodiesFull, bodyTimeout, UnauthenticatedBytes } from './bodies.js';
export { MAX_JSON_DEPTH, nestsDeeperThan, parseCallerJson, tooDeepReason, type CallerJson } from './json.js';
export { jsonTextMayHoldNul, nulField, nulInTarget } from './nul.js';
export { headerDecisions } from './header-decisions.js';
