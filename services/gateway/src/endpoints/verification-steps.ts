import { z } from 'zod';
import { SUBJECT_TYPES, type SubjectType } from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS, plainText } from '../openapi/schemas/text';
import { defineEndpoint, type BodyOf, type EndpointResponse, type QueryOf } from './define';
import { text } from './query';
import { compactJws, NO_CONTROL_MESSAGE } from './verification-fields';
import {
  EmailTokenRequest,
  MarketplaceTokenRequest,
  MilitaryStatusRequest,
  SocialSecurityNumberRequest,
} from './verification-requests';
import { VerificationResponse, VerificationStepError } from './verification-responses';
import { GENERIC_SUBJECT_TYPE, subjectSchemas } from './verification-subjects';
import { er, sem, unavailable } from './common';
import {
  creationNote,
  creationRefused,
  creationSecurity,
  limitReached,
  noToken,
  noVerification,
  programId,
  tags,
  verificationId,
  vr,
} from './verification';

/**
 * The steps of a verification (the spec's personal-info steps on both path shapes, military status, social
 * security number, single sign-on), described once. A personal-info step's body is its subject's schema
 * (endpoints/verification-subjects.ts); its refusals, like every 400 of a step, are the step error (a VR).
 */

const stepOutcome = vr(
  'The next step: success (rewardCode), docUpload, collectSocialSecurityNumber, sso or emailLoop. Read ' +
    'currentStep.',
);
const stepRefused: EndpointResponse = {
  description:
    'A recoverable error: the same step with errorIds (e.g. invalidEmail, invalidBirthDate), to be ' +
    'submitted again; or the step ended in error (currentStep error, errorIds and systemErrorMessage), also ' +
    'when the body has an unexpected property or a wrong JSON type (errorIds [invalidRequest]; the message ' +
    'names the allowed keys)',
  // anyOf, not oneOf: a step that ended in error is both a VR and the shorter step error body.
  body: z.union([VerificationResponse, VerificationStepError]),
};
const tooLarge = { '413': { shared: 'PayloadTooLarge' } } satisfies Record<string, EndpointResponse>;
const timeout = { '504': sem('The verification did not finish within 10 seconds') };
const stepResponses = {
  '200': stepOutcome,
  '400': stepRefused,
  '404': noVerification,
  ...tooLarge,
  '429': limitReached,
  ...unavailable,
  ...timeout,
} satisfies Record<string, EndpointResponse>;
const plainStep = { '200': stepOutcome, '400': stepRefused, '404': noVerification, ...unavailable };
const onVerification = { tags, security: noToken, params: z.object({ verificationId }) } as const;

/** The subject type whose body may also come as a compact JWS (Content-Type: application/jose). */
export const JOSE_SUBJECT_TYPE = 'DriverLicense' satisfies SubjectType;
export const JOSE = 'application/jose';

export const JoseSubject = compactJws().meta({
  description:
    'A compact JWS whose payload is the subject, signed with the program’s subject token key, with the ' +
    'claims aud, iat, exp and jti of a marketplace token (MarketplaceVerificationRequest).',
});

/** The subject body of a type; DriverLicense may also come as a compact JWS (application/jose). */
const subjectBody = (type: SubjectType) => ({
  body: subjectSchemas[type],
  ...(type === JOSE_SUBJECT_TYPE ? { bodyContent: { [JOSE]: JoseSubject } } : {}),
});

/** collect<Type>PersonalInfo of a verification. */
export const submitPersonalInfo = (type: SubjectType) =>
  defineEndpoint({
    method: 'post',
    path: `/verification/{verificationId}/step/collect${type}PersonalInfo`,
    operationId: `submit${type}PersonalInfo`,
    summary: `Submits the ${type} personal info of a verification`,
    ...onVerification,
    ...subjectBody(type),
    responses: stepResponses,
  });

export const submitGenericPersonalInfo = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/collectPersonalInfo',
  operationId: 'submitPersonalInfo',
  summary: 'Submits the generic personal info (the student keys), combined with stored consumer info',
  ...onVerification,
  body: subjectSchemas[GENERIC_SUBJECT_TYPE],
  responses: stepResponses,
});

export const submitMarketplaceToken = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/collectMarketplaceToken',
  operationId: 'submitMarketplaceToken',
  summary: 'Submits a marketplace token carrying the personal info',
  ...onVerification,
  body: MarketplaceTokenRequest,
  responses: stepResponses,
});

const trackingIdQuery = z.object({
  trackingId: text({
    description:
      "Ties the verification to an identifier in the client's own systems (at most 256 characters, no " +
      'control characters; empty is the same as none).',
    maxLength: 256,
    schema: { ...plainText(256), allowEmptyValue: true },
    pattern: { source: NO_CONTROL_CHARACTERS, message: NO_CONTROL_MESSAGE },
  }).optional(),
});

/** collect<Type>PersonalInfo of a new verification of the program: both in one request. */
export const startAndSubmitPersonalInfo = (type: SubjectType) =>
  defineEndpoint({
    method: 'post',
    path: `/verification/program/{programId}/step/collect${type}PersonalInfo`,
    operationId: `startAndSubmit${type}PersonalInfo`,
    summary: `Starts a verification of the program and submits its ${type} personal info in one request`,
    description: creationNote,
    tags,
    security: creationSecurity,
    params: z.object({ programId }),
    query: trackingIdQuery,
    ...subjectBody(type),
    responses: { ...stepResponses, ...creationRefused },
  });

export type StartAndSubmitQuery = QueryOf<ReturnType<typeof startAndSubmitPersonalInfo>>;

export const submitMilitaryStatus = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/collectMilitaryStatus',
  operationId: 'submitMilitaryStatus',
  summary: 'Chooses active or inactive military verification',
  ...onVerification,
  body: MilitaryStatusRequest,
  responses: { ...plainStep, ...tooLarge, ...timeout },
});

export const submitSocialSecurityNumber = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/collectSocialSecurityNumber',
  operationId: 'submitSocialSecurityNumber',
  summary: 'Submits the social security number the identity match asked for (never stored)',
  ...onVerification,
  body: SocialSecurityNumberRequest,
  responses: stepResponses,
});

export type MilitaryStatusBody = BodyOf<typeof submitMilitaryStatus>;
export type SocialSecurityNumberBody = BodyOf<typeof submitSocialSecurityNumber>;
export type EmailTokenBody = BodyOf<typeof submitEmailToken>;

export const skipSocialSecurityNumber = defineEndpoint({
  method: 'delete',
  path: '/verification/{verificationId}/step/collectSocialSecurityNumber',
  operationId: 'skipSocialSecurityNumber',
  summary: 'Skips the social security number: the verification moves to docUpload',
  ...onVerification,
  responses: plainStep,
});

export const submitEmailToken = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/emailLoop',
  operationId: 'submitEmailToken',
  summary: 'Completes the email loop with the code mailed to the person',
  ...onVerification,
  body: EmailTokenRequest,
  responses: { ...plainStep, ...tooLarge, '429': limitReached },
});

export const resendEmailToken = defineEndpoint({
  method: 'post',
  path: '/verification/{verificationId}/step/emailLoop/retryEmail',
  operationId: 'resendEmailToken',
  summary: 'Mails a new code (the previous one stops working)',
  ...onVerification,
  responses: {
    '204': { description: 'A new code is on its way' },
    '400': stepRefused,
    '404': noVerification,
    '429': er(
      'Not now: a code was mailed less than a minute ago (errorIds [emailLoopResendTooSoon]), or the ' +
        'verification had its 5 codes (errorIds [maxEmailLoopResendsExceeded])',
    ),
    ...unavailable,
  },
});

export const cancelEmailLoop = defineEndpoint({
  method: 'delete',
  path: '/verification/{verificationId}/step/emailLoop',
  operationId: 'cancelEmailLoop',
  summary: 'Leaves the email loop: the verification moves to docUpload',
  ...onVerification,
  responses: plainStep,
});

export const startSso = defineEndpoint({
  method: 'get',
  path: '/verification/{verificationId}/step/sso',
  operationId: 'startSso',
  summary: "Starts single sign-on: redirects to the organization's OpenID provider or login page",
  description:
    "With the organization's OpenID Connect settings, a sign-on bound to the verification and to this browser " +
    '(a cookie the callback checks) starts at the provider, which returns the browser to /sso/callback and ' +
    'from there to the hosted page: success (verificationMethod SSO) when the organization rule holds, else ' +
    "docUpload. Without them, the organization's catalog login page.",
  ...onVerification,
  responses: {
    '302': {
      description: "To the provider's authorization endpoint, or to the login page",
      headers: {
        Location: { schema: z.string().meta({ format: 'uri' }) },
        'Set-Cookie': {
          description: "With an OpenID sign-on: the sign-on's state, HttpOnly, for the path /sso/callback",
          schema: z.string(),
        },
      },
    },
    '404': er(
      'No such verification (errorIds [noVerification]), or no sign-on configured for its organization',
    ),
    ...unavailable,
  },
});

export const cancelSso = defineEndpoint({
  method: 'delete',
  path: '/verification/{verificationId}/step/sso',
  operationId: 'cancelSso',
  summary: 'Cancels an ongoing sign-on: the verification moves to docUpload',
  ...onVerification,
  responses: plainStep,
});

/** The personal-info steps of each subject type, on both path shapes. */
export const personalInfoSteps = SUBJECT_TYPES.map((type) => ({
  type,
  onVerification: submitPersonalInfo(type),
  onProgram: startAndSubmitPersonalInfo(type),
}));

export const verificationStepEndpoints = [
  ...personalInfoSteps.map((step) => step.onVerification),
  submitGenericPersonalInfo,
  submitMarketplaceToken,
  ...personalInfoSteps.map((step) => step.onProgram),
  submitMilitaryStatus,
  submitSocialSecurityNumber,
  skipSocialSecurityNumber,
  startSso,
  cancelSso,
  submitEmailToken,
  resendEmailToken,
  cancelEmailLoop,
] as const;
