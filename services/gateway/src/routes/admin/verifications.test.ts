import { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import { invalidArgument, notFound } from '@eligo/runtime';
import { AuthCache } from '../../auth/auth-cache';
import { createAuthenticator } from '../../auth/authenticator';
import type { VerificationClient } from '../../clients/verification.client';
import { VerificationSearchPage } from '../../endpoints/admin-verification-search';
import { AdminVerification } from '../../endpoints/admin-verifications';
import { checkBody } from '../../endpoints/body-check';
import { ErrorResponse } from '../../endpoints/errors';
import { standIn } from '../../../test/stand-in';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';

// The staff routes of verifications under /rest/admin/v1 (search, expire) as mounted by mountRest, against a
// recording stand-in for the verification service: query checks, the mapping, the statuses.
const operator = TEST_OPERATOR_TOKEN;
const verificationId = '01'.repeat(12);
const programId = 'ab'.repeat(12);
const accountId = 'cd'.repeat(12);
const at = (time: string) => new Date(`2025-03-01T${time}.000Z`);

const summary = (fields: Partial<verificationV1.VerificationSummary> = {}) =>
  verificationV1.VerificationSummary.fromPartial({
    verificationId,
    programId,
    accountId,
    segment: 'student',
    currentStep: 'success',
    testMode: true,
    createdAt: at('10:00:00'),
    updatedAt: at('10:01:00'),
    trackingId: 'track-1',
    ...fields,
  });

const whole = (currentStep: string) => ({
  verification: verificationVerificationV1.AdminVerification.fromPartial({
    verificationId,
    accountId,
    segment: 'student',
    currentStep,
    testMode: true,
    expiresAt: at('12:00:00'),
    details: verificationVerificationV1.VerificationDetails.fromPartial({
      programId,
      created: at('10:00:00').getTime(),
      updated: at('10:01:00').getTime(),
      lastResponse: { verificationId, currentStep, segment: 'student', locale: 'en-US' },
    }),
    steps: [
      {
        step: 'collectStudentPersonalInfo',
        previousStep: '',
        trigger: 'start',
        errorIds: [],
        occurredAt: at('10:00:00'),
      },
      {
        step: 'error',
        previousStep: 'collectStudentPersonalInfo',
        trigger: 'expire',
        errorIds: ['expiredVerification'],
        occurredAt: at('10:01:00'),
      },
    ],
  }),
});

const calls: [string, unknown][] = [];
const next = new Map<string, unknown>();
const answer = (method: string, fallback: unknown) => async (req: unknown) => {
  calls.push([method, req]);
  const planned = next.has(method) ? next.get(method) : fallback;
  next.delete(method);
  if (planned instanceof Error) throw planned;
  return planned;
};
const verification = standIn<VerificationClient>('verification', {
  searchVerifications: answer('searchVerifications', {
    verifications: [
      summary(),
      summary({ verificationId: '02'.repeat(12), trackingId: '', currentStep: 'pending' }),
    ],
    nextPageToken: 'next-page',
  }),
  expireVerification: answer('expireVerification', {
    verification: { currentStep: 'error' },
    alreadyFinal: false,
  }),
  getVerificationAdmin: answer('getVerificationAdmin', whole('error')),
});

let url: string;
let app: TestRestApp;
beforeAll(async () => {
  app = await startTestRestApp({
    publicBaseUrl: 'https://eligo.example.com',
    bodyLimit: '1kb',
    verification,
    authenticator: createAuthenticator({
      operatorToken: operator,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async () => ({ accountId, tokenId: 'ef'.repeat(12), roles: [] }),
    }),
  });
  url = `${app.origin}/rest/admin/v1`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  next.clear();
});

async function call(method: string, path: string, token: string | null = operator) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}
const matches = (schema: Parameters<typeof checkBody>[0], body: unknown) => checkBody(schema, body).ok;

describe('GET /verifications (search)', () => {
  it('answers a page of summaries, not to be cached, passing every filter and the paging on', async () => {
    const res = await call(
      'GET',
      `/verifications?trackingId=track-1&email=${encodeURIComponent(' Jane@Example.com ')}&programId=${programId}&limit=2&cursor=c1`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      verifications: [
        {
          verificationId,
          programId,
          accountId,
          segment: 'student',
          currentStep: 'success',
          testMode: true,
          created: at('10:00:00').getTime(),
          updated: at('10:01:00').getTime(),
          trackingId: 'track-1',
        },
        expect.objectContaining({
          verificationId: '02'.repeat(12),
          trackingId: null,
          currentStep: 'pending',
        }),
      ],
      nextCursor: 'next-page',
    });
    expect(matches(VerificationSearchPage, res.body)).toBe(true);
    // The email goes to the service as typed: it folds it (trim, lower case) before its HMAC.
    expect(calls).toEqual([
      [
        'searchVerifications',
        { trackingId: 'track-1', email: ' Jane@Example.com ', programId, pageSize: 2, pageToken: 'c1' },
      ],
    ]);
  });

  it('leaves the page size to the service, and answers the last page with a null cursor', async () => {
    next.set('searchVerifications', { verifications: [], nextPageToken: '' });
    const res = await call('GET', `/verifications?programId=${programId}`);
    expect([res.status, res.body]).toEqual([200, { verifications: [], nextCursor: null }]);
    expect(calls).toEqual([
      ['searchVerifications', { trackingId: '', email: '', programId, pageSize: 0, pageToken: '' }],
    ]);
  });

  it.each([
    ['no filter', ''],
    ['only paging', '?limit=10'],
    ['an empty filter', '?email='],
    ['a malformed program id', '?programId=nope'],
    ['a tracking id over 256 characters', `?trackingId=${'t'.repeat(257)}`],
    ['an email over 254 characters', `?email=${'e'.repeat(255)}`],
    ['a control character', '?trackingId=a%00b'],
    ['a page size over 100', `?programId=${programId}&limit=101`],
    ['a parameter it does not have', `?programId=${programId}&name=x`],
  ])('refuses %s with 400 invalidRequest, without a call', async (_what, query) => {
    const res = await call('GET', `/verifications${query}`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
    expect(matches(ErrorResponse, res.body)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('answers the service’s refusal of a cursor 400 invalidRequest', async () => {
    next.set(
      'searchVerifications',
      invalidArgument('pageToken: is not a nextPageToken of this search', { errorIds: ['invalidRequest'] }),
    );
    const res = await call('GET', `/verifications?programId=${programId}&cursor=forged`);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  });

  it('needs the operator token, before any call', async () => {
    for (const token of [null, 'eligo_account_token'])
      expect((await call('GET', `/verifications?programId=${programId}`, token)).status).toBe(401);
    expect(calls).toEqual([]);
  });
});

describe('POST /verifications/{verificationId}/expire', () => {
  it('expires an ongoing verification and answers it whole', async () => {
    const res = await call('POST', `/verifications/${verificationId}/expire`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId,
      currentStep: 'error',
      steps: [{}, { trigger: 'expire' }],
    });
    expect(matches(AdminVerification, res.body)).toBe(true);
    expect(calls).toEqual([
      ['expireVerification', { verificationId }],
      ['getVerificationAdmin', { verificationId }],
    ]);
  });

  it('answers 409 invalidStep for a verification that had ended, changing nothing', async () => {
    next.set('expireVerification', { verification: { currentStep: 'success' }, alreadyFinal: true });
    const res = await call('POST', `/verifications/${verificationId}/expire`);
    expect([res.status, res.body]).toEqual([
      409,
      {
        errorIds: ['invalidStep'],
        systemErrorMessage: 'The verification had already ended on success: nothing changed',
      },
    ]);
    expect(calls).toEqual([['expireVerification', { verificationId }]]);
  });

  it('answers 404 noVerification for an unknown one, and for a malformed id without a call', async () => {
    next.set('expireVerification', notFound('Verification not found', { errorIds: ['noVerification'] }));
    const unknown = await call('POST', `/verifications/${verificationId}/expire`);
    expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noVerification']]);
    calls.length = 0;
    const malformed = await call('POST', '/verifications/nope/expire');
    expect([malformed.status, malformed.body.errorIds]).toEqual([404, ['noVerification']]);
    expect(calls).toEqual([]);
  });

  it('needs the operator token, before any call', async () => {
    for (const token of [null, 'eligo_account_token'])
      expect((await call('POST', `/verifications/${verificationId}/expire`, token)).status).toBe(401);
    expect(calls).toEqual([]);
  });
});
