import { ID_PATTERN } from '@eligo/vocabulary';
import { security, unauthorized } from './admin.paths';
import { errorResponse, jsonResponse } from './refs';
import { plainText } from './schemas/text';

const limit = {
  name: 'limit',
  in: 'query',
  description: 'Page size (default 20)',
  schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};
const cursor = {
  name: 'cursor',
  in: 'query',
  description: 'nextCursor of the previous page, as it came (opaque); left out for the first page',
  schema: plainText(1000, 1),
};
// Every admin 400 is ER invalidRequest, the notifier's own refusals included.
const invalidQuery = errorResponse(
  'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
    'a value that does not match its schema, or a cursor that is not one the notifier gave (a cursor is ' +
    'opaque: only a nextCursor reads back) (errorIds [invalidRequest])',
  'ErrorResponse',
);

/** The notifier's logs under /rest/admin/v1 (operator token): webhook deliveries and send-link messages. */
export function adminNotifierPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/programs/{programId}/webhook/deliveries': {
      servers,
      parameters: [
        {
          name: 'programId',
          in: 'path',
          required: true,
          description:
            'A program of any account (24 lowercase hex characters; any other value is answered 404, ' +
            'as for the other admin program routes)',
          schema: { type: 'string', pattern: ID_PATTERN },
        },
      ],
      get: {
        tags: ['admin'],
        operationId: 'adminListWebhookDeliveries',
        summary: "The program's webhook health and its deliveries, newest first, each with its attempts",
        description:
          'Every notification sent to the webhook (success and the opted-in notifierEventTypes), refires ' +
          'included, one page at a time.',
        security,
        parameters: [limit, cursor],
        responses: {
          '200': jsonResponse('The webhook and one page of its deliveries', 'WebhookDeliveryPage'),
          '400': invalidQuery,
          ...unauthorized,
          '404': errorResponse('No such program', 'SystemErrorMessage'),
        },
      },
    },
    '/messages': {
      servers,
      get: {
        tags: ['admin'],
        operationId: 'adminListMessages',
        summary: 'Send-link messages, newest first',
        description:
          'The messages sent by SMTP and those kept by the local capture (no SMTP server configured, or an ' +
          'SMS), recipient and body included (`Cache-Control: no-store`).',
        security,
        parameters: [
          limit,
          cursor,
          {
            name: 'requestId',
            in: 'query',
            description: 'Only the messages of this send-link request (default: all)',
            schema: { type: 'string', pattern: ID_PATTERN },
          },
        ],
        responses: {
          '200': jsonResponse('One page of messages', 'SendLinkMessagePage'),
          '400': invalidQuery,
          ...unauthorized,
        },
      },
    },
  };
}
