import { z } from 'zod';
import { ID_PATTERN } from '@eligo/vocabulary';
import { tokenRoleNames } from '../auth/principal';
import { trimmedName } from '../openapi/schemas/text';
import { adminOperation, unauthorized } from './admin-common';
import { hexIdParameter, sem, withBody } from './common';
import { defineEndpoint, type BodyOf } from './define';
import { fromStringSchema, uniqueItems } from './schemas';
import { epochMs } from './schemas-numbers';

/**
 * The admin API's accounts and their access tokens (operator token), described once: the routes
 * (routes/admin/accounts.ts) register them by these paths and check bodies with these schemas; the mapping
 * (mapping/account.ts) writes the answers' JSON types, which come from here.
 */

export const TokenRole = z.enum(tokenRoleNames).meta({
  id: 'TokenRole',
  description:
    'REPORTER may request reports; PII may read personal information (details, reports with PII); ' +
    'BULK_VERIFIER may start bulk re-verification.',
});

export const AccountCreateRequest = z
  .strictObject({
    name: fromStringSchema(trimmedName(200)).meta({
      description: 'Trimmed; 1 to 200 characters, no control characters.',
    }),
  })
  .meta({ id: 'AccountCreateRequest' });

export const Account = z
  .object({ accountId: z.string().regex(new RegExp(ID_PATTERN)), name: z.string(), created: epochMs() })
  .meta({ id: 'Account' });

export const AccessTokenCreateRequest = z
  .strictObject({
    name: fromStringSchema(trimmedName(100)).meta({
      description: 'A label to recognise the token by (trimmed; 1 to 100 characters, no control characters).',
    }),
    roles: uniqueItems(z.array(TokenRole).max(tokenRoleNames.length)).optional(),
  })
  .meta({ id: 'AccessTokenCreateRequest' });

export const AccessTokenCreated = z
  .object({
    tokenId: z.string().meta({ description: 'Names the token in DELETE .../tokens/{tokenId}.' }),
    token: z.string().meta({ description: 'The bearer token: `Authorization: Bearer <token>`.' }),
    clientId: z.string(),
    clientSecret: z.string(),
    name: z.string(),
    roles: z.array(TokenRole),
    created: epochMs(),
  })
  .meta({
    id: 'AccessTokenCreated',
    description:
      'A new static token and the OAuth 2.0 client credentials issued with it. The secrets (token, ' +
      'clientSecret) are shown only in this reply; only their hashes are stored.',
  });

const accountId = hexIdParameter('An account');

export const adminCreateAccount = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/accounts',
  operationId: 'adminCreateAccount',
  summary: 'Creates an account',
  body: AccountCreateRequest,
  responses: { '201': { description: 'The account', body: Account }, ...withBody, ...unauthorized },
});

export const adminCreateAccessToken = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/accounts/{accountId}/tokens',
  operationId: 'adminCreateAccessToken',
  summary: 'Issues a static access token and OAuth client credentials for the account',
  description: 'The token and the client secret are in this reply only (`Cache-Control: no-store`).',
  params: z.object({ accountId }),
  body: AccessTokenCreateRequest,
  responses: {
    '201': { description: 'The token and credentials', body: AccessTokenCreated },
    ...withBody,
    ...unauthorized,
    '404': sem('No such account'),
  },
});

export const adminRevokeAccessToken = defineEndpoint({
  ...adminOperation,
  method: 'delete',
  path: '/accounts/{accountId}/tokens/{tokenId}',
  operationId: 'adminRevokeAccessToken',
  summary: 'Revokes a token, its client credentials and the OAuth access tokens issued with them',
  description: 'Every gateway refuses the token within a second.',
  params: z.object({
    accountId,
    tokenId: hexIdParameter('A token of the account (tokenId from its creation)'),
  }),
  responses: {
    '204': { description: 'Revoked' },
    ...unauthorized,
    '404': sem('No such account, or no such token of the account'),
  },
});

export type AccountCreateBody = BodyOf<typeof adminCreateAccount>;
export type AccessTokenCreateBody = BodyOf<typeof adminCreateAccessToken>;
/** The JSON the mapping writes (mapping/account.ts). */
export type AccountJson = z.input<typeof Account>;
export type AccessTokenCreatedJson = z.input<typeof AccessTokenCreated>;

export const adminAccountEndpoints = [
  adminCreateAccount,
  adminCreateAccessToken,
  adminRevokeAccessToken,
] as const;
