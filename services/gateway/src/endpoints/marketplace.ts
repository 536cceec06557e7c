import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { plainText } from '../openapi/schemas/text';
import { defineEndpoint, type BodyOf } from './define';
import { exactlyOneOf, fromStringSchema, patterned } from './schemas';
import { sem, unavailable } from './common';
import { creationNote, creationRefused, creationSecurity, limitReached, tags, vr } from './verification';
import { JWS } from './verification-fields';
import { MARKETPLACE_TOKEN_DESCRIPTION, OTHER_TOKEN_NAME } from './verification-requests';
import { VerificationResponse, VerificationStepError } from './verification-responses';

/**
 * POST /verification/marketplace (the spec lists it, shapes not shown), described once: a verification
 * started from a marketplace partner's token, decided in the same request like the program path shape of the
 * personal-info steps. Its body is refused in the published schema's words, as a step error (a 400 VR).
 */

const token = (description: string) => fromStringSchema(JWS).meta({ description }).optional();

export const MarketplaceVerificationRequest = exactlyOneOf(
  z
    .strictObject({
      programId: patterned(ID_PATTERN).meta({
        description:
          'A program with a subjectTokenKey. Another shape is 400 invalidRequest, an unknown program 404 ' +
          'noProgram.',
      }),
      marketplaceToken: token(MARKETPLACE_TOKEN_DESCRIPTION),
      verificationToken: token(OTHER_TOKEN_NAME),
      trackingId: fromStringSchema(plainText(256))
        .meta({
          description:
            "Ties the verification to an identifier in the client's own systems (at most 256 characters, " +
            'without control characters).',
        })
        .optional(),
    })
    .meta({
      description:
        'The program and the marketplace token, as marketplaceToken or as verificationToken (exactly one).',
    }),
  ['marketplaceToken', 'verificationToken'],
).meta({ id: 'MarketplaceVerificationRequest' });

export const startMarketplaceVerification = defineEndpoint({
  method: 'post',
  path: '/verification/marketplace',
  operationId: 'startMarketplaceVerification',
  summary: "Starts a verification from a marketplace partner's token and decides it in one request",
  description:
    'The token is a compact JWS signed with the program’s subjectTokenKey whose payload is the personal ' +
    'info of the program’s first step (e.g. the Student keys for a student program), as ' +
    'POST /verification/{verificationId}/step/collectMarketplaceToken takes it. Equivalent to ' +
    'POST /verification followed by that step, in one request; a program that starts on ' +
    `collectMilitaryStatus cannot be started this way (400 invalidStep). ${creationNote}`,
  tags,
  security: creationSecurity,
  body: MarketplaceVerificationRequest,
  responses: {
    '200': vr('The outcome: success (rewardCode), docUpload (its submissionUrl) or sso. Read currentStep.'),
    '400': {
      description:
        'A recoverable error of the new verification (its first step with errorIds, e.g. ' +
        'invalidBirthDate, to be submitted again at submissionUrl); or nothing was started (currentStep ' +
        'error, errorIds [invalidRequest] with a systemErrorMessage naming the problem): the body does ' +
        'not match MarketplaceVerificationRequest, the token does not verify with the program’s key, ' +
        'its claims are missing or wrong (expired, for another program) or its jti was already used, ' +
        'its payload has a key the form does not take, or the program takes no subject tokens; ' +
        'errorIds [invalidStep] for a program that starts on collectMilitaryStatus',
      body: z.xor([VerificationResponse, VerificationStepError]),
    },
    ...creationRefused,
    '413': { shared: 'PayloadTooLarge' },
    '429': limitReached,
    ...unavailable,
    '504': sem('The verification did not finish in time'),
  },
});

export type MarketplaceBody = BodyOf<typeof startMarketplaceVerification>;

export const marketplaceEndpoints = [startMarketplaceVerification] as const;
