import { zodSays } from '../../test/check-answers';
import { readQuery, tokenPagingRows } from '../../test/query-reader';
import { importColumns } from '../import/organization-rows';
import { OrganizationImportRow } from './admin-organization-import';
import { AddSchoolAcceptRequest, AddSchoolDeclineRequest } from './admin-organization-schemas';
import { listAddSchoolRequests } from './admin-organizations';

// What the OpenAPI validator (Ajv over the hand-written openapi/schemas/organization-admin.ts) answered for
// each body, and what the hand-written readers (validation/query-params.ts) answered for each query,
// captured before the schemas became the definitions' zod schemas: the definitions must answer the same.

describe('AddSchoolAcceptRequest', () => {
  it.each<[unknown, string | undefined]>([
    [{ type: 'UNIVERSITY' }, undefined],
    [{}, 'body.type is required'],
    [[], 'body must be object'],
    [null, 'body must be object'],
    ['x', 'body must be object'],
    [7, 'body must be object'],
    [
      { type: 'university' },
      'body.type must be one of UNIVERSITY, POST_SECONDARY, HIGH_SCHOOL, K12, MILITARY, FIRST_RESPONDER, MEDICAL, CORPORATE, MEMBERSHIP, NON_PROFIT, GOVERNMENT, OTHER',
    ],
    [{ type: 7 }, 'body.type must be string'],
    [{ type: null }, 'body.type must be string'],
    [
      { type: 'UNIVERSITY', extra: 1 },
      'body has unexpected property extra (allowed: type, name, country, domains, city, state)',
    ],
    [{ extra: 1 }, 'body.type is required'],
    [{ type: 'UNIVERSITY', name: '  Springfield College ' }, undefined],
    [
      { type: 'UNIVERSITY', name: '   ' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [{ type: 'UNIVERSITY', name: 'x'.repeat(200) }, undefined],
    [
      { type: 'UNIVERSITY', name: 'x'.repeat(201) },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [{ type: 'UNIVERSITY', name: '😀'.repeat(200) }, undefined],
    [
      { type: 'UNIVERSITY', name: 'a\u0000b' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [{ type: 'UNIVERSITY', name: 5 }, 'body.name must be string'],
    [{ type: 'UNIVERSITY', country: 'us' }, undefined],
    [{ type: 'UNIVERSITY', country: 'ZZ' }, 'body.country must be an ISO 3166-1 alpha-2 country code'],
    [{ type: 'UNIVERSITY', country: 'USA' }, 'body.country must be an ISO 3166-1 alpha-2 country code'],
    [{ type: 'UNIVERSITY', country: 1 }, 'body.country must be string'],
    [{ type: 'UNIVERSITY', domains: [] }, undefined],
    [{ type: 'UNIVERSITY', domains: ['stanford.edu', 'CS.Ox.ac.uk'] }, undefined],
    [
      { type: 'UNIVERSITY', domains: ['localhost'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      { type: 'UNIVERSITY', domains: ['-a.edu'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      { type: 'UNIVERSITY', domains: ['x'.repeat(250) + '.edu'] },
      'body.domains[0] must NOT have more than 253 characters',
    ],
    [{ type: 'UNIVERSITY', domains: 'a.edu' }, 'body.domains must be array'],
    [
      { type: 'UNIVERSITY', domains: Array(21).fill('a.edu') },
      'body.domains must NOT have more than 20 items',
    ],
    [{ type: 'UNIVERSITY', domains: Array(21).fill(1) }, 'body.domains must NOT have more than 20 items'],
    [{ type: 'UNIVERSITY', domains: ['a.edu', 2] }, 'body.domains[1] must be string'],
    [{ type: 'UNIVERSITY', city: '' }, undefined],
    [{ type: 'UNIVERSITY', city: 'x'.repeat(100) }, undefined],
    [{ type: 'UNIVERSITY', city: 'x'.repeat(101) }, 'body.city must NOT have more than 100 characters'],
    [{ type: 'UNIVERSITY', city: '😀'.repeat(100) }, undefined],
    [{ type: 'UNIVERSITY', city: 'a\tb' }, 'body.city must not contain control characters'],
    [{ type: 'UNIVERSITY', state: 'a\u2028' }, 'body.state must not contain control characters'],
    [{ type: 'UNIVERSITY', state: null }, 'body.state must be string'],
    [
      {
        type: 'UNIVERSITY',
        name: 'Springfield College',
        country: 'US',
        domains: ['springfield.edu'],
        city: 'Springfield',
        state: 'IL',
      },
      undefined,
    ],
    [
      { type: 'HIGH_SCHOOL', name: 'École Polytechnique', country: 'fr', domains: [], city: '', state: '  ' },
      undefined,
    ],
    [
      {
        type: 'UNIVERSITY',
        domains: ['a'.repeat(63) + '.' + 'b'.repeat(63) + '.' + 'c'.repeat(63) + '.' + 'd'.repeat(61)],
      },
      undefined,
    ],
    [
      { type: 'UNIVERSITY', domains: ['a'.repeat(64) + '.edu'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      { type: 'UNIVERSITY', domains: ['a..edu'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [
      { type: 'UNIVERSITY', domains: ['a.edu.'] },
      'body.domains[0] must be a host name of letters, digits, hyphens and periods (e.g. example.edu)',
    ],
    [{ type: 'UNIVERSITY', name: ' Name　' }, undefined],
    [
      { type: 'UNIVERSITY', name: 'a\u2028b' },
      'body.name must be 1 to 200 characters once trimmed, without control characters',
    ],
    [{ type: 'UNIVERSITY', domains: [{}] }, 'body.domains[0] must be string'],
    [{ type: 'UNIVERSITY', domains: null }, 'body.domains must be array'],
    [
      { type: 'BAD', name: 1, extra: 1 },
      'body has unexpected property extra (allowed: type, name, country, domains, city, state)',
    ],
    [{ name: 1, extra: 1 }, 'body.type is required'],
    [{ type: 'UNIVERSITY', name: 1, country: 'ZZ' }, 'body.name must be string'],
    [{ type: 'UNIVERSITY', country: 'ZZ', name: 1 }, 'body.name must be string'],
  ])('judges %j as the OpenAPI validator did', (body, expected) => {
    expect(zodSays(AddSchoolAcceptRequest, body)).toBe(expected);
  });
});

describe('AddSchoolDeclineRequest', () => {
  it.each<[unknown, string | undefined]>([
    [{}, undefined],
    [{ reason: 'Not a school' }, undefined],
    [{ reason: 'line 1\nline 2\ttab\r\n' }, undefined],
    [
      { reason: 'a\u0000' },
      'body.reason must not contain control characters other than tabs and line breaks',
    ],
    [
      { reason: 'a\u000b' },
      'body.reason must not contain control characters other than tabs and line breaks',
    ],
    [{ reason: 'x'.repeat(500) }, undefined],
    [{ reason: 'x'.repeat(501) }, 'body.reason must NOT have more than 500 characters'],
    [{ reason: '😀'.repeat(500) }, undefined],
    [{ reason: '😀'.repeat(501) }, 'body.reason must NOT have more than 500 characters'],
    [{ reason: '' }, undefined],
    [
      { reason: 'a\u0085' },
      'body.reason must not contain control characters other than tabs and line breaks',
    ],
    [
      { reason: 'a\u2029' },
      'body.reason must not contain control characters other than tabs and line breaks',
    ],
    [{ reason: ['x'] }, 'body.reason must be string'],
    [{ reason: 5 }, 'body.reason must be string'],
    [{ reason: null }, 'body.reason must be string'],
    [{ reason: 'x', other: 1 }, 'body has unexpected property other (allowed: reason)'],
    [[], 'body must be object'],
    [null, 'body must be object'],
    ['reason', 'body must be object'],
  ])('judges %j as the OpenAPI validator did', (body, expected) => {
    expect(zodSays(AddSchoolDeclineRequest, body)).toBe(expected);
  });
});

// The NDJSON row is documentation (the import reads its lines itself, import/organization-rows.ts), stated as
// before: a line the document refuses, Ajv refused in the same words.
describe('OrganizationImportRow', () => {
  it('names the columns of the import', () => {
    expect(Object.keys(OrganizationImportRow.shape)).toEqual([...importColumns]);
  });

  it.each<[unknown, string | undefined]>([
    [{ externalId: 'k1', name: 'A', type: 'OTHER', country: 'US' }, undefined],
    [{}, 'body.externalId is required'],
    [{ externalId: 'k1' }, 'body.name is required'],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', x: 1 },
      'body has unexpected property x (allowed: externalId, name, type, country, domains, city, state, loginUrl)',
    ],
    [
      { externalId: ' ', name: 'A', type: 'OTHER', country: 'US' },
      'body.externalId must be 1 to 200 characters once trimmed, without control characters',
    ],
    [
      { externalId: 'k1', name: 'A', type: 'other', country: 'us' },
      'body.type must be one of UNIVERSITY, POST_SECONDARY, HIGH_SCHOOL, K12, MILITARY, FIRST_RESPONDER, MEDICAL, CORPORATE, MEMBERSHIP, NON_PROFIT, GOVERNMENT, OTHER',
    ],
    [
      {
        externalId: 'k1',
        name: 'A',
        type: 'OTHER',
        country: 'US',
        city: null,
        state: null,
        loginUrl: null,
        domains: ['a.edu'],
      },
      undefined,
    ],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', city: 'x'.repeat(101) },
      'body.city must NOT have more than 100 characters',
    ],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', city: 'a\u0000' },
      'body.city must not contain control characters',
    ],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', city: 5 },
      'body.city must be string or null',
    ],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', loginUrl: 'x'.repeat(2049) },
      'body.loginUrl must NOT have more than 2048 characters',
    ],
    [
      { externalId: 'k1', name: 'A', type: 'OTHER', country: 'US', domains: null },
      'body.domains must be array',
    ],
  ])('judges %j as the OpenAPI validator did', (body, expected) => {
    expect(zodSays(OrganizationImportRow, body)).toBe(expected);
  });
});

describe('GET /addSchoolRequests', () => {
  it.each<[Record<string, unknown>, unknown]>([
    ...tokenPagingRows('status, programId, pageSize, pageToken'),
    [{ status: 'PENDING' }, { status: 'PENDING' }],
    [{ status: 'pending' }, 'query.status must be one of PENDING, ACCEPTED, DECLINED'],
    [{ status: 'parked' }, 'query.status must be one of PENDING, ACCEPTED, DECLINED'],
    [{ status: 'all' }, 'query.status must be one of PENDING, ACCEPTED, DECLINED'],
    [{ status: 'open' }, 'query.status must be one of PENDING, ACCEPTED, DECLINED'],
    [{ status: ['pending', 'approved'] }, 'query.status must be given once, as a plain value'],
    [{ programId: 'abababababababababababab' }, { programId: 'abababababababababababab' }],
    [{ programId: 'ABABABABABABABABABABABAB' }, 'query.programId must be 24 lowercase hex characters'],
    [
      { status: 'ACCEPTED', programId: 'abababababababababababab', pageSize: '10', pageToken: 't' },
      { status: 'ACCEPTED', programId: 'abababababababababababab', pageSize: 10, pageToken: 't' },
    ],
  ])('reads %j as the hand-written readers did', (query, expected) => {
    expect(readQuery(listAddSchoolRequests, query)).toEqual(expected);
  });
});
