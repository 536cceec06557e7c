import { DEFAULT_ERROR_MESSAGES, ERROR_IDS, isErrorId } from './error-ids';

describe('errorId catalogue', () => {
  it('has a non-empty English text for every errorId the services emit', () => {
    const required = [
      'invalidBirthDate',
      'invalidEmail',
      'invalidRequest',
      'noProgram',
      'tooManyOrganizationMatches',
      'tooManyAddSchoolRequests',
      'verificationLimitExceeded',
      'noVerification',
      'expiredVerification',
      'expiredProgram',
      'inactiveProgram',
      'noRemainingRewardCodes',
      'noOrganization',
      'invalidOrganization',
      'invalidFirstName',
      'invalidLastName',
      'invalidPhoneNumber',
      'invalidPostalCode',
      'invalidState',
      'invalidAddress1',
      'invalidCity',
      'invalidMilitaryStatus',
      'invalidSocialSecurityNumber',
      'underagePerson',
      'outsideAgePerson',
      'futureBirthDate',
      'invalidDischargeDate',
      'dischargeDateBeforeBirthDate',
      'invalidStep',
      'invalidApiToken',
      'maxMetadataValuesExceeded',
      'maxMetadataLengthExceeded',
      'internalServerError',
      'unsupportedDocMimeType',
      'invalidFileSizeMax',
      'invalidFileSizeEmpty',
      'invalidNumberOfFiles',
      'docReviewLimitExceeded',
      'simulatedError',
      'verificationLimitAlreadyExists',
      'webhookAlreadyExists',
      'invalidClient',
      // The email loop (issue 22).
      'invalidEmailLoopToken',
      'expiredEmailLoopToken',
      'emailLoopResendTooSoon',
      'maxEmailLoopResendsExceeded',
    ];
    expect([...ERROR_IDS].sort()).toEqual([...required].sort());
    for (const id of ERROR_IDS) expect(DEFAULT_ERROR_MESSAGES[id].length).toBeGreaterThan(0);
  });

  it.each([
    ['noProgram', true],
    ['NoProgram', false],
    ['constructor', false],
    ['', false],
  ])('isErrorId(%j) = %s', (value, expected) => {
    expect(isErrorId(value)).toBe(expected);
  });
});
