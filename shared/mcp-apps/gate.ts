/**
 * At most `limit` pieces of work at once; the rest wait their turn in arrival order. A finished
 * piece hands its slot straight to the next waiting one, so a newcomer never slips in between.
 */
export function concurrencyGate(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
