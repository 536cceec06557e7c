/**
 * The errorId catalogue: every errorId the services emit, with the default English text a verification form
 * shows for it. GetTheme answers with all of them (overlaid by the program's own texts), and a program theme
 * may only override ids listed here, so a typo in a theme fails loudly instead of never showing.
 * Services that add errorIds add them here.
 */
export const DEFAULT_ERROR_MESSAGES = {
  invalidBirthDate: 'Please enter a valid birth date.',
  invalidEmail: 'Please enter a valid email address.',
  invalidRequest: 'The request could not be processed. Please check your entries and try again.',
  noProgram: 'This offer could not be found.',
  tooManyOrganizationMatches: 'Too many organizations match your search. Please refine it.',
  tooManyAddSchoolRequests: 'Too many requests to add a school were sent today. Please try again tomorrow.',
  verificationLimitExceeded: 'You have reached the maximum number of verifications for this offer.',
  noVerification: 'This verification could not be found. Please start again.',
  expiredVerification: 'This verification has expired. Please start again.',
  expiredProgram: 'This offer has ended.',
  inactiveProgram: 'This offer is not active.',
  noRemainingRewardCodes: 'Sorry, there are no codes left for this offer.',
  noOrganization: 'Please select your organization.',
  invalidOrganization: 'The organization you selected is not eligible for this offer.',
  invalidFirstName: 'Please enter a valid first name.',
  invalidLastName: 'Please enter a valid last name.',
  invalidPhoneNumber: 'Please enter a valid phone number.',
  invalidPostalCode: 'Please enter a valid postal code.',
  invalidState: 'Please select a valid state.',
  invalidAddress1: 'Please enter a valid street address.',
  invalidCity: 'Please enter a valid city.',
  invalidMilitaryStatus: 'Please select a valid military status.',
  invalidSocialSecurityNumber: 'Please enter a valid social security number.',
  underagePerson: 'You do not meet the minimum age for this offer.',
  outsideAgePerson: 'Your age is outside the range for this offer.',
  futureBirthDate: 'Your birth date cannot be in the future.',
  invalidDischargeDate: 'Please enter a valid discharge date.',
  dischargeDateBeforeBirthDate: 'Your discharge date cannot be before your birth date.',
  invalidStep: 'This step is not available right now. Please reload and try again.',
  invalidApiToken: 'The access token is empty or invalid.',
  invalidClient: 'The client credentials are invalid.',
  maxMetadataValuesExceeded: 'Too many metadata values were sent.',
  maxMetadataLengthExceeded: 'A metadata value is too long.',
  internalServerError: 'Something went wrong on our side. Please try again later.',
  unsupportedDocMimeType: 'This file type is not supported. Please upload a JPEG, PNG, GIF or PDF file.',
  invalidFileSizeMax: 'This file is too large. Files may be at most 10 MiB.',
  invalidFileSizeEmpty: 'This file is empty.',
  invalidNumberOfFiles: 'Please upload between one and three files.',
  docReviewLimitExceeded: 'You have reached the maximum number of document uploads.',
  simulatedError: 'A simulated error occurred (test mode).',
  verificationLimitAlreadyExists: 'This program already has a verification limit.',
  webhookAlreadyExists: 'This program already has a webhook.',
  invalidEmailLoopToken: 'This code is not right. Please check it and try again.',
  expiredEmailLoopToken: 'This code has expired. Please ask for a new one.',
  emailLoopResendTooSoon: 'A new code was sent a moment ago. Please wait a minute before asking again.',
  maxEmailLoopResendsExceeded: 'No more codes can be sent for this verification.',
} as const satisfies Record<string, string>;

export type ErrorId = keyof typeof DEFAULT_ERROR_MESSAGES;

export const ERROR_IDS = Object.keys(DEFAULT_ERROR_MESSAGES) as ErrorId[];

export function isErrorId(value: string): value is ErrorId {
  return Object.prototype.hasOwnProperty.call(DEFAULT_ERROR_MESSAGES, value);
}
