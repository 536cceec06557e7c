import { z } from 'zod';
import { webhookNotificationNames } from '../mapping/webhook-notification';
import {
  httpUrl,
  MAX_LIMIT_DAYS,
  MAX_LIMIT_QUANTITY,
  MAX_URL_LENGTH,
  PATH_AND_QUERY,
  URL_MESSAGE,
} from './program-input-rules';
import { plainText, trimmedName } from '../openapi/schemas/text';
import { accountToken, er, hexIdParameter, withBody } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse } from './define';
import { exactlyOneOf, fromStringSchema, uniqueItems } from './schemas';
import { boundedInteger } from './schemas-numbers';

/**
 * REST v2 program administration with an account token (the spec's table of that name), the endpoints under
 * /program/{programId}: described once. The routes (routes/program.ts) register them by these paths and
 * check bodies with these schemas (400 ER invalidRequest naming the field); the document states them from
 * here. Every call names the caller's account: a program of another account is 404 noProgram.
 */

/** The webhook's URL; also the webhook setting of the admin API's programs (WebhookInput refers to it). */
export const CallbackUri = fromStringSchema(
  httpUrl(PATH_AND_QUERY, `${URL_MESSAGE}, without a fragment (#)`),
).meta({
  id: 'CallbackUri',
  description:
    'Called with {verificationId} each time a verification of the program succeeds, and with ' +
    '{verificationId, notifierEventType} for each notification the program opted in to (notifierEventTypes). ' +
    'An absolute http or https URL (RFC 3986 characters; percent-encode others), without user name, ' +
    'password or fragment. A host that is an IP address must be public: a loopback, private, link-local, ' +
    'CGNAT, unique-local, IPv4-mapped or other non-public address is refused with 400 invalidRequest ' +
    '(the message names the range), unless the deployment allows its range (ELIGO_WEBHOOK_ALLOW_CIDRS). ' +
    'A host name is not resolved when the webhook is set; the address connected to is checked at every ' +
    'delivery.',
});

export const NotifierEventTypes = uniqueItems(
  z.array(z.enum(webhookNotificationNames)).max(webhookNotificationNames.length),
).meta({
  id: 'NotifierEventTypes',
  description:
    'Notifications besides success the webhook is also called for (success is always sent): ' +
    'DOCUMENT_REJECTED (a review rejected the documents; the verification is back at docUpload), ' +
    'MAX_DOC_UPLOAD_ATTEMPTS (the last allowed review rejected them; the verification ended in ' +
    'docReviewLimitExceeded), EXPIRATION (an unfinished verification expired). Each delivery names its ' +
    'type in the X-Eligo-Notifier-Event-Type header. Left out: none.',
});

export const VerificationLimitRequest = z
  .strictObject({
    quantity: boundedInteger(1, MAX_LIMIT_QUANTITY).meta({
      description: `Verifications a person may complete (1 to ${MAX_LIMIT_QUANTITY})...`,
    }),
    days: boundedInteger(1, MAX_LIMIT_DAYS).meta({
      description: `...within this many days (1 to ${MAX_LIMIT_DAYS}).`,
    }),
  })
  .meta({ id: 'VerificationLimitRequest' });

export const WebhookRequest = z
  .strictObject({ callbackUri: CallbackUri, notifierEventTypes: NotifierEventTypes.optional() })
  .meta({ id: 'WebhookRequest' });

export const WebhookDeleteRequest = z
  .strictObject({ callbackUri: fromStringSchema(plainText(MAX_URL_LENGTH)).optional() })
  .meta({
    id: 'WebhookDeleteRequest',
    description: 'Optional; callbackUri is accepted for compatibility and ignored.',
  });

export const SendLinkRequest = exactlyOneOf(
  z
    .strictObject({
      email: fromStringSchema(trimmedName(320))
        .meta({ description: 'Checked by the service; a malformed one is refused with 400.' })
        .optional(),
      phoneNumber: fromStringSchema(trimmedName(32))
        .meta({
          description:
            'E.164, e.g. +14155550100; checked by the service, a malformed one is refused with 400.',
        })
        .optional(),
      trackingId: fromStringSchema(plainText(100))
        .meta({
          description:
            'Ties the verification that follows to an identifier in your own systems (at most 100 ' +
            'characters, without control characters).',
        })
        .optional(),
      externalUserId: fromStringSchema(plainText(256, 1))
        .meta({
          description:
            'The person’s identifier in your own systems (1 to 256 characters, without control ' +
            'characters): accepted for compatibility with other clients of the API, and neither stored ' +
            'nor used.',
        })
        .optional(),
    })
    .meta({ description: 'Exactly one of email and phoneNumber.' }),
  ['email', 'phoneNumber'],
).meta({ id: 'SendLinkRequest' });

/** What every operation here is: of the program tag, with an account token, on a program of the account. */
const ofProgram = {
  tags: ['program'],
  security: accountToken,
  params: z.object({ programId: hexIdParameter('A program of the calling account') }),
} as const;
const common = {
  '401': { shared: 'Unauthorized' },
  '404': { shared: 'ProgramNotFound' },
  '503': { shared: 'ServiceUnavailable' },
} satisfies Record<string, EndpointResponse>;
const configuration = { shared: 'ProgramConfiguration' } satisfies EndpointResponse;

export const getProgramTheme = defineEndpoint({
  method: 'get',
  path: '/program/{programId}/theme',
  operationId: 'getProgramTheme',
  summary: "The program's theme: its messages over the default ones, and its CSS",
  ...ofProgram,
  responses: { '200': { description: 'The theme', body: 'Theme' }, ...common },
});

export const createVerificationLimit = defineEndpoint({
  method: 'post',
  path: '/program/{programId}/verificationLimit',
  operationId: 'createVerificationLimit',
  summary: 'Limits how many verifications a person may complete within a number of days',
  ...ofProgram,
  body: VerificationLimitRequest,
  responses: {
    '200': configuration,
    ...withBody,
    ...common,
    '409': er('The program already has a limit (errorIds [verificationLimitAlreadyExists]); delete it first'),
  },
});

export const deleteVerificationLimit = defineEndpoint({
  method: 'delete',
  path: '/program/{programId}/verificationLimit',
  operationId: 'deleteVerificationLimit',
  summary: "Removes the program's verification limit",
  ...ofProgram,
  responses: { '200': configuration, ...common },
});

export const createWebhook = defineEndpoint({
  method: 'post',
  path: '/program/{programId}/webhook',
  operationId: 'createWebhook',
  summary: 'Sets the webhook called when a verification of the program succeeds',
  description:
    'notifierEventTypes opts in to further notifications (DOCUMENT_REJECTED, MAX_DOC_UPLOAD_ATTEMPTS, ' +
    'EXPIRATION); an unknown one is refused with 400. The reply carries webhook.signingSecret, the ' +
    'HMAC-SHA256 key of the signature, only this once. A webhook cannot be changed while one exists: ' +
    'delete it, then create the new one.',
  ...ofProgram,
  body: WebhookRequest,
  responses: {
    '200': configuration,
    ...withBody,
    ...common,
    '409': er('The program already has a webhook (errorIds [webhookAlreadyExists]); delete it first'),
  },
});

export const deleteWebhook = defineEndpoint({
  method: 'delete',
  path: '/program/{programId}/webhook',
  operationId: 'deleteWebhook',
  summary: "Removes the program's webhook",
  ...ofProgram,
  // The spec's walkthrough sends {callbackUri} with the DELETE; it is accepted and has no effect.
  body: WebhookDeleteRequest,
  bodyOptional: true,
  responses: { '200': configuration, ...withBody, ...common },
});

export const sendLink = defineEndpoint({
  method: 'post',
  path: '/program/{programId}/sendLink',
  operationId: 'sendLink',
  summary: 'Sends the verification link of the program to an email address or a phone number',
  ...ofProgram,
  body: SendLinkRequest,
  responses: { '204': { description: 'The link will be sent' }, ...withBody, ...common },
});

export type VerificationLimitBody = BodyOf<typeof createVerificationLimit>;
export type WebhookBody = BodyOf<typeof createWebhook>;
export type SendLinkBody = BodyOf<typeof sendLink>;

export const programEndpoints = [
  getProgramTheme,
  createVerificationLimit,
  deleteVerificationLimit,
  createWebhook,
  deleteWebhook,
  sendLink,
] as const;
