import { programsProgramV1, type programsV1 } from '@eligo/proto';
import { failedPrecondition, invalidArgument, notFound } from '@eligo/runtime';
import type { ProgramsClient } from '../../clients/programs.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';
import { standIn } from '../../../test/stand-in';

// The staff console's program list, pool level and webhook secret rotation under /rest/admin/v1 as mounted by
// mountRest, against a recording programs stand-in: the filters and paging as the request's fields, the
// operator's empty account_id, 404 for an id that cannot name a program without a call, the service's
// noWebhook as 409 ER, and every answer the document's (the test app checks each JSON answer against it).
const { ProgramMode, OfferType } = programsProgramV1;
const programId = 'ab'.repeat(12);
const accountId = 'cd'.repeat(12);
const unknownId = '00'.repeat(12);
const noProgram = () => notFound('Program not found', { errorIds: ['noProgram'] });

const calls: [string, unknown][] = [];
const programs = standIn<ProgramsClient>('programs', {
  listPrograms: async (req: programsV1.ListProgramsRequest): Promise<programsV1.ListProgramsResponse> => {
    calls.push(['listPrograms', req]);
    if (req.accountId === unknownId) throw notFound('Account not found');
    if (req.pageToken === 'forged') throw invalidArgument('pageToken: is not a nextPageToken of this list');
    return {
      programs: [
        {
          programId,
          accountId,
          name: 'Spring',
          segment: 'student',
          mode: ProgramMode.PROGRAM_MODE_LIVE,
          offerType: OfferType.OFFER_TYPE_REWARD_POOL,
          createdAt: new Date(1_700_000_000_000),
          updatedAt: new Date(1_700_000_000_001),
        },
      ],
      nextPageToken: 'next-1',
    };
  },
  getRewardCodePoolLevel: async (
    req: programsV1.GetRewardCodePoolLevelRequest,
  ): Promise<programsV1.GetRewardCodePoolLevelResponse> => {
    calls.push(['getRewardCodePoolLevel', req]);
    if (req.programId !== programId) throw noProgram();
    return { pooled: true, total: 30, unused: 2, claimed: 28, low: true, lowThreshold: 3 };
  },
  rotateWebhookSigningSecret: async (
    req: programsV1.RotateWebhookSigningSecretRequest,
  ): Promise<Partial<programsV1.RotateWebhookSigningSecretResponse>> => {
    calls.push(['rotateWebhookSigningSecret', req]);
    if (req.programId === unknownId) throw noProgram();
    if (req.programId !== programId)
      throw failedPrecondition('Program has no webhook; create one first', { reason: 'noWebhook' });
    return {
      program: programsProgramV1.Program.fromPartial({ programId }),
      signingSecret: 'whsec_bmV3IHNlY3JldA==',
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

async function call(method: string, path: string) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

describe('GET /programs', () => {
  it('lists summaries of every account, 50 a page by default', async () => {
    const res = await call('GET', '/programs');
    expect([res.status, res.body]).toEqual([
      200,
      {
        programs: [
          {
            programId,
            accountId,
            name: 'Spring',
            segment: 'student',
            mode: 'live',
            offerType: 'rewardPool',
            created: 1_700_000_000_000,
            updated: 1_700_000_000_001,
          },
        ],
        nextCursor: 'next-1',
      },
    ]);
    expect(calls).toEqual([
      [
        'listPrograms',
        {
          accountId: '',
          segment: '',
          mode: ProgramMode.PROGRAM_MODE_UNSPECIFIED,
          nameContains: '',
          pageSize: 50,
          pageToken: '',
        },
      ],
    ]);
  });

  it.each([
    ['test', ProgramMode.PROGRAM_MODE_TEST],
    ['live', ProgramMode.PROGRAM_MODE_LIVE],
  ])('passes mode=%s and the other filters on', async (mode, proto) => {
    const res = await call(
      'GET',
      `/programs?accountId=${accountId}&segment=military&mode=${mode}&name=Spr&limit=3&cursor=next-1`,
    );
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      [
        'listPrograms',
        {
          accountId,
          segment: 'military',
          mode: proto,
          nameContains: 'Spr',
          pageSize: 3,
          pageToken: 'next-1',
        },
      ],
    ]);
  });

  it.each([
    ['?segment=pirate', /^query\.segment must be one of student, /],
    ['?mode=staging', /^query\.mode must be one of test, live$/],
    ['?accountId=ACME', /^query\.accountId must be 24 lowercase hex characters$/],
    ['?programId=x', /^query has unexpected parameter programId/],
  ])('refuses %s 400 invalidRequest before any call', async (query, message) => {
    const res = await call('GET', `/programs${query}`);
    expect(res).toMatchObject({
      status: 400,
      body: { errorIds: ['invalidRequest'], systemErrorMessage: expect.stringMatching(message) },
    });
    expect(calls).toEqual([]);
  });

  it("answers the service's refusals: a forged cursor 400 invalidRequest, an unknown account 404", async () => {
    expect(await call('GET', '/programs?cursor=forged')).toMatchObject({
      status: 400,
      body: { errorIds: ['invalidRequest'] },
    });
    expect(await call('GET', `/programs?accountId=${unknownId}`)).toMatchObject({
      status: 404,
      body: { systemErrorMessage: 'Account not found' },
    });
  });
});

describe('GET /programs/{programId}/rewardCodes/level', () => {
  it('answers the level of the pool, for any account (account_id empty)', async () => {
    const res = await call('GET', `/programs/${programId}/rewardCodes/level`);
    expect([res.status, res.body]).toEqual([
      200,
      { pooled: true, total: 30, unused: 2, claimed: 28, low: true, lowThreshold: 3 },
    ]);
    expect(calls).toEqual([['getRewardCodePoolLevel', { programId, accountId: '' }]]);
  });

  it('answers an unknown program 404 noProgram, and a bad id without a call', async () => {
    const body = { errorIds: ['noProgram'], systemErrorMessage: 'Program not found' };
    expect(await call('GET', `/programs/${unknownId}/rewardCodes/level`)).toMatchObject({
      status: 404,
      body,
    });
    calls.length = 0;
    expect(await call('GET', '/programs/SPRING/rewardCodes/level')).toMatchObject({ status: 404, body });
    expect(calls).toEqual([]);
  });
});

describe('POST /programs/{programId}/webhook/secret', () => {
  it('answers the new secret once, uncacheable', async () => {
    const res = await call('POST', `/programs/${programId}/webhook/secret`);
    expect([res.status, res.body]).toEqual([200, { programId, webhookSecret: 'whsec_bmV3IHNlY3JldA==' }]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(calls).toEqual([['rotateWebhookSigningSecret', { programId, accountId: '' }]]);
  });

  it('answers a program without a webhook 409 ER noWebhook', async () => {
    const res = await call('POST', `/programs/${'ef'.repeat(12)}/webhook/secret`);
    expect([res.status, res.body]).toEqual([
      409,
      { errorIds: ['noWebhook'], systemErrorMessage: 'The program has no webhook; create one first' },
    ]);
    expect(res.headers.get('cache-control')).toBeNull();
  });

  it('answers an unknown program 404 noProgram, and a bad id without a call', async () => {
    expect((await call('POST', `/programs/${unknownId}/webhook/secret`)).status).toBe(404);
    calls.length = 0;
    expect((await call('POST', '/programs/SPRING/webhook/secret')).status).toBe(404);
    expect(calls).toEqual([]);
  });
});

describe('the programs paths, old and new together', () => {
  it('still serve POST /programs and GET /programs/{programId} beside GET /programs', async () => {
    // The POST's body is checked by its own route (no call): a 400 naming the body, not a 404 or 405.
    const res = await fetch(`${url}/programs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect((await call('GET', '/programs/SPRING')).status).toBe(404);
    expect((await call('DELETE', '/programs')).status).toBe(405);
    expect(calls).toEqual([]);
  });
});
