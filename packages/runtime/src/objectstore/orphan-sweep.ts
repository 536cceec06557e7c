import type { ObjectStore } from './object-store';

// Deletes in flight at once: a sweep or retention batch can name a few hundred objects.
const PARALLEL_DELETES = 10;
const SWEEP_BATCH = 100;

/** Deletes the objects, a few at a time (absent ones included: deletes are idempotent). */
export async function deleteObjects(store: ObjectStore, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += PARALLEL_DELETES)
    await Promise.all(keys.slice(i, i + PARALLEL_DELETES).map((key) => store.delete(key)));
}

export interface OrphanSweep {
  /** The service's own part of the store: only keys under it are looked at. */
  prefix: string;
  /**
   * Objects written at or after this are left alone: a write may have completed a moment before the row
   * that names it is committed (uploads in progress are not listed at all).
   */
  writtenBefore: Date;
  /** Of these keys (at most a batch), the ones still referred to; every other one is deleted. */
  referenced(keys: string[]): Promise<ReadonlySet<string>>;
}

/**
 * Deletes the objects under a prefix that nothing refers to any more (a crash between a write and its row,
 * a row removed by hand), a batch at a time as the listing is read. Safe on several replicas at once: the
 * worst case is a delete done twice. Answers how many objects were deleted.
 */
export async function sweepOrphans(store: ObjectStore, sweep: OrphanSweep): Promise<number> {
  let deleted = 0;
  let batch: string[] = [];
  const flush = async () => {
    const referenced = await sweep.referenced(batch);
    const orphans = batch.filter((key) => !referenced.has(key));
    await deleteObjects(store, orphans);
    deleted += orphans.length;
    batch = [];
  };
  for await (const object of store.list(sweep.prefix)) {
    if (object.lastModified >= sweep.writtenBefore) continue;
    batch.push(object.key);
    if (batch.length === SWEEP_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return deleted;
}
