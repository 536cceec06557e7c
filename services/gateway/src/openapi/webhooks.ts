import { ID_HEX, ID_PATTERN } from '@eligo/vocabulary';

/**
 * The outgoing webhook notification (OpenAPI 3.1 `webhooks`): what the notifier service sends to a program's
 * callbackUri (services/notifier: domain/notifications.ts builds the body, adapters/webhook-sender.ts signs and sends
 * it). Examples of receivers: examples/webhook-receiver.
 */

const header = (name: string, description: string, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', ...schema },
});

const verificationId = '0123456789abcdef01234567';

export const webhooks = {
  verificationNotification: {
    post: {
      tags: ['verification'],
      operationId: 'verificationNotification',
      summary: 'Sent by Eligo to the program’s callbackUri when something happened to a verification',
      description:
        'Sent each time a verification of the program succeeds, and for the notifications the program opted in ' +
        'to with notifierEventTypes (DOCUMENT_REJECTED: a review sent the verification back to docUpload; ' +
        'MAX_DOC_UPLOAD_ATTEMPTS: the last allowed review rejected it; EXPIRATION). The body holds ids only: ' +
        'verify the signature, answer 2xx at once, then read GET /verification/{verificationId}/details with ' +
        'the account token (reward code, current step, person info).\n\n' +
        'Signed with Standard Webhooks (https://www.standardwebhooks.com/): webhook-signature is `v1,` + ' +
        'base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded ' +
        'part after `whsec_` of the signingSecret shown once when the webhook was created. Verify the raw ' +
        'body as received, and refuse timestamps far from now (Standard Webhooks libraries allow 5 minutes).\n\n' +
        'Delivery: a 2xx within ELIGO_WEBHOOK_TIMEOUT_MS (15 s) ends it. Anything else (another status, a ' +
        'redirect: never followed, no answer in time) is retried on ELIGO_WEBHOOK_RETRY_SCHEDULE (default ' +
        '0,5s,5m,30m,2h,5h,10h,10h,14h,20h, each +-20%; a Retry-After answer is honoured) with the same ' +
        'webhook-id: deduplicate on it. 410 disables the webhook at once, as does failing without a success ' +
        'for ELIGO_WEBHOOK_DISABLE_AFTER (5 days). Live programs are called over https only. ' +
        'refireWebhooks sends the notifications again as new deliveries (new webhook-id).',
      security: [],
      parameters: [
        header(
          'webhook-id',
          'The delivery’s id, the same on every attempt of one delivery: a receiver that saw it already ' +
            'answers 2xx and does nothing more.',
          { pattern: `^msg_${ID_HEX}$`, examples: ['msg_5f3c0a9e1b2d4c6e8f0a1b2c'] },
        ),
        header('webhook-timestamp', 'When the attempt was signed: whole seconds since the Unix epoch.', {
          pattern: '^[0-9]+$',
          examples: ['1767225600'],
        }),
        header(
          'webhook-signature',
          '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the signing secret ' +
            '(Standard Webhooks: a list separated by spaces; Eligo sends one).',
          { pattern: '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$' },
        ),
        header(
          'X-Eligo-Notifier-Event-Type',
          'The notification’s type; SUCCESS for a success (whose body does not name it).',
          { enum: ['SUCCESS', 'DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'] },
        ),
        header('User-Agent', 'Eligo’s webhook client.', { examples: ['Eligo-Webhooks/1.0'] }),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['verificationId'],
              properties: {
                verificationId: {
                  type: 'string',
                  pattern: ID_PATTERN,
                  description: 'The verification: read its details with the account token.',
                },
                notifierEventType: {
                  type: 'string',
                  enum: ['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'],
                  description:
                    'The opted-in notification this is; absent on a success (the body integrators have always ' +
                    'had).',
                },
              },
            },
            examples: {
              success: { value: { verificationId } },
              expiration: { value: { verificationId, notifierEventType: 'EXPIRATION' } },
            },
          },
        },
      },
      responses: {
        '2XX': {
          description:
            'Received: the delivery is done. Answer before any other work (calling details, your own logic), ' +
            'within 15 s; the answer’s body is not read beyond 64 KiB and never stored.',
        },
        '410': { description: 'Disables the webhook at once (until it is created again); not retried.' },
        default: {
          description: 'Any other status, a redirect or no answer in time: the delivery is retried later.',
        },
      },
    },
  },
} as const;
