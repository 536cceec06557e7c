import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { plainText } from '../openapi/schemas/text';
import { adminOperation, unauthorized } from './admin-common';
import { er, withBody } from './common';
import { defineEndpoint, type BodyOf } from './define';
import { fromStringSchema, isJsonObject, patterned } from './schemas';
import { boundedInteger, epochMs } from './schemas-numbers';

/**
 * The staff search of verifications under /rest/admin/v1 (docs/operations.md, "Admin API"), described once:
 * the route is routes/admin/verifications.ts, the mapping mapping/verification-search.ts. The verification
 * service searches and pages (SearchVerifications), newest first, and issues the cursors. The filters travel
 * in a POST body, not a query string: an email in a URL would land in proxies' access logs and browser
 * history (no personal data in URLs). The search is still a read: the audit log leaves it out
 * (staff/audit-hook.ts).
 */
const id = () => z.string().regex(new RegExp(ID_PATTERN));

/** A text filter: 1 to `max` characters, none of them a control character (as it came: the service trims). */
const filterText = (description: string, max: number) =>
  fromStringSchema(plainText(max, 1)).meta({ description });

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

/** The filters of the search, of which at least one is required. */
export const SEARCH_FILTERS = ['trackingId', 'email', 'programId'] as const;

/**
 * `anyOf: [{ required: [a] }, { required: [b] }, ...]` on an object: at least one of the named properties,
 * refused in the words the document's validator (Ajv) uses, "body must have at least one of a, b". As with
 * exactlyOneOf (endpoints/schemas.ts), Ajv checks it ahead of the object's own keywords; a value that is not
 * an object passes it (`required` holds for it) and is refused by the object's type.
 */
function atLeastOneOf<T extends z.ZodObject>(schema: T, keys: readonly (keyof z.infer<T> & string)[]) {
  return z.preprocess(
    (value, ctx) => {
      if (isJsonObject(value) && !keys.some((key) => Object.prototype.hasOwnProperty.call(value, key)))
        ctx.addIssue({
          code: 'custom',
          message: `must have at least one of ${keys.join(', ')}`,
          input: value,
        });
      return value;
    },
    schema.meta({ anyOf: keys.map((key) => ({ required: [key] })) }),
  );
}

export const VerificationSearchRequest = atLeastOneOf(
  z
    .strictObject({
      trackingId: filterText(
        "The client's tracking id, exactly (surrounding spaces ignored; 1 to 256 characters)",
        256,
      ).optional(),
      email: filterText(
        "The person's email, in any case, surrounding spaces ignored (1 to 254 characters)",
        254,
      ).optional(),
      programId: patterned(ID_PATTERN).meta({ description: "Only this program's verifications" }).optional(),
      limit: boundedInteger(1, 100).meta({ description: 'Page size (default 50)', default: 50 }).optional(),
      cursor: filterText(
        'nextCursor of the previous page, as it came (opaque); left out for the first page',
        1000,
      ).optional(),
    })
    .meta({ description: 'At least one of trackingId, email and programId; several are all applied.' }),
  SEARCH_FILTERS,
).meta({ id: 'VerificationSearchRequest' });

export const searchVerifications = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/verifications/search',
  operationId: 'adminSearchVerifications',
  summary: 'Verifications of any account by tracking id, email or program, newest first',
  description:
    'For staff: a read, POST only so that the filters (an email) stay out of URLs, which proxies log and ' +
    'browsers keep; it changes nothing and is not written to the audit log. The email is compared trimmed ' +
    'and lower-cased through the keyed hash stored with each verification once its personal information ' +
    'reached the instant match (a verification without one is not found by email); the address is never ' +
    'searched in the clear nor logged. A cursor names a position, not a snapshot: verifications started ' +
    'after the first page are not listed by the next ones. Send the same filters with every page ' +
    '(`Cache-Control: no-store`).',
  body: VerificationSearchRequest,
  responses: {
    '200': {
      description: 'One page of verifications',
      body: VerificationSearchPage,
      headers: { 'Cache-Control': { schema: z.literal('no-store') } },
    },
    '400': er(
      'The body does not match its schema: none of trackingId, email and programId, a property it does not ' +
        'have, a value that does not match its schema (systemErrorMessage names it); or a cursor that is not ' +
        'a nextCursor of this search (errorIds [invalidRequest])',
    ),
    '413': withBody['413'],
    ...unauthorized,
  },
});

export type VerificationSearchBody = BodyOf<typeof searchVerifications>;

export const adminVerificationSearchEndpoints = [searchVerifications] as const;
