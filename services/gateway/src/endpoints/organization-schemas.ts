import { z } from 'zod';
import { ID_PATTERN, ORGANIZATION_TYPES } from '@eligo/vocabulary';
import { COUNTRY_PATTERN } from '../openapi/schemas/countries';
import { plainText, trimmedName } from '../openapi/schemas/text';
import { fromStringSchema, patterned } from './schemas';
import { integerValue } from './schemas-numbers';

/**
 * The bodies of REST v2's organization search and add-school requests (the spec's Organization and
 * add-school resources), described once: endpoints/organization.ts states the operations with them,
 * routes/organization.ts checks the requests with them, and mapping/organization.ts takes its JSON types
 * from them.
 */

/** The catalog's organization types: one list for the codebase (the programs vocabulary). */
export const organizationTypes = ORGANIZATION_TYPES;

export const Organization = z
  .object({
    id: integerValue().meta({
      description: 'Stable for the life of the catalog; send it back as organization.id.',
    }),
    name: z.string(),
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2, upper case.', examples: ['US'] }),
    type: z.string().meta({
      description: `One of ${organizationTypes.join(', ')} (more may be added).`,
      examples: ['UNIVERSITY'],
    }),
  })
  .meta({ id: 'Organization' });

export const OrganizationList = z.array(Organization).meta({
  id: 'OrganizationList',
  description: 'Best match first: exact name, then prefix, then the rest by similarity.',
});

export const AddSchoolSearchResult = z
  .object({
    errorIds: z.array(z.string().meta({ examples: ['tooManyOrganizationMatches'] })),
    eligible: z.array(Organization).meta({ description: 'Selectable in the program.' }),
    ineligible: z
      .array(Organization)
      .meta({ description: 'Known organizations the program does not accept.' }),
  })
  .meta({
    id: 'AddSchoolSearchResult',
    description:
      'At most 25 organizations in all. errorIds holds tooManyOrganizationMatches when more matched: the ' +
      'lists then hold the best 25, and no add-school request may be sent while the error is present.',
  });

const programId = () =>
  fromStringSchema({ type: 'string', maxLength: 24, pattern: ID_PATTERN }).meta({
    description: 'The program the school is for; another shape is 400, an unknown program 404.',
  });
const schoolCountry = () =>
  patterned(COUNTRY_PATTERN).meta({
    description: 'ISO 3166-1 alpha-2, any case; a country the program does not accept is 400 invalidRequest.',
    examples: ['US'],
  });
const schoolDomain = () =>
  fromStringSchema(trimmedName(253)).meta({
    description:
      'A host name such as stanford.edu: letters, digits, hyphens and periods (any case, surrounding ' +
      'spaces ignored), ending in a registrable name under a top-level domain of the ICANN section of the ' +
      'Public Suffix List. Anything else (a URL, no period, foo.notatld, the bare ac.uk) is 400 invalidRequest.',
  });
const schoolName = () => fromStringSchema(trimmedName(200));

export const AddSchoolDomainSearchRequest = z
  .strictObject({ programId: programId(), schoolDomain: schoolDomain(), schoolCountry: schoolCountry() })
  .meta({ id: 'AddSchoolDomainSearchRequest' });

export const AddSchoolNameSearchRequest = z
  .strictObject({ programId: programId(), schoolName: schoolName(), schoolCountry: schoolCountry() })
  .meta({ id: 'AddSchoolNameSearchRequest' });

export const AddSchoolRequest = z
  .strictObject({
    firstName: fromStringSchema(trimmedName(100)),
    lastName: fromStringSchema(trimmedName(100)),
    email: fromStringSchema(trimmedName(254)).meta({
      description: 'A malformed address is 400 invalidEmail.',
    }),
    schoolName: schoolName(),
    schoolDomain: schoolDomain(),
    schoolCountry: schoolCountry(),
    programId: programId(),
    trackingId: fromStringSchema(plainText(256, 1))
      .meta({
        description:
          "Optional: ties the request to an identifier in the client's own systems (1 to 256 characters, " +
          'without control characters). Kept with the request as given and shown to operators with it.',
      })
      .optional(),
  })
  .meta({
    id: 'AddSchoolRequest',
    description:
      'A request to add a school missing from the catalog; staff review it, acceptance is not guaranteed.',
  });
