import { notFound } from '@eligo/runtime';
import {
  decideSocialSecurityNumber,
  isMilitaryStatus,
  militaryStatusProblem,
  nextStepForMilitaryStatus,
  subSegmentOfStatus,
  validSocialSecurityNumber,
} from '../domain';
import type { AppContext } from './context';
import { findVerification } from '../repository/verifications.repository';
import { isVerificationId } from './ids';
import { loadLocked, noVerification, wrongStep } from './load';
import { isTestMode } from './programs';
import type { VerificationResponse } from './response';
import { applyOutcome } from './submit';
import { applyChange } from './transition';

/** collectMilitaryStatus {status}: the active or inactive military collect step, with the sub-segment. */
export async function submitMilitaryStatus(
  ctx: AppContext,
  input: { verificationId: string; status: string },
): Promise<VerificationResponse> {
  return ctx.db.transaction(async (trx) => {
    const { record, program, expired } = await loadLocked(trx, ctx, input.verificationId);
    if (expired) return expired;
    if (record.currentStep !== 'collectMilitaryStatus') return wrongStep(record);
    const status = input.status.trim().toUpperCase();
    if (!isMilitaryStatus(status) || militaryStatusProblem(status, program.subSegments))
      return applyChange(trx, ctx, record, program, {
        step: record.currentStep,
        errorIds: ['invalidMilitaryStatus'],
      });
    return applyChange(trx, ctx, record, program, {
      step: nextStepForMilitaryStatus(status),
      subSegment: subSegmentOfStatus(status) ?? null,
    });
  });
}

/** collectSocialSecurityNumber: the number is checked and used in flight; it is never stored nor logged. */
export async function submitSocialSecurityNumber(
  ctx: AppContext,
  input: { verificationId: string; socialSecurityNumber: string },
): Promise<VerificationResponse> {
  return ctx.db.transaction(async (trx) => {
    const { record, program, expired } = await loadLocked(trx, ctx, input.verificationId);
    if (expired) return expired;
    if (record.currentStep !== 'collectSocialSecurityNumber') return wrongStep(record);
    if (!validSocialSecurityNumber(input.socialSecurityNumber))
      return applyChange(trx, ctx, record, program, {
        step: record.currentStep,
        errorIds: ['invalidSocialSecurityNumber'],
      });
    const decision = decideSocialSecurityNumber(isTestMode(program) ? 'test' : 'live');
    return applyOutcome(trx, ctx, record, program, decision);
  });
}

/** DELETE collectSocialSecurityNumber (skip) or DELETE sso (cancel): on to docUpload. */
export async function skipStep(
  ctx: AppContext,
  input: { verificationId: string; step: string },
): Promise<VerificationResponse> {
  return ctx.db.transaction(async (trx) => {
    const { record, program, expired } = await loadLocked(trx, ctx, input.verificationId);
    if (expired) return expired;
    const skippable = input.step === 'collectSocialSecurityNumber' || input.step === 'sso';
    if (!skippable || record.currentStep !== input.step) return wrongStep(record);
    return applyChange(trx, ctx, record, program, { step: 'docUpload' });
  });
}

/** GET step/sso: the login page of the verification's organization; 404 when it has none. */
export async function ssoLoginUrl(ctx: AppContext, verificationId: string): Promise<string> {
  const record = isVerificationId(verificationId)
    ? await findVerification(ctx.db, verificationId)
    : undefined;
  if (!record) throw noVerification(verificationId);
  const url =
    record.currentStep === 'sso' && record.organizationId
      ? await ctx.organizations.loginUrl(record.organizationId)
      : '';
  if (!url)
    throw notFound(`Verification ${verificationId} has no single sign-on page`, {
      errorIds: ['invalidStep'],
      body: 'ER',
    });
  return url;
}
