import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er, sem } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { hexId, integer } from './query';
import { integerValue } from './schemas-numbers';

/**
 * The notifier's logs under /rest/admin/v1 (operator token), described once: webhook deliveries with their
 * attempts (and the resend of one), and the messages (send-link and email-loop). The routes are
 * routes/admin/notifier.ts, the mapping mapping/notifier.ts.
 */
const instant = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ format: 'date-time', description: `${description} ISO 8601.` });
const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as cursor for the next page; null on the last page.' });

export const WebhookEndpoint = z
  .object({
    status: z.enum(['NONE', 'ACTIVE', 'DISABLED']).meta({
      description:
        'NONE: no webhook is configured. DISABLED: after a 410 or persistent failure; configuring the ' +
        'webhook again enables it.',
    }),
    failingSince: instant('Set while deliveries fail without a success in between.'),
    disabledAt: instant('When the endpoint was disabled.'),
    disabledReason: z
      .string()
      .nullable()
      .meta({
        description: 'GONE (the receiver answered 410) or PERSISTENT_FAILURE; null unless disabled.',
        examples: ['GONE'],
      }),
  })
  .meta({
    id: 'WebhookEndpoint',
    description: "The delivery health of the program's webhook as the notifier sees it.",
  });

export const WebhookDeliveryAttempt = z
  .object({
    attempt: integerValue().min(1).meta({ description: '1 for the first attempt.' }),
    startedAt: instant('When the attempt started.'),
    statusCode: integerValue()
      .nullable()
      .meta({
        description:
          "The receiver's status; null when there was no answer (refused address, connection " +
          'error, timeout).',
      }),
    latencyMs: integerValue().min(0),
    error: z.string().nullable().meta({
      description: "Why the attempt failed, in Eligo's words (never the receiver's body); null on success.",
    }),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const WebhookDelivery = z
  .object({
    webhookId: z.string(),
    verificationId: z.string(),
    notifierEventType: z.enum(['SUCCESS', 'DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION']),
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED', 'CANCELLED']).meta({
      description:
        'PENDING: waiting for its next attempt (nextAttemptAt). DELIVERED: a receiver answered 2xx. FAILED: ' +
        'every attempt of the schedule failed, or the endpoint was disabled. CANCELLED: the webhook was ' +
        'removed before the delivery could be made.',
    }),
    created: instant('When the delivery was made.'),
    nextAttemptAt: instant('Set while PENDING.'),
    deliveredAt: instant('Set once DELIVERED.'),
    refireOf: z.string().nullable().meta({
      description:
        'The webhookId of the delivery this one resends (refireWebhooks, or a resend by staff); null otherwise.',
    }),
    attempts: z.array(WebhookDeliveryAttempt).meta({ description: 'Oldest first.' }),
  })
  .meta({
    id: 'WebhookDelivery',
    description: 'One logical delivery: its webhookId is the webhook-id header of every attempt.',
  });

export const WebhookDeliveryPage = z
  .object({
    webhook: WebhookEndpoint,
    deliveries: z.array(WebhookDelivery).meta({ description: 'Newest first.' }),
    nextCursor,
  })
  .meta({ id: 'WebhookDeliveryPage' });

export const SendLinkMessage = z
  .object({
    messageId: z.string(),
    kind: z.enum(['SEND_LINK', 'EMAIL_LOOP']).meta({
      description:
        "SEND_LINK: a program's verification link, sent on request. EMAIL_LOOP: a verification's one-time " +
        'email-loop code (a test-mode code is CAPTURED, never mailed).',
    }),
    requestId: z.string().meta({
      description:
        'The send-link request the message was made for; for an EMAIL_LOOP message, the send of its code ' +
        '(one message per code mailed).',
    }),
    programId: z.string().regex(new RegExp(ID_PATTERN)),
    verificationId: z
      .string()
      .regex(new RegExp(ID_PATTERN))
      .nullable()
      .meta({ description: 'The verification of an EMAIL_LOOP message; null for a SEND_LINK message.' }),
    channel: z.enum(['EMAIL', 'SMS']),
    recipient: z.string().meta({ description: 'The email address or the E.164 phone number.' }),
    subject: z.string().nullable().meta({ description: 'The subject of an email; null for an SMS.' }),
    body: z.string().meta({
      description:
        'The text sent (or kept): the verification link, or the one-time code with its link (stored ' +
        'encrypted, shown decrypted here).',
    }),
    status: z.enum(['PENDING', 'SENT', 'CAPTURED', 'FAILED']).meta({
      description:
        'PENDING: being sent, or to be retried. SENT: accepted by the SMTP server. CAPTURED: kept by the ' +
        'local capture (no SMTP server configured, or an SMS: no SMS gateway is configured).',
    }),
    created: instant('When the message was made.'),
    sentAt: instant('When the SMTP server accepted it.'),
    error: z.string().nullable().meta({
      description: "Why sending failed (the SMTP server's reply code and Eligo's words).",
    }),
  })
  .meta({
    id: 'SendLinkMessage',
    description:
      'One message: a send-link message or an email-loop code. The recipient is personal data and a code ' +
      'is a credential, shown to operators only.',
  });

export const SendLinkMessagePage = z
  .object({
    messages: z.array(SendLinkMessage).meta({ description: 'Newest first.' }),
    nextCursor,
  })
  .meta({ id: 'SendLinkMessagePage' });

export type WebhookEndpointJson = z.input<typeof WebhookEndpoint>;
export type WebhookDeliveryJson = z.input<typeof WebhookDelivery>;
export type WebhookDeliveryPageJson = z.input<typeof WebhookDeliveryPage>;
export type MessageJson = z.input<typeof SendLinkMessage>;
export type MessagePageJson = z.input<typeof SendLinkMessagePage>;

const limit = integer({ description: 'Page size (default 20)', min: 1, max: 100, fallback: 20 }).optional();
const cursor = pageCursor(
  'nextCursor of the previous page, as it came (opaque); left out for the first page',
).optional();
// Every admin 400 is ER invalidRequest, the notifier's own refusals included.
const invalidQuery = er(
  'A query parameter the operation does not have, an empty value (leave the parameter out instead), ' +
    'a value that does not match its schema, or a cursor that is not one the notifier gave (a cursor is ' +
    'opaque: only a nextCursor reads back) (errorIds [invalidRequest])',
);

export const listWebhookDeliveries = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/programs/{programId}/webhook/deliveries',
  operationId: 'adminListWebhookDeliveries',
  summary: "The program's webhook health and its deliveries, newest first, each with its attempts",
  description:
    'Every notification sent to the webhook (success and the opted-in notifierEventTypes), refires ' +
    'included, one page at a time.',
  params: z.object({
    programId: z
      .string()
      .regex(new RegExp(ID_PATTERN))
      .meta({
        description:
          'A program of any account (24 lowercase hex characters; any other value is answered 404, ' +
          'as for the other admin program routes)',
      }),
  }),
  strictQuery: true,
  query: z.object({
    limit,
    cursor,
    verificationId: hexId({
      description: 'Only the deliveries made for this verification (default: all); send it with every page',
    }).optional(),
  }),
  responses: {
    '200': { description: 'The webhook and one page of its deliveries', body: WebhookDeliveryPage },
    '400': invalidQuery,
    ...unauthorized,
    '404': sem('No such program'),
  },
});

/** The path's webhookId: what the notifier gives (msg_ and 24 lowercase hex characters). */
export const DELIVERY_ID_PATTERN = '^msg_[0-9a-f]{24}$';

export const resendWebhookDelivery = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/programs/{programId}/webhook/deliveries/{deliveryId}/resend',
  operationId: 'adminResendWebhookDelivery',
  summary: 'Send a delivery of the program again',
  description:
    'For support. A new delivery is queued at once: the same body, its own webhookId (a receiver that ' +
    'deduplicates by webhook-id does not drop it) and refireOf naming the delivery it repeats, sent to the ' +
    "webhook's current URL, signed with its current secret, and retried on the whole schedule like any " +
    'delivery. The delivery asked for stays in the log as it was. Any delivery that has ended may be sent ' +
    'again: FAILED and CANCELLED, and DELIVERED too (a receiver that lost it). Answers the new delivery as the ' +
    'log lists it (PENDING, no attempts yet).',
  params: z.object({
    programId: z
      .string()
      .regex(new RegExp(ID_PATTERN))
      .meta({
        description:
          'A program of any account (24 lowercase hex characters; any other value is answered 404, ' +
          'as for the other admin program routes)',
      }),
    deliveryId: z.string().regex(new RegExp(DELIVERY_ID_PATTERN)).meta({
      description: 'The webhookId of the delivery, as the log lists it (any other value is answered 404)',
    }),
  }),
  responses: {
    '202': { description: 'The new delivery, queued', body: WebhookDelivery },
    ...unauthorized,
    '404': sem('No such program, or no such delivery of it'),
    '409': er(
      'Nothing was sent: the delivery, or an earlier resend of it, is still PENDING (errorIds ' +
        '[deliveryPending]: its attempts go on); the program has no webhook now (noWebhook); it no longer ' +
        'takes this notifierEventType (notOptedIn); or the endpoint is disabled (webhookDisabled: configuring ' +
        'the webhook again or rotating its secret enables it)',
    ),
  },
});

export const listMessages = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/messages',
  operationId: 'adminListMessages',
  summary: 'Send-link messages and email-loop codes, newest first',
  description:
    'The messages sent by SMTP and those kept by the local capture (no SMTP server configured, an SMS, or ' +
    'the code of a test-mode verification), recipient and body included (`Cache-Control: no-store`).',
  strictQuery: true,
  query: z.object({
    limit,
    cursor,
    requestId: hexId({
      description: 'Only the messages of this send-link request (default: all)',
    }).optional(),
    verificationId: hexId({
      description:
        'Only the email-loop messages of this verification (default: all); send it with every page',
    }).optional(),
  }),
  responses: {
    '200': { description: 'One page of messages', body: SendLinkMessagePage },
    '400': invalidQuery,
    ...unauthorized,
  },
});

export type DeliveryListQuery = QueryOf<typeof listWebhookDeliveries>;
export type MessageListQuery = QueryOf<typeof listMessages>;

export const adminNotifierEndpoints = [listWebhookDeliveries, resendWebhookDelivery, listMessages] as const;
