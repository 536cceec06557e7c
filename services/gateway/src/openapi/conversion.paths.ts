import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';
import { plainText } from './schemas/text';

const tags = ['conversion'];
const bearer = [{ bearerToken: [] }, { oauthClientCredentials: [] }];
const badBody = errorResponse(
  'The body is refused: systemErrorMessage "Invalid amount" for an amount that is missing, not a number, ' +
    'negative or not finite; otherwise it names the field (also malformed JSON, an unknown currency)',
  'SystemErrorMessage',
);
const common = {
  '200': jsonResponse('The conversion was recorded', 'ConversionResponse'),
  '400': badBody,
  '413': errorResponse('Request body larger than the configured limit', 'SystemErrorMessage'),
  '503': ref('responses', 'ServiceUnavailable'),
};

/** Conversion tracking (the spec's "Reports and conversions" table). Every refusal is SEM, as the spec says. */
export const conversionPaths = {
  '/conversion/verification/{verificationId}': {
    parameters: [idParameter('verificationId', 'The verification')],
    post: {
      tags,
      operationId: 'recordConversionByVerification',
      summary: 'Records a conversion (e.g. a purchase) against a verification',
      description:
        'A token is optional: without one, the verification id is the capability; with one, it must be a ' +
        "valid account token, and the conversion is checked against its account (another account's " +
        'verification is 404).',
      // The empty requirement lets a request without a token through.
      security: [{}, ...bearer],
      requestBody: jsonBody('ConversionRequest'),
      responses: {
        ...common,
        '401': errorResponse(
          'An Authorization header was sent, and its token is not a valid account token',
          'SystemErrorMessage',
        ),
        '404': errorResponse(
          'No such verification (also for a malformed verificationId)',
          'SystemErrorMessage',
        ),
      },
    },
  },
  '/conversion/account/{accountId}/trackingId/{trackingId}': {
    parameters: [
      idParameter('accountId', 'The account (shown with the access tokens)'),
      {
        name: 'trackingId',
        in: 'path',
        required: true,
        description:
          'The tracking id a verification of the account was started with (1 to 256 characters, no control ' +
          'characters).',
        schema: plainText(256, 1),
      },
    ],
    post: {
      tags,
      operationId: 'recordConversionByTrackingId',
      summary: 'Records a conversion against the most recent verification with this tracking id',
      description:
        "The account's own token is required (static or OAuth): the tracking id is yours (often an order " +
        'number), so the path alone must not let anyone record conversions or learn which tracking ids exist.',
      security: bearer,
      requestBody: jsonBody('ConversionRequest'),
      responses: {
        ...common,
        '401': errorResponse(
          'No token, a token that is not a valid account token, or a token of another account than ' +
            'accountId: the same answer whether or not that account exists (`WWW-Authenticate: Bearer`)',
          'SystemErrorMessage',
        ),
        '404': errorResponse(
          'No verification of the account with this tracking id (also for a tracking id longer than 256 ' +
            'characters or with control characters)',
          'SystemErrorMessage',
        ),
      },
    },
  },
} as const;
