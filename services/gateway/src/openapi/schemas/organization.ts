import { ORGANIZATION_TYPES } from '@eligo/programs';
/** Organizations and add-school requests of REST v2 (the spec's Organization and add-school resources). */
const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const programId = {
  type: 'string',
  maxLength: 24,
  pattern: '^[0-9a-f]{24}$',
  description: 'The program the school is for; another shape is 400, an unknown program 404.',
} as const;
const schoolCountry = {
  ...text(2),
  description: 'ISO 3166-1 alpha-2; a country the program does not accept is 400 invalidRequest.',
} as const;
const schoolDomain = {
  ...text(253),
  description: 'A host name such as stanford.edu; one without a period or a known top-level domain is 400.',
} as const;
const schoolName = text(200);

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
      firstName: text(100),
      lastName: text(100),
      email: { ...text(254), description: 'A malformed address is 400 invalidEmail.' },
      schoolName,
      schoolDomain,
      schoolCountry,
      programId,
    },
  },
} as const;
