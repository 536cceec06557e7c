import { defaultDocumentReview, emptyOrganizationRules, type ProgramSettings } from '../src/domain/program';
import type { SettingsInput } from '../src/domain/program-validation';
import { emptyTheme } from '../src/domain/theme';
import { noInstantMatch } from '../src/domain/instant-match';

/** Valid settings of a student program, with `overrides` on top (domain unit tests). */
export function settings(overrides: Partial<SettingsInput> = {}): SettingsInput {
  return {
    name: 'Offer',
    segment: 'student',
    subSegments: [],
    mode: 'TEST',
    startDate: null,
    endDate: null,
    offerType: 'NO_CODE',
    rewardCode: null,
    redirectUrl: null,
    consolationRewardCode: null,
    minAge: null,
    maxAge: null,
    countries: [],
    documentReview: defaultDocumentReview(),
    organizationRules: emptyOrganizationRules(),
    theme: emptyTheme(),
    verificationLimit: null,
    subjectTokenKey: null,
    requireAccountTokenToCreate: false,
    embedOrigins: [],
    instantMatch: noInstantMatch(),
    ...overrides,
  };
}

export const rules = (o: Partial<ProgramSettings['organizationRules']>) => ({
  ...emptyOrganizationRules(),
  ...o,
});
export const review = (o: Partial<ProgramSettings['documentReview']>) => ({
  ...defaultDocumentReview(),
  ...o,
});
export const theme = (o: Partial<ProgramSettings['theme']>) => ({ ...emptyTheme(), ...o });
