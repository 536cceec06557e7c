import { patchOf, type Draft } from './program-patch';

const stored: Draft = {
  name: 'Spring',
  mode: 'test',
  redirectUrl: 'https://shop.example/thanks',
  rewardCode: 'SPRING-10',
  maxRejections: '3',
  estimatedReviewTime: '',
  maxReviewTime: '2_HRS',
};

describe('patchOf', () => {
  it('sends only what changed', () => {
    expect(patchOf(stored, { ...stored })).toEqual({});
    expect(patchOf(stored, { ...stored, name: '  Summer ', mode: 'live' })).toEqual({
      name: 'Summer',
      mode: 'live',
    });
  });

  it('clears an emptied setting with null, as a merge patch does', () => {
    expect(
      patchOf(stored, {
        ...stored,
        redirectUrl: ' ',
        rewardCode: '',
        maxReviewTime: '',
        estimatedReviewTime: 'A_FEW_DAYS',
      }),
    ).toEqual({
      redirectUrl: null,
      rewardCode: null,
      maxReviewTime: null,
      estimatedReviewTime: 'A_FEW_DAYS',
    });
  });

  it('sends numbers as numbers', () => {
    expect(patchOf(stored, { ...stored, maxRejections: '5' })).toEqual({ maxRejections: 5 });
  });
});
