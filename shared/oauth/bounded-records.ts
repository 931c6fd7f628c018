/**
 * A Map that never holds more than `maxEntries` records: anyone can start an authorization or
 * register a client, so an in-memory store must not grow with what callers send. When full, the
 * expired records make room first, then the oldest (insertion order; `set` of a kept key moves it
 * to the newest place, so a record in use stays longest).
 */
export interface BoundedRecordsOptions<V> {
  maxEntries: number;
  /** When a record stops being of use (ms since the epoch). */
  expiresAt(value: V): number;
}

export class BoundedRecords<V> {
  private readonly entries = new Map<string, V>();
  /**
   * No record expires before this (a lower bound, exact after each sweep). A full store sweeps for
   * expired records only once the clock has passed it, so a flood of live records costs O(1) each
   * instead of a scan per insert.
   */
  private earliestExpiry = Infinity;

  constructor(private readonly opts: BoundedRecordsOptions<V>) {
    if (!Number.isInteger(opts.maxEntries) || opts.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${String(opts.maxEntries)}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Adds or replaces `key` as the newest record, making room first when the store is full. */
  set(key: string, value: V, now = Date.now()): void {
    this.entries.delete(key);
    if (this.entries.size >= this.opts.maxEntries) this.makeRoom(now);
    this.entries.set(key, value);
    this.earliestExpiry = Math.min(this.earliestExpiry, this.opts.expiresAt(value));
  }

  /** Removes and returns the record. */
  delete(key: string): V | undefined {
    const value = this.entries.get(key);
    this.entries.delete(key);
    return value;
  }

  /** Drops every record `isDead` says is done with; returns how many went. */
  purge(isDead: (value: V) => boolean): number {
    let removed = 0;
    let earliest = Infinity;
    for (const [key, value] of this.entries) {
      if (isDead(value)) {
        this.entries.delete(key);
        removed++;
      } else {
        earliest = Math.min(earliest, this.opts.expiresAt(value));
      }
    }
    this.earliestExpiry = earliest;
    return removed;
  }

  private makeRoom(now: number): void {
    if (now >= this.earliestExpiry) this.purge((value) => this.opts.expiresAt(value) <= now);
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.opts.maxEntries) return;
      this.entries.delete(key);
    }
  }
}
