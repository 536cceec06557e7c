import { listSteps } from '../repository/steps.repository';
import { findVerification } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import { noVerification } from './load';
import { detailsOf, type VerificationDetails } from './details';

/** The whole state of a verification for staff, with its history of steps (grpc/mapping.ts converts it). */
export interface AdminVerification {
  verificationId: string;
  accountId: string;
  segment: string;
  subSegment: string | undefined;
  currentStep: string;
  testMode: boolean;
  /** When an unfinished verification expires. */
  expiresAt: Date;
  details: VerificationDetails;
  /** Oldest first. */
  steps: StepView[];
}

/** One change of the verification: a move between steps, or a recoverable error on one. No person data. */
export interface StepView {
  step: string;
  /** '' for the start. */
  previousStep: string;
  trigger: string;
  errorIds: string[];
  occurredAt: Date;
}

/**
 * GET /rest/admin/v1/verifications/{id}: staff see any verification whole, with every step it took (and
 * each recoverable error on the way). Read as stored: staff looking must not expire anything.
 */
export async function getAdminVerification(
  ctx: AppContext,
  verificationId: string,
): Promise<AdminVerification> {
  const record = isVerificationId(verificationId)
    ? await findVerification(ctx.db, verificationId)
    : undefined;
  if (!record) throw noVerification(verificationId);
  const steps = await listSteps(ctx.db, record.id);
  return {
    verificationId: record.id,
    accountId: record.accountId,
    segment: record.segment,
    subSegment: record.subSegment ?? undefined,
    currentStep: record.currentStep,
    testMode: record.testMode,
    expiresAt: record.expiresAt,
    details: detailsOf(ctx, record),
    steps: steps.map((s) => ({
      step: s.step,
      previousStep: s.previousStep,
      trigger: s.trigger,
      errorIds: [...s.errorIds],
      occurredAt: s.occurredAt,
    })),
  };
}
