/**
 * Row estimates read from EXPLAIN output, for the cost-estimation prompt. Pure functions over the
 * plan text, so each engine's format is tested without an engine.
 */

/**
 * Trino: the largest row estimate in a text plan (`Estimates: {rows: 15000 (1.02MB), …}`; `rows: ?`
 * is unknown and skipped) or a JSON plan (`"outputRowCount" : 15000.0`). The largest single value,
 * not a sum: it is the biggest intermediate result (spec toolkits.md 6.3).
 */
export function trinoPlanEstimate(plan: string): number | undefined {
  let best: number | undefined;
  for (const m of plan.matchAll(/\brows:\s*([0-9][0-9,]*(?:\.[0-9]+)?)/g)) best = max(best, Number(m[1]!.replaceAll(',', '')));
  for (const m of plan.matchAll(/"outputRowCount"\s*:\s*([0-9][0-9.eE+]*)/g)) best = max(best, Number(m[1]));
  return best;
}

/** DuckDB: the largest "Estimated Cardinality" of an `EXPLAIN (FORMAT JSON)` plan. */
export function duckdbPlanEstimate(planJson: string): number | undefined {
  let best: number | undefined;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    const rec = node as Record<string, unknown>;
    const info = rec.extra_info as Record<string, unknown> | undefined;
    const raw = info?.['Estimated Cardinality'];
    best = max(best, typeof raw === 'string' ? Number(raw.replaceAll(',', '')) : typeof raw === 'number' ? raw : NaN);
    Object.values(rec).forEach(visit);
  };
  try {
    visit(JSON.parse(planJson));
  } catch {
    return undefined;
  }
  return best;
}

function max(best: number | undefined, n: number): number | undefined {
  return Number.isFinite(n) ? Math.max(best ?? 0, n) : best;
}
