import { ID_PATTERN } from '@eligo/vocabulary';
import { countryCode } from './countries';
import { organizationTypes } from './organization';
import { described, multilineText, plainText, trimmedName } from './text';

/** The catalog and the add-school review queue as operators see them (admin API). */
const epochMs = { type: 'integer', description: 'Epoch milliseconds.' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const type = { type: 'string', enum: organizationTypes } as const;
/**
 * A host name as the organizations service takes it: labels of letters, digits and inner hyphens (any case,
 * stored lower case), at least two. That it ends in a registrable name under a suffix of the ICANN section of
 * the Public Suffix List (stanford.edu, cs.ox.ac.uk; not foo.notatld, not the bare ac.uk) is the service's
 * check: a schema cannot hold that list.
 */
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const domain = {
  type: 'string',
  maxLength: 253,
  pattern: described(
    `^(?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL}$`,
    'must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
  ),
} as const;
const domains = {
  type: 'array',
  maxItems: 20,
  items: domain,
  description:
    'Host names people of the organization use (e.g. stanford.edu), each ending in a registrable name under ' +
    'a top-level domain of the Public Suffix List (ICANN section); another is 400.',
} as const;

export const organizationAdminSchemas = {
  OrganizationDetail: {
    type: 'object',
    required: ['id', 'name', 'type', 'country', 'domains', 'city', 'state', 'externalKey', 'loginUrl'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      type: { type: 'string' },
      country: { type: 'string' },
      domains: { type: 'array', items: { type: 'string' } },
      city: nullableString,
      state: nullableString,
      externalKey: {
        type: 'string',
        description:
          "The key it was loaded under (an import row's externalId, swot:<domain>, add-school:<requestId>).",
      },
      loginUrl: {
        ...nullableString,
        description: "The organization's single sign-on page (https); null when it has none.",
      },
    },
  },
  OrganizationImportRow: {
    type: 'object',
    description:
      'One NDJSON line (the CSV columns carry the same names; there, domains are separated by ";"). ' +
      'externalId, name, type and country are required.',
    additionalProperties: false,
    required: ['externalId', 'name', 'type', 'country'],
    properties: {
      externalId: {
        ...trimmedName(200),
        description: 'Your key (trimmed, 1 to 200 characters): importing it again updates the organization.',
      },
      name: { ...trimmedName(200), description: 'Trimmed; it must contain a letter or digit.' },
      type: { ...type, description: 'Any case.' },
      country: countryCode('ISO 3166-1 alpha-2, any case.'),
      domains,
      city: { ...plainText(100), type: ['string', 'null'] },
      state: { ...plainText(100), type: ['string', 'null'] },
      loginUrl: {
        ...plainText(2048),
        type: ['string', 'null'],
        description:
          "The organization's single sign-on page: an absolute https URL of at most 2048 characters; " +
          'empty or null for none. Another value rejects the row.',
      },
    },
  },
  OrganizationImportResult: {
    type: 'object',
    required: ['received', 'created', 'updated', 'unchanged', 'rejected', 'errors'],
    properties: {
      received: { type: 'integer', description: 'Data rows read (blank lines are not rows).' },
      created: { type: 'integer' },
      updated: { type: 'integer' },
      unchanged: {
        type: 'integer',
        description: 'Rows identical to what the catalog holds under their key.',
      },
      rejected: { type: 'integer' },
      errors: {
        type: 'array',
        maxItems: 100,
        description: 'The first 100 rejected rows, by line of the file (the header is line 1 of a CSV).',
        items: {
          type: 'object',
          required: ['line', 'message'],
          properties: { line: { type: 'integer' }, message: { type: 'string' } },
        },
      },
    },
  },
  AddSchoolRequestRecord: {
    type: 'object',
    description: 'A stored add-school request. Names and email are personal information.',
    required: [
      'requestId',
      'programId',
      'status',
      'firstName',
      'lastName',
      'email',
      'schoolName',
      'schoolDomain',
      'schoolCountry',
      'created',
      'decided',
      'organizationId',
      'declineReason',
    ],
    properties: {
      requestId: { type: 'string', pattern: ID_PATTERN },
      programId: { type: 'string' },
      status: { type: 'string', enum: ['PENDING', 'ACCEPTED', 'DECLINED'] },
      firstName: { type: 'string' },
      lastName: { type: 'string' },
      email: { type: 'string' },
      schoolName: { type: 'string' },
      schoolDomain: { type: 'string' },
      schoolCountry: { type: 'string' },
      created: epochMs,
      decided: { type: ['integer', 'null'], description: 'Epoch milliseconds of the accept or decline.' },
      organizationId: { type: ['integer', 'null'], description: 'The organization an accept added.' },
      declineReason: nullableString,
      trackingId: {
        ...nullableString,
        description: 'The trackingId the request was sent with; null when none.',
      },
    },
  },
  AddSchoolRequestPage: {
    type: 'object',
    required: ['requests', 'nextPageToken'],
    properties: {
      requests: {
        type: 'array',
        description: 'Newest first.',
        items: { $ref: '#/components/schemas/AddSchoolRequestRecord' },
      },
      nextPageToken: {
        type: ['string', 'null'],
        description: 'Pass as pageToken for the next page; null on the last.',
      },
    },
  },
  AddSchoolAcceptRequest: {
    type: 'object',
    additionalProperties: false,
    description: "The organization to add. name, country and domains default to the request's school.",
    required: ['type'],
    properties: {
      type,
      name: {
        ...trimmedName(200),
        description:
          "Trimmed; it must contain a letter or digit (400 otherwise). Default: the request's school name.",
      },
      country: countryCode("ISO 3166-1 alpha-2, any case. Default: the request's school country."),
      domains: {
        ...domains,
        description: `${domains.description} Left out or empty: the request's school domain.`,
      },
      city: { ...plainText(100), description: 'Empty or blank for none.' },
      state: { ...plainText(100), description: 'Empty or blank for none.' },
    },
  },
  AddSchoolDeclineRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      reason: {
        ...multilineText(500),
        description: 'For staff; never shown to the requester. Trimmed; tabs and line breaks are allowed.',
      },
    },
  },
  AddSchoolAccepted: {
    type: 'object',
    required: ['request', 'organization'],
    properties: {
      request: { $ref: '#/components/schemas/AddSchoolRequestRecord' },
      organization: { $ref: '#/components/schemas/OrganizationDetail' },
    },
  },
  AddSchoolDeclined: {
    type: 'object',
    required: ['request'],
    properties: { request: { $ref: '#/components/schemas/AddSchoolRequestRecord' } },
  },
} as const;
