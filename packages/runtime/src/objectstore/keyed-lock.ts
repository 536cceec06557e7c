/**
 * Runs tasks for the same key one after another (different keys run freely). The filesystem store uses it
 * around "read old record, write new record, remove old blob" so two overlapping puts to one key cannot both
 * remove the same old blob and leak the loser's. In-process only: the embedded store has a single writer.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      // Forget the key once nothing is queued behind us, so the map does not grow with every key ever used.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
