import { verificationV1 } from '@eligo/proto';
import { reverifyAnswerOf } from './ports';

const { ReverifyOutcome: RO } = verificationV1;

describe('reverifyAnswerOf', () => {
  it("names the outcome and reads proto3's empty step and organization 0 as none", () => {
    expect(
      reverifyAnswerOf({
        outcome: RO.REVERIFY_OUTCOME_INELIGIBLE,
        errorIds: ['underagePerson'],
        currentStep: '',
        organizationId: 0,
      }),
    ).toEqual({
      outcome: 'INELIGIBLE',
      errorIds: ['underagePerson'],
      currentStep: null,
      organizationId: null,
    });
    expect(
      reverifyAnswerOf({
        outcome: RO.REVERIFY_OUTCOME_ELIGIBLE,
        errorIds: [],
        currentStep: 'success',
        organizationId: 7,
      }),
    ).toEqual({ outcome: 'ELIGIBLE', errorIds: [], currentStep: 'success', organizationId: 7 });
  });

  it('refuses an outcome the contract does not name, so that the item is retried rather than misreported', () => {
    for (const outcome of [RO.REVERIFY_OUTCOME_UNSPECIFIED, RO.UNRECOGNIZED, 9])
      expect(() => reverifyAnswerOf({ outcome, errorIds: [], currentStep: '', organizationId: 0 })).toThrow(
        /unknown reverify outcome/,
      );
  });
});
