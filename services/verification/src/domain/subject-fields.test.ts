import { SUBJECT_KEYS } from '@eligo/vocabulary';
import { keysOfSubmission } from './subject-fields';

describe('keysOfSubmission', () => {
  it.each([
    ['collectStudentPersonalInfo', SUBJECT_KEYS.Student],
    ['collectMoverPersonalInfo', SUBJECT_KEYS.Mover],
    ['collectPersonalInfo', SUBJECT_KEYS.Student],
    ['collectMarketplaceToken', undefined],
  ] as const)('%s', (step, keys) => {
    expect(keysOfSubmission(step)).toEqual(keys);
  });
});
