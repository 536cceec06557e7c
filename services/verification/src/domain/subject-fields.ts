import { GENERIC_SUBJECT_KEYS, SUBJECT_KEYS } from '@eligo/vocabulary';
import { subjectTypeOfStep, type SubmissionStep } from './steps';

/**
 * The keys a body posted to a submission path may carry. Undefined for collectMarketplaceToken: its body is
 * a signed token, whose payload is judged by the keys of the step it fills once the signature is checked.
 */
export function keysOfSubmission(step: SubmissionStep): readonly string[] | undefined {
  if (step === 'collectPersonalInfo') return GENERIC_SUBJECT_KEYS;
  const type = subjectTypeOfStep(step);
  return type === undefined ? undefined : SUBJECT_KEYS[type];
}
