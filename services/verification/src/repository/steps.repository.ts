import { writeWithEvents, type Knex, type OutboxEvent } from '@eligo/runtime';
import type { Db } from './db';

/** One change of a verification as staff see it (no person data). */
export interface StepEntry {
  verificationId: string;
  step: string;
  previousStep: string;
  trigger: string;
  errorIds: readonly string[];
  occurredAt: Date;
}

interface Row {
  verification_id: string;
  step: string;
  previous_step: string;
  trigger: string;
  error_ids: string[];
  occurred_at: Date;
}

const stepRow = (entry: StepEntry) => ({
  verification_id: entry.verificationId,
  step: entry.step,
  previous_step: entry.previousStep,
  trigger: entry.trigger,
  error_ids: [...entry.errorIds],
  occurred_at: entry.occurredAt,
});

/**
 * The write that changes the verification (an insert or an update, not yet run), the step it records and the
 * events that announce it, as one statement: every step of every flow takes all three, and each statement is
 * a round trip. The step's foreign key sees a verification inserted by the same statement. On the pool (no
 * transaction) the statement is its own transaction.
 */
export async function writeWithStep(
  db: Db,
  schema: string,
  change: Knex.QueryBuilder,
  entry: StepEntry,
  events: readonly OutboxEvent[] = [],
): Promise<void> {
  await writeWithEvents(
    db,
    schema,
    { change, step: db('verification_steps').insert(stepRow(entry)) },
    events,
  );
}

/** A verification's steps, oldest first. */
export async function listSteps(db: Db, verificationId: string): Promise<StepEntry[]> {
  const rows = await db('verification_steps')
    .where({ verification_id: verificationId })
    .orderBy('id')
    .select<Row[]>('verification_id', 'step', 'previous_step', 'trigger', 'error_ids', 'occurred_at');
  return rows.map((row) => ({
    verificationId: row.verification_id,
    step: row.step,
    previousStep: row.previous_step,
    trigger: row.trigger,
    errorIds: row.error_ids,
    occurredAt: row.occurred_at,
  }));
}
