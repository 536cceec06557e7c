import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS, patternMessage, plainText } from '../openapi/schemas/text';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { hexId, integer, text } from './query';
import { epochMs } from './schemas-numbers';

/**
 * The staff search of verifications under /rest/admin/v1 (docs/operations.md, "Admin API"), described once:
 * the route is routes/admin/verifications.ts, the mapping mapping/verification-search.ts. The verification
 * service searches and pages (SearchVerifications), newest first, and issues the cursors.
 */
const id = () => z.string().regex(new RegExp(ID_PATTERN));

/** A text filter: at most `max` characters, none of them a control character (spaces around are trimmed). */
const filterText = (description: string, max: number) =>
  text({
    description,
    maxLength: max,
    schema: plainText(max, 1),
    pattern: { source: NO_CONTROL_CHARACTERS, message: patternMessage(NO_CONTROL_CHARACTERS)! },
  });

export const VerificationSummary = z
  .object({
    verificationId: id(),
    programId: id(),
    accountId: id().meta({ description: 'The account of the program.' }),
    segment: z.string(),
    currentStep: z.string(),
    testMode: z.boolean(),
    created: epochMs('When the verification started.'),
    updated: epochMs('When it last changed.'),
    trackingId: z.string().nullable().meta({ description: "The client's tracking id; null when none." }),
  })
  .meta({
    id: 'VerificationSummary',
    description:
      'A verification as the search lists it, without person data (GET /verifications/{verificationId} ' +
      'shows it whole).',
  });

export const VerificationSearchPage = z
  .object({
    verifications: z.array(VerificationSummary).meta({ description: 'Newest first.' }),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as cursor for the next page; null on the last page.' }),
  })
  .meta({ id: 'VerificationSearchPage' });

export type VerificationSummaryJson = z.input<typeof VerificationSummary>;
export type VerificationSearchPageJson = z.input<typeof VerificationSearchPage>;

/** The filters of the search, of which at least one is required (the route checks that). */
export const SEARCH_FILTERS = ['trackingId', 'email', 'programId'] as const;

export const searchVerifications = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/verifications',
  operationId: 'adminSearchVerifications',
  summary: 'Verifications of any account by tracking id, email or program, newest first',
  description:
    'For staff: at least one of trackingId, email and programId; several are all applied. The email is ' +
    'compared trimmed and lower-cased through the keyed hash stored with each verification once its ' +
    'personal information reached the instant match (a verification without one is not found by email); ' +
    'the address is never searched in the clear nor logged. A cursor names a position, not a snapshot: ' +
    'verifications started after the first page are not listed by the next ones. Send the same filters with ' +
    'every page (`Cache-Control: no-store`).',
  strictQuery: true,
  query: z.object({
    trackingId: filterText(
      "The client's tracking id, exactly (surrounding spaces ignored; at most 256 characters)",
      256,
    ).optional(),
    email: filterText(
      "The person's email, in any case, surrounding spaces ignored (at most 254 characters)",
      254,
    ).optional(),
    programId: hexId({ description: "Only this program's verifications" }).optional(),
    limit: integer({ description: 'Page size (default 50)', min: 1, max: 100, fallback: 50 }).optional(),
    cursor: pageCursor(
      'nextCursor of the previous page, as it came (opaque); left out for the first page',
    ).optional(),
  }),
  responses: {
    '200': { description: 'One page of verifications', body: VerificationSearchPage },
    '400': er(
      'None of trackingId, email and programId; a query parameter the operation does not have, an empty ' +
        'value (leave the parameter out instead), a value that does not match its schema, or a cursor that ' +
        'is not a nextCursor of this search (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export type VerificationSearchQuery = QueryOf<typeof searchVerifications>;

export const adminVerificationSearchEndpoints = [searchVerifications] as const;
