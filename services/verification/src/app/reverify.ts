import { internal } from '@eligo/runtime';
import {
  normalizeSubject,
  reverifyVerdict,
  submittedCollectStep,
  subjectTypeOfStep,
  type ReverifyVerdict,
  type SubjectInput,
} from '../domain';
import { findVerification } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import { instantMatch } from './instant-match';
import { noVerification } from './load';
import { openPerson } from './person';
import { requireProgram, segmentOf } from './programs';

export type Reverification =
  | (ReverifyVerdict & { currentStep: string; organizationId: number })
  | { verdict: 'noPersonalInfo'; currentStep: string; organizationId: 0 };

/**
 * The instant match run again on the stored person, as a submission of it would be decided today: the
 * program's current mode and ages, today's date, the organization catalog as it is. A read only: nothing is
 * stored, no event is emitted and the person limit is not applied (it counts successes, which this is not),
 * so a re-verification job may call it again after a crash. Another account's or program's verification is
 * NOT_FOUND, as if it did not exist.
 */
export async function reverifyInstantMatch(
  ctx: AppContext,
  input: { accountId: string; programId: string; verificationId: string },
): Promise<Reverification> {
  const { verificationId } = input;
  const record = isVerificationId(verificationId)
    ? await findVerification(ctx.db, verificationId)
    : undefined;
  if (!record || record.accountId !== input.accountId || record.programId !== input.programId)
    throw noVerification(verificationId);
  const currentStep = record.currentStep;
  const stored = openPerson(ctx, record.id, record.person);
  if (!stored) return { verdict: 'noPersonalInfo', currentStep, organizationId: 0 };

  const program = await requireProgram(ctx, record.programId);
  const step = submittedCollectStep(segmentOf(program), record.subSegment);
  const type = step && subjectTypeOfStep(step);
  if (!type) throw internal(`Verification ${record.id} has a person but no form it was submitted on`);
  // The person, not the integrator's metadata, is what is matched again.
  const subject = normalizeSubject({ ...(stored as SubjectInput), metadata: {} });
  // The program's instant-match sources are asked as a submission would ask them (nothing is stored).
  const match = await instantMatch(ctx, program, type, subject, {
    budgetEndsAt: Date.now() + ctx.sources.budgetMs,
    subSegment: record.subSegment ?? '',
  });
  if (match.kind === 'refused')
    return { verdict: 'ineligible', errorIds: match.errorIds, currentStep, organizationId: 0 };
  return {
    ...reverifyVerdict(match.decision),
    currentStep,
    organizationId: match.organization?.id ?? 0,
  };
}
