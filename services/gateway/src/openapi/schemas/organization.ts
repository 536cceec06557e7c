import { ID_PATTERN, ORGANIZATION_TYPES } from '@eligo/vocabulary';
import { countryCode } from './countries';
import { plainText, trimmedName } from './text';

/** Organizations and add-school requests of REST v2 (the spec's Organization and add-school resources). */
const programId = {
  type: 'string',
  maxLength: 24,
  pattern: ID_PATTERN,
  description: 'The program the school is for; another shape is 400, an unknown program 404.',
} as const;
const schoolCountry = countryCode(
  'ISO 3166-1 alpha-2, any case; a country the program does not accept is 400 invalidRequest.',
);
const schoolDomain = {
  ...trimmedName(253),
  description:
    'A host name such as stanford.edu: letters, digits, hyphens and periods (any case, surrounding spaces ' +
    'ignored), ending in a registrable name under a top-level domain of the ICANN section of the Public ' +
    'Suffix List. Anything else (a URL, no period, foo.notatld, the bare ac.uk) is 400 invalidRequest.',
} as const;
const schoolName = trimmedName(200);

/** The catalog's organization types: one list for the codebase (the programs vocabulary). */
export const organizationTypes = ORGANIZATION_TYPES;

export const organizationSchemas = {
  Organization: {
    type: 'object',
    required: ['id', 'name', 'country', 'type'],
    properties: {
      id: {
        type: 'integer',
        description: 'Stable for the life of the catalog; send it back as organization.id.',
      },
      name: { type: 'string' },
      country: { type: 'string', description: 'ISO 3166-1 alpha-2, upper case.', examples: ['US'] },
      type: {
        type: 'string',
        description: `One of ${organizationTypes.join(', ')} (more may be added).`,
        examples: ['UNIVERSITY'],
      },
    },
  },
  OrganizationList: {
    type: 'array',
    description: 'Best match first: exact name, then prefix, then the rest by similarity.',
    items: { $ref: '#/components/schemas/Organization' },
  },
  AddSchoolDomainSearchRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId', 'schoolDomain', 'schoolCountry'],
    properties: { programId, schoolDomain, schoolCountry },
  },
  AddSchoolNameSearchRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['programId', 'schoolName', 'schoolCountry'],
    properties: { programId, schoolName, schoolCountry },
  },
  AddSchoolSearchResult: {
    type: 'object',
    description:
      'At most 25 organizations in all. errorIds holds tooManyOrganizationMatches when more matched: the ' +
      'lists then hold the best 25, and no add-school request may be sent while the error is present.',
    required: ['errorIds', 'eligible', 'ineligible'],
    properties: {
      errorIds: { type: 'array', items: { type: 'string', examples: ['tooManyOrganizationMatches'] } },
      eligible: {
        type: 'array',
        description: 'Selectable in the program.',
        items: { $ref: '#/components/schemas/Organization' },
      },
      ineligible: {
        type: 'array',
        description: 'Known organizations the program does not accept.',
        items: { $ref: '#/components/schemas/Organization' },
      },
    },
  },
  AddSchoolRequest: {
    type: 'object',
    additionalProperties: false,
    description:
      'A request to add a school missing from the catalog; staff review it, acceptance is not guaranteed.',
    required: ['firstName', 'lastName', 'email', 'schoolName', 'schoolDomain', 'schoolCountry', 'programId'],
    properties: {
      firstName: trimmedName(100),
      lastName: trimmedName(100),
      email: { ...trimmedName(254), description: 'A malformed address is 400 invalidEmail.' },
      schoolName,
      schoolDomain,
      schoolCountry,
      programId,
      trackingId: {
        ...plainText(256, 1),
        description:
          "Optional: ties the request to an identifier in the client's own systems (1 to 256 characters, " +
          'without control characters). Kept with the request as given and shown to operators with it.',
      },
    },
  },
} as const;
