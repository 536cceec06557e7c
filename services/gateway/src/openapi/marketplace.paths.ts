import { ID_PATTERN } from '@eligo/vocabulary';
import { errorResponse, jsonBody, ref } from './refs';
import { plainText } from './schemas/text';
import { marketplaceToken } from './schemas/verification';
import {
  creationNote,
  creationRefused,
  creationSecurity,
  limitReached,
  unavailable,
  vr,
} from './verification.paths';

/**
 * POST /verification/marketplace (the spec lists it, shapes not shown): a verification started from a
 * marketplace partner's token, decided in the same request like the program path shape of the personal-info
 * steps.
 */
export const marketplaceSchemas = {
  MarketplaceVerificationRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId'],
    description:
      'The program and the marketplace token, as marketplaceToken or as verificationToken (exactly one).',
    oneOf: [{ required: ['marketplaceToken'] }, { required: ['verificationToken'] }],
    properties: {
      programId: {
        type: 'string',
        pattern: ID_PATTERN,
        description:
          'A program with a subjectTokenKey. Another shape is 400 invalidRequest, an unknown program 404 ' +
          'noProgram.',
      },
      marketplaceToken,
      verificationToken: { ...marketplaceToken, description: 'Another name of marketplaceToken.' },
      trackingId: {
        ...plainText(256),
        description:
          "Ties the verification to an identifier in the client's own systems (at most 256 characters, " +
          'without control characters).',
      },
    },
  },
} as const;

export const marketplacePaths = {
  '/verification/marketplace': {
    post: {
      tags: ['verification'],
      operationId: 'startMarketplaceVerification',
      summary: "Starts a verification from a marketplace partner's token and decides it in one request",
      description:
        'The token is a compact JWS signed with the program’s subjectTokenKey whose payload is the personal ' +
        'info of the program’s first step (e.g. the Student keys for a student program), as ' +
        'POST /verification/{verificationId}/step/collectMarketplaceToken takes it. Equivalent to ' +
        'POST /verification followed by that step, in one request; a program that starts on ' +
        `collectMilitaryStatus cannot be started this way (400 invalidStep). ${creationNote}`,
      security: creationSecurity,
      requestBody: jsonBody('MarketplaceVerificationRequest'),
      responses: {
        '200': vr(
          'The outcome: success (rewardCode), docUpload (its submissionUrl) or sso. Read currentStep.',
        ),
        '400': {
          description:
            'A recoverable error of the new verification (its first step with errorIds, e.g. ' +
            'invalidBirthDate, to be submitted again at submissionUrl); or nothing was started (currentStep ' +
            'error, errorIds [invalidRequest] with a systemErrorMessage naming the problem): the body does ' +
            'not match MarketplaceVerificationRequest, the token does not verify with the program’s key, ' +
            'its claims are missing or wrong (expired, for another program) or its jti was already used, ' +
            'its payload has a key the form does not take, or the program takes no subject tokens; ' +
            'errorIds [invalidStep] for a program that starts on collectMilitaryStatus',
          content: {
            'application/json': {
              schema: {
                oneOf: [ref('schemas', 'VerificationResponse'), ref('schemas', 'VerificationStepError')],
              },
            },
          },
        },
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
        '413': ref('responses', 'PayloadTooLarge'),
        '429': limitReached,
        ...unavailable,
        '504': errorResponse('The verification did not finish in time', 'SystemErrorMessage'),
      },
    },
  },
} as const;
