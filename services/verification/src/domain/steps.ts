import { SUBJECT_TYPES, type Segment, type SubjectType } from '@eligo/vocabulary';

/** A personal-info step: a `currentStep` value and a submission path. */
export type CollectStep = `collect${SubjectType}PersonalInfo`;

/** Every value `currentStep` can take. */
export type Step =
  | CollectStep
  | 'collectMilitaryStatus'
  | 'collectSocialSecurityNumber'
  | 'sso'
  | 'emailLoop'
  | 'docUpload'
  | 'pending'
  | 'success'
  | 'error';

/**
 * Paths a personal-info body can be posted to. The generic and marketplace paths are never a `currentStep`:
 * they are other ways to fill the collect step the verification is on.
 */
export type SubmissionStep = CollectStep | 'collectPersonalInfo' | 'collectMarketplaceToken';

export const GENERIC_COLLECT_STEP = 'collectPersonalInfo';
export const MARKETPLACE_COLLECT_STEP = 'collectMarketplaceToken';

export function collectStepOf(type: SubjectType): CollectStep {
  return `collect${type}PersonalInfo`;
}

export const COLLECT_STEPS: readonly CollectStep[] = SUBJECT_TYPES.map(collectStepOf);

export const STEPS: readonly Step[] = [
  ...COLLECT_STEPS,
  'collectMilitaryStatus',
  'collectSocialSecurityNumber',
  'sso',
  'emailLoop',
  'docUpload',
  'pending',
  'success',
  'error',
];

const STEP_SET: ReadonlySet<string> = new Set(STEPS);
const TYPE_OF_STEP: ReadonlyMap<string, SubjectType> = new Map(
  SUBJECT_TYPES.map((type) => [collectStepOf(type), type]),
);

export function isStep(value: string): value is Step {
  return STEP_SET.has(value);
}

/** True for the `collect<Type>PersonalInfo` steps only (not collectMilitaryStatus or the SSN step). */
export function isCollectStep(step: string): step is CollectStep {
  return TYPE_OF_STEP.has(step);
}

/** The subject type a `collect<Type>PersonalInfo` step takes; undefined for every other step or path. */
export function subjectTypeOfStep(step: string): SubjectType | undefined {
  return TYPE_OF_STEP.get(step);
}

/** success and error end a verification; every other step still waits for the person or a review. */
export function isFinal(step: string): step is 'success' | 'error' {
  return step === 'success' || step === 'error';
}

/** The segment whose programs take the subject type (both military forms belong to military). */
export function segmentOfSubjectType(type: SubjectType): Segment {
  if (type === 'ActiveMilitary' || type === 'InactiveMilitary') return 'military';
  return (type.charAt(0).toLowerCase() + type.slice(1)) as Segment;
}

export function isMilitaryCollectStep(step: string): boolean {
  return step === 'collectActiveMilitaryPersonalInfo' || step === 'collectInactiveMilitaryPersonalInfo';
}

/**
 * The step a new verification starts on. Military starts by choosing a status, because the status decides
 * whether the active or the inactive form (with its discharge date) applies.
 */
const FIRST_STEPS: Record<Segment, Step> = {
  student: 'collectStudentPersonalInfo',
  military: 'collectMilitaryStatus',
  teacher: 'collectTeacherPersonalInfo',
  senior: 'collectSeniorPersonalInfo',
  age: 'collectAgePersonalInfo',
  firstResponder: 'collectFirstResponderPersonalInfo',
  medicalProfessional: 'collectMedicalProfessionalPersonalInfo',
  licensedProfessional: 'collectLicensedProfessionalPersonalInfo',
  mover: 'collectMoverPersonalInfo',
  driverLicense: 'collectDriverLicensePersonalInfo',
  generalIdentity: 'collectGeneralIdentityPersonalInfo',
  employee: 'collectEmployeePersonalInfo',
  member: 'collectMemberPersonalInfo',
  lowIncome: 'collectLowIncomePersonalInfo',
};

export function firstStep(segment: Segment): Step {
  return FIRST_STEPS[segment];
}

/** The collect steps a program of the segment can be on; a submission for any other type is a wrong step. */
export function collectStepsOfSegment(segment: Segment): readonly CollectStep[] {
  if (segment === 'military')
    return ['collectActiveMilitaryPersonalInfo', 'collectInactiveMilitaryPersonalInfo'];
  const first = FIRST_STEPS[segment];
  return isCollectStep(first) ? [first] : [];
}

/**
 * Whether a personal-info body posted to `submitted` may fill the verification's `current` step (false means
 * invalidStep). A typed path must name the current step exactly, so a body is never read with another type's
 * rules. The generic and marketplace paths carry no type of their own and fill whichever collect step is
 * current; the rules that apply are then those of `subjectTypeOfStep(current)`. Military collect steps are
 * only current once a status was chosen, so before that (current = collectMilitaryStatus) nothing is
 * accepted. The segment guards against a current step that does not belong to the program.
 */
export function acceptsSubmission(current: string, submitted: string, segment: Segment): boolean {
  if (!isCollectStep(current) || !collectStepsOfSegment(segment).includes(current)) return false;
  if (submitted === GENERIC_COLLECT_STEP || submitted === MARKETPLACE_COLLECT_STEP) return true;
  return submitted === current;
}
