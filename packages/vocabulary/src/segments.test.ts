import { isSegment, SEGMENTS, segmentNames, subSegmentProblems, type Segment } from './segments';

describe('segments', () => {
  it('lists the spec segments', () => {
    expect(segmentNames).toEqual([
      'student',
      'military',
      'teacher',
      'senior',
      'age',
      'firstResponder',
      'medicalProfessional',
      'licensedProfessional',
      'mover',
      'driverLicense',
      'generalIdentity',
      'employee',
      'member',
      'lowIncome',
    ]);
    expect(SEGMENTS.military).toContain('goldStarFamily');
  });

  it.each([
    ['student', true],
    ['military', true],
    ['Military', false],
    ['toString', false],
    ['', false],
  ])('isSegment(%j) = %s', (value, expected) => {
    expect(isSegment(value)).toBe(expected);
  });

  it.each<[Segment, string[], string[]]>([
    ['military', ['activeDuty', 'veteran'], []],
    ['firstResponder', ['police', 'emt', 'fireFighter', 'searchAndRescue'], []],
    ['medicalProfessional', ['nurse'], []],
    ['mover', ['homeBuyer', 'otherMover'], []],
    ['lowIncome', ['snapBenefits'], []],
    [
      'licensedProfessional',
      [
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
      [],
    ],
    ['licensedProfessional', ['nurse'], ['nurse is not a sub-segment of licensedProfessional']],
    ['student', [], []],
    ['student', ['veteran'], ['veteran is not a sub-segment of student']],
    ['military', ['police'], ['police is not a sub-segment of military']],
    ['military', ['veteran', 'veteran'], ['veteran is listed twice']],
    ['teacher', ['anything'], ['anything is not a sub-segment of teacher']],
  ])('%s with %j -> %j', (segment, subs, problems) => {
    expect(subSegmentProblems(segment, subs)).toEqual(problems);
  });
});
