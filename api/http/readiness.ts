/** What /readyz reports: false while draining, else every dependency check must pass. */
export class Readiness {
  #draining = false;
  readonly #checks = new Map<string, () => Promise<boolean>>();

  addCheck(name: string, check: () => Promise<boolean>): void {
    this.#checks.set(name, check);
  }

  startDraining(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  async evaluate(): Promise<{ ready: boolean; checks: Record<string, boolean> }> {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      [...this.#checks].map(async ([name, check]) => {
        checks[name] = await check().catch(() => false);
      }),
    );
    const ready = !this.#draining && Object.values(checks).every(Boolean);
    return { ready, checks: { ...checks, draining: this.#draining } };
  }
}
