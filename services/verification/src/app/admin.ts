import type { verificationVerificationV1 } from '@eligo/proto';
import { listSteps } from '../repository/steps.repository';
import { findVerification } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import { noVerification } from './load';
import { detailsOf } from './read';

/**
 * GET /rest/admin/v1/verifications/{id}: staff see any verification whole, with every step it took (and
 * each recoverable error on the way). Read as stored: staff looking must not expire anything.
 */
export async function getAdminVerification(
  ctx: AppContext,
  verificationId: string,
): Promise<verificationVerificationV1.AdminVerification> {
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
