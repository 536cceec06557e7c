import { SEGMENTS, segmentNames, type Segment } from '@eligo/vocabulary';
import {
  availableStatuses,
  isMilitaryStatus,
  isStatusOf,
  militaryStatusProblem,
  MILITARY_STATUSES,
  nextStepForMilitaryStatus,
  statusAllowedForProgram,
  statusRefusalMessage,
  SUB_SEGMENT_OF_STATUS,
  subSegmentOfStatus,
  type MilitaryStatus,
  type Status,
} from './statuses';

describe('availableStatuses', () => {
  it.each<[Segment, string[]]>([
    [
      'military',
      ['ACTIVE_DUTY', 'VETERAN', 'RESERVIST', 'MILITARY_RETIREE', 'MILITARY_FAMILY', 'GOLD_STAR_FAMILY'],
    ],
    ['firstResponder', ['POLICE', 'EMT', 'FIREFIGHTER', 'SEARCH_AND_RESCUE']],
    ['medicalProfessional', ['NURSE', 'DOCTOR', 'DENTIST', 'PHARMACIST', 'OTHER_HEALTH_WORKER']],
    ['mover', ['HOME_BUYER', 'OTHER_MOVER']],
    ['lowIncome', ['SNAP_BENEFITS', 'OTHER_GOVERNMENT_ASSISTANCE']],
    [
      'licensedProfessional',
      [
        'LICENSED_COSMETOLOGIST',
        'LICENSED_REAL_ESTATE_AGENT',
        'VETERINARIAN',
        'CHILD_CARE_WORKER',
        'LIBRARIAN',
        'INTERIOR_DESIGNER',
        'ARCHITECT',
        'GENERAL_CONTRACTOR',
        'NUTRITION_PROFESSIONAL',
      ],
    ],
    ['student', []],
    ['age', []],
  ])('%s -> %j', (segment, statuses) => {
    expect(availableStatuses(segment)).toEqual(statuses);
  });

  it.each<[Segment, string[], string[]]>([
    ['military', ['veteran', 'militaryRetiree'], ['VETERAN', 'MILITARY_RETIREE']],
    ['military', ['activeDuty'], ['ACTIVE_DUTY']],
    ['firstResponder', ['fireFighter'], ['FIREFIGHTER']],
    ['licensedProfessional', ['architect', 'librarian'], ['LIBRARIAN', 'ARCHITECT']],
    ['mover', [], ['HOME_BUYER', 'OTHER_MOVER']],
    ['student', ['activeDuty'], []],
  ])('%s narrowed to %j -> %j', (segment, subSegments, statuses) => {
    expect(availableStatuses(segment, subSegments)).toEqual(statuses);
  });

  it('maps the statuses of a segment onto exactly its sub-segments', () => {
    for (const segment of segmentNames) {
      const reached = availableStatuses(segment).map((status) => SUB_SEGMENT_OF_STATUS[status]);
      expect([...reached].sort()).toEqual([...SEGMENTS[segment]].sort());
    }
  });
});

describe('subSegmentOfStatus', () => {
  it.each<[string, string | undefined]>([
    ['ACTIVE_DUTY', 'activeDuty'],
    ['GOLD_STAR_FAMILY', 'goldStarFamily'],
    ['FIREFIGHTER', 'fireFighter'],
    ['SEARCH_AND_RESCUE', 'searchAndRescue'],
    ['OTHER_HEALTH_WORKER', 'otherHealthWorker'],
    ['HOME_BUYER', 'homeBuyer'],
    ['OTHER_GOVERNMENT_ASSISTANCE', 'otherGovernmentAssistance'],
    ['LICENSED_COSMETOLOGIST', 'licensedCosmetologist'],
    ['LICENSED_REAL_ESTATE_AGENT', 'licensedRealEstateAgent'],
    ['VETERINARIAN', 'veterinarian'],
    ['CHILD_CARE_WORKER', 'childCareWorker'],
    ['LIBRARIAN', 'librarian'],
    ['INTERIOR_DESIGNER', 'interiorDesigner'],
    ['ARCHITECT', 'architect'],
    ['GENERAL_CONTRACTOR', 'generalContractor'],
    ['NUTRITION_PROFESSIONAL', 'nutritionProfessional'],
    ['active_duty', undefined],
    ['toString', undefined],
    ['', undefined],
  ])('%s -> %s', (status, subSegment) => {
    expect(subSegmentOfStatus(status)).toBe(subSegment);
  });
});

describe('statusAllowedForProgram', () => {
  it.each<[Segment, string[], string, boolean]>([
    ['military', [], 'VETERAN', true],
    ['military', ['veteran'], 'VETERAN', true],
    ['military', ['veteran'], 'ACTIVE_DUTY', false],
    ['military', [], 'POLICE', false],
    ['military', [], 'veteran', false],
    ['firstResponder', ['police', 'emt'], 'EMT', true],
    ['firstResponder', ['police'], 'EMT', false],
    ['medicalProfessional', [], 'NURSE', true],
    ['student', [], 'ACTIVE_DUTY', false],
  ])('%s %j accepts %s -> %s', (segment, subSegments, status, expected) => {
    expect(statusAllowedForProgram(segment, subSegments, status)).toBe(expected);
  });
});

describe('statusRefusalMessage', () => {
  it.each<[Parameters<typeof statusRefusalMessage>, string]>([
    [
      ['statuses', 'DOCTOR', 'licensedProfessional', []],
      "statuses: 'DOCTOR' is not an allowed value. Allowed values: LICENSED_COSMETOLOGIST, " +
        'LICENSED_REAL_ESTATE_AGENT, VETERINARIAN, CHILD_CARE_WORKER, LIBRARIAN, INTERIOR_DESIGNER, ARCHITECT, ' +
        'GENERAL_CONTRACTOR, NUTRITION_PROFESSIONAL',
    ],
    [
      ['status', 'NURSE', 'firstResponder', ['police', 'emt']],
      "status: 'NURSE' is not an allowed value. Allowed values: POLICE, EMT",
    ],
    [
      ['status', '', 'medicalProfessional', []],
      'status is required. Allowed values: NURSE, DOCTOR, DENTIST, PHARMACIST, OTHER_HEALTH_WORKER',
    ],
    [
      ['statuses', 'RENTER', 'mover', []],
      "statuses: 'RENTER' is not an allowed value. Allowed values: HOME_BUYER, OTHER_MOVER",
    ],
    [
      ['status', 'POLICE', 'military', ['veteran']],
      "status: 'POLICE' is not an allowed value. Allowed values: VETERAN",
    ],
  ])('%j -> %s', (args, message) => {
    expect(statusRefusalMessage(...args)).toBe(message);
  });
});

describe('isStatusOf', () => {
  it.each<[Segment, string, boolean]>([
    ['lowIncome', 'SNAP_BENEFITS', true],
    ['lowIncome', 'HOME_BUYER', false],
    ['mover', 'OTHER_MOVER', true],
    ['licensedProfessional', 'NURSE', false],
    ['licensedProfessional', 'VETERINARIAN', true],
    ['medicalProfessional', 'VETERINARIAN', false],
  ])('%s / %s -> %s', (segment, status, expected) => {
    expect(isStatusOf(segment, status)).toBe(expected);
  });
});

describe('military status', () => {
  it.each<[MilitaryStatus, string]>([
    ['ACTIVE_DUTY', 'collectActiveMilitaryPersonalInfo'],
    ['RESERVIST', 'collectActiveMilitaryPersonalInfo'],
    ['VETERAN', 'collectInactiveMilitaryPersonalInfo'],
    ['MILITARY_RETIREE', 'collectInactiveMilitaryPersonalInfo'],
    ['MILITARY_FAMILY', 'collectInactiveMilitaryPersonalInfo'],
    ['GOLD_STAR_FAMILY', 'collectInactiveMilitaryPersonalInfo'],
  ])('%s leads to %s', (status, step) => {
    expect(nextStepForMilitaryStatus(status)).toBe(step);
  });

  it.each<[string, string[], string | undefined]>([
    ['VETERAN', [], undefined],
    ['VETERAN', ['veteran', 'activeDuty'], undefined],
    ['VETERAN', ['activeDuty'], 'invalidMilitaryStatus'],
    ['POLICE', [], 'invalidMilitaryStatus'],
    ['', [], 'invalidMilitaryStatus'],
    ['veteran', [], 'invalidMilitaryStatus'],
  ])('%s with program sub-segments %j -> %s', (status, subSegments, problem) => {
    expect(militaryStatusProblem(status, subSegments)).toBe(problem);
  });

  it('recognises exactly the military statuses', () => {
    const all = Object.keys(SUB_SEGMENT_OF_STATUS) as Status[];
    expect(all.filter(isMilitaryStatus)).toEqual([...MILITARY_STATUSES]);
  });
});
