import { programsV1 } from '@eligo/proto';
import { invalidArgument, notFound } from '@eligo/runtime';
import type { ProgramsClient } from '../../clients/programs.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// The staff console's reads of accounts and tokens under /rest/admin/v1 as mounted by mountRest, against a
// recording programs stand-in: REST limit/cursor become page_size/page_token (50 when left out), the name
// filter name_contains, a bad id is 404 and a bad query 400 before any call, the service's refusals keep their
// status, and every answer is the document's (the test app checks each JSON answer against it).
const accountId = 'cd'.repeat(12);
const otherId = 'ef'.repeat(12);
const { TOKEN_ROLE_REPORTER, TOKEN_ROLE_PII } = programsV1.TokenRole;
const created = new Date(1_700_000_000_000);

const calls: [string, unknown][] = [];
const programs = standIn<ProgramsClient>('programs', {
  listAccounts: async (req: programsV1.ListAccountsRequest): Promise<programsV1.ListAccountsResponse> => {
    calls.push(['listAccounts', req]);
    if (req.pageToken === 'forged') throw invalidArgument('pageToken: is not a nextPageToken of this list');
    return {
      accounts: [{ accountId, name: 'Acme', createdAt: created, tokenCount: 2, programCount: 3 }],
      nextPageToken: req.pageToken ? '' : 'next-1',
    };
  },
  getAccount: async (req: programsV1.GetAccountRequest): Promise<programsV1.GetAccountResponse> => {
    calls.push(['getAccount', req]);
    if (req.accountId !== accountId) throw notFound('Account not found');
    return { account: { accountId, name: 'Acme', createdAt: created, tokenCount: 0, programCount: 1 } };
  },
  listAccessTokens: async (
    req: programsV1.ListAccessTokensRequest,
  ): Promise<programsV1.ListAccessTokensResponse> => {
    calls.push(['listAccessTokens', req]);
    if (req.accountId !== accountId) throw notFound('Account not found');
    return {
      tokens: [
        {
          tokenId: 'aa'.repeat(12),
          accountId,
          name: 'web',
          // A role this gateway does not know (a newer service) is left out of the answer.
          roles: [TOKEN_ROLE_PII, TOKEN_ROLE_REPORTER, 99 as programsV1.TokenRole],
          createdAt: new Date(1_700_000_000_500),
          revokedAt: new Date(1_700_000_001_000),
        },
        { tokenId: 'bb'.repeat(12), accountId, name: 'ci', roles: [], createdAt: created },
      ],
      nextPageToken: '',
    };
  },
});

let app: TestRestApp;
let url: string;
beforeAll(async () => {
  app = await startTestRestApp({ programs });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
});

async function get(path: string, token = TEST_OPERATOR_TOKEN) {
  const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const refused = (message: string) => [400, { errorIds: ['invalidRequest'], systemErrorMessage: message }];

describe('GET /accounts', () => {
  it('lists a page with the counts, 50 a page by default', async () => {
    const res = await get('/accounts');
    expect([res.status, res.body]).toEqual([
      200,
      {
        accounts: [{ accountId, name: 'Acme', created: 1_700_000_000_000, tokenCount: 2, programCount: 3 }],
        nextCursor: 'next-1',
      },
    ]);
    expect(calls).toEqual([['listAccounts', { pageSize: 50, pageToken: '', nameContains: '' }]]);
  });

  it('passes the name filter, the limit and the cursor on; the last page has nextCursor null', async () => {
    const res = await get('/accounts?name=50%25%20off&limit=2&cursor=next-1');
    expect(res.body).toMatchObject({ nextCursor: null });
    expect(calls).toEqual([['listAccounts', { pageSize: 2, pageToken: 'next-1', nameContains: '50% off' }]]);
  });

  it.each([
    ['?limit=0', 'query.limit must be an integer from 1 to 100'],
    ['?name=', 'query.name must not be empty (leave it out instead)'],
    ['?sort=name', 'query has unexpected parameter sort (allowed: name, limit, cursor)'],
  ])('refuses %s before any call', async (query, message) => {
    const res = await get(`/accounts${query}`);
    expect([res.status, res.body]).toEqual(refused(message));
    expect(calls).toEqual([]);
  });

  it("answers a cursor the service did not give 400 invalidRequest (the service's INVALID_ARGUMENT)", async () => {
    const res = await get('/accounts?cursor=forged');
    expect([res.status, res.body]).toEqual(refused('pageToken: is not a nextPageToken of this list'));
  });

  it('is refused without the operator token or a staff session', async () => {
    expect((await get('/accounts', 'eligo_account_token')).status).toBe(401);
    expect(calls).toEqual([]);
  });
});

describe('GET /accounts/{accountId}', () => {
  it('answers the account with its counts', async () => {
    const res = await get(`/accounts/${accountId}`);
    expect([res.status, res.body]).toEqual([
      200,
      { accountId, name: 'Acme', created: 1_700_000_000_000, tokenCount: 0, programCount: 1 },
    ]);
    expect(calls).toEqual([['getAccount', { accountId }]]);
  });

  it("answers an unknown account 404 (the service's), and one that cannot be an id without a call", async () => {
    expect(await get(`/accounts/${otherId}`)).toEqual({
      status: 404,
      body: { systemErrorMessage: 'Account not found' },
    });
    calls.length = 0;
    expect(await get('/accounts/ACME')).toEqual({
      status: 404,
      body: { systemErrorMessage: 'Account not found' },
    });
    expect(calls).toEqual([]);
  });
});

describe('GET /accounts/{accountId}/tokens', () => {
  it('lists the tokens without credentials, revoked ones with their time', async () => {
    const res = await get(`/accounts/${accountId}/tokens?limit=100`);
    expect([res.status, res.body]).toEqual([
      200,
      {
        tokens: [
          {
            tokenId: 'aa'.repeat(12),
            accountId,
            name: 'web',
            roles: ['REPORTER', 'PII'],
            created: 1_700_000_000_500,
            revoked: 1_700_000_001_000,
          },
          {
            tokenId: 'bb'.repeat(12),
            accountId,
            name: 'ci',
            roles: [],
            created: 1_700_000_000_000,
            revoked: null,
          },
        ],
        nextCursor: null,
      },
    ]);
    expect(calls).toEqual([['listAccessTokens', { accountId, pageSize: 100, pageToken: '' }]]);
  });

  it('answers an unknown account 404, and a bad id 404 before the query is looked at', async () => {
    expect((await get(`/accounts/${otherId}/tokens`)).status).toBe(404);
    calls.length = 0;
    expect((await get('/accounts/ACME/tokens?limit=0')).status).toBe(404);
    expect((await get(`/accounts/${accountId}/tokens?limit=0`)).status).toBe(400);
    expect(calls).toEqual([]);
  });
});
