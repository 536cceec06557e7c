import { security, unauthorized } from './admin.paths';
import { errorResponse, jsonResponse } from './refs';

const limit = {
  name: 'limit',
  in: 'query',
  description: 'Page size (default 20)',
  schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};
const cursor = {
  name: 'cursor',
  in: 'query',
  description: 'nextCursor of the previous page',
  schema: { type: 'string', maxLength: 1000 },
};
// The gateway's own checks answer ER invalidRequest; the notifier's refusals (a cursor it cannot read, an
// unknown program) come as it words them, so the documented shape is the one both satisfy.
const invalidQuery = errorResponse(
  'A parameter is invalid (errorIds [invalidRequest]), or the notifier cannot read the cursor',
  'SystemErrorMessage',
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
          schema: { type: 'string', pattern: '^[0-9a-f]{24}$' },
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
            schema: { type: 'string', pattern: '^[0-9a-f]{24}$' },
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
