import type { ErrorId, Segment } from '@eligo/vocabulary';
import type { Outcome } from './outcome';
import { MILITARY_STATUSES, nextStepForMilitaryStatus, SUB_SEGMENT_OF_STATUS } from './statuses';
import { collectStepsOfSegment, type CollectStep } from './steps';

/**
 * The form a verification's stored person was submitted on, so that a re-verification reads it with that
 * form's rules. A segment has one form, except military, where the chosen status picked the active or the
 * inactive one and the verification keeps that status as its sub-segment. undefined when it cannot be told
 * (a military verification without a sub-segment never received a form).
 */
export function submittedCollectStep(segment: Segment, subSegment: string | null): CollectStep | undefined {
  if (segment !== 'military') return collectStepsOfSegment(segment)[0];
  const status = MILITARY_STATUSES.find((s) => SUB_SEGMENT_OF_STATUS[s] === subSegment);
  return status === undefined ? undefined : nextStepForMilitaryStatus(status);
}

/** What a re-run instant match says of the person today; errorIds only when ineligible. */
export type ReverifyVerdict =
  { verdict: 'eligible' } | { verdict: 'needsReview' } | { verdict: 'ineligible'; errorIds: ErrorId[] };

/**
 * The verdict of a decided match. Anything a person would be asked for next (documents, single sign-on, a
 * mailed code, a social security number) cannot be answered by a re-run, so it needs review; an error refuses the person.
 */
export function reverifyVerdict(outcome: Outcome): ReverifyVerdict {
  switch (outcome.kind) {
    case 'success':
      return { verdict: 'eligible' };
    case 'docUpload':
    case 'sso':
    case 'emailLoop':
    case 'ssn':
      return { verdict: 'needsReview' };
    case 'error':
    case 'recoverable':
      return { verdict: 'ineligible', errorIds: outcome.errorIds };
  }
}
