/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): each ranked list gives an
 * item 1 / (k + rank), rank counted from 1; an item's score is the sum over the lists it is in.
 * k = 60 damps the weight of the very first ranks, so agreement between lists counts more than
 * one list's favourite. Pure.
 */
export interface Fused {
  id: string;
  score: number;
}

export const RRF_K = 60;

/** The ids of every list, best fused score first; ties go to the better best rank, then the id. */
export function fuseRankings(lists: readonly (readonly string[])[], k = RRF_K): Fused[] {
  const scores = new Map<string, { score: number; best: number }>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.forEach((id, index) => {
      // A repeat within one list is the same item, ranked where it first appears.
      if (seen.has(id)) return;
      seen.add(id);
      const entry = scores.get(id) ?? { score: 0, best: Number.POSITIVE_INFINITY };
      entry.score += 1 / (k + index + 1);
      entry.best = Math.min(entry.best, index);
      scores.set(id, entry);
    });
  }
  return [...scores.entries()]
    .sort(([a, x], [b, y]) => y.score - x.score || x.best - y.best || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, { score }]) => ({ id, score }));
}
