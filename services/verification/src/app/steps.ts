import { invalidArgument } from '@eligo/runtime';
import {
  decideSocialSecurityNumber,
  isMilitaryStatus,
  militaryStatusProblem,
  nextStepForMilitaryStatus,
  statusRefusalMessage,
  subSegmentOfStatus,
  validSocialSecurityNumber,
  type Trigger,
} from '../domain';
import type { AppContext } from './context';
import { takeStep } from './load';
import { refuseOnLimit } from './person-limit';
import { isTestMode } from './programs';
import type { VerificationAnswer } from '../domain/answer';
import { applyOutcome } from './submit';
import { applyChange } from './transition';
import { forgetSealedCode } from '../repository/email-loops.repository';

/** collectMilitaryStatus {status}: the active or inactive military collect step, with the sub-segment. */
export async function submitMilitaryStatus(
  ctx: AppContext,
  input: { verificationId: string; status: string; requestId?: string },
): Promise<VerificationAnswer> {
  return takeStep(ctx, input, 'submitMilitaryStatus', async (trx, { record, program }, cause) => {
    const status = input.status.trim().toUpperCase();
    if (!isMilitaryStatus(status) || militaryStatusProblem(status, program.subSegments))
      return applyChange(trx, ctx, record, program, {
        cause,
        step: record.currentStep,
        errorIds: ['invalidMilitaryStatus'],
        systemErrorMessage: statusRefusalMessage(
          'status',
          input.status.trim(),
          'military',
          program.subSegments,
        ),
      });
    return applyChange(trx, ctx, record, program, {
      cause,
      step: nextStepForMilitaryStatus(status),
      subSegment: subSegmentOfStatus(status) ?? null,
    });
  });
}

/**
 * collectSocialSecurityNumber: the number is checked and used in flight; it is never stored nor logged. A
 * success past the person limit ends in error and answers 429, as the personal-info form does.
 */
export async function submitSocialSecurityNumber(
  ctx: AppContext,
  input: { verificationId: string; socialSecurityNumber: string; requestId?: string },
): Promise<VerificationAnswer> {
  const response = await takeStep(
    ctx,
    input,
    'submitSocialSecurityNumber',
    async (trx, { record, program }, cause) => {
      if (!validSocialSecurityNumber(input.socialSecurityNumber))
        return applyChange(trx, ctx, record, program, {
          cause,
          step: record.currentStep,
          errorIds: ['invalidSocialSecurityNumber'],
        });
      const decision = decideSocialSecurityNumber(isTestMode(program) ? 'test' : 'live');
      return applyOutcome(trx, ctx, record, program, decision, cause);
    },
  );
  return refuseOnLimit(response);
}

const SKIP_TRIGGERS = new Map<string, Trigger>([
  ['collectSocialSecurityNumber', 'skipSocialSecurityNumber'],
  ['sso', 'cancelSso'],
  ['emailLoop', 'cancelEmailLoop'],
]);

/** DELETE collectSocialSecurityNumber (skip), DELETE sso or DELETE emailLoop (cancel): on to docUpload. */
export async function skipStep(
  ctx: AppContext,
  input: { verificationId: string; step: string; requestId?: string },
): Promise<VerificationAnswer> {
  const trigger = SKIP_TRIGGERS.get(input.step);
  if (!trigger)
    throw invalidArgument(
      `Only collectSocialSecurityNumber, sso and emailLoop can be skipped, not ${input.step}`,
      {
        errorIds: ['invalidStep'],
      },
    );
  return takeStep(ctx, input, trigger, async (trx, { record, program }, cause) => {
    // A cancelled loop's code is no longer to be mailed.
    if (trigger === 'cancelEmailLoop') await forgetSealedCode(trx, record.id);
    return applyChange(trx, ctx, record, program, { cause, step: 'docUpload' });
  });
}
