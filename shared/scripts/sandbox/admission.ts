/**
 * Which runs the sandbox admits at once on this replica: `total` in all; of them, runs other than
 * endpoint handlers (draft and scheduled `main()` runs) at most `total - reservedForHandlers` (the
 * reservation at most half of `total`, so a small replica still runs drafts), so slow draft runs
 * never leave the endpoints without a slot; and at most `perPrincipal` of the runs
 * counted against one principal (SandboxRun.principal), so one caller cannot take every slot. A
 * run over a cap is refused (`busy`) with a message naming it. The count is released exactly once
 * per admitted run, whatever the run came to.
 */
import type { SandboxRun } from './types.js';

export interface AdmissionLimits {
  total: number;
  perPrincipal: number;
  reservedForHandlers: number;
}

export type Admission = { ok: true; release: () => void } | { ok: false; error: string };

/** An admitted run's hold on its slots, given back once. */
class Admitted {
  readonly ok = true;
  #released = false;

  constructor(
    private readonly counts: RunAdmission,
    private readonly handler: boolean,
    private readonly principal: string | undefined,
  ) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.counts.releaseOne(this.handler, this.principal);
  }
}

export class RunAdmission {
  readonly #limits: AdmissionLimits;
  /** Slots only handlers may take, and the most runs other than handlers at once (what they leave). */
  readonly #reserved: number;
  readonly #otherMax: number;
  #running = 0;
  #others = 0;
  readonly #byPrincipal = new Map<string, number>();

  constructor(limits: AdmissionLimits) {
    for (const [name, value] of Object.entries(limits)) if (!Number.isInteger(value) || value < 0) throw new Error(`sandbox: ${name} must be a non-negative integer`);
    if (limits.total < 1 || limits.perPrincipal < 1) throw new Error('sandbox: total and perPrincipal must be at least 1');
    this.#limits = limits;
    this.#reserved = Math.min(limits.reservedForHandlers, Math.floor(limits.total / 2));
    this.#otherMax = limits.total - this.#reserved;
  }

  /** Runs admitted and not released. */
  get running(): number {
    return this.#running;
  }

  admit(run: Pick<SandboxRun, 'entry' | 'principal'>): Admission {
    const { total, perPrincipal } = this.#limits;
    const handler = run.entry === 'handle';
    const mine = run.principal === undefined ? 0 : (this.#byPrincipal.get(run.principal) ?? 0);
    if (this.#running >= total) return { ok: false, error: `all ${total} script runs of this replica are in use` };
    if (!handler && this.#others >= this.#otherMax)
      return { ok: false, error: `all ${this.#otherMax} script runs of this replica open to runs other than endpoint handlers are in use (${this.#reserved} are kept for handlers: scripts.handler_reserved_runs)` };
    if (run.principal !== undefined && mine >= perPrincipal)
      return { ok: false, error: `${run.principal} already has ${perPrincipal} script runs under way on this replica, its most at once (scripts.max_runs_per_caller)` };
    this.#running++;
    if (!handler) this.#others++;
    if (run.principal !== undefined) this.#byPrincipal.set(run.principal, mine + 1);
    return new Admitted(this, handler, run.principal);
  }

  /** Gives back what `admit` took for one run (Admitted.release, exactly once). */
  releaseOne(handler: boolean, principal: string | undefined): void {
    this.#running--;
    if (!handler) this.#others--;
    if (principal === undefined) return;
    const left = (this.#byPrincipal.get(principal) ?? 1) - 1;
    if (left === 0) this.#byPrincipal.delete(principal);
    else this.#byPrincipal.set(principal, left);
  }
}
