import { subjectTypes } from '../validation/subject-keys';
import { errorResponse, jsonBody, ref } from './refs';
import { plainText } from './schemas/text';
import { subjectSchemaName } from './schemas/verification';
import {
  creationNote,
  creationRefused,
  creationSecurity,
  limitReached,
  noVerification,
  programId,
  unavailable,
  verificationId,
  vr,
} from './verification.paths';

const tags = ['verification'];

const stepOutcome = vr(
  'The next step: success (rewardCode), docUpload, collectSocialSecurityNumber or sso. Read currentStep.',
);
const stepRefused = {
  description:
    'A recoverable error: the same step with errorIds (e.g. invalidEmail, invalidBirthDate), to be ' +
    'submitted again; or the step ended in error (currentStep error, errorIds and systemErrorMessage), also ' +
    'when the body has an unexpected property or a wrong JSON type (errorIds [invalidRequest]; the message ' +
    'names the allowed keys)',
  content: {
    'application/json': {
      // anyOf, not oneOf: a step that ended in error is both a VR and the shorter step error body.
      schema: { anyOf: [ref('schemas', 'VerificationResponse'), ref('schemas', 'VerificationStepError')] },
    },
  },
};
const tooLarge = { '413': ref('responses', 'PayloadTooLarge') };
const timeout = {
  '504': errorResponse('The verification did not finish within 10 seconds', 'SystemErrorMessage'),
};
const stepResponses = {
  '200': stepOutcome,
  '400': stepRefused,
  '404': noVerification,
  ...tooLarge,
  '429': limitReached,
  ...unavailable,
  ...timeout,
};

const jws = {
  schema: {
    type: 'string',
    maxLength: 16384,
    pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$',
    description:
      'A compact JWS whose payload is the subject, signed with the program’s subject token key, with the ' +
      'claims aud, iat, exp and jti of a marketplace token (MarketplaceVerificationRequest).',
  },
};

/** The subject body of a type; DriverLicense may also come as a compact JWS (application/jose). */
function subjectBody(type: string) {
  const body = jsonBody(subjectSchemaName(type));
  return type === 'DriverLicense' ? { ...body, content: { ...body.content, 'application/jose': jws } } : body;
}

const onVerification = (type: string) => ({
  [`/verification/{verificationId}/step/collect${type}PersonalInfo`]: {
    parameters: [verificationId],
    post: {
      tags,
      operationId: `submit${type}PersonalInfo`,
      summary: `Submits the ${type} personal info of a verification`,
      requestBody: subjectBody(type),
      responses: stepResponses,
    },
  },
});

const onProgram = (type: string) => ({
  [`/verification/program/{programId}/step/collect${type}PersonalInfo`]: {
    parameters: [programId],
    post: {
      tags,
      operationId: `startAndSubmit${type}PersonalInfo`,
      summary: `Starts a verification of the program and submits its ${type} personal info in one request`,
      description: creationNote,
      security: creationSecurity,
      parameters: [
        {
          name: 'trackingId',
          in: 'query',
          description:
            "Ties the verification to an identifier in the client's own systems (at most 256 characters, no " +
            'control characters; empty is the same as none).',
          allowEmptyValue: true,
          schema: plainText(256),
        },
      ],
      requestBody: subjectBody(type),
      responses: {
        ...stepResponses,
        ...creationRefused,
        '403': errorResponse(
          'The program has not started or has ended (errorIds [inactiveProgram] or [expiredProgram])',
          'ErrorResponse',
        ),
        '404': ref('responses', 'ProgramNotFound'),
        '409': errorResponse(
          'A live reward-pool program has no codes left (errorIds [noRemainingRewardCodes])',
          'ErrorResponse',
        ),
      },
    },
  },
});

const plainStep = { '200': stepOutcome, '400': stepRefused, '404': noVerification, ...unavailable };

/** The steps of a verification: personal info (both path shapes), military status, SSN, single sign-on. */
export const verificationStepPaths = {
  ...Object.assign({}, ...subjectTypes.map(onVerification)),
  '/verification/{verificationId}/step/collectPersonalInfo': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'submitPersonalInfo',
      summary: 'Submits the generic personal info (the student keys), combined with stored consumer info',
      requestBody: jsonBody(subjectSchemaName('Student')),
      responses: stepResponses,
    },
  },
  '/verification/{verificationId}/step/collectMarketplaceToken': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'submitMarketplaceToken',
      summary: 'Submits a marketplace token carrying the personal info',
      requestBody: jsonBody('MarketplaceTokenRequest'),
      responses: stepResponses,
    },
  },
  ...Object.assign({}, ...subjectTypes.map(onProgram)),
  '/verification/{verificationId}/step/collectMilitaryStatus': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'submitMilitaryStatus',
      summary: 'Chooses active or inactive military verification',
      requestBody: jsonBody('MilitaryStatusRequest'),
      responses: { ...plainStep, ...tooLarge, ...timeout },
    },
  },
  '/verification/{verificationId}/step/collectSocialSecurityNumber': {
    parameters: [verificationId],
    post: {
      tags,
      operationId: 'submitSocialSecurityNumber',
      summary: 'Submits the social security number the identity match asked for (never stored)',
      requestBody: jsonBody('SocialSecurityNumberRequest'),
      responses: stepResponses,
    },
    delete: {
      tags,
      operationId: 'skipSocialSecurityNumber',
      summary: 'Skips the social security number: the verification moves to docUpload',
      responses: plainStep,
    },
  },
  '/verification/{verificationId}/step/sso': {
    parameters: [verificationId],
    get: {
      tags,
      operationId: 'startSso',
      summary: "Starts single sign-on: redirects to the organization's login page",
      responses: {
        '302': {
          description: 'To the login page',
          headers: { Location: { schema: { type: 'string', format: 'uri' } } },
        },
        '404': errorResponse(
          'No such verification (errorIds [noVerification]), or no sign-on configured for its organization',
          'ErrorResponse',
        ),
        ...unavailable,
      },
    },
    delete: {
      tags,
      operationId: 'cancelSso',
      summary: 'Cancels an ongoing sign-on: the verification moves to docUpload',
      responses: plainStep,
    },
  },
} as Record<string, object>;
