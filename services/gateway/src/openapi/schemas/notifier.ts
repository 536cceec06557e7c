import { ID_PATTERN } from '@eligo/vocabulary';

/** The notifier's logs in the admin API: webhook deliveries with their attempts, and send-link messages. */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const instant = (description: string) => ({
  type: ['string', 'null'],
  format: 'date-time',
  description: `${description} ISO 8601.`,
});
const nullableString = (description: string) => ({ type: ['string', 'null'], description });
const nextCursor = {
  type: ['string', 'null'],
  description: 'Pass as cursor for the next page; null on the last page.',
};

export const notifierSchemas = {
  WebhookEndpoint: {
    type: 'object',
    description: "The delivery health of the program's webhook as the notifier sees it.",
    required: ['status', 'failingSince', 'disabledAt', 'disabledReason'],
    properties: {
      status: {
        type: 'string',
        enum: ['NONE', 'ACTIVE', 'DISABLED'],
        description:
          'NONE: no webhook is configured. DISABLED: after a 410 or persistent failure; configuring the ' +
          'webhook again enables it.',
      },
      failingSince: instant('Set while deliveries fail without a success in between.'),
      disabledAt: instant('When the endpoint was disabled.'),
      disabledReason: {
        type: ['string', 'null'],
        description: 'GONE (the receiver answered 410) or PERSISTENT_FAILURE; null unless disabled.',
        examples: ['GONE'],
      },
    },
  },
  WebhookDeliveryAttempt: {
    type: 'object',
    required: ['attempt', 'startedAt', 'statusCode', 'latencyMs', 'error'],
    properties: {
      attempt: { type: 'integer', minimum: 1, description: '1 for the first attempt.' },
      startedAt: instant('When the attempt started.'),
      statusCode: {
        type: ['integer', 'null'],
        description:
          "The receiver's status; null when there was no answer (refused address, connection " +
          'error, timeout).',
      },
      latencyMs: { type: 'integer', minimum: 0 },
      error: nullableString(
        "Why the attempt failed, in Eligo's words (never the receiver's body); null on success.",
      ),
    },
  },
  WebhookDelivery: {
    type: 'object',
    description: 'One logical delivery: its webhookId is the webhook-id header of every attempt.',
    required: [
      'webhookId',
      'verificationId',
      'notifierEventType',
      'status',
      'created',
      'nextAttemptAt',
      'deliveredAt',
      'refireOf',
      'attempts',
    ],
    properties: {
      webhookId: { type: 'string' },
      verificationId: { type: 'string' },
      notifierEventType: {
        type: 'string',
        enum: ['SUCCESS', 'DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'],
      },
      status: {
        type: 'string',
        enum: ['PENDING', 'DELIVERED', 'FAILED', 'CANCELLED'],
        description:
          'PENDING: waiting for its next attempt (nextAttemptAt). DELIVERED: a receiver answered 2xx. FAILED: ' +
          'every attempt of the schedule failed, or the endpoint was disabled. CANCELLED: the webhook was ' +
          'removed before the delivery could be made.',
      },
      created: instant('When the delivery was made.'),
      nextAttemptAt: instant('Set while PENDING.'),
      deliveredAt: instant('Set once DELIVERED.'),
      refireOf: nullableString(
        'The webhookId of the delivery this one resends (refireWebhooks); null otherwise.',
      ),
      attempts: { type: 'array', description: 'Oldest first.', items: ref('WebhookDeliveryAttempt') },
    },
  },
  WebhookDeliveryPage: {
    type: 'object',
    required: ['webhook', 'deliveries', 'nextCursor'],
    properties: {
      webhook: ref('WebhookEndpoint'),
      deliveries: { type: 'array', description: 'Newest first.', items: ref('WebhookDelivery') },
      nextCursor,
    },
  },
  SendLinkMessage: {
    type: 'object',
    description: 'One send-link message. The recipient is personal data, shown to operators only.',
    required: [
      'messageId',
      'requestId',
      'programId',
      'channel',
      'recipient',
      'subject',
      'body',
      'status',
      'created',
      'sentAt',
      'error',
    ],
    properties: {
      messageId: { type: 'string' },
      requestId: { type: 'string', description: 'The send-link request the message was made for.' },
      programId: { type: 'string', pattern: ID_PATTERN },
      channel: { type: 'string', enum: ['EMAIL', 'SMS'] },
      recipient: { type: 'string', description: 'The email address or the E.164 phone number.' },
      subject: nullableString('The subject of an email; null for an SMS.'),
      body: { type: 'string', description: 'The text sent (or kept), the verification link included.' },
      status: {
        type: 'string',
        enum: ['PENDING', 'SENT', 'CAPTURED', 'FAILED'],
        description:
          'PENDING: being sent, or to be retried. SENT: accepted by the SMTP server. CAPTURED: kept by the ' +
          'local capture (no SMTP server configured, or an SMS: no SMS gateway is configured).',
      },
      created: instant('When the message was made.'),
      sentAt: instant('When the SMTP server accepted it.'),
      error: nullableString("Why sending failed (the SMTP server's reply code and Eligo's words)."),
    },
  },
  SendLinkMessagePage: {
    type: 'object',
    required: ['messages', 'nextCursor'],
    properties: {
      messages: { type: 'array', description: 'Newest first.', items: ref('SendLinkMessage') },
      nextCursor,
    },
  },
} as const;
