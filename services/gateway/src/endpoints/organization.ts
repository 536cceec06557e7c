import { z } from 'zod';
import { COUNTRY_OR_EMPTY_PATTERN } from '../openapi/schemas/countries';
import { trimmedName } from '../openapi/schemas/text';
import { er, hexIdParameter, sem, unavailable } from './common';
import { defineEndpoint, type BodyOf, type EndpointResponse, type QueryOf } from './define';
import {
  AddSchoolDomainSearchRequest,
  AddSchoolNameSearchRequest,
  AddSchoolRequest,
  AddSchoolSearchResult,
  OrganizationList,
} from './organization-schemas';
import { country, integer, text } from './query';

/**
 * Organization search and add-school requests (REST v2), described once. No token: the verification form
 * calls them. The routes (routes/organization.ts) register them by these paths and check their queries and
 * bodies with these schemas (400 ER invalidRequest naming the parameter or the field).
 */

/** RFC 9745: the per-audience searches are deprecated since 2026-01-01T00:00:00Z. */
export const DEPRECATED_SINCE = '@1767225600';

const tags = ['organization'] as const;
/** None: the document's own (no token) applies. */
const noToken = [] as const;
const invalidQuery =
  'A query parameter is missing or invalid (errorIds [invalidRequest]; systemErrorMessage names it)';
const withBody = {
  '400': er(
    'A field is missing, unexpected or invalid, the programId is malformed, the domain has no period or no ' +
      'known top-level domain, or the program does not accept the country (errorIds [invalidRequest])',
  ),
  '404': { shared: 'ProgramNotFound' },
  '413': { shared: 'PayloadTooLarge' },
  ...unavailable,
} satisfies Record<string, EndpointResponse>;

/** ?name=&country=&limit= of every organization search. */
const searchQuery = z.object({
  // The service counts the 200 characters once trimmed; this bound only keeps a query from being huge.
  name: text({
    maxLength: 1000,
    schema: trimmedName(200),
    description:
      'All or part of the name; case, accents and scripts do not matter (1 to 200 characters once trimmed, ' +
      'no control characters). A text without a letter or digit matches nothing.',
  }),
  country: country({
    schema: { type: 'string', pattern: COUNTRY_OR_EMPTY_PATTERN },
    description:
      'Only organizations of this country (ISO 3166-1 alpha-2, any case); empty (`country=`, as forms send ' +
      'it) means any country.',
  }).optional(),
  limit: integer({
    description: 'At most this many results (default 25).',
    min: 1,
    max: 100,
    fallback: 25,
  }).optional(),
});

export const searchProgramOrganizations = defineEndpoint({
  method: 'get',
  path: '/program/{programId}/organization',
  operationId: 'searchProgramOrganizations',
  summary: 'Organizations the program accepts, by name',
  description: 'Ranked: exact name first, then names starting with the query, then the closest others.',
  tags,
  security: noToken,
  params: z.object({
    programId: hexIdParameter('The program whose accepted organizations are searched'),
  }),
  query: searchQuery,
  responses: {
    '200': { description: 'Matching organizations, best first', body: OrganizationList },
    '400': er(invalidQuery),
    '404': sem('No such program (SEM)'),
    ...unavailable,
  },
});

/** Every answer of a deprecated search, errors included, carries them (routes/organization.ts). */
const deprecationHeaders = {
  Deprecation: {
    description: 'RFC 9745: deprecated since 2026-01-01T00:00:00Z',
    schema: z.literal(DEPRECATED_SINCE),
  },
  Link: { description: 'rel="deprecation": this document, which names the replacement', schema: z.string() },
};

const deprecatedSearch = (path: string, operationId: string, audience: string) =>
  defineEndpoint({
    method: 'get',
    path,
    operationId,
    deprecated: true,
    summary: `Organizations of ${audience} by name (deprecated)`,
    description:
      'Deprecated: use GET /program/{programId}/organization, which searches what the program accepts. ' +
      'Every answer, errors included, carries the Deprecation and Link headers.',
    tags,
    security: noToken,
    query: searchQuery,
    responses: {
      '200': { description: 'Matching organizations', body: OrganizationList, headers: deprecationHeaders },
      '400': { ...er(invalidQuery), headers: deprecationHeaders },
      ...unavailable,
    },
  });

export const searchOrganizationsStudent = deprecatedSearch(
  '/organization/student',
  'searchOrganizationsStudent',
  'students (schools)',
);
export const searchOrganizationsMilitary = deprecatedSearch(
  '/organization/military',
  'searchOrganizationsMilitary',
  'the military',
);
export const searchOrganizationsTeacher = deprecatedSearch(
  '/organization/teacher',
  'searchOrganizationsTeacher',
  'teachers (schools)',
);

export const searchAddSchoolByDomain = defineEndpoint({
  method: 'post',
  path: '/organization/addSchool/search/domain',
  operationId: 'searchAddSchoolByDomain',
  summary: 'Catalog organizations of a country by domain, split by what the program accepts',
  tags,
  security: noToken,
  body: AddSchoolDomainSearchRequest,
  responses: { '200': { description: 'The search result', body: AddSchoolSearchResult }, ...withBody },
});

export const searchAddSchoolByName = defineEndpoint({
  method: 'post',
  path: '/organization/addSchool/search/name',
  operationId: 'searchAddSchoolByName',
  summary: 'Catalog organizations of a country by name, split by what the program accepts',
  tags,
  security: noToken,
  body: AddSchoolNameSearchRequest,
  responses: { '200': { description: 'The search result', body: AddSchoolSearchResult }, ...withBody },
});

export const requestAddSchool = defineEndpoint({
  method: 'post',
  path: '/organization/addSchool',
  operationId: 'requestAddSchool',
  summary: 'Asks staff to add a school missing from the catalog',
  description: 'Send only after a search without tooManyOrganizationMatches found nothing suitable.',
  tags,
  security: noToken,
  body: AddSchoolRequest,
  responses: {
    '204': { description: 'Stored for review' },
    ...withBody,
    '400': er(
      'A field is missing, unexpected or invalid (errorIds [invalidRequest]), or the email is malformed ' +
        '(errorIds [invalidEmail])',
    ),
    '429': er(
      'The program received its daily number of add-school requests (errorIds [tooManyAddSchoolRequests])',
    ),
  },
});

/** The query of every organization search, once checked (name required, country upper case). */
export type SearchQuery = QueryOf<typeof searchProgramOrganizations>;
export type AddSchoolDomainSearchBody = BodyOf<typeof searchAddSchoolByDomain>;
export type AddSchoolNameSearchBody = BodyOf<typeof searchAddSchoolByName>;
export type AddSchoolBody = BodyOf<typeof requestAddSchool>;

export const organizationEndpoints = [
  searchProgramOrganizations,
  searchOrganizationsStudent,
  searchOrganizationsMilitary,
  searchOrganizationsTeacher,
  searchAddSchoolByDomain,
  searchAddSchoolByName,
  requestAddSchool,
] as const;
