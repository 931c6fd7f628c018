import picomatch from 'picomatch';

export type NameMatcher = (name: string) => boolean;

/**
 * Pattern lists compiled so far, by list. The lists come from the parsed config, which nothing
 * changes after load, so each is compiled once instead of for every tool on every tools/list and
 * tools/call. A list built on the fly is compiled on each use and collected with it.
 */
const compiled = new WeakMap<readonly string[], NameMatcher>();

/** Tool-name globs: `*` matches any sequence (tool names have no path separators). */
export function globMatcher(patterns: readonly string[]): NameMatcher {
  let matcher = compiled.get(patterns);
  if (!matcher) {
    const matchers = patterns.map((p) => picomatch(p, { dot: true, nocase: false }));
    matcher = (name) => matchers.some((m) => m(name));
    compiled.set(patterns, matcher);
  }
  return matcher;
}

/**
 * The spec's listing rule for the global `tools.allow`/`tools.deny`: no patterns means everything;
 * allow applies first (when set), then deny removes from the result. Listing only: persona rules,
 * which gate calls, treat an empty allow as nothing (shared/personas/tool-rules.ts).
 */
export function allowDenyFilter(allow: readonly string[], deny: readonly string[]): NameMatcher {
  const allowed = allow.length ? globMatcher(allow) : () => true;
  const denied = globMatcher(deny);
  return (name) => allowed(name) && !denied(name);
}
