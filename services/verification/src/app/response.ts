import { availableStatuses, isMilitaryCollectStep } from '../domain';
import type { VerificationAnswer } from '../domain/answer';
import type { Program } from '../domain/program';
import { segmentOf } from './programs';

/** The state a response is built from: a stored verification, or one about to be. */
export interface ResponseState {
  id: string;
  segment: string;
  subSegment: string | null;
  currentStep: string;
  errorIds: readonly string[];
  systemErrorMessage?: string;
  rewardCode: string | null;
  consolationRewardCode?: string | null;
  rejectionReasons?: readonly string[];
  instantMatchAttempts?: number;
  country?: string | null;
  /** With docUpload: the attempt's token (AppContext.docUploadToken). */
  docUploadToken?: string;
  /** The verification's own locale (given at the start or by a personal-info body); null: the program's. */
  locale?: string | null;
}

const DEFAULT_LOCALE = 'en-US';

/**
 * The verification response (VR) of a state, with what the program adds: the locale (unless the client gave
 * the verification its own), the statuses to choose from, review times while documents are involved, the
 * reward and redirect on success. No PII.
 */
export function buildResponse(state: ResponseState, program: Program): VerificationAnswer {
  const step = state.currentStep;
  const reviewing = step === 'docUpload' || step === 'pending';
  const success = step === 'success';
  return {
    verificationId: state.id,
    currentStep: step,
    errorIds: [...state.errorIds],
    systemErrorMessage: state.systemErrorMessage ?? '',
    segment: state.segment,
    subSegment: state.subSegment ?? undefined,
    rewardCode: success ? (state.rewardCode ?? undefined) : undefined,
    consolationRewardCode: state.consolationRewardCode ?? undefined,
    redirectUrl: success ? program.redirectUrl : undefined,
    locale: state.locale || program.locale || DEFAULT_LOCALE,
    availableStatuses: statusesToOffer(step, program),
    rejectionReasons: step === 'docUpload' ? [...(state.rejectionReasons ?? [])] : [],
    maxReviewTime: reviewing ? (program.documentReview?.maxReviewTime ?? '') : '',
    estimatedReviewTime: reviewing ? (program.documentReview?.estimatedReviewTime ?? '') : '',
    instantMatchAttempts: state.instantMatchAttempts ?? 0,
    country: state.country ?? '',
    docUploadToken: step === 'docUpload' ? (state.docUploadToken ?? '') : '',
  };
}

/**
 * The statuses a step lets the person choose: on collectMilitaryStatus and on the collect steps that take a
 * status, those of the segment, narrowed to the program's sub-segments when it lists some.
 */
function statusesToOffer(step: string, program: Program): string[] {
  if (
    step !== 'collectMilitaryStatus' &&
    (!/^collect\w+PersonalInfo$/.test(step) || isMilitaryCollectStep(step))
  )
    return [];
  return availableStatuses(segmentOf(program), program.subSegments);
}
