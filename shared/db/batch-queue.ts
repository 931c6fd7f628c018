/**
 * One statement for many callers: a batch runs at a time, and the callers that arrive while it is
 * in flight wait and go together in the next. An idle queue starts its batch on the next turn of
 * the event loop, so the callers of one turn (the requests read from the network together) share
 * it too; under load each round trip carries everything that arrived during the last, so the
 * statements per caller fall as the load rises. `fits` bounds a batch (it always takes at least
 * one); a failed batch fails each of its callers and the next batch still runs.
 */
export class BatchQueue<I, O> {
  #waiting: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  #running = false;

  constructor(
    /** Runs a batch; answers one output per item, in the items' order. */
    private readonly run: (items: I[]) => Promise<O[]>,
    /** Whether `next` may join `batch` (never asked for a batch's first item). */
    private readonly fits: (batch: readonly I[], next: I) => boolean,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (this.#running) return;
      this.#running = true;
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const items = [this.#waiting[0]!.item];
        while (items.length < this.#waiting.length && this.fits(items, this.#waiting[items.length]!.item)) items.push(this.#waiting[items.length]!.item);
        const batch = this.#waiting.splice(0, items.length);
        try {
          const outputs = await this.run(items);
          batch.forEach((caller, i) => caller.resolve(outputs[i]!));
        } catch (error) {
          for (const caller of batch) caller.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
