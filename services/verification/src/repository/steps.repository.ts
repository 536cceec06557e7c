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

/**
 * The write that changes the verification (an insert or an update, not yet run), the step it records and the
 * events that announce it, as one statement: every step of every flow takes all three, and each statement is
 * a round trip. The step and the events are written only if the change returns its row: a change applied to a version of the row that is no longer there (updateVerificationQuery's `version`)
 * stores nothing and throws NotWritten. On the pool (no transaction) the statement is its own transaction.
 */
export async function writeWithStep(
  db: Db,
  schema: string,
  change: Knex.QueryBuilder,
  entry: StepEntry,
  events: readonly OutboxEvent[] = [],
): Promise<void> {
  const step = db.raw(
    'insert into verification_steps (verification_id, step, previous_step, trigger, error_ids, occurred_at) ' +
      'select ?, ?, ?, ?, ?::text[], ?::timestamptz from change',
    [
      entry.verificationId,
      entry.step,
      entry.previousStep,
      entry.trigger,
      [...entry.errorIds],
      entry.occurredAt,
    ],
  );
  await writeWithEvents(db, schema, { change: change.returning('id'), step }, events, { onlyIf: 'change' });
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
