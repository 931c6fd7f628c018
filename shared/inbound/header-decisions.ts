/**
 * A decision about a header's value, made once per distinct value: clients send the same few
 * values (Host, Accept) on every request, so a rule that parses one runs once per client rather
 * than per request. Bounded: past `max` distinct values the memo starts afresh, so made-up values
 * cannot grow it.
 */
export function headerDecisions<T>(decide: (value: string) => T, max = 64): (value: string) => T {
  const decided = new Map<string, T>();
  return (value) => {
    if (decided.has(value)) return decided.get(value)!;
    const decision = decide(value);
    if (decided.size >= max) decided.clear();
    decided.set(value, decision);
    return decision;
  };
}
