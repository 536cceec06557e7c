import type { EventContext, Transaction } from '@eligo/runtime';
import {
  recordCreated,
  recordDocumentsSubmitted,
  recordMetadataKeys,
  recordReview,
  recordStep,
  type CreatedFacts,
  type DocumentsSubmittedFacts,
  type MetadataKeysFacts,
  type ReviewFacts,
  type StepFacts,
} from '../repository/projection.repository';

/** What the events of one consumer transaction write to verification_rows, by kind, in event order. */
export interface ProjectionWrites {
  created: CreatedFacts[];
  steps: StepFacts[];
  metadataKeys: MetadataKeysFacts[];
  documentsSubmitted: DocumentsSubmittedFacts[];
  reviews: ReviewFacts[];
}

const pending = new WeakMap<Transaction, ProjectionWrites>();

/**
 * The writes of the consumer transaction `c` runs in: a handler adds its event's facts, and they are written
 * before the transaction commits, one statement per kind (and round, see `rounds`) instead of one per event.
 *
 * Writing kind by kind reorders the events of a verification across kinds, which changes nothing: each kind
 * sets columns no other kind sets, except account, program and test mode (the same values in every event of
 * one verification), and the document count only grows. Within a kind, rounds keep each verification's
 * events in order (a step change's guard and the last metadata keys or review depend on it).
 */
export function projectionWrites(
  c: Pick<EventContext, 'trx' | 'beforeCommit'>,
  schema: string,
): ProjectionWrites {
  let writes = pending.get(c.trx);
  if (!writes) {
    const created: ProjectionWrites = {
      created: [],
      steps: [],
      metadataKeys: [],
      documentsSubmitted: [],
      reviews: [],
    };
    pending.set(c.trx, created);
    c.beforeCommit(() => flush(c.trx, schema, created));
    writes = created;
  }
  return writes;
}

async function flush(trx: Transaction, schema: string, w: ProjectionWrites): Promise<void> {
  for (const round of rounds(w.created)) await recordCreated(trx, schema, round);
  for (const round of rounds(w.steps)) await recordStep(trx, schema, round);
  for (const round of rounds(w.metadataKeys)) await recordMetadataKeys(trx, schema, round);
  for (const round of rounds(w.documentsSubmitted)) await recordDocumentsSubmitted(trx, schema, round);
  for (const round of rounds(w.reviews)) await recordReview(trx, schema, round);
}

/**
 * Splits writes so that no statement has a verification twice (an upsert may touch a row once): the k-th
 * write of a verification goes to round k, so rounds written in order apply each verification's in order.
 */
export function rounds<T extends { verificationId: string }>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const k = seen.get(item.verificationId) ?? 0;
    seen.set(item.verificationId, k + 1);
    (out[k] ??= []).push(item);
  }
  return out;
}
