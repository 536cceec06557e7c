import type { Segment } from '@eligo/vocabulary';
import {
  decideSocialSecurityNumber,
  decideSubmission,
  validSocialSecurityNumber,
  type Outcome,
  type SubmissionInput,
} from './outcome';
import type { CollectStep } from './steps';
import { normalizeSubject } from './subject';

const today = '2024-05-10';

function input(
  mode: 'test' | 'live',
  segment: Segment,
  step: CollectStep,
  firstName: string,
  birthDate = '1990-01-01',
  program: SubmissionInput['program'] = {},
): SubmissionInput {
  return { mode, segment, step, subject: normalizeSubject({ firstName, birthDate }), program, today };
}

const simulated: Outcome = {
  kind: 'error',
  errorIds: ['simulatedError'],
  systemErrorMessage: expect.stringContaining('__ERROR__') as unknown as string,
};

describe('decideSubmission in test mode', () => {
  it.each<[Segment, CollectStep, string, Outcome]>([
    ['student', 'collectStudentPersonalInfo', 'Ann', { kind: 'success' }],
    ['student', 'collectStudentPersonalInfo', 'REJECTED', { kind: 'docUpload' }],
    ['student', 'collectStudentPersonalInfo', 'UPLOAD', { kind: 'docUpload' }],
    ['student', 'collectStudentPersonalInfo', '__ERROR__', simulated],
    ['student', 'collectStudentPersonalInfo', 'SSO', { kind: 'sso' }],
    ['member', 'collectMemberPersonalInfo', 'EMAIL_LOOP', { kind: 'emailLoop' }],
    // Triggers are exact: another case or spelling is an ordinary name.
    ['student', 'collectStudentPersonalInfo', 'rejected', { kind: 'success' }],
    ['student', 'collectStudentPersonalInfo', 'REJECTED2', { kind: 'success' }],
    ['student', 'collectStudentPersonalInfo', 'constructor', { kind: 'success' }],
    // SSN reaches the social security number step from the military forms only.
    ['military', 'collectActiveMilitaryPersonalInfo', 'SSN', { kind: 'ssn' }],
    ['military', 'collectInactiveMilitaryPersonalInfo', 'SSN', { kind: 'ssn' }],
    ['student', 'collectStudentPersonalInfo', 'SSN', { kind: 'success' }],
    // Test mode succeeds where live mode would ask for more.
    ['military', 'collectActiveMilitaryPersonalInfo', 'Ann', { kind: 'success' }],
    ['teacher', 'collectTeacherPersonalInfo', 'Ann', { kind: 'success' }],
    ['military', 'collectActiveMilitaryPersonalInfo', 'REJECTED', { kind: 'docUpload' }],
  ])('%s %s firstName %s', (segment, step, firstName, outcome) => {
    expect(decideSubmission(input('test', segment, step, firstName))).toEqual(outcome);
  });

  it.each<[string, SubmissionInput['program']]>([
    ['2010-01-01', { minAge: 18 }],
    ['1930-01-01', { maxAge: 30 }],
  ])('ignores the birth date %s against %j', (birthDate, program) => {
    expect(
      decideSubmission(input('test', 'age', 'collectAgePersonalInfo', 'Ann', birthDate, program)),
    ).toEqual({ kind: 'success' });
  });
});

describe('decideSubmission in live mode', () => {
  it.each<[Segment, CollectStep, string, SubmissionInput['program'], Outcome['kind'], string[]]>([
    ['age', 'collectAgePersonalInfo', '2000-01-01', { minAge: 18 }, 'success', []],
    ['age', 'collectAgePersonalInfo', '2006-05-11', { minAge: 18 }, 'error', ['underagePerson']],
    [
      'age',
      'collectAgePersonalInfo',
      '1990-01-01',
      { minAge: 18, maxAge: 25 },
      'error',
      ['outsideAgePerson'],
    ],
    ['age', 'collectAgePersonalInfo', '1990-01-01', { minAge: null, maxAge: null }, 'success', []],
    ['senior', 'collectSeniorPersonalInfo', '1959-05-10', { minAge: 65 }, 'success', []],
    ['senior', 'collectSeniorPersonalInfo', '1970-01-01', { minAge: 65 }, 'error', ['underagePerson']],
    ['senior', 'collectSeniorPersonalInfo', '2025-01-01', { minAge: 65 }, 'error', ['futureBirthDate']],
    ['military', 'collectActiveMilitaryPersonalInfo', '1990-01-01', {}, 'ssn', []],
    ['military', 'collectInactiveMilitaryPersonalInfo', '1990-01-01', {}, 'ssn', []],
    ['student', 'collectStudentPersonalInfo', '1990-01-01', {}, 'docUpload', []],
    ['teacher', 'collectTeacherPersonalInfo', '1990-01-01', {}, 'docUpload', []],
    ['lowIncome', 'collectLowIncomePersonalInfo', '1990-01-01', {}, 'docUpload', []],
  ])('%s %s born %s %j -> %s %j', (segment, step, birthDate, program, kind, errorIds) => {
    const outcome = decideSubmission(input('live', segment, step, 'Ann', birthDate, program));
    expect(outcome.kind).toBe(kind);
    expect(outcome.kind === 'error' ? outcome.errorIds : []).toEqual(errorIds);
    if (outcome.kind === 'error') expect(outcome.systemErrorMessage).not.toBe('');
  });

  it.each(['REJECTED', '__ERROR__', 'SSO', 'SSN'])('gives the test trigger %s no meaning', (firstName) => {
    expect(decideSubmission(input('live', 'student', 'collectStudentPersonalInfo', firstName))).toEqual({
      kind: 'docUpload',
    });
  });
});

describe('decideSocialSecurityNumber', () => {
  it.each([
    ['test', 'success'],
    ['live', 'docUpload'],
  ] as const)('%s -> %s', (mode, kind) => {
    expect(decideSocialSecurityNumber(mode)).toEqual({ kind });
  });
});

describe('validSocialSecurityNumber', () => {
  it.each([
    ['123456789', true],
    ['123-45-6789', true],
    [' 123-45-6789 ', true],
    ['665-01-0001', true],
    ['899-99-9999', true],
    ['000-45-6789', false],
    ['666-45-6789', false],
    ['900-45-6789', false],
    ['999456789', false],
    ['123-00-6789', false],
    ['123-45-0000', false],
    ['123-456789', false],
    ['12345-6789', false],
    ['123 45 6789', false],
    ['12345678', false],
    ['1234567890', false],
    ['12345678a', false],
    ['', false],
  ])('%j -> %s', (value, valid) => {
    expect(validSocialSecurityNumber(value)).toBe(valid);
  });
});
