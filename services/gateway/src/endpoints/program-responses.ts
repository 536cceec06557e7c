import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { webhookNotificationNames } from '../mapping/webhook-notification';
import { stringMap } from './schemas-maps';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * What the program endpoints answer, REST v2's (endpoints/program.ts) and the admin API's: the program
 * configuration and its parts, described once. The components keep their names (ProgramConfiguration,
 * Theme, ...), and mapping/program-json.ts takes the JSON types of mapping/program.ts from here.
 */

const nullableString = () => z.string().nullable();
const hexId = () => z.string().regex(new RegExp(ID_PATTERN));
const nullableDateTime = () => z.string().nullable().meta({ format: 'date-time' });

export const OrganizationRules = z
  .object({
    types: z.array(z.string()),
    countries: z.array(z.string()),
    includeIds: z.array(integerValue()),
    excludeIds: z.array(integerValue()),
  })
  .meta({ id: 'OrganizationRules' });

export const Theme = z
  .object({
    intl: z.object({
      locale: z.string(),
      messages: stringMap(),
      errorId: stringMap(),
      locales: z.record(z.string(), z.object({ messages: stringMap(), errorId: stringMap() })).meta({
        propertyNames: undefined,
        description:
          'Translations by BCP 47 tag, as the program set them: for a page in that locale, their texts ' +
          'replace messages and errorId key by key.',
      }),
    }),
    customCss: z.string(),
  })
  .meta({
    id: 'Theme',
    description:
      'Messages and CSS of the verification form. User-facing text for an error is under intl.errorId, ' +
      'keyed by the error id.',
  });

export const Webhook = z
  .object({
    callbackUri: z.url(),
    notifierEventTypes: z.array(z.enum(webhookNotificationNames)).meta({
      description: 'The notifications besides success the program opted in to; [] when none.',
    }),
    created: epochMs(),
    signingSecret: z
      .string()
      .meta({
        description:
          'HMAC-SHA256 key of the webhook signature; only in the reply of the call that set the webhook.',
      })
      .optional(),
  })
  .meta({ id: 'Webhook' });

export const VerificationLimit = z
  .object({ quantity: integerValue(), days: integerValue() })
  .meta({ id: 'VerificationLimit' });

export const ProgramConfiguration = z
  .object({
    programId: hexId(),
    accountId: hexId(),
    name: z.string(),
    segment: z.string(),
    subSegments: z.array(z.string()),
    mode: z.enum(['test', 'live']),
    startDate: nullableDateTime(),
    endDate: nullableDateTime(),
    offerType: z.enum(['staticCode', 'rewardPool', 'noCode']),
    rewardCode: nullableString(),
    rewardCodesRemaining: integerValue().meta({ description: 'Unclaimed codes of a rewardPool offer.' }),
    redirectUrl: nullableString(),
    consolationRewardCode: nullableString(),
    minAge: integerValue().nullable(),
    maxAge: integerValue().nullable(),
    countries: z.array(z.string()),
    maxRejections: integerValue(),
    maxReviewTime: nullableString(),
    estimatedReviewTime: nullableString(),
    organizationRules: OrganizationRules,
    theme: Theme,
    webhook: Webhook.nullable(),
    verificationLimit: VerificationLimit.nullable(),
    subjectTokenKey: nullableString().meta({
      description:
        'Public key (a JWK as JSON, or PEM) that verifies the compact JWS subject tokens of the program; ' +
        'null when none.',
    }),
    requireAccountTokenToCreate: z.boolean().meta({
      description:
        "Verifications of the program are created only with a token of the program's account (401 " +
        'otherwise); false: anyone may start one.',
    }),
    embedOrigins: z.array(z.string()).meta({
      description:
        "Web origins allowed to embed the program's hosted verification page and to call the public REST v2 " +
        'endpoints from a browser (CORS), normalised (https://shop.example, http://localhost:3000); [] when none.',
    }),
    instantMatch: z
      .object({
        sources: z.array(z.object({ type: z.enum(['list', 'http']), subSegments: z.array(z.string()) })),
        http: z.object({ url: z.string() }).nullable(),
        emailLoop: z.boolean(),
      })
      .meta({
        description:
          'Instant-match sources of a live program, in the order they are asked, and the HTTP source’s URL ' +
          '(its secret is never answered); sources [] and http null when none. emailLoop: whether the email ' +
          'loop is offered.',
      }),
    created: epochMs(),
    updated: epochMs(),
  })
  .meta({ id: 'ProgramConfiguration' });

export const RewardCodesAdded = z
  .object({
    added: integerValue().meta({ description: 'Codes newly added (duplicates are skipped, not counted).' }),
    remaining: integerValue().meta({ description: 'Unclaimed codes in the pool now.' }),
  })
  .meta({ id: 'RewardCodesAdded' });

/**
 * Named by the shared response ProgramConfiguration (openapi/components.ts) and by name in other
 * definitions (the theme) and the admin API's paths (rewardCodes), rather than by a definition's schema.
 */
export const programResponseSchemas = [
  ProgramConfiguration,
  OrganizationRules,
  Theme,
  Webhook,
  VerificationLimit,
  RewardCodesAdded,
] as const;
