import { verificationV1, verificationVerificationV1 } from '@eligo/proto';
import { invalidArgument, notFound } from '@eligo/runtime';
import { AuthCache } from '../../auth/auth-cache';
import { createAuthenticator } from '../../auth/authenticator';
import type { VerificationClient } from '../../clients/verification.client';
import { VerificationSearchPage, VerificationSearchRequest } from '../../endpoints/admin-verification-search';
import { AdminVerification } from '../../endpoints/admin-verifications';
import { checkBody } from '../../endpoints/body-check';
import { ErrorResponse } from '../../endpoints/errors';
import { createDocumentValidator } from '../../../test/document-validator';
import { standIn } from '../../../test/stand-in';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../../test/rest-app';

// The staff routes of verifications under /rest/admin/v1 (search, expire) as mounted by mountRest, against a
// recording stand-in for the verification service: body checks (held to the served document's schema), the
// mapping, the statuses.
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

async function call(method: string, path: string, token: string | null = operator, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}
const search = (body: unknown, token: string | null = operator) =>
  call('POST', '/verifications/search', token, body);
const matches = (schema: Parameters<typeof checkBody>[0], body: unknown) => checkBody(schema, body).ok;
const document = createDocumentValidator();

describe('POST /verifications/search', () => {
  it('answers a page of summaries, not to be cached, passing every filter and the paging on', async () => {
    const res = await search({
      trackingId: 'track-1',
      email: ' Jane@Example.com ',
      programId,
      limit: 2,
      cursor: 'c1',
    });
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
    const res = await search({ programId });
    expect([res.status, res.body]).toEqual([200, { verifications: [], nextCursor: null }]);
    expect(calls).toEqual([
      ['searchVerifications', { trackingId: '', email: '', programId, pageSize: 0, pageToken: '' }],
    ]);
  });

  it.each([
    ['no filter', {}, 'body must have at least one of trackingId, email, programId'],
    [
      'only paging',
      { limit: 10, cursor: 'c1' },
      'body must have at least one of trackingId, email, programId',
    ],
    ['an empty filter', { email: '' }, 'body.email must NOT have fewer than 1 characters'],
    ['a filter that is not text', { trackingId: 42 }, 'body.trackingId must be string'],
    ['a malformed program id', { programId: 'nope' }, 'body.programId must match pattern "^[0-9a-f]{24}$"'],
    [
      'a tracking id over 256 characters',
      { trackingId: 't'.repeat(257) },
      'body.trackingId must NOT have more than 256 characters',
    ],
    [
      'an email over 254 characters',
      { email: 'e'.repeat(255) },
      'body.email must NOT have more than 254 characters',
    ],
    [
      'a control character',
      { trackingId: 'a\u0000b' },
      'body.trackingId must not contain control characters',
    ],
    ['a page size over 100', { programId, limit: 101 }, 'body.limit must be <= 100'],
    ['a page size that is not an integer', { programId, limit: '10' }, 'body.limit must be integer'],
    ['an empty cursor', { programId, cursor: '' }, 'body.cursor must NOT have fewer than 1 characters'],
    [
      'a property it does not have',
      { programId, name: 'x' },
      'body has unexpected property name (allowed: trackingId, email, programId, limit, cursor)',
    ],
    ['a body that is not an object', [programId], 'body must be object'],
  ])('refuses %s with 400 invalidRequest naming it, without a call', async (_what, body, problem) => {
    const res = await search(body);
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: problem },
    ]);
    expect(matches(ErrorResponse, res.body)).toBe(true);
    expect(calls).toEqual([]);
    // The document states the same rule, in the same words (Ajv on the served schema).
    expect(document.check('VerificationSearchRequest', body)).toBe(problem);
    expect(matches(VerificationSearchRequest, body)).toBe(false);
  });

  it('refuses a request without a JSON body with 400 invalidRequest', async () => {
    const res = await fetch(`${url}/verifications/search?email=jane%40example.com`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator}` },
    });
    expect([res.status, ((await res.json()) as { errorIds: string[] }).errorIds]).toEqual([
      400,
      ['invalidRequest'],
    ]);
    expect(calls).toEqual([]);
  });

  it('answers the service’s refusal of a cursor 400 invalidRequest', async () => {
    next.set(
      'searchVerifications',
      invalidArgument('pageToken: is not a nextPageToken of this search', { errorIds: ['invalidRequest'] }),
    );
    const res = await search({ programId, cursor: 'forged' });
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  });

  it('is no longer a GET with the filters in the query string', async () => {
    const res = await call('GET', `/verifications?programId=${programId}`);
    expect(res.status).toBe(404);
    expect(calls).toEqual([]);
  });

  it('needs the operator token, before any call', async () => {
    for (const token of [null, 'eligo_account_token'])
      expect((await search({ programId }, token)).status).toBe(401);
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
