import type { Segment } from '@eligo/vocabulary';
import type { Outcome } from './outcome';
import { reverifyVerdict, submittedCollectStep, type ReverifyVerdict } from './reverify';

describe('submittedCollectStep', () => {
  it.each<[Segment, string | null, string | undefined]>([
    ['student', null, 'collectStudentPersonalInfo'],
    ['age', null, 'collectAgePersonalInfo'],
    // A status chosen on the form itself changes the sub-segment, not the form.
    ['firstResponder', 'police', 'collectFirstResponderPersonalInfo'],
    ['military', 'activeDuty', 'collectActiveMilitaryPersonalInfo'],
    ['military', 'reservist', 'collectActiveMilitaryPersonalInfo'],
    ['military', 'veteran', 'collectInactiveMilitaryPersonalInfo'],
    ['military', 'goldStarFamily', 'collectInactiveMilitaryPersonalInfo'],
    ['military', null, undefined],
    ['military', 'police', undefined],
  ])('%s with sub-segment %s -> %s', (segment, subSegment, expected) => {
    expect(submittedCollectStep(segment, subSegment)).toBe(expected);
  });
});

describe('reverifyVerdict', () => {
  it.each<[Outcome, ReverifyVerdict]>([
    [{ kind: 'success' }, { verdict: 'eligible' }],
    [{ kind: 'docUpload' }, { verdict: 'needsReview' }],
    [{ kind: 'sso' }, { verdict: 'needsReview' }],
    [{ kind: 'ssn' }, { verdict: 'needsReview' }],
    [
      { kind: 'error', errorIds: ['underagePerson'], systemErrorMessage: 'too young' },
      { verdict: 'ineligible', errorIds: ['underagePerson'] },
    ],
    [
      { kind: 'recoverable', errorIds: ['invalidBirthDate'] },
      { verdict: 'ineligible', errorIds: ['invalidBirthDate'] },
    ],
  ])('%j -> %j', (outcome, expected) => {
    expect(reverifyVerdict(outcome)).toEqual(expected);
  });
});
