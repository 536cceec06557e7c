import { ID_PATTERN } from '@eligo/vocabulary';
import { trimmedName } from './text';

const id24 = { type: 'string', pattern: ID_PATTERN } as const;
const epochMs = { type: 'integer', description: 'Epoch milliseconds.' } as const;

/** Accounts and their access tokens (admin API). */
export const accountSchemas = {
  AccountCreateRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { ...trimmedName(200), description: 'Trimmed; 1 to 200 characters, no control characters.' },
    },
  },
  Account: {
    type: 'object',
    required: ['accountId', 'name', 'created'],
    properties: { accountId: id24, name: { type: 'string' }, created: epochMs },
  },
  TokenRole: {
    type: 'string',
    enum: ['REPORTER', 'PII', 'BULK_VERIFIER'],
    description:
      'REPORTER may request reports; PII may read personal information (details, reports with PII); ' +
      'BULK_VERIFIER may start bulk re-verification.',
  },
  AccessTokenCreateRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: {
        ...trimmedName(100),
        description:
          'A label to recognise the token by (trimmed; 1 to 100 characters, no control characters).',
      },
      roles: {
        type: 'array',
        maxItems: 3,
        uniqueItems: true,
        items: { $ref: '#/components/schemas/TokenRole' },
      },
    },
  },
  AccessTokenCreated: {
    type: 'object',
    description:
      'A new static token and the OAuth 2.0 client credentials issued with it. The secrets (token, ' +
      'clientSecret) are shown only in this reply; only their hashes are stored.',
    required: ['tokenId', 'token', 'clientId', 'clientSecret', 'name', 'roles', 'created'],
    properties: {
      tokenId: { type: 'string', description: 'Names the token in DELETE .../tokens/{tokenId}.' },
      token: { type: 'string', description: 'The bearer token: `Authorization: Bearer <token>`.' },
      clientId: { type: 'string' },
      clientSecret: { type: 'string' },
      name: { type: 'string' },
      roles: { type: 'array', items: { $ref: '#/components/schemas/TokenRole' } },
      created: epochMs,
    },
  },
} as const;
