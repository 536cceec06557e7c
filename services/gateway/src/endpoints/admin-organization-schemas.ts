import { z } from 'zod';
import { ID_PATTERN, ORGANIZATION_TYPES } from '@eligo/vocabulary';
import { COUNTRY_PATTERN } from '../openapi/schemas/countries';
import { described, multilineText, plainText, trimmedName } from '../openapi/schemas/text';
import { fromStringSchema, patterned } from './schemas';
import { epochMs, integerValue } from './schemas-numbers';

/** The catalog and the add-school review queue as operators see them (endpoints/admin-organizations.ts). */

export const addSchoolStatuses = ['PENDING', 'ACCEPTED', 'DECLINED'] as const;

/**
 * A host name as the organizations service takes it: labels of letters, digits and inner hyphens (any case,
 * stored lower case), at least two. That it ends in a registrable name under a suffix of the ICANN section of
 * the Public Suffix List (stanford.edu, cs.ox.ac.uk; not foo.notatld, not the bare ac.uk) is the service's
 * check: a schema cannot hold that list.
 */
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const domain = fromStringSchema({
  type: 'string',
  maxLength: 253,
  pattern: described(
    `^(?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL}$`,
    'must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
  ),
});
const DOMAINS =
  'Host names people of the organization use (e.g. stanford.edu), each ending in a registrable name under ' +
  'a top-level domain of the Public Suffix List (ICANN section); another is 400.';
const domains = (description: string) => z.array(domain).max(20).meta({ description });

/** An ISO 3166-1 alpha-2 code in any case (the service upper-cases it). */
export const countryCode = (description: string) =>
  patterned(COUNTRY_PATTERN).meta({ description, examples: ['US'] });

export const organizationType = z.enum(ORGANIZATION_TYPES);

export const OrganizationDetail = z
  .object({
    id: integerValue(),
    name: z.string(),
    type: z.string(),
    country: z.string(),
    domains: z.array(z.string()),
    city: z.string().nullable(),
    state: z.string().nullable(),
    externalKey: z.string().meta({
      description:
        "The key it was loaded under (an import row's externalId, swot:<domain>, add-school:<requestId>).",
    }),
    loginUrl: z.string().nullable().meta({
      description: "The organization's single sign-on page (https); null when it has none.",
    }),
  })
  .meta({ id: 'OrganizationDetail' });

export const AddSchoolRequestRecord = z
  .object({
    requestId: z.string().regex(new RegExp(ID_PATTERN)),
    programId: z.string(),
    status: z.enum(addSchoolStatuses),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    schoolName: z.string(),
    schoolDomain: z.string(),
    schoolCountry: z.string(),
    created: epochMs(),
    decided: integerValue().nullable().meta({ description: 'Epoch milliseconds of the accept or decline.' }),
    organizationId: integerValue().nullable().meta({ description: 'The organization an accept added.' }),
    declineReason: z.string().nullable(),
    trackingId: z
      .string()
      .nullable()
      .meta({
        description: 'The trackingId the request was sent with; null when none.',
      })
      .optional(),
  })
  .meta({
    id: 'AddSchoolRequestRecord',
    description: 'A stored add-school request. Names and email are personal information.',
  });

export const AddSchoolRequestPage = z
  .object({
    requests: z.array(AddSchoolRequestRecord).meta({ description: 'Newest first.' }),
    nextPageToken: z
      .string()
      .nullable()
      .meta({ description: 'Pass as pageToken for the next page; null on the last.' }),
  })
  .meta({ id: 'AddSchoolRequestPage' });

export const AddSchoolAcceptRequest = z
  .strictObject({
    type: organizationType,
    name: fromStringSchema(trimmedName(200))
      .meta({
        description:
          "Trimmed; it must contain a letter or digit (400 otherwise). Default: the request's school name.",
      })
      .optional(),
    country: countryCode("ISO 3166-1 alpha-2, any case. Default: the request's school country.").optional(),
    domains: domains(`${DOMAINS} Left out or empty: the request's school domain.`).optional(),
    city: fromStringSchema(plainText(100)).meta({ description: 'Empty or blank for none.' }).optional(),
    state: fromStringSchema(plainText(100)).meta({ description: 'Empty or blank for none.' }).optional(),
  })
  .meta({
    id: 'AddSchoolAcceptRequest',
    description: "The organization to add. name, country and domains default to the request's school.",
  });

export const AddSchoolDeclineRequest = z
  .strictObject({
    reason: fromStringSchema(multilineText(500))
      .meta({
        description: 'For staff; never shown to the requester. Trimmed; tabs and line breaks are allowed.',
      })
      .optional(),
  })
  .meta({ id: 'AddSchoolDeclineRequest' });

export const AddSchoolAccepted = z
  .object({ request: AddSchoolRequestRecord, organization: OrganizationDetail })
  .meta({ id: 'AddSchoolAccepted' });

export const AddSchoolDeclined = z
  .object({ request: AddSchoolRequestRecord })
  .meta({ id: 'AddSchoolDeclined' });

/** The domains of an NDJSON import row: host names as on accept. */
export const importDomains = () => domains(DOMAINS);

export type OrganizationDetailJson = z.input<typeof OrganizationDetail>;
export type AddSchoolRequestJson = z.input<typeof AddSchoolRequestRecord>;
export type AddSchoolRequestPageJson = z.input<typeof AddSchoolRequestPage>;
export type AddSchoolAcceptedJson = z.input<typeof AddSchoolAccepted>;
export type AddSchoolDeclinedJson = z.input<typeof AddSchoolDeclined>;
