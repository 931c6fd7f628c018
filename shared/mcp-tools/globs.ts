import picomatch from 'picomatch';

/** Tool-name globs: `*` matches any sequence (tool names have no path separators). */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const matchers = patterns.map((p) => picomatch(p, { dot: true, nocase: false }));
  return (name) => matchers.some((m) => m(name));
}

/**
 * The spec's listing rule for the global `tools.allow`/`tools.deny`: no patterns means everything;
 * allow applies first (when set), then deny removes from the result. Listing only: persona rules,
 * which gate calls, treat an empty allow as nothing (shared/personas/tool-rules.ts).
 */
export function allowDenyFilter(allow: readonly string[], deny: readonly string[]): (name: string) => boolean {
  const allowed = allow.length ? globMatcher(allow) : () => true;
  const denied = globMatcher(deny);
  return (name) => allowed(name) && !denied(name);
}
