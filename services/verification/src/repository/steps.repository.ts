import type { Knex } from '@eligo/runtime';
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
 * The write that changes the verification (an insert or an update, not yet run) and the step it records, as
 * one statement: every step of every flow takes both, and each statement is a round trip. The step's foreign
 * key sees a verification inserted by the same statement.
 */
export async function writeWithStep(db: Db, change: Knex.QueryBuilder, entry: StepEntry): Promise<void> {
  await db.with('change', change).insert(stepRow(entry)).into('verification_steps');
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
