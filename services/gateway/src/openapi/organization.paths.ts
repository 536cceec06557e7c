import { COUNTRY_OR_EMPTY_PATTERN } from './schemas/countries';
import { trimmedName } from './schemas/text';
import { errorResponse, idParameter, jsonBody, jsonResponse, ref } from './refs';

const invalidQuery = errorResponse(
  'A query parameter is missing or invalid (errorIds [invalidRequest]; systemErrorMessage names it)',
  'ErrorResponse',
);
const unavailable = { '503': ref('responses', 'ServiceUnavailable') };
const withBody = {
  '400': errorResponse(
    'A field is missing, unexpected or invalid, the programId is malformed, the domain has no period or no ' +
      'known top-level domain, or the program does not accept the country (errorIds [invalidRequest])',
    'ErrorResponse',
  ),
  '404': ref('responses', 'ProgramNotFound'),
  '413': ref('responses', 'PayloadTooLarge'),
  ...unavailable,
};
const searchParameters = [
  {
    name: 'name',
    in: 'query',
    required: true,
    description:
      'All or part of the name; case, accents and scripts do not matter (1 to 200 characters once trimmed, ' +
      'no control characters). A text without a letter or digit matches nothing.',
    schema: trimmedName(200),
  },
  {
    name: 'country',
    in: 'query',
    description:
      'Only organizations of this country (ISO 3166-1 alpha-2, any case); empty (`country=`, as forms send ' +
      'it) means any country.',
    allowEmptyValue: true,
    schema: { type: 'string', pattern: COUNTRY_OR_EMPTY_PATTERN },
  },
  {
    name: 'limit',
    in: 'query',
    description: 'At most this many results (default 25).',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  },
];

const deprecationHeaders = {
  Deprecation: {
    description: 'RFC 9745: deprecated since 2026-01-01T00:00:00Z',
    schema: { type: 'string', const: '@1767225600' },
  },
  Link: {
    description: 'rel="deprecation": this document, which names the replacement',
    schema: { type: 'string' },
  },
};

const deprecatedSearch = (kind: 'student' | 'military' | 'teacher', audience: string) => ({
  [`/organization/${kind}`]: {
    get: {
      tags: ['organization'],
      operationId: `searchOrganizations${kind[0]!.toUpperCase()}${kind.slice(1)}`,
      deprecated: true,
      summary: `Organizations of ${audience} by name (deprecated)`,
      description:
        'Deprecated: use GET /program/{programId}/organization, which searches what the program accepts. ' +
        'Every answer, errors included, carries the Deprecation and Link headers.',
      parameters: searchParameters,
      responses: {
        '200': { ...jsonResponse('Matching organizations', 'OrganizationList'), headers: deprecationHeaders },
        '400': { ...invalidQuery, headers: deprecationHeaders },
        ...unavailable,
      },
    },
  },
});

/** Organization search and add-school requests (REST v2; no token, the verification form calls them). */
export const organizationPaths = {
  '/program/{programId}/organization': {
    parameters: [idParameter('programId', 'The program whose accepted organizations are searched')],
    get: {
      tags: ['organization'],
      operationId: 'searchProgramOrganizations',
      summary: 'Organizations the program accepts, by name',
      description: 'Ranked: exact name first, then names starting with the query, then the closest others.',
      parameters: searchParameters,
      responses: {
        '200': jsonResponse('Matching organizations, best first', 'OrganizationList'),
        '400': invalidQuery,
        '404': errorResponse('No such program (SEM)', 'SystemErrorMessage'),
        ...unavailable,
      },
    },
  },
  ...deprecatedSearch('student', 'students (schools)'),
  ...deprecatedSearch('military', 'the military'),
  ...deprecatedSearch('teacher', 'teachers (schools)'),
  '/organization/addSchool/search/domain': {
    post: {
      tags: ['organization'],
      operationId: 'searchAddSchoolByDomain',
      summary: 'Catalog organizations of a country by domain, split by what the program accepts',
      requestBody: jsonBody('AddSchoolDomainSearchRequest'),
      responses: { '200': jsonResponse('The search result', 'AddSchoolSearchResult'), ...withBody },
    },
  },
  '/organization/addSchool/search/name': {
    post: {
      tags: ['organization'],
      operationId: 'searchAddSchoolByName',
      summary: 'Catalog organizations of a country by name, split by what the program accepts',
      requestBody: jsonBody('AddSchoolNameSearchRequest'),
      responses: { '200': jsonResponse('The search result', 'AddSchoolSearchResult'), ...withBody },
    },
  },
  '/organization/addSchool': {
    post: {
      tags: ['organization'],
      operationId: 'requestAddSchool',
      summary: 'Asks staff to add a school missing from the catalog',
      description: 'Send only after a search without tooManyOrganizationMatches found nothing suitable.',
      requestBody: jsonBody('AddSchoolRequest'),
      responses: {
        '204': { description: 'Stored for review' },
        ...withBody,
        '400': errorResponse(
          'A field is missing, unexpected or invalid (errorIds [invalidRequest]), or the email is malformed ' +
            '(errorIds [invalidEmail])',
          'ErrorResponse',
        ),
        '429': errorResponse(
          'The program received its daily number of add-school requests (errorIds [tooManyAddSchoolRequests])',
          'ErrorResponse',
        ),
      },
    },
  },
} as const;
