import type { z } from 'zod';
import { zodSays } from '../../test/check-answers';
import { addSchoolRequest } from '../../test/request-bodies';
import { checkBody } from './body-check';
import {
  AddSchoolDomainSearchRequest,
  AddSchoolNameSearchRequest,
  AddSchoolRequest,
} from './organization-schemas';

const add = addSchoolRequest;
const id = add.programId;
const { programId: _programId, ...addNoProgram } = add;
const { email: _email, ...addNoEmail } = add;
const domain = { programId: id, schoolDomain: 'x.edu', schoolCountry: 'us' };
const name = { programId: id, schoolName: 'X College', schoolCountry: 'US' };

describe('the add-school bodies', () => {
  // The messages are what the OpenAPI validator (Ajv) answered on the hand-written schemas
  // (openapi/schemas/organization.ts), captured before they were replaced by these.
  it.each<[string, z.ZodType, unknown, string | undefined]>([
    ['AddSchoolRequest', AddSchoolRequest, add, undefined],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, trackingId: 'crm-ticket 42/β' }, undefined],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, firstName: '  Ada  ', schoolCountry: 'gb' }, undefined],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, firstName: 'x'.repeat(100) }, undefined],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, firstName: '\u{1F600}'.repeat(100) }, undefined],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, firstName: 'x'.repeat(101) },
      'body.firstName must be 1 to 100 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, firstName: '   ' },
      'body.firstName must be 1 to 100 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, firstName: '' },
      'body.firstName must be 1 to 100 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, firstName: 'A\u0000da' },
      'body.firstName must be 1 to 100 characters once trimmed, without control characters',
    ],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, firstName: 42 }, 'body.firstName must be string'],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, firstName: null }, 'body.firstName must be string'],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, lastName: ['L'] }, 'body.lastName must be string'],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, email: 'e'.repeat(255) },
      'body.email must be 1 to 254 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolName: 's'.repeat(201) },
      'body.schoolName must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolDomain: 'd'.repeat(254) },
      'body.schoolDomain must be 1 to 253 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolDomain: 'a\nb.edu' },
      'body.schoolDomain must be 1 to 253 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolCountry: 'USA' },
      'body.schoolCountry must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolCountry: 'AA' },
      'body.schoolCountry must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, schoolCountry: '' },
      'body.schoolCountry must be an ISO 3166-1 alpha-2 country code',
    ],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, schoolCountry: 1 }, 'body.schoolCountry must be string'],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, programId: 'AB'.repeat(12) },
      'body.programId must match pattern "^[0-9a-f]{24}$"',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, programId: 'ab'.repeat(13) },
      'body.programId must NOT have more than 24 characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, programId: 'xyz' },
      'body.programId must match pattern "^[0-9a-f]{24}$"',
    ],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, programId: 7 }, 'body.programId must be string'],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, trackingId: '' },
      'body.trackingId must NOT have fewer than 1 characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, trackingId: 'x'.repeat(257) },
      'body.trackingId must NOT have more than 256 characters',
    ],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, trackingId: '\u{1F600}'.repeat(256) }, undefined],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, trackingId: 'a\u0000b' },
      'body.trackingId must not contain control characters',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, trackingId: ' tab\t' },
      'body.trackingId must not contain control characters',
    ],
    ['AddSchoolRequest', AddSchoolRequest, { ...add, trackingId: 42 }, 'body.trackingId must be string'],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, phone: '1' },
      'body has unexpected property phone (allowed: firstName, lastName, email, schoolName, schoolDomain, schoolCountry, programId, trackingId)',
    ],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, phone: '1', firstName: 1 },
      'body has unexpected property phone (allowed: firstName, lastName, email, schoolName, schoolDomain, schoolCountry, programId, trackingId)',
    ],
    ['AddSchoolRequest', AddSchoolRequest, addNoProgram, 'body.programId is required'],
    ['AddSchoolRequest', AddSchoolRequest, addNoEmail, 'body.email is required'],
    ['AddSchoolRequest', AddSchoolRequest, { ...addNoEmail, phone: '1' }, 'body.email is required'],
    ['AddSchoolRequest', AddSchoolRequest, { ...addNoEmail, firstName: 1 }, 'body.email is required'],
    ['AddSchoolRequest', AddSchoolRequest, {}, 'body.firstName is required'],
    ['AddSchoolRequest', AddSchoolRequest, [], 'body must be object'],
    ['AddSchoolRequest', AddSchoolRequest, 'text', 'body must be object'],
    ['AddSchoolRequest', AddSchoolRequest, null, 'body must be object'],
    [
      'AddSchoolRequest',
      AddSchoolRequest,
      { ...add, 'a/b~c': true },
      'body has unexpected property a/b~c (allowed: firstName, lastName, email, schoolName, schoolDomain, schoolCountry, programId, trackingId)',
    ],
    ['AddSchoolDomainSearchRequest', AddSchoolDomainSearchRequest, domain, undefined],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolDomain: ' Stanford.EDU ' },
      undefined,
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolDomain: '' },
      'body.schoolDomain must be 1 to 253 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolDomain: 'x'.repeat(254) },
      'body.schoolDomain must be 1 to 253 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolDomain: 'a\u0085.edu' },
      'body.schoolDomain must be 1 to 253 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolName: 'X' },
      'body has unexpected property schoolName (allowed: programId, schoolDomain, schoolCountry)',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, schoolCountry: 'XX' },
      'body.schoolCountry must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { ...domain, programId: null },
      'body.programId must be string',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { programId: id },
      'body.schoolDomain is required',
    ],
    [
      'AddSchoolDomainSearchRequest',
      AddSchoolDomainSearchRequest,
      { schoolDomain: 1, schoolCountry: 2 },
      'body.programId is required',
    ],
    ['AddSchoolDomainSearchRequest', AddSchoolDomainSearchRequest, [domain], 'body must be object'],
    ['AddSchoolNameSearchRequest', AddSchoolNameSearchRequest, name, undefined],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolName: 'n'.repeat(200) },
      undefined,
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolName: 'n'.repeat(201) },
      'body.schoolName must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolName: '\u2028' },
      'body.schoolName must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolName: true },
      'body.schoolName must be string',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolDomain: 'x.edu' },
      'body has unexpected property schoolDomain (allowed: programId, schoolName, schoolCountry)',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, schoolCountry: 'u s' },
      'body.schoolCountry must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { ...name, programId: '' },
      'body.programId must match pattern "^[0-9a-f]{24}$"',
    ],
    [
      'AddSchoolNameSearchRequest',
      AddSchoolNameSearchRequest,
      { schoolName: 'X' },
      'body.programId is required',
    ],
  ])(
    '%s: refuses or accepts %j as the OpenAPI validator did, in the same words',
    (_name, schema, body, said) => {
      expect(zodSays(schema, body)).toEqual(said);
    },
  );

  it('are typed as the schemas infer them', () => {
    const checked = checkBody(AddSchoolRequest, { ...add, trackingId: 't' });
    const body: typeof add & { trackingId?: string } = checked.ok ? checked.value : add;
    expect(body).toEqual({ ...add, trackingId: 't' });
  });
});
