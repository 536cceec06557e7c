import type { SEGMENTS, Segment } from '@eligo/vocabulary';
import type { CollectStep } from './steps';

/**
 * The statuses a person may claim (the public v2 values, upper case) and the sub-segment each one confirms.
 * The status is what the person picks on a form; the sub-segment is what the program and the response speak
 * of, so the two vocabularies meet here and nowhere else.
 */
export const MILITARY_STATUSES = [
  'ACTIVE_DUTY',
  'VETERAN',
  'RESERVIST',
  'MILITARY_RETIREE',
  'MILITARY_FAMILY',
  'GOLD_STAR_FAMILY',
] as const;
export const FIRST_RESPONDER_STATUSES = ['POLICE', 'EMT', 'FIREFIGHTER', 'SEARCH_AND_RESCUE'] as const;
export const MEDICAL_STATUSES = ['NURSE', 'DOCTOR', 'DENTIST', 'PHARMACIST', 'OTHER_HEALTH_WORKER'] as const;
export const LICENSED_PROFESSIONAL_STATUSES = [
  'LICENSED_COSMETOLOGIST',
  'LICENSED_REAL_ESTATE_AGENT',
  'VETERINARIAN',
  'CHILD_CARE_WORKER',
  'LIBRARIAN',
  'INTERIOR_DESIGNER',
  'ARCHITECT',
  'GENERAL_CONTRACTOR',
  'NUTRITION_PROFESSIONAL',
] as const;
export const MOVER_STATUSES = ['HOME_BUYER', 'OTHER_MOVER'] as const;
export const LOW_INCOME_STATUSES = ['SNAP_BENEFITS', 'OTHER_GOVERNMENT_ASSISTANCE'] as const;

export type MilitaryStatus = (typeof MILITARY_STATUSES)[number];
export type Status =
  | MilitaryStatus
  | (typeof FIRST_RESPONDER_STATUSES)[number]
  | (typeof MEDICAL_STATUSES)[number]
  | (typeof LICENSED_PROFESSIONAL_STATUSES)[number]
  | (typeof MOVER_STATUSES)[number]
  | (typeof LOW_INCOME_STATUSES)[number];

/** Any sub-segment of any segment, as @eligo/vocabulary lists them. */
export type SubSegment = (typeof SEGMENTS)[Segment][number];

const STATUSES_OF_SEGMENT: Record<Segment, readonly Status[]> = {
  student: [],
  military: MILITARY_STATUSES,
  teacher: [],
  senior: [],
  age: [],
  firstResponder: FIRST_RESPONDER_STATUSES,
  medicalProfessional: MEDICAL_STATUSES,
  licensedProfessional: LICENSED_PROFESSIONAL_STATUSES,
  mover: MOVER_STATUSES,
  driverLicense: [],
  generalIdentity: [],
  employee: [],
  member: [],
  lowIncome: LOW_INCOME_STATUSES,
};

export const SUB_SEGMENT_OF_STATUS: Record<Status, SubSegment> = {
  ACTIVE_DUTY: 'activeDuty',
  VETERAN: 'veteran',
  RESERVIST: 'reservist',
  MILITARY_RETIREE: 'militaryRetiree',
  MILITARY_FAMILY: 'militaryFamily',
  GOLD_STAR_FAMILY: 'goldStarFamily',
  POLICE: 'police',
  EMT: 'emt',
  FIREFIGHTER: 'fireFighter',
  SEARCH_AND_RESCUE: 'searchAndRescue',
  NURSE: 'nurse',
  DOCTOR: 'doctor',
  DENTIST: 'dentist',
  PHARMACIST: 'pharmacist',
  OTHER_HEALTH_WORKER: 'otherHealthWorker',
  LICENSED_COSMETOLOGIST: 'licensedCosmetologist',
  LICENSED_REAL_ESTATE_AGENT: 'licensedRealEstateAgent',
  VETERINARIAN: 'veterinarian',
  CHILD_CARE_WORKER: 'childCareWorker',
  LIBRARIAN: 'librarian',
  INTERIOR_DESIGNER: 'interiorDesigner',
  ARCHITECT: 'architect',
  GENERAL_CONTRACTOR: 'generalContractor',
  NUTRITION_PROFESSIONAL: 'nutritionProfessional',
  HOME_BUYER: 'homeBuyer',
  OTHER_MOVER: 'otherMover',
  SNAP_BENEFITS: 'snapBenefits',
  OTHER_GOVERNMENT_ASSISTANCE: 'otherGovernmentAssistance',
};

export function isStatusOf(segment: Segment, value: string): value is Status {
  return (STATUSES_OF_SEGMENT[segment] as readonly string[]).includes(value);
}

/** The sub-segment a status confirms; undefined for text that is not a status. */
export function subSegmentOfStatus(status: string): SubSegment | undefined {
  return Object.hasOwn(SUB_SEGMENT_OF_STATUS, status) ? SUB_SEGMENT_OF_STATUS[status as Status] : undefined;
}

/**
 * Whether a program accepts the status: it must belong to the segment, and when the program lists
 * sub-segments, lead to one of them (a program for veterans only must not let a person pick ACTIVE_DUTY and
 * end in a sub-segment it never offered). An empty list means the program does not restrict.
 */
export function statusAllowedForProgram(
  segment: Segment,
  programSubSegments: readonly string[],
  status: string,
): status is Status {
  if (!isStatusOf(segment, status)) return false;
  return programSubSegments.length === 0 || programSubSegments.includes(SUB_SEGMENT_OF_STATUS[status]);
}

/**
 * The statuses of the segment (empty for segments without statuses), narrowed to those a program accepts
 * when its sub-segments are given: what a start response offers in availableStatuses.
 */
export function availableStatuses(segment: Segment, programSubSegments: readonly string[] = []): Status[] {
  return STATUSES_OF_SEGMENT[segment].filter((status) =>
    statusAllowedForProgram(segment, programSubSegments, status),
  );
}

/**
 * The systemErrorMessage of a status (a subject's `status` or one of its `statuses`, or the body of
 * collectMilitaryStatus) that the program does not accept: it names the values the program does accept,
 * the same list as availableStatuses, so an integrator sees the fix in one read. An empty value is a
 * missing one.
 */
export function statusRefusalMessage(
  field: 'status' | 'statuses',
  value: string,
  segment: Segment,
  programSubSegments: readonly string[],
): string {
  const allowed = availableStatuses(segment, programSubSegments).join(', ') || 'none';
  const problem = value === '' ? `${field} is required` : `${field}: '${value}' is not an allowed value`;
  return `${problem}. Allowed values: ${allowed}`;
}

/** The recoverable problem of a collectMilitaryStatus body, undefined when the program accepts the status. */
export function militaryStatusProblem(
  status: string,
  programSubSegments: readonly string[],
): 'invalidMilitaryStatus' | undefined {
  return statusAllowedForProgram('military', programSubSegments, status)
    ? undefined
    : 'invalidMilitaryStatus';
}

/**
 * The form that follows collectMilitaryStatus. Serving members (active duty, reservists) are matched as
 * such; everyone else has left service or is family, and the inactive form asks for the discharge date.
 */
export function nextStepForMilitaryStatus(status: MilitaryStatus): CollectStep {
  return status === 'ACTIVE_DUTY' || status === 'RESERVIST'
    ? 'collectActiveMilitaryPersonalInfo'
    : 'collectInactiveMilitaryPersonalInfo';
}

export function isMilitaryStatus(value: string): value is MilitaryStatus {
  return isStatusOf('military', value);
}

/**
 * The status a military form implies when it is submitted without collectMilitaryStatus (the program path
 * shape, one request): the first status, in the spec's order, that leads to that form and that the program
 * accepts. undefined for any other step, or when the program accepts no status leading to it.
 */
export function impliedMilitaryStatus(
  step: string,
  programSubSegments: readonly string[],
): MilitaryStatus | undefined {
  return MILITARY_STATUSES.find(
    (status) =>
      nextStepForMilitaryStatus(status) === step &&
      statusAllowedForProgram('military', programSubSegments, status),
  );
}

/**
 * The sub-segment a personal-info body chooses through its status (FirstResponder, MedicalProfessional) or
 * statuses (LicensedProfessional, Mover, LowIncome: the first one the program accepts). undefined when it names none: the
 * verification then keeps the sub-segment it has.
 */
export function subSegmentOfStatuses(
  segment: Segment,
  statuses: readonly string[],
  programSubSegments: readonly string[],
): SubSegment | undefined {
  const status = statuses.find((s) => statusAllowedForProgram(segment, programSubSegments, s));
  return status === undefined ? undefined : SUB_SEGMENT_OF_STATUS[status as Status];
}
