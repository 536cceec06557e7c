import type { z } from 'zod';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { expectSchemasAsBefore } from '../../test/document-before';
import { checkBody } from './body-check';
import {
  AccessTokenCreated,
  AccessTokenCreateRequest,
  Account,
  AccountCreateRequest,
  adminAccountEndpoints,
  TokenRole,
  type AccessTokenCreateBody,
  type AccessTokenCreatedJson,
} from './admin-accounts';
import { endpointDocument } from './openapi';

// The OpenAPI validator (Ajv) as it checked the hand-written schemas, over the document captured before the
// endpoints became definitions: the zod checks must accept and refuse the same bodies, in the same words.
const schemas: Record<string, z.ZodType> = {
  AccountCreateRequest,
  AccessTokenCreateRequest,
  Account,
  AccessTokenCreated,
  TokenRole,
};

describe('the admin account endpoint definitions', () => {
  it('state the schemas the hand-written document stated, names included', () => {
    const { schemas: stated } = endpointDocument(adminAccountEndpoints, 'https://eligo.test');
    expect(Object.keys(stated).sort()).toEqual(Object.keys(schemas).sort());
    expectSchemasAsBefore(stated);
  });
});

const created = {
  tokenId: 'ef'.repeat(12),
  token: 'eligo_token',
  clientId: 'client',
  clientSecret: 'secret',
  name: 'ci',
  roles: ['PII'],
  created: 1_700_000_000_000,
};

/** [schema, body, what the OpenAPI validator answered (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  ['AccountCreateRequest', { name: 'Acme' }, undefined],
  ['AccountCreateRequest', { name: '  Acme  ' }, undefined],
  ['AccountCreateRequest', { name: '\u{1F600}'.repeat(200) }, undefined],
  ['AccountCreateRequest', {}, 'body.name is required'],
  ['AccountCreateRequest', { name: null }, 'body.name must be string'],
  ['AccountCreateRequest', { name: 5, extra: 1 }, 'body has unexpected property extra (allowed: name)'],
  ['AccountCreateRequest', { name: 'Acme', extra: 1 }, 'body has unexpected property extra (allowed: name)'],
  [
    'AccountCreateRequest',
    { name: ' \t ' },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  [
    'AccountCreateRequest',
    { name: 'x'.repeat(201) },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  [
    'AccountCreateRequest',
    { name: 'Ac\u0000me' },
    'body.name must be 1 to 200 characters once trimmed, without control characters',
  ],
  ['AccountCreateRequest', [], 'body must be object'],
  ['AccessTokenCreateRequest', { name: 'ci' }, undefined],
  ['AccessTokenCreateRequest', { name: 't', roles: ['REPORTER', 'PII', 'BULK_VERIFIER'] }, undefined],
  ['AccessTokenCreateRequest', { name: 't', roles: [] }, undefined],
  ['AccessTokenCreateRequest', { roles: ['PII'] }, 'body.name is required'],
  [
    'AccessTokenCreateRequest',
    { name: 'web\nhook' },
    'body.name must be 1 to 100 characters once trimmed, without control characters',
  ],
  [
    'AccessTokenCreateRequest',
    { name: 'x'.repeat(101) },
    'body.name must be 1 to 100 characters once trimmed, without control characters',
  ],
  [
    'AccessTokenCreateRequest',
    { name: 't', roles: ['ADMIN'] },
    'body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER',
  ],
  ['AccessTokenCreateRequest', { name: 't', roles: [5] }, 'body.roles[0] must be string'],
  ['AccessTokenCreateRequest', { name: 't', roles: 'PII' }, 'body.roles must be array'],
  [
    'AccessTokenCreateRequest',
    { name: 't', roles: ['PII', 'PII'] },
    'body.roles must NOT have duplicate items (items ## 0 and 1 are identical)',
  ],
  [
    'AccessTokenCreateRequest',
    { name: 't', roles: ['PII', 'REPORTER', 'PII', 'REPORTER'] },
    'body.roles must NOT have more than 3 items',
  ],
  [
    'AccessTokenCreateRequest',
    { name: 't', roles: ['BULK_VERIFIER', 'ADMIN', 'BULK_VERIFIER'] },
    'body.roles[1] must be one of REPORTER, PII, BULK_VERIFIER',
  ],
  [
    'AccessTokenCreateRequest',
    { name: 't', scopes: [] },
    'body has unexpected property scopes (allowed: name, roles)',
  ],
  ['Account', { accountId: 'ab'.repeat(12), name: 'Acme', created: 1_700_000_000_000 }, undefined],
  ['Account', { accountId: 'ab'.repeat(12), name: 'Acme' }, 'body.created is required'],
  ['AccessTokenCreated', created, undefined],
  [
    'AccessTokenCreated',
    { ...created, roles: ['ADMIN'] },
    'body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER',
  ],
  ['TokenRole', 'REPORTER', undefined],
  ['TokenRole', 'reporter', 'body must be one of REPORTER, PII, BULK_VERIFIER'],
];

describe('the body checks of the admin account endpoints', () => {
  it.each(cases)('%s: answers %j as the OpenAPI validator did', (name, body, answer) => {
    expect(zodSays(schemas[name]!, body)).toBe(answer);
    expect(ajvSaidBefore(name, body)).toBe(answer);
  });

  it('type the bodies and the answers as their schemas', () => {
    const checked = checkBody(AccessTokenCreateRequest, { name: 'ci', roles: ['PII'] });
    const body: AccessTokenCreateBody | undefined = checked.ok ? checked.value : undefined;
    expect(body?.roles).toEqual(['PII']);
    const answer: AccessTokenCreatedJson = { ...created, roles: ['PII', 'BULK_VERIFIER'] };
    expect(checkBody(AccessTokenCreated, answer).ok).toBe(true);
  });
});
