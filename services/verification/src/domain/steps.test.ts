import { SUBJECT_TYPES, type Segment, type SubjectType } from '@eligo/vocabulary';
import {
  acceptsSubmission,
  COLLECT_STEPS,
  collectStepsOfSegment,
  firstStep,
  isCollectStep,
  isFinal,
  isMilitaryCollectStep,
  isStep,
  segmentOfSubjectType,
  subjectTypeOfStep,
} from './steps';

describe('firstStep', () => {
  it.each<[Segment, string]>([
    ['student', 'collectStudentPersonalInfo'],
    ['military', 'collectMilitaryStatus'],
    ['teacher', 'collectTeacherPersonalInfo'],
    ['senior', 'collectSeniorPersonalInfo'],
    ['age', 'collectAgePersonalInfo'],
    ['firstResponder', 'collectFirstResponderPersonalInfo'],
    ['medicalProfessional', 'collectMedicalProfessionalPersonalInfo'],
    ['licensedProfessional', 'collectLicensedProfessionalPersonalInfo'],
    ['mover', 'collectMoverPersonalInfo'],
    ['driverLicense', 'collectDriverLicensePersonalInfo'],
    ['generalIdentity', 'collectGeneralIdentityPersonalInfo'],
    ['employee', 'collectEmployeePersonalInfo'],
    ['member', 'collectMemberPersonalInfo'],
    ['lowIncome', 'collectLowIncomePersonalInfo'],
  ])('%s starts on %s', (segment, step) => {
    expect(firstStep(segment)).toBe(step);
    expect(isStep(step)).toBe(true);
  });
});

describe('subjectTypeOfStep and isCollectStep', () => {
  it.each<[string, SubjectType | undefined]>([
    ['collectStudentPersonalInfo', 'Student'],
    ['collectActiveMilitaryPersonalInfo', 'ActiveMilitary'],
    ['collectInactiveMilitaryPersonalInfo', 'InactiveMilitary'],
    ['collectLowIncomePersonalInfo', 'LowIncome'],
    ['collectDriverLicensePersonalInfo', 'DriverLicense'],
    ['collectMilitaryStatus', undefined],
    ['collectSocialSecurityNumber', undefined],
    ['collectPersonalInfo', undefined],
    ['collectMarketplaceToken', undefined],
    ['docUpload', undefined],
    ['success', undefined],
    ['collectstudentpersonalinfo', undefined],
    ['toString', undefined],
    ['', undefined],
  ])('%s -> %s', (step, type) => {
    expect(subjectTypeOfStep(step)).toBe(type);
    expect(isCollectStep(step)).toBe(type !== undefined);
  });

  it('has one collect step per subject type of the spec', () => {
    expect(COLLECT_STEPS).toHaveLength(15);
    expect(SUBJECT_TYPES.map((type) => subjectTypeOfStep(`collect${type}PersonalInfo`))).toEqual(
      SUBJECT_TYPES,
    );
  });
});

describe('isFinal', () => {
  it.each([
    ['success', true],
    ['error', true],
    ['pending', false],
    ['docUpload', false],
    ['sso', false],
    ['collectSocialSecurityNumber', false],
    ['collectStudentPersonalInfo', false],
  ])('%s -> %s', (step, final) => {
    expect(isFinal(step)).toBe(final);
  });
});

describe('isStep', () => {
  it.each([
    ['pending', true],
    ['sso', true],
    ['collectSocialSecurityNumber', true],
    ['collectPersonalInfo', false],
    ['expired', false],
  ])('%s -> %s', (value, expected) => {
    expect(isStep(value)).toBe(expected);
  });
});

describe('segmentOfSubjectType', () => {
  it.each<[SubjectType, Segment]>([
    ['Student', 'student'],
    ['ActiveMilitary', 'military'],
    ['InactiveMilitary', 'military'],
    ['FirstResponder', 'firstResponder'],
    ['MedicalProfessional', 'medicalProfessional'],
    ['DriverLicense', 'driverLicense'],
    ['LowIncome', 'lowIncome'],
  ])('%s belongs to %s', (type, segment) => {
    expect(segmentOfSubjectType(type)).toBe(segment);
  });

  it('maps every type back to a segment whose collect steps include it', () => {
    for (const type of SUBJECT_TYPES)
      expect(collectStepsOfSegment(segmentOfSubjectType(type))).toContain(`collect${type}PersonalInfo`);
  });
});

describe('isMilitaryCollectStep', () => {
  it.each([
    ['collectActiveMilitaryPersonalInfo', true],
    ['collectInactiveMilitaryPersonalInfo', true],
    ['collectMilitaryStatus', false],
    ['collectStudentPersonalInfo', false],
  ])('%s -> %s', (step, expected) => {
    expect(isMilitaryCollectStep(step)).toBe(expected);
  });
});

describe('acceptsSubmission', () => {
  it.each<[string, string, Segment, boolean]>([
    // A typed path must name the current step.
    ['collectStudentPersonalInfo', 'collectStudentPersonalInfo', 'student', true],
    ['collectStudentPersonalInfo', 'collectTeacherPersonalInfo', 'student', false],
    ['collectSeniorPersonalInfo', 'collectAgePersonalInfo', 'senior', false],
    // The generic and marketplace paths fill whatever collect step is current.
    ['collectStudentPersonalInfo', 'collectPersonalInfo', 'student', true],
    ['collectTeacherPersonalInfo', 'collectPersonalInfo', 'teacher', true],
    ['collectInactiveMilitaryPersonalInfo', 'collectPersonalInfo', 'military', true],
    ['collectMemberPersonalInfo', 'collectMarketplaceToken', 'member', true],
    // Military: nothing before a status was chosen, then only the form the status led to.
    ['collectMilitaryStatus', 'collectActiveMilitaryPersonalInfo', 'military', false],
    ['collectMilitaryStatus', 'collectPersonalInfo', 'military', false],
    ['collectActiveMilitaryPersonalInfo', 'collectActiveMilitaryPersonalInfo', 'military', true],
    ['collectActiveMilitaryPersonalInfo', 'collectInactiveMilitaryPersonalInfo', 'military', false],
    ['collectInactiveMilitaryPersonalInfo', 'collectInactiveMilitaryPersonalInfo', 'military', true],
    // Steps that take no personal info.
    ['docUpload', 'collectStudentPersonalInfo', 'student', false],
    ['pending', 'collectPersonalInfo', 'student', false],
    ['success', 'collectStudentPersonalInfo', 'student', false],
    ['error', 'collectPersonalInfo', 'student', false],
    ['collectSocialSecurityNumber', 'collectActiveMilitaryPersonalInfo', 'military', false],
    ['sso', 'collectStudentPersonalInfo', 'student', false],
    // A current step foreign to the program's segment is never filled.
    ['collectStudentPersonalInfo', 'collectStudentPersonalInfo', 'teacher', false],
    ['collectActiveMilitaryPersonalInfo', 'collectPersonalInfo', 'student', false],
    // Not a submission path at all.
    ['collectStudentPersonalInfo', 'collectMilitaryStatus', 'student', false],
    ['collectStudentPersonalInfo', 'nonsense', 'student', false],
  ])('on %s, %s (%s) -> %s', (current, submitted, segment, expected) => {
    expect(acceptsSubmission(current, submitted, segment)).toBe(expected);
  });
});
