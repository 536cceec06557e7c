import type { Trigger } from '@eligo/vocabulary';
import { isCollectStep, isFinal, isMilitaryCollectStep, type Step } from './steps';

const MILITARY_COLLECT_STEPS: readonly Step[] = [
  'collectActiveMilitaryPersonalInfo',
  'collectInactiveMilitaryPersonalInfo',
];

/**
 * The steps `trigger` may lead to from `from`. Empty means the trigger is not allowed on that step: the
 * request is answered with invalidStep and nothing changes. A step listed as its own successor is the
 * recoverable error (bad data, the step can be submitted again).
 */
export function nextSteps(from: Step, trigger: Trigger): readonly Step[] {
  if (isFinal(from)) return [];
  switch (trigger) {
    case 'submitPersonalInfo':
      if (!isCollectStep(from)) return [];
      return isMilitaryCollectStep(from)
        ? [from, 'success', 'docUpload', 'sso', 'emailLoop', 'error', 'collectSocialSecurityNumber']
        : [from, 'success', 'docUpload', 'sso', 'emailLoop', 'error'];
    case 'submitMilitaryStatus':
      return from === 'collectMilitaryStatus' ? [from, ...MILITARY_COLLECT_STEPS] : [];
    case 'submitSocialSecurityNumber':
      return from === 'collectSocialSecurityNumber' ? [from, 'success', 'docUpload', 'error'] : [];
    case 'skipSocialSecurityNumber':
      return from === 'collectSocialSecurityNumber' ? ['docUpload'] : [];
    // The organization's provider signed the person in: eligible by its rule, or documents instead.
    case 'finishSso':
      return from === 'sso' ? ['success', 'docUpload'] : [];
    case 'cancelSso':
      return from === 'sso' ? ['docUpload'] : [];
    // A wrong or expired code keeps the step (recoverable); too many wrong ones end in docUpload.
    case 'submitEmailToken':
      return from === 'emailLoop' ? [from, 'success', 'docUpload'] : [];
    case 'resendEmailToken':
      return from === 'emailLoop' ? [from] : [];
    case 'cancelEmailLoop':
      return from === 'emailLoop' ? ['docUpload'] : [];
    case 'uploadDocuments':
      // Rejected files keep docUpload; a person past the program's review limit ends in error.
      return from === 'docUpload' ? [from, 'pending', 'error'] : [];
    case 'reviewCompleted':
      // Approved: success. Rejected: docUpload again, or error once the rejections reach the limit.
      return from === 'pending' ? ['success', 'docUpload', 'error'] : [];
    case 'expire':
      return ['error'];
  }
}

/** Whether the trigger may be taken on the step at all (false: invalidStep). */
export function allows(from: Step, trigger: Trigger): boolean {
  return nextSteps(from, trigger).length > 0;
}

/** Whether `from` -> `to` is a move the trigger may make; the app checks every change against it. */
export function isTransition(from: Step, trigger: Trigger, to: Step): boolean {
  return nextSteps(from, trigger).includes(to);
}
