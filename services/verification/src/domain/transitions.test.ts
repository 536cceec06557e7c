import { COLLECT_STEPS, STEPS, type Step } from './steps';
import { TRIGGERS, type Trigger } from '@eligo/vocabulary';
import { allows, isTransition, nextSteps } from './transitions';

/** The rows of the spec's "States and transitions" table after the start row, in its order. */
const SPEC_ROWS: [from: Step, trigger: Trigger, to: Step, row: string][] = [
  ['collectStudentPersonalInfo', 'submitPersonalInfo', 'success', 'instant match succeeds'],
  ['collectStudentPersonalInfo', 'submitPersonalInfo', 'docUpload', 'instant match fails'],
  ['collectStudentPersonalInfo', 'submitPersonalInfo', 'collectStudentPersonalInfo', 'invalid data'],
  ['collectStudentPersonalInfo', 'submitPersonalInfo', 'error', 'request cannot be processed'],
  ['collectAgePersonalInfo', 'submitPersonalInfo', 'error', 'person limit reached (429)'],
  ['collectMilitaryStatus', 'submitMilitaryStatus', 'collectActiveMilitaryPersonalInfo', 'status: active'],
  ['collectMilitaryStatus', 'submitMilitaryStatus', 'collectInactiveMilitaryPersonalInfo', 'inactive'],
  [
    'collectActiveMilitaryPersonalInfo',
    'submitPersonalInfo',
    'collectSocialSecurityNumber',
    'identity match needs a social security number',
  ],
  ['collectSocialSecurityNumber', 'submitSocialSecurityNumber', 'success', 'SSN valid: success'],
  ['collectSocialSecurityNumber', 'submitSocialSecurityNumber', 'docUpload', 'SSN valid: docUpload'],
  ['collectSocialSecurityNumber', 'skipSocialSecurityNumber', 'docUpload', 'DELETE the SSN step'],
  ['docUpload', 'uploadDocuments', 'pending', 'files accepted'],
  ['pending', 'reviewCompleted', 'success', 'review approved'],
  ['pending', 'reviewCompleted', 'docUpload', 'review rejected below the allowed count'],
  ['sso', 'cancelSso', 'docUpload', 'DELETE step/sso'],
  ['collectTeacherPersonalInfo', 'expire', 'error', 'expire an ongoing verification'],
  ['collectMilitaryStatus', 'expire', 'error', 'expire before the status'],
  ['docUpload', 'expire', 'error', 'expire during document upload'],
  ['pending', 'expire', 'error', 'expire during review'],
  ['sso', 'expire', 'error', 'expire during sso'],
  // Issue 22's email loop (not in the spec's table).
  ['collectMemberPersonalInfo', 'submitPersonalInfo', 'emailLoop', 'email loop offered'],
  ['emailLoop', 'submitEmailToken', 'success', 'the right code'],
  ['emailLoop', 'submitEmailToken', 'emailLoop', 'a wrong or expired code'],
  ['emailLoop', 'submitEmailToken', 'docUpload', 'too many wrong codes'],
  ['emailLoop', 'resendEmailToken', 'emailLoop', 'a new code'],
  ['emailLoop', 'cancelEmailLoop', 'docUpload', 'DELETE step/emailLoop'],
  ['emailLoop', 'expire', 'error', 'expire during the email loop'],
  // Issue 22's single sign-on with the organization's OpenID provider.
  ['collectStudentPersonalInfo', 'submitPersonalInfo', 'sso', 'the organization has single sign-on'],
  ['sso', 'finishSso', 'success', "the provider's ID token satisfies the organization's rule"],
  ['sso', 'finishSso', 'docUpload', 'the rule fails, or the sign-on proved nothing'],
];

describe('the spec transition table', () => {
  it.each(SPEC_ROWS)('%s --%s--> %s (%s)', (from, trigger, to) => {
    expect(isTransition(from, trigger, to)).toBe(true);
  });

  it('lets every collect step take personal info, and every ongoing step expire', () => {
    for (const step of COLLECT_STEPS) expect(allows(step, 'submitPersonalInfo')).toBe(true);
    for (const step of STEPS.filter((s) => s !== 'success' && s !== 'error'))
      expect(nextSteps(step, 'expire')).toEqual(['error']);
  });
});

/** Where each trigger is allowed; every other (step, trigger) pair must answer invalidStep. */
const ALLOWED_ON: Record<Trigger, (step: Step) => boolean> = {
  submitPersonalInfo: (step) => (COLLECT_STEPS as readonly string[]).includes(step),
  submitMilitaryStatus: (step) => step === 'collectMilitaryStatus',
  submitSocialSecurityNumber: (step) => step === 'collectSocialSecurityNumber',
  skipSocialSecurityNumber: (step) => step === 'collectSocialSecurityNumber',
  finishSso: (step) => step === 'sso',
  cancelSso: (step) => step === 'sso',
  submitEmailToken: (step) => step === 'emailLoop',
  resendEmailToken: (step) => step === 'emailLoop',
  cancelEmailLoop: (step) => step === 'emailLoop',
  uploadDocuments: (step) => step === 'docUpload',
  reviewCompleted: (step) => step === 'pending',
  expire: (step) => step !== 'success' && step !== 'error',
};

const FORBIDDEN = STEPS.flatMap((step) =>
  TRIGGERS.filter((trigger) => !ALLOWED_ON[trigger](step)).map((trigger) => [step, trigger] as const),
);

describe('forbidden transitions (invalidStep)', () => {
  it.each(FORBIDDEN)('%s refuses %s', (step, trigger) => {
    expect(allows(step, trigger)).toBe(false);
    expect(nextSteps(step, trigger)).toEqual([]);
  });

  it('forbids every trigger on a final step', () => {
    expect(FORBIDDEN.filter(([step]) => step === 'success')).toHaveLength(TRIGGERS.length);
    expect(FORBIDDEN.filter(([step]) => step === 'error')).toHaveLength(TRIGGERS.length);
  });

  it.each<[Step, Trigger, Step]>([
    ['collectStudentPersonalInfo', 'submitPersonalInfo', 'collectSocialSecurityNumber'],
    ['collectStudentPersonalInfo', 'submitPersonalInfo', 'pending'],
    ['collectMilitaryStatus', 'submitMilitaryStatus', 'success'],
    ['collectSocialSecurityNumber', 'skipSocialSecurityNumber', 'success'],
    ['sso', 'cancelSso', 'success'],
    ['sso', 'finishSso', 'sso'],
    ['emailLoop', 'cancelEmailLoop', 'success'],
    ['emailLoop', 'resendEmailToken', 'success'],
    ['docUpload', 'uploadDocuments', 'success'],
    ['pending', 'reviewCompleted', 'pending'],
    ['docUpload', 'expire', 'success'],
  ])('never moves %s --%s--> %s', (from, trigger, to) => {
    expect(isTransition(from, trigger, to)).toBe(false);
  });
});
