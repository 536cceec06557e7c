/**
 * A versioned wake-up: a waiter remembers the version it saw before looking at the state, and `waitSince`
 * returns at once if anything changed in between. That closes the gap where a notification arrives while
 * the waiter is still busy (e.g. a NOTIFY during an outbox batch) and would otherwise be lost.
 */
export class ChangeSignal {
  private version = 0;
  private readonly waiters = new Set<() => void>();

  get current(): number {
    return this.version;
  }

  notify(): void {
    this.version += 1;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Resolves on the next change after `seen`, or after `timeoutMs` (a polling fallback), whichever is first. */
  waitSince(seen: number, timeoutMs?: number): Promise<void> {
    if (this.version !== seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      this.waiters.add(done);
    });
  }
}
