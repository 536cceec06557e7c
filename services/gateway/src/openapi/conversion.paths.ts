import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';
import { plainText } from './schemas/text';

const tags = ['conversion'];
// The token is optional: the empty requirement lets a request without one through.
const security = [{}, { bearerToken: [] }, { oauthClientCredentials: [] }];
const responses = (notFound: string) => ({
  '200': jsonResponse('The conversion was recorded', 'ConversionResponse'),
  '400': errorResponse(
    'The body is refused: systemErrorMessage "Invalid amount" for an amount that is missing, not a number, ' +
      'negative or not finite; otherwise it names the field (also malformed JSON, an unknown currency)',
    'SystemErrorMessage',
  ),
  '401': errorResponse(
    'An Authorization header was sent, and its token is not a valid account token',
    'SystemErrorMessage',
  ),
  '404': errorResponse(notFound, 'SystemErrorMessage'),
  '413': errorResponse('Request body larger than the configured limit', 'SystemErrorMessage'),
  '503': ref('responses', 'ServiceUnavailable'),
});
const description =
  'A token is optional. Without one, the path is the capability; with one, it must be a valid account ' +
  'token, and the conversion is checked against its account.';

/** Conversion tracking (the spec's "Reports and conversions" table). Every refusal is SEM, as the spec says. */
export const conversionPaths = {
  '/conversion/verification/{verificationId}': {
    parameters: [idParameter('verificationId', 'The verification')],
    post: {
      tags,
      operationId: 'recordConversionByVerification',
      summary: 'Records a conversion (e.g. a purchase) against a verification',
      description,
      security,
      requestBody: jsonBody('ConversionRequest'),
      responses: responses('No such verification (also for a malformed verificationId)'),
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
      description,
      security,
      requestBody: jsonBody('ConversionRequest'),
      responses: responses('No such account, or no verification with this tracking id'),
    },
  },
} as const;
