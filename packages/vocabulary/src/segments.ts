/**
 * The audience segments of the spec and the sub-segments a verification of each may end in. This is the one
 * list in the codebase (exported by the package for the others); a segment with an empty list accepts no
 * sub-segments.
 */
export const SEGMENTS = {
  student: [],
  military: ['activeDuty', 'veteran', 'reservist', 'militaryRetiree', 'militaryFamily', 'goldStarFamily'],
  teacher: [],
  senior: [],
  age: [],
  firstResponder: ['police', 'emt', 'fireFighter', 'searchAndRescue'],
  medicalProfessional: ['nurse', 'doctor', 'dentist', 'pharmacist', 'otherHealthWorker'],
  licensedProfessional: [
    'licensedCosmetologist',
    'licensedRealEstateAgent',
    'veterinarian',
    'childCareWorker',
    'librarian',
    'interiorDesigner',
    'architect',
    'generalContractor',
    'nutritionProfessional',
  ],
  mover: ['homeBuyer', 'otherMover'],
  driverLicense: [],
  generalIdentity: [],
  employee: [],
  member: [],
  lowIncome: ['snapBenefits', 'otherGovernmentAssistance'],
} as const satisfies Record<string, readonly string[]>;

export type Segment = keyof typeof SEGMENTS;

export const segmentNames = Object.keys(SEGMENTS) as Segment[];

/** Segments whose programs may bound the person's age (min_age / max_age). */
export const AGE_BOUNDED_SEGMENTS: readonly Segment[] = ['age', 'senior'];

export function isSegment(value: string): value is Segment {
  return Object.prototype.hasOwnProperty.call(SEGMENTS, value);
}

export function subSegmentsOf(segment: Segment): readonly string[] {
  return SEGMENTS[segment];
}

/** Problems with a program's sub-segments for its segment (empty when valid). */
export function subSegmentProblems(segment: Segment, subSegments: readonly string[]): string[] {
  const allowed: readonly string[] = SEGMENTS[segment];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const sub of subSegments) {
    if (seen.has(sub)) problems.push(`${sub} is listed twice`);
    seen.add(sub);
    if (!allowed.includes(sub)) problems.push(`${sub} is not a sub-segment of ${segment}`);
  }
  return problems;
}
