import { invalidArgument } from '@eligo/runtime';
import type { DecidedBy } from './documents';

/** A review's outcome: approved, or rejected with the reasons the person is shown. */
export type Decision =
  { approved: true; rejectionReasons: [] } | { approved: false; rejectionReasons: string[] };

export const MAX_REJECTION_REASONS = 10;
// Upper-case codes such as DOCUMENT_UNREADABLE (docs/architecture.md, "Wire details"); they travel in events
// and webhooks.
const REASON = /^[A-Z][A-Z0-9_]{1,63}$/;

/** A staff decision as sent ("approve" | "reject" and reasons), checked; throws invalidArgument otherwise. */
export function parseDecision(decision: string, reasons: readonly string[]): Decision {
  if (decision === 'approve') {
    if (reasons.length > 0) throw invalidArgument('An approval takes no rejection reasons');
    return { approved: true, rejectionReasons: [] };
  }
  if (decision !== 'reject') throw invalidArgument('decision must be "approve" or "reject"');
  if (reasons.length < 1 || reasons.length > MAX_REJECTION_REASONS)
    throw invalidArgument(`A rejection needs 1 to ${MAX_REJECTION_REASONS} rejection reasons`);
  if (!reasons.every((r) => REASON.test(r)))
    throw invalidArgument('Rejection reasons are upper-case codes such as DOCUMENT_UNREADABLE');
  return { approved: false, rejectionReasons: [...new Set(reasons)] };
}

const STAFF_DECIDER = /^staff:[0-9a-f]{24}$/;

/**
 * Who a decision is recorded for (DecideReviewRequest.decided_by): `operator` or `staff:<staffId>`; empty is
 * `staff`, as before deciders were named. Throws invalidArgument for anything else.
 */
export function parseDecider(decidedBy: string): DecidedBy {
  if (decidedBy === '') return 'staff';
  if (decidedBy === 'operator' || STAFF_DECIDER.test(decidedBy)) return decidedBy as DecidedBy;
  throw invalidArgument('decided_by must be "operator" or "staff:<staffId>" (24 lowercase hex)');
}
