import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { NO_CONTROL_CHARACTERS, patternMessage, plainText } from '../openapi/schemas/text';
import { TokenRole } from './admin-accounts';
import { adminOperation, pageCursor, unauthorized } from './admin-common';
import { er, hexIdParameter, sem } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { integer, text } from './query';
import { orNull } from './schemas-nullable';
import { epochMs, integerValue } from './schemas-numbers';

/**
 * What the staff console lists of accounts and their access tokens under /rest/admin/v1 (docs/operations.md,
 * "Accounts, access tokens and programs"), described once. The routes are routes/admin/account-lists.ts, the
 * mapping mapping/admin-lists.ts; the programs service pages them (ListAccounts, ListAccessTokens), newest
 * first, and issues the cursors. The list parameters the program lists share are here too.
 */

/** nextCursor of every page of these lists. */
export const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Pass as cursor for the next page; null on the last page.' });

/** limit and cursor of a list: the admin API's convention (50 by default; the service's own default is 25). */
export const listPaging = {
  limit: integer({ description: 'Page size (default 50)', min: 1, max: 100, fallback: 50 }).optional(),
  cursor: pageCursor(
    'nextCursor of the previous page, as it came (opaque); left out for the first page',
  ).optional(),
};

/** The service's name filter: a substring, at most 100 characters, none of them a control character. */
export const nameFilter = (description: string) =>
  text({
    description: `${description} (a substring of the name, ignoring case; at most 100 characters)`,
    maxLength: 100,
    schema: plainText(100, 1),
    pattern: { source: NO_CONTROL_CHARACTERS, message: patternMessage(NO_CONTROL_CHARACTERS)! },
  });

export const badListQuery = er(
  'A query parameter the operation does not have, an empty value (leave the parameter out instead), a value ' +
    'that does not match its schema, or a cursor that is not a nextCursor of this list (a cursor is opaque: ' +
    'only a nextCursor reads back) (errorIds [invalidRequest])',
);

export const AccountOverview = z
  .object({
    accountId: z.string().regex(new RegExp(ID_PATTERN)),
    name: z.string(),
    created: epochMs(),
    tokenCount: integerValue().min(0).meta({ description: 'Access tokens of the account not revoked.' }),
    programCount: integerValue()
      .min(0)
      .meta({ description: 'Programs of the account, test and live (programs are never deleted).' }),
  })
  .meta({ id: 'AccountOverview', description: 'An account and how much it uses.' });

export const AccountPage = z
  .object({ accounts: z.array(AccountOverview).meta({ description: 'Newest first.' }), nextCursor })
  .meta({ id: 'AccountPage' });

export const AccessToken = z
  .object({
    tokenId: z.string(),
    accountId: z.string().regex(new RegExp(ID_PATTERN)),
    name: z.string(),
    roles: z.array(TokenRole),
    created: epochMs(),
    revoked: orNull(
      epochMs(
        'When the token, its client credentials and their OAuth tokens stopped working; null while live.',
      ),
    ),
  })
  .meta({
    id: 'AccessToken',
    description:
      'An access token without any credential: the token and the client secret are shown once, on creation, ' +
      'and only their hashes are kept. Static tokens do not expire.',
  });

export const AccessTokenPage = z
  .object({
    tokens: z.array(AccessToken).meta({ description: 'Newest first, revoked ones included.' }),
    nextCursor,
  })
  .meta({ id: 'AccessTokenPage' });

const accountParams = z.object({ accountId: hexIdParameter('An account') });
const noAccount = sem('No such account');

export const adminListAccounts = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/accounts',
  operationId: 'adminListAccounts',
  summary: 'Accounts with their numbers of tokens and programs, newest first, one page at a time',
  strictQuery: true,
  query: z.object({ name: nameFilter('Only accounts whose name contains this').optional(), ...listPaging }),
  responses: {
    '200': { description: 'One page of accounts', body: AccountPage },
    '400': badListQuery,
    ...unauthorized,
  },
});

export const adminGetAccount = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/accounts/{accountId}',
  operationId: 'adminGetAccount',
  summary: 'An account with its numbers of tokens and programs',
  params: accountParams,
  responses: {
    '200': { description: 'The account', body: AccountOverview },
    ...unauthorized,
    '404': noAccount,
  },
});

export const adminListAccessTokens = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/accounts/{accountId}/tokens',
  operationId: 'adminListAccessTokens',
  summary: "The account's access tokens, newest first, revoked ones included, without any credential",
  params: accountParams,
  strictQuery: true,
  query: z.object(listPaging),
  responses: {
    '200': { description: 'One page of tokens', body: AccessTokenPage },
    '400': badListQuery,
    ...unauthorized,
    '404': noAccount,
  },
});

export type AccountListQuery = QueryOf<typeof adminListAccounts>;
export type AccessTokenListQuery = QueryOf<typeof adminListAccessTokens>;
/** The JSON the mapping writes (mapping/admin-lists.ts). */
export type AccountOverviewJson = z.input<typeof AccountOverview>;
export type AccountPageJson = z.input<typeof AccountPage>;
export type AccessTokenJson = z.input<typeof AccessToken>;
export type AccessTokenPageJson = z.input<typeof AccessTokenPage>;

export const adminAccountListEndpoints = [adminListAccounts, adminGetAccount, adminListAccessTokens] as const;
