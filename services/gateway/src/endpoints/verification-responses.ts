import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { patterned } from './schemas';
import { stringMap } from './schemas-maps';
import { orNull } from './schemas-nullable';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * The answers of the verification flow (the spec's verification resources): the verification response (VR),
 * the step error, the history and the details. mapping/verification.ts writes them, typed by these schemas;
 * the document states them from here.
 */

const strings = (meta: Record<string, unknown>) => z.array(z.string()).meta(meta);
const uri = (description: string) => z.string().meta({ format: 'uri', description });

export const VerificationResponse = z
  .object({
    verificationId: patterned(ID_PATTERN),
    currentStep: z.string().meta({
      description:
        'collect<Type>PersonalInfo, collectMilitaryStatus, collectSocialSecurityNumber, sso, docUpload, ' +
        'pending, success or error (more may be added).',
      examples: ['collectStudentPersonalInfo', 'success'],
    }),
    errorIds: strings({ description: 'Empty when no error.' }),
    segment: z.string().meta({ examples: ['student'] }),
    subSegment: z
      .string()
      .nullable()
      .meta({ examples: ['activeDuty'] }),
    locale: z.string().meta({
      examples: ['en-US'],
      description:
        'BCP 47 tag: the verification’s own (the locale of the start or of the last personal-info body that ' +
        'gave one), else the program theme’s, else en-US.',
    }),
    submissionUrl: uri(
      'While a step awaits input: where to send it (…/verification/{id}/step/{currentStep}).',
    ).optional(),
    statusUrl: uri('With pending: poll it with GET.').optional(),
    systemErrorMessage: z
      .string()
      .meta({ description: 'With error: debugging text for integrators, never for end users.' })
      .optional(),
    rewardCode: z.string().meta({ description: 'With success, when the program has a code.' }).optional(),
    rewardData: z.object({ rewardCode: z.string() }).optional(),
    redirectUrl: z
      .string()
      .nullable()
      .meta({ description: 'With success (null when the program has none).' })
      .optional(),
    consolationRewardCode: z
      .string()
      .meta({ description: 'When an expired verification has a consolation.' })
      .optional(),
    availableStatuses: strings({ description: 'The statuses a status-choosing step accepts.' }).optional(),
    rejectionReasons: strings({ description: 'With docUpload after a rejected review.' }).optional(),
    maxReviewTime: z
      .string()
      .meta({ examples: ['20_MIN'] })
      .optional(),
    estimatedReviewTime: z
      .string()
      .meta({ examples: ['A_FEW_MINUTES'] })
      .optional(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2 of the person, where known.' }).optional(),
    canResendEmailLoop: z
      .boolean()
      .meta({
        description:
          'With emailLoop: whether a new code may be asked for now (POST …/step/emailLoop/retryEmail): a ' +
          'minute after the last one, at most 5 codes.',
      })
      .optional(),
    instantMatchAttempts: integerValue().min(0),
  })
  .meta({
    id: 'VerificationResponse',
    description:
      'VR. A 200 status does not mean success: read currentStep. Optional fields appear with the steps named ' +
      'in their descriptions.',
  });

export const VerificationStepError = z
  .object({
    verificationId: z.string().meta({ description: 'When the path names a verification.' }).optional(),
    currentStep: z.literal('error'),
    errorIds: strings({ examples: [['invalidRequest']] }),
    systemErrorMessage: z.string(),
  })
  .meta({
    id: 'VerificationStepError',
    description:
      'The 400 of a step the gateway or the service refused before it ran (e.g. an unexpected property): ' +
      'currentStep error; the verification itself is unchanged.',
  });

export const VerificationHistory = z.array(VerificationResponse).max(10).meta({
  id: 'VerificationHistory',
  description: 'The most recent verifications of the tracking id, newest first.',
});

const OrganizationRef = orNull(z.object({ id: integerValue(), name: z.string() }));
const day = () => z.string().nullable().meta({ description: 'YYYY-MM-DD' });

export const VerificationDetails = z
  .object({
    programId: z.string(),
    trackingId: z.string().meta({ description: 'Empty when the verification was started without one.' }),
    personId: z.string().meta({ description: 'A stable pseudonymous id of the person within the program.' }),
    created: epochMs(),
    updated: epochMs(),
    lastResponse: VerificationResponse,
    personInfo: orNull(
      z.object({
        firstName: z.string(),
        lastName: z.string(),
        email: z.string(),
        birthDate: z.string().meta({ description: 'YYYY-MM-DD; empty when not collected.' }),
        metadata: orNull(stringMap()),
        organization: OrganizationRef,
      }),
    ).meta({ description: 'null before personal info was submitted.' }),
    docUploadRejectionCount: integerValue().min(0),
    docUploadRejectionReasons: strings({ examples: [['DOCUMENT_UNREADABLE']] }),
    verificationMethod: z
      .literal(['INSTANT', 'MANUAL', 'LIST', 'HTTP_SOURCE', 'EMAIL_LOOP', 'SSO', null])
      .meta({
        type: ['string', 'null'],
        description:
          'How the success was decided, null before: INSTANT (the built-in decision, e.g. the birth date of ' +
          "an age program), LIST (the program's customer eligibility list), HTTP_SOURCE (the business's own " +
          'endpoint, an instant-match source of the program), EMAIL_LOOP (a code mailed to the person at the ' +
          "organization's domain), SSO (the organization's sign-on), MANUAL (a document review).",
      }),
    confirmedSegments: z.array(
      z.object({
        segment: z.string(),
        subSegment: z.string().nullable(),
        organization: OrganizationRef,
        active: z.boolean(),
        startDate: day(),
        endDate: day(),
      }),
    ),
    externalUserId: z
      .string()
      .nullable()
      .meta({
        description:
          'The person’s identifier in your own systems, as the personal-info body gave it (externalUserId); ' +
          'null when none.',
      }),
  })
  .meta({ id: 'VerificationDetails' });
