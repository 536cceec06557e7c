import type { z } from 'zod';
import { zodSays } from '../../test/check-answers';
import { documentBefore as before } from '../../test/document-before';
import { createDocumentValidator } from '../../test/document-validator';
import { cursorPagingRows, readQuery } from '../../test/query-reader';
import { withoutStaffAccess } from '../../test/staff-document';
import { openApiDocument } from '../openapi/document';
import {
  AccessToken,
  AccessTokenPage,
  AccountOverview,
  AccountPage,
  adminListAccessTokens,
  adminListAccounts,
} from './admin-account-lists';

// The account and token lists are new (no hand-written schema before them): their zod checks must accept and
// refuse what the served document's JSON Schema (read by Ajv) does, in the same words; and the operations
// that were there before on the same paths stay as they were.
const schemas: Record<string, z.ZodType> = { AccountOverview, AccountPage, AccessToken, AccessTokenPage };
const { check } = createDocumentValidator();

const account = {
  accountId: 'ab'.repeat(12),
  name: 'Acme',
  created: 1_700_000_000_000,
  tokenCount: 2,
  programCount: 0,
};
const token = {
  tokenId: 'cd'.repeat(12),
  accountId: 'ab'.repeat(12),
  name: 'ci',
  roles: ['REPORTER', 'PII'],
  created: 1_700_000_000_000,
  revoked: null,
};

/** [schema, body, the one answer both give (undefined: accepted)]. */
const cases: [string, unknown, string | undefined][] = [
  ['AccountOverview', account, undefined],
  ['AccountOverview', { ...account, tokenCount: -1 }, 'body.tokenCount must be >= 0'],
  ['AccountOverview', { ...account, programCount: 1.5 }, 'body.programCount must be integer'],
  [
    'AccountOverview',
    { accountId: 'ab'.repeat(12), name: 'Acme', created: 1 },
    'body.tokenCount is required',
  ],
  ['AccountPage', { accounts: [account], nextCursor: 'abc' }, undefined],
  ['AccountPage', { accounts: [], nextCursor: null }, undefined],
  ['AccountPage', { accounts: [] }, 'body.nextCursor is required'],
  ['AccessToken', token, undefined],
  ['AccessToken', { ...token, roles: [], revoked: 1_700_000_000_001 }, undefined],
  [
    'AccessToken',
    { ...token, roles: ['ADMIN'] },
    'body.roles[0] must be one of REPORTER, PII, BULK_VERIFIER',
  ],
  ['AccessTokenPage', { tokens: [token], nextCursor: null }, undefined],
];

describe('the account list schemas', () => {
  it.each(cases)('%s: answers %j as the document says', (name, body, answer) => {
    expect(zodSays(schemas[name]!, body)).toBe(answer);
    expect(check(name, body)).toBe(answer);
  });

  it('never state a credential of a token', () => {
    expect(Object.keys(AccessToken.shape).sort()).toEqual(
      ['accountId', 'created', 'name', 'revoked', 'roles', 'tokenId'].sort(),
    );
  });
});

describe('the account list queries', () => {
  it.each<[typeof adminListAccounts | typeof adminListAccessTokens, Record<string, unknown>, unknown]>([
    ...cursorPagingRows('name, limit, cursor').map(
      ([query, answer]) =>
        [adminListAccounts, query, answer] as [typeof adminListAccounts, typeof query, unknown],
    ),
    [adminListAccounts, { name: 'acme', limit: '2' }, { name: 'acme', limit: 2 }],
    [adminListAccounts, { name: '50% off_' }, { name: '50% off_' }],
    [adminListAccounts, { name: 'x'.repeat(100) }, { name: 'x'.repeat(100) }],
    [adminListAccounts, { name: 'x'.repeat(101) }, 'query.name must be at most 100 characters'],
    [adminListAccounts, { name: '\tacme' }, 'query.name must not contain control characters'],
    [adminListAccounts, { name: '' }, 'query.name must not be empty (leave it out instead)'],
    [adminListAccessTokens, { limit: '100', cursor: 'abc' }, { limit: 100, cursor: 'abc' }],
    [adminListAccessTokens, { name: 'ci' }, 'query has unexpected parameter name (allowed: limit, cursor)'],
  ])('%#: reads %j', (endpoint, query, expected) => {
    expect(readQuery(endpoint, query)).toEqual(expected);
  });
});

describe('the account paths', () => {
  const now = withoutStaffAccess(openApiDocument('https://eligo.test') as typeof before);

  it.each(['/accounts', '/accounts/{accountId}/tokens'])(
    'keep the POST of %s as the hand-written document stated it, and add the GET',
    (path) => {
      const { get, ...rest } = now.paths[path]!;
      expect(rest).toEqual(before.paths[path]);
      expect(get).toMatchObject({ tags: ['admin'], security: [{ operatorToken: [] }] });
    },
  );

  it('answer an unknown account 404 and a bad list query 400 ER', () => {
    const tokens = now.paths['/accounts/{accountId}/tokens']!.get as { responses: Record<string, unknown> };
    expect(Object.keys(tokens.responses).sort()).toEqual(['200', '400', '401', '404', '431', '500', '503']);
    expect(tokens.responses['400']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    });
    const one = now.paths['/accounts/{accountId}']!.get as { responses: Record<string, unknown> };
    expect(Object.keys(one.responses).sort()).toEqual(['200', '400', '401', '404', '431', '500', '503']);
  });
});
