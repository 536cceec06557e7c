import { verificationVerificationV1 } from '@eligo/proto';
import {
  failedPrecondition,
  invalidArgument,
  notFound,
  permissionDenied,
  resourceExhausted,
  unauthenticated,
} from '@eligo/runtime';
import { AuthCache } from '../auth/auth-cache';
import { createAuthenticator } from '../auth/authenticator';
import type { VerificationClient } from '../clients/verification.client';
import { startTestRestApp, TEST_OPERATOR_TOKEN, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';

/** Every call carries a fresh idempotency key. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// The REST v2 verification routes as mounted by mountRest, against a recording stand-in for the verification
// service: routing, body checks and status/body shapes. The flow itself is covered end to end against the
// real service (test/e2e/verification.e2e.test.ts).
const base = 'https://eligo.example.com';
const id = '0123456789abcdef01234567';
const programId = 'ab'.repeat(12);
const accountId = 'cd'.repeat(12);
const goodToken = 'eligo_good_token';
const jws = 'eyJhbGciOiJFUzI1NiJ9.eyJmaXJzdE5hbWUiOiJKYW5lIn0.c2lnbmF0dXJl';

const vr = (fields: Partial<verificationVerificationV1.VerificationResponse> = {}) => ({
  verification: verificationVerificationV1.VerificationResponse.fromPartial({
    verificationId: id,
    currentStep: 'collectStudentPersonalInfo',
    segment: 'student',
    locale: 'en-US',
    ...fields,
  }),
});

const calls: [string, unknown][] = [];
/** What the next call of a method answers (a reply, or an error to throw); the default otherwise. */
const next = new Map<string, unknown>();
const answer = (method: string, fallback: unknown) => async (req: unknown) => {
  calls.push([method, req]);
  const planned = next.has(method) ? next.get(method) : fallback;
  next.delete(method);
  if (planned instanceof Error) throw planned;
  return planned;
};
const verification = standIn<VerificationClient>('verification', {
  getInfo: answer('getInfo', {}),
  startVerification: answer('startVerification', vr()),
  submitPersonalInfo: answer('submitPersonalInfo', vr({ currentStep: 'success', rewardCode: 'TEST' })),
  submitMilitaryStatus: answer(
    'submitMilitaryStatus',
    vr({ currentStep: 'collectActiveMilitaryPersonalInfo' }),
  ),
  submitSocialSecurityNumber: answer('submitSocialSecurityNumber', vr({ currentStep: 'success' })),
  skipStep: answer('skipStep', vr({ currentStep: 'docUpload' })),
  getSsoLoginUrl: answer('getSsoLoginUrl', { loginUrl: 'https://idp.example.edu/login?x=1', state: '' }),
  finishSso: answer('finishSso', { ...vr({ currentStep: 'success' }), programId }),
  getVerification: answer('getVerification', vr()),
  getVerificationByTrackingId: answer('getVerificationByTrackingId', vr()),
  listVerificationHistory: answer('listVerificationHistory', { verifications: [vr().verification] }),
  getVerificationDetails: answer('getVerificationDetails', {
    details: verificationVerificationV1.VerificationDetails.fromPartial({
      programId,
      lastResponse: vr().verification,
    }),
  }),
  expireVerification: answer('expireVerification', {
    ...vr({ currentStep: 'error', errorIds: ['expiredVerification'] }),
    alreadyFinal: false,
  }),
  getMetadata: answer('getMetadata', { metadata: { plan: 'pro' } }),
  putMetadata: answer('putMetadata', { metadata: { plan: 'team' } }),
  refireWebhooks: answer('refireWebhooks', {}),
});

let url: string;
let app: TestRestApp;

beforeAll(async () => {
  app = await startTestRestApp({
    publicBaseUrl: base,
    bodyLimit: '1mb',
    verification,
    authenticator: createAuthenticator({
      operatorToken: TEST_OPERATOR_TOKEN,
      cache: new AuthCache({ ttlMs: 0 }),
      authenticate: async ({ token }) => {
        if (token !== goodToken) throw unauthenticatedGrpc();
        return { accountId, tokenId: 'ef'.repeat(12), roles: [] };
      },
    }),
  });
  url = `${app.origin}/rest/v2`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  next.clear();
});

/** What a grpc-js client sees for an invalid token. */
function unauthenticatedGrpc() {
  return Object.assign(new Error('bad token'), { code: 16, details: 'bad token', metadata: undefined });
}

interface Call {
  body?: unknown;
  raw?: string;
  contentType?: string;
  token?: string;
}
async function call(method: string, path: string, options: Call = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text || undefined };
}

const stepError = (message: string | RegExp, withId = true) => ({
  ...(withId ? { verificationId: id } : {}),
  currentStep: 'error',
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
const er = (errorId: string) => ({ errorIds: [errorId], systemErrorMessage: expect.any(String) });
const noEndpoint = { systemErrorMessage: expect.stringMatching(/^No endpoint /) };

describe('POST /verification', () => {
  it('starts a verification, ignoring a token, and answers the VR with its submissionUrl', async () => {
    const res = await call('POST', '/verification', { body: { programId }, token: 'whatever' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId: id,
      currentStep: 'collectStudentPersonalInfo',
      submissionUrl: `${base}/rest/v2/verification/${id}/step/collectStudentPersonalInfo`,
    });
    expect(calls).toEqual([
      [
        'startVerification',
        { programId, trackingId: '', requestId: expect.stringMatching(UUID), metadata: {}, locale: '' },
      ],
    ]);
  });

  it('passes the optional metadata and locale to the service', async () => {
    const res = await call('POST', '/verification', {
      body: {
        programId,
        trackingId: 't-1',
        metadata: { order: 'A-1', 'utm.source': 'mail' },
        locale: 'fr-CA',
      },
    });
    expect(res.status).toBe(200);
    expect(calls).toEqual([
      [
        'startVerification',
        {
          programId,
          trackingId: 't-1',
          requestId: expect.stringMatching(UUID),
          metadata: { order: 'A-1', 'utm.source': 'mail' },
          locale: 'fr-CA',
        },
      ],
    ]);
  });

  it('leaves the metadata limits to the service, which answers them with their own errorIds', async () => {
    next.set(
      'startVerification',
      invalidArgument('metadata: maxMetadataValuesExceeded', { errorIds: ['maxMetadataValuesExceeded'] }),
    );
    const metadata = Object.fromEntries([...Array(51).keys()].map((i) => [`k${i}`, 'v']));
    const res = await call('POST', '/verification', { body: { programId, metadata } });
    expect([res.status, res.body]).toEqual([400, er('maxMetadataValuesExceeded')]);
    expect(calls).toEqual([['startVerification', expect.objectContaining({ metadata })]]);
  });

  it.each<[string, unknown, string]>([
    ['nested metadata', { metadata: { a: { b: 'c' } } }, 'body.metadata["a"] must be a string'],
    ['metadata that is a list', { metadata: ['a'] }, 'body.metadata must be an object of string values'],
    [
      'the reserved metadata key __proto__',
      JSON.parse('{"metadata": {"__proto__": "x"}}'),
      'body.metadata["__proto__"] is a reserved key',
    ],
    [
      'a locale that is no BCP 47 tag',
      { locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    ['a locale that is a number', { locale: 7 }, 'body.locale must be string'],
    [
      'a locale that is not well-formed',
      { locale: 'en-US-x' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'a locale over 35 characters',
      { locale: `en-${'abcdefgh-'.repeat(4)}x` },
      'body.locale must NOT have more than 35 characters',
    ],
    [
      'an unknown property',
      { fingerprint: 'x' },
      'body has unexpected property fingerprint (allowed: programId, trackingId, metadata, locale)',
    ],
  ])('refuses %s with 400 ER invalidRequest naming it, without a call', async (_name, extra, message) => {
    const res = await call('POST', '/verification', { body: { programId, ...(extra as object) } });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect(calls).toEqual([]);
  });

  it('refuses a malformed programId or an unknown property with 400 ER invalidRequest', async () => {
    for (const body of [{ programId: 'nope' }, { programId, foo: 1 }, {}]) {
      const res = await call('POST', '/verification', { body });
      expect([body, res.status, res.body]).toEqual([body, 400, er('invalidRequest')]);
    }
    expect(calls).toEqual([]);
  });

  it('passes service errors through the error mapper (404 noProgram ER)', async () => {
    next.set('startVerification', notFound('Program not found', { errorIds: ['noProgram'] }));
    const res = await call('POST', '/verification', { body: { programId, trackingId: 't-1' } });
    expect([res.status, res.body]).toEqual([404, er('noProgram')]);
    expect(calls).toEqual([
      [
        'startVerification',
        { programId, trackingId: 't-1', requestId: expect.stringMatching(UUID), metadata: {}, locale: '' },
      ],
    ]);
  });
});

describe('personal-info steps', () => {
  const student = `/verification/${id}/step/collectStudentPersonalInfo`;

  it('converts the body to the Subject and answers 200 with the outcome', async () => {
    const res = await call('POST', student, {
      body: { firstName: 'Jane', organization: { id: 42, name: 'Stanford' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currentStep: 'success',
      rewardCode: 'TEST',
      rewardData: { rewardCode: 'TEST' },
    });
    const [[method, req]] = calls as [[string, Record<string, unknown>]];
    expect(method).toBe('submitPersonalInfo');
    expect(req).toMatchObject({
      verificationId: id,
      programId: '',
      step: 'collectStudentPersonalInfo',
      trackingId: '',
      requestId: expect.stringMatching(UUID),
      input: {
        $case: 'subject',
        subject: { firstName: 'Jane', lastName: '', organization: { id: 42, name: 'Stanford' } },
      },
    });
  });

  it('answers 400 with the VR when the reply has errorIds (a recoverable error)', async () => {
    next.set('submitPersonalInfo', vr({ errorIds: ['invalidEmail'] }));
    const res = await call('POST', student, { body: { email: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      currentStep: 'collectStudentPersonalInfo',
      errorIds: ['invalidEmail'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/collectStudentPersonalInfo`,
    });
  });

  it('refuses an unexpected property with a 400 VR naming the allowed keys, without a call', async () => {
    const res = await call('POST', student, { body: { firstName: 'Jane', nickname: 'J' } });
    expect([res.status, res.body]).toEqual([
      400,
      stepError(
        "Unexpected property 'nickname'. Allowed keys: firstName, lastName, birthDate, email, organization, " +
          'universityId, metadata',
      ),
    ]);
    expect(calls).toEqual([]);
  });

  it("takes the clients' optional fields on other forms: locale, externalUserId and phoneNumber go on", async () => {
    const teacher = `/verification/${id}/step/collectTeacherPersonalInfo`;
    const res = await call('POST', teacher, {
      body: {
        firstName: 'Jane',
        organization: { name: 'Lincoln High' },
        metadata: { order: '9' },
        locale: 'es-MX',
        externalUserId: 'crm-user-4711',
        phoneNumber: '+14155550100',
        deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
      },
    });
    expect(res.status).toBe(200);
    const [[, req]] = calls as [[string, { input: { subject: Record<string, unknown> } }]];
    expect(req.input.subject).toMatchObject({
      firstName: 'Jane',
      metadata: { order: '9' },
      locale: 'es-MX',
      externalUserId: 'crm-user-4711',
      phoneNumber: '+14155550100',
    });
    // Checked, then dropped: nothing stores or uses a device fingerprint.
    expect(JSON.stringify(req)).not.toContain('n4bQgYhMfWWaL');
  });

  it.each<[string, string, object, string]>([
    [
      'a locale on the student form (the spec fixes its keys)',
      'collectStudentPersonalInfo',
      { locale: 'en-US' },
      "Unexpected property 'locale'. Allowed keys: firstName, lastName, birthDate, email, organization, " +
        'universityId, metadata',
    ],
    [
      'an externalUserId on the generic form (it takes the student keys)',
      'collectPersonalInfo',
      { externalUserId: 'u' },
      "Unexpected property 'externalUserId'. Allowed keys: firstName, lastName, birthDate, email, organization, " +
        'universityId, metadata',
    ],
    [
      'a key no form takes',
      'collectSeniorPersonalInfo',
      { deviceId: 'x' },
      "Unexpected property 'deviceId'. Allowed keys: firstName, lastName, birthDate, postalCode, email, metadata, " +
        'phoneNumber, locale, deviceFingerprintHash, externalUserId',
    ],
    [
      'a malformed locale',
      'collectSeniorPersonalInfo',
      { locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'a control character in externalUserId',
      'collectMemberPersonalInfo',
      { externalUserId: 'a\u0000' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'a malformed deviceFingerprintHash',
      'collectAgePersonalInfo',
      { deviceFingerprintHash: 'not a hash' },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    [
      'the reserved metadata key __proto__',
      'collectStudentPersonalInfo',
      JSON.parse('{"metadata": {"__proto__": "x"}}') as object,
      'body.metadata["__proto__"] is a reserved key',
    ],
    [
      'an organization with an empty name and no id',
      'collectStudentPersonalInfo',
      { organization: { name: '' } },
      'body.organization must have an id or a non-empty name',
    ],
  ])('refuses %s with a 400 VR naming it, without a call', async (_name, step, body, message) => {
    const res = await call('POST', `/verification/${id}/step/${step}`, { body });
    expect([res.status, res.body]).toEqual([400, stepError(message)]);
    expect(calls).toEqual([]);
  });

  it.each<[string, Call, string | RegExp]>([
    ['a wrong JSON type', { body: { firstName: 1 } }, 'body.firstName must be a string'],
    ['malformed JSON', { raw: '{"firstName":' }, 'Request body is not valid JSON'],
    ['a JSON string', { raw: '"Jane"' }, 'Request body is not valid JSON'],
    ['no body', {}, 'body is required (Content-Type: application/json)'],
    ['another content type', { raw: 'firstName=Jane', contentType: 'text/plain' }, /^body is required/],
    [
      'a JWS on a type that takes JSON only',
      { raw: jws, contentType: 'application/jose' },
      /^Content-Type must be application\/json$/,
    ],
  ])('refuses %s with a 400 VR invalidRequest', async (_name, options, message) => {
    const res = await call('POST', student, options);
    expect([res.status, res.body]).toEqual([400, stepError(message)]);
    expect(calls).toEqual([]);
  });

  it('takes a DriverLicense subject as JSON or as a compact JWS (application/jose)', async () => {
    const path = `/verification/${id}/step/collectDriverLicensePersonalInfo`;
    expect((await call('POST', path, { raw: jws, contentType: 'application/jose' })).status).toBe(200);
    expect((await call('POST', path, { body: { driverLicenseNumber: 'D1', state: 'CA' } })).status).toBe(200);
    expect(calls.map(([, req]) => (req as { input: { $case: string } }).input)).toEqual([
      { $case: 'subjectToken', subjectToken: jws },
      { $case: 'subject', subject: expect.objectContaining({ driverLicenseNumber: 'D1', state: 'CA' }) },
    ]);
    const bad = await call('POST', path, { raw: 'not-a-jws', contentType: 'application/jose' });
    expect([bad.status, bad.body]).toEqual([400, stepError(/compact JWS/)]);
    const big = await call('POST', path, {
      raw: `a.${'b'.repeat(17_000)}.c`,
      contentType: 'application/jose',
    });
    expect(big.status).toBe(413);
  });

  it('takes the generic step (student keys) and the marketplace token, under either name', async () => {
    await call('POST', `/verification/${id}/step/collectPersonalInfo`, { body: { universityId: 5 } });
    const marketplace = `/verification/${id}/step/collectMarketplaceToken`;
    await call('POST', marketplace, { body: { marketplaceToken: jws } });
    expect((await call('POST', marketplace, { body: { verificationToken: jws } })).status).toBe(200);
    const token = expect.objectContaining({
      step: 'collectMarketplaceToken',
      input: { $case: 'subjectToken', subjectToken: jws },
    });
    expect(calls.map(([, req]) => req)).toEqual([
      expect.objectContaining({
        step: 'collectPersonalInfo',
        input: { $case: 'subject', subject: expect.objectContaining({ universityId: 5 }) },
      }),
      token,
      token,
    ]);
  });

  it('refuses a marketplace token body with both names or neither, without a call', async () => {
    const path = `/verification/${id}/step/collectMarketplaceToken`;
    for (const body of [{}, { marketplaceToken: jws, verificationToken: jws }]) {
      const res = await call('POST', path, { body });
      expect([body, res.status, res.body]).toEqual([
        body,
        400,
        stepError('body must have exactly one of marketplaceToken, verificationToken'),
      ]);
    }
    expect(calls).toEqual([]);
  });

  it('starts and submits on the program shape, with the trackingId of the query', async () => {
    const res = await call(
      'POST',
      `/verification/program/${programId}/step/collectLowIncomePersonalInfo?trackingId=t-9`,
      {
        body: { statuses: ['SNAP_BENEFITS'] },
      },
    );
    expect(res.status).toBe(200);
    expect(calls[0]![1]).toMatchObject({
      verificationId: '',
      programId,
      step: 'collectLowIncomePersonalInfo',
      trackingId: 't-9',
    });
    const unexpected = await call(
      'POST',
      `/verification/program/${programId}/step/collectSeniorPersonalInfo`,
      {
        body: { organization: { id: 1 } },
      },
    );
    expect([unexpected.status, unexpected.body]).toEqual([
      400,
      stepError(/^Unexpected property 'organization'/, false),
    ]);
  });

  it('answers 404 ER for malformed ids without a call, and maps the service 404 and 429 to ER', async () => {
    const bad = await call('POST', '/verification/NOPE/step/collectStudentPersonalInfo', { body: {} });
    expect([bad.status, bad.body]).toEqual([404, er('noVerification')]);
    const badProgram = await call('POST', '/verification/program/nope/step/collectStudentPersonalInfo', {
      body: {},
    });
    expect([badProgram.status, badProgram.body]).toEqual([404, er('noProgram')]);
    expect(calls).toEqual([]);
    next.set('submitPersonalInfo', notFound('Verification not found', { errorIds: ['noVerification'] }));
    const unknown = await call('POST', student, { body: { firstName: 'Jane' } });
    expect([unknown.status, unknown.body]).toEqual([404, er('noVerification')]);
    next.set('submitPersonalInfo', resourceExhausted('Limit', { errorIds: ['verificationLimitExceeded'] }));
    const limited = await call('POST', student, { body: { firstName: 'Jane' } });
    expect([limited.status, limited.body]).toEqual([429, er('verificationLimitExceeded')]);
  });

  it('leaves other steps and shapes unmatched', async () => {
    // docUpload and completeDocUpload have their own router (doc-upload.ts), POST /verification/reverify
    // too (reverify.ts).
    for (const path of [
      `/verification/${id}/step/collectPilotPersonalInfo`,
      `/verification/program/${programId}/step/collectPersonalInfo`,
      `/verification/program/${programId}/step/collectMarketplaceToken`,
    ]) {
      const res = await call('POST', path, { body: {} });
      expect([path, res.status, res.body]).toEqual([path, 404, noEndpoint]);
    }
    // /verification/reverify is a resource of its own (POST only), not a verificationId.
    const reverify = await call('GET', '/verification/reverify');
    expect([reverify.status, reverify.headers.get('allow')]).toEqual([405, 'OPTIONS, POST']);
    expect(calls).toEqual([]);
  });

  it('takes a step name only as the spec spells it', async () => {
    for (const path of [
      `/verification/${id}/step/collectstudentPersonalInfo`,
      `/verification/${id}/step/COLLECTMARKETPLACETOKEN`,
      `/verification/program/${programId}/step/collectStudentPersonalinfo`,
    ]) {
      const res = await call('POST', path, { body: { firstName: 'Jane' } });
      expect([path, res.status, res.body]).toEqual([path, 404, noEndpoint]);
    }
    expect(calls).toEqual([]);
  });
});

describe('POST /verification/marketplace', () => {
  const path = '/verification/marketplace';
  const submitted = (token: string, trackingId = '') => [
    'submitPersonalInfo',
    {
      verificationId: '',
      programId,
      step: 'collectMarketplaceToken',
      input: { $case: 'subjectToken', subjectToken: token },
      trackingId,
      requestId: expect.stringMatching(UUID),
    },
  ];

  it('starts and submits in one request: the program shape with the marketplace token', async () => {
    const res = await call('POST', path, {
      body: { programId, marketplaceToken: jws, trackingId: 'mp-1' },
      token: 'ignored',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ verificationId: id, currentStep: 'success', rewardCode: 'TEST' });
    expect(calls).toEqual([submitted(jws, 'mp-1')]);
  });

  it('takes the token as verificationToken too', async () => {
    next.set('submitPersonalInfo', vr({ currentStep: 'docUpload', docUploadToken: 'tok' }));
    const res = await call('POST', path, { body: { programId, verificationToken: jws } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/tok`,
    });
    expect(calls).toEqual([submitted(jws)]);
  });

  it('answers 400 with the VR of a recoverable error', async () => {
    next.set(
      'submitPersonalInfo',
      vr({ currentStep: 'collectAgePersonalInfo', errorIds: ['invalidBirthDate'] }),
    );
    const res = await call('POST', path, { body: { programId, marketplaceToken: jws } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      verificationId: id,
      currentStep: 'collectAgePersonalInfo',
      errorIds: ['invalidBirthDate'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/collectAgePersonalInfo`,
    });
  });

  it.each<[string, Call, string | RegExp]>([
    [
      'no token',
      { body: { programId } },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    [
      'both names',
      { body: { programId, marketplaceToken: jws, verificationToken: jws } },
      'body must have exactly one of marketplaceToken, verificationToken',
    ],
    ['no programId', { body: { marketplaceToken: jws } }, 'body.programId is required'],
    ['a malformed programId', { body: { programId: 'nope', marketplaceToken: jws } }, /^body\.programId /],
    ['a token that is no JWS', { body: { programId, marketplaceToken: 'a.b' } }, /^body\.marketplaceToken /],
    [
      'a subject instead of a token',
      { body: { programId, marketplaceToken: jws, firstName: 'Jane' } },
      /^body has unexpected property firstName/,
    ],
    [
      'a long trackingId',
      { body: { programId, marketplaceToken: jws, trackingId: 'x'.repeat(257) } },
      /trackingId/,
    ],
    ['malformed JSON', { raw: '{"programId":' }, 'Request body is not valid JSON'],
    ['no body', {}, 'body is required (Content-Type: application/json)'],
  ])('refuses %s with a 400 VR invalidRequest, without a call', async (_name, options, message) => {
    const res = await call('POST', path, options);
    expect([res.status, res.body]).toEqual([400, stepError(message, false)]);
    expect(calls).toEqual([]);
  });

  it.each<[string, Error, number, string]>([
    ['an unknown program', notFound('Program not found', { errorIds: ['noProgram'] }), 404, 'noProgram'],
    [
      'a program not started',
      permissionDenied('Not started', { errorIds: ['inactiveProgram'] }),
      403,
      'inactiveProgram',
    ],
    [
      'a pool without codes',
      failedPrecondition('No codes', { errorIds: ['noRemainingRewardCodes'] }),
      409,
      'noRemainingRewardCodes',
    ],
    [
      'the person limit',
      resourceExhausted('Limit', { errorIds: ['verificationLimitExceeded'] }),
      429,
      'verificationLimitExceeded',
    ],
  ])('answers %s with the ER of the service', async (_what, error, status, errorId) => {
    next.set('submitPersonalInfo', error);
    const res = await call('POST', path, { body: { programId, marketplaceToken: jws } });
    expect([res.status, res.body]).toEqual([status, er(errorId)]);
  });

  it('answers a token the service refuses with a 400 VR, as the program shape does', async () => {
    next.set(
      'submitPersonalInfo',
      invalidArgument('The subject token was refused: the signature does not verify with the program key', {
        errorIds: ['invalidRequest'],
      }),
    );
    const res = await call('POST', path, { body: { programId, marketplaceToken: jws } });
    expect([res.status, res.body]).toEqual([400, stepError(/^The subject token was refused/, false)]);
  });

  it('is a resource of its own: marketplace is no verificationId', async () => {
    // GET /verification/{verificationId} does not take it: the resource has POST only.
    const get = await call('GET', path);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'OPTIONS, POST']);
    expect(calls).toEqual([]);
  });
});

describe('the caller of the creation paths (programs that require an account token)', () => {
  const creations: [string, string, { body: unknown; contentType?: string }, string][] = [
    ['POST /verification', '/verification', { body: { programId } }, 'startVerification'],
    [
      'the program path shape',
      `/verification/program/${programId}/step/collectAgePersonalInfo`,
      { body: { firstName: 'Jane', birthDate: '2000-01-31' } },
      'submitPersonalInfo',
    ],
    [
      'POST /verification/marketplace',
      '/verification/marketplace',
      { body: { programId, marketplaceToken: jws } },
      'submitPersonalInfo',
    ],
  ];

  it.each(creations)('passes the account of a valid token on %s', async (_name, path, options, method) => {
    const res = await call('POST', path, { ...options, token: goodToken });
    expect(res.status).toBe(200);
    expect(calls).toEqual([[method, expect.objectContaining({ callerAccountId: accountId })]]);
  });

  it.each(creations)(
    'goes on without a caller on %s when no token, or one that is not valid, is sent',
    async (_name, path, options, method) => {
      for (const token of [undefined, 'whatever']) {
        calls.length = 0;
        const res = await call('POST', path, { ...options, token });
        expect(res.status).toBe(200);
        expect(calls).toEqual([[method, expect.objectContaining({ programId })]]);
        expect((calls[0]![1] as { callerAccountId?: string }).callerAccountId).toBeUndefined();
      }
    },
  );

  it.each(creations)(
    "answers the service's refusal on %s like a missing token: 401 SEM with WWW-Authenticate",
    async (_name, path, options, method) => {
      next.set(method, unauthenticated('Access token is empty or invalid'));
      const res = await call('POST', path, options);
      expect([res.status, res.body]).toEqual([
        401,
        { systemErrorMessage: 'Access token is empty or invalid' },
      ]);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    },
  );
});

describe('military status, social security number and sso', () => {
  it('submits the military status and the SSN', async () => {
    expect(
      (await call('POST', `/verification/${id}/step/collectMilitaryStatus`, { body: { status: 'VETERAN' } }))
        .status,
    ).toBe(200);
    const ssn = await call('POST', `/verification/${id}/step/collectSocialSecurityNumber`, {
      body: { socialSecurityNumber: '123-45-6789' },
    });
    expect(ssn.status).toBe(200);
    expect(calls).toEqual([
      [
        'submitMilitaryStatus',
        { verificationId: id, status: 'VETERAN', requestId: expect.stringMatching(UUID) },
      ],
      [
        'submitSocialSecurityNumber',
        { verificationId: id, socialSecurityNumber: '123-45-6789', requestId: expect.stringMatching(UUID) },
      ],
    ]);
    const extra = await call('POST', `/verification/${id}/step/collectMilitaryStatus`, {
      body: { status: 'X', y: 1 },
    });
    expect([extra.status, extra.body]).toEqual([400, stepError(/^body has unexpected property y/)]);
  });

  it('skips the SSN step and cancels sso with SkipStep', async () => {
    for (const step of ['collectSocialSecurityNumber', 'sso']) {
      const res = await call('DELETE', `/verification/${id}/step/${step}`);
      expect([step, res.status, res.body.currentStep]).toEqual([step, 200, 'docUpload']);
    }
    expect(calls).toEqual([
      [
        'skipStep',
        { verificationId: id, step: 'collectSocialSecurityNumber', requestId: expect.stringMatching(UUID) },
      ],
      ['skipStep', { verificationId: id, step: 'sso', requestId: expect.stringMatching(UUID) }],
    ]);
  });

  it('redirects to the login page of the sso step, and answers 404 ER when there is none', async () => {
    const res = await call('GET', `/verification/${id}/step/sso`);
    expect([res.status, res.headers.get('location')]).toEqual([302, 'https://idp.example.edu/login?x=1']);
    expect(res.headers.get('set-cookie')).toBeNull();
    next.set('getSsoLoginUrl', notFound('No sign-on', { errorIds: ['noVerification'] }));
    expect((await call('GET', `/verification/${id}/step/sso`)).status).toBe(404);
  });
});

describe("single sign-on with the organization's OpenID provider", () => {
  const state = 's'.repeat(43);
  const callback = (query: string, cookie?: string) =>
    fetch(`${app.origin}/sso/callback?${query}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });

  it("binds the provider's sign-on to the browser with a cookie of the callback's path", async () => {
    next.set('getSsoLoginUrl', { loginUrl: `https://idp.example.edu/auth?state=${state}`, state });
    const res = await call('GET', `/verification/${id}/step/sso`);
    expect([res.status, res.headers.get('location'), res.headers.get('cache-control')]).toEqual([
      302,
      `https://idp.example.edu/auth?state=${state}`,
      'no-store',
    ]);
    expect(res.headers.get('set-cookie')).toBe(
      `eligo_sso=${state}; Path=/sso/callback; Max-Age=600; HttpOnly; SameSite=Lax; Secure`,
    );
    expect(calls).toEqual([
      ['getSsoLoginUrl', { verificationId: id, redirectUri: 'https://eligo.example.com/sso/callback' }],
    ]);
  });

  it('finishes the sign-on this browser started, then sends it to the hosted page', async () => {
    const res = await callback(`code=c0de&state=${state}&iss=x`, `other=1; eligo_sso=${state}`);
    expect([res.status, res.headers.get('location')]).toEqual([
      303,
      `https://eligo.example.com/verify/${programId}?verificationId=${id}`,
    ]);
    expect(res.headers.get('set-cookie')).toMatch(/^eligo_sso=; Path=\/sso\/callback; Max-Age=0;/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(calls).toEqual([
      [
        'finishSso',
        { state, callbackUrl: `https://eligo.example.com/sso/callback?code=c0de&state=${state}&iss=x` },
      ],
    ]);
  });

  it.each([
    ['no cookie', `code=c&state=${state}`, undefined],
    ["another sign-on's cookie", `code=c&state=${state}`, `eligo_sso=${'t'.repeat(43)}`],
    ['no state', 'code=c', `eligo_sso=${state}`],
    ['a state twice', `code=c&state=${state}&state=${state}`, `eligo_sso=${state}`],
  ])('finishes nothing with %s (400)', async (_, query, cookie) => {
    const res = await callback(query, cookie);
    expect(res.status).toBe(400);
    expect(calls).toEqual([]);
  });

  it('answers 400 for a lapsed or used sign-on, 503 when the services cannot be reached', async () => {
    next.set('finishSso', notFound('No sign-on has this state', { errorIds: ['invalidStep'] }));
    expect((await callback(`state=${state}`, `eligo_sso=${state}`)).status).toBe(400);
    next.set('finishSso', Object.assign(new Error('down'), { code: 14, details: 'down' }));
    expect((await callback(`state=${state}`, `eligo_sso=${state}`)).status).toBe(503);
  });
});

describe('reading and expiring', () => {
  it('reads by id and by tracking id', async () => {
    expect((await call('GET', `/verification/${id}`)).status).toBe(200);
    expect((await call('GET', `/verification/program/${programId}/trackingId/order%2F1`)).status).toBe(200);
    expect(calls).toEqual([
      ['getVerification', { verificationId: id }],
      ['getVerificationByTrackingId', { programId, trackingId: 'order/1' }],
    ]);
    expect(await call('GET', `/verification/${id.toUpperCase()}`)).toMatchObject({
      status: 404,
      body: er('noVerification'),
    });
    expect(await call('GET', `/verification/program/x/trackingId/y`)).toMatchObject({
      status: 404,
      body: er('noProgram'),
    });
    expect(
      await call('GET', `/verification/program/${programId}/trackingId/${'t'.repeat(257)}`),
    ).toMatchObject({
      status: 404,
      body: er('noVerification'),
    });
  });

  it('expires: 200, or 400 with the VR when it had already ended', async () => {
    expect((await call('POST', `/verification/${id}/expire`)).status).toBe(200);
    next.set('expireVerification', { ...vr({ currentStep: 'success' }), alreadyFinal: true });
    const res = await call('POST', `/verification/${id}/expire`);
    expect([res.status, res.body.currentStep]).toEqual([400, 'success']);
  });
});

describe('token endpoints', () => {
  const endpoints: [string, string, unknown?][] = [
    ['GET', `/verification/program/${programId}/trackingId/t-1/history`],
    ['GET', `/verification/${id}/details`],
    ['GET', `/verification/${id}/metadata`],
    ['PUT', `/verification/${id}/metadata`, { plan: 'team' }],
    ['POST', `/verification/${id}/refireWebhooks`],
  ];

  it('answers 401 SEM without a valid token, before anything else', async () => {
    for (const [method, path, body] of [
      ...endpoints,
      ['GET', '/verification/nope/details'] as [string, string],
    ]) {
      for (const token of [undefined, 'bad']) {
        const res = await call(method, path, { body, token });
        expect([method, path, res.status, res.body]).toEqual([
          method,
          path,
          401,
          { systemErrorMessage: 'Access token is empty or invalid' },
        ]);
      }
    }
    expect(calls).toEqual([]);
  });

  it("passes the token's account to the service", async () => {
    const statuses = [];
    for (const [method, path, body] of endpoints)
      statuses.push((await call(method, path, { body, token: goodToken })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 204]);
    expect(calls).toEqual([
      ['listVerificationHistory', { accountId, programId, trackingId: 't-1' }],
      ['getVerificationDetails', { accountId, verificationId: id }],
      ['getMetadata', { accountId, verificationId: id }],
      ['putMetadata', { accountId, verificationId: id, metadata: { plan: 'team' } }],
      ['refireWebhooks', { accountId, verificationId: id }],
    ]);
  });

  it('answers the spec bodies', async () => {
    const history = await call('GET', `/verification/program/${programId}/trackingId/t-1/history`, {
      token: goodToken,
    });
    expect(history.body).toEqual([
      expect.objectContaining({ verificationId: id, currentStep: 'collectStudentPersonalInfo' }),
    ]);
    const details = await call('GET', `/verification/${id}/details`, { token: goodToken });
    expect(details.body).toMatchObject({
      programId,
      personInfo: null,
      lastResponse: { verificationId: id },
      externalUserId: null,
    });
    next.set('getVerificationDetails', {
      details: verificationVerificationV1.VerificationDetails.fromPartial({
        programId,
        lastResponse: vr().verification,
        externalUserId: 'crm-user-4711',
      }),
    });
    const withId = await call('GET', `/verification/${id}/details`, { token: goodToken });
    expect(withId.body).toMatchObject({ externalUserId: 'crm-user-4711' });
    expect((await call('GET', `/verification/${id}/metadata`, { token: goodToken })).body).toEqual({
      plan: 'pro',
    });
    next.set('getVerificationDetails', notFound('Verification not found', { errorIds: ['noVerification'] }));
    const foreign = await call('GET', `/verification/${id}/details`, { token: goodToken });
    expect([foreign.status, foreign.body]).toEqual([404, er('noVerification')]);
  });

  it('refuses metadata that is not a flat string map, or larger than 64 KiB', async () => {
    for (const body of [{ a: 1 }, { a: { b: 'c' } }, ['a']]) {
      const res = await call('PUT', `/verification/${id}/metadata`, { body, token: goodToken });
      expect([body, res.status, res.body]).toEqual([body, 400, er('invalidRequest')]);
    }
    const big = await call('PUT', `/verification/${id}/metadata`, {
      body: { a: 'x'.repeat(70_000) },
      token: goodToken,
    });
    expect(big.status).toBe(413);
    expect(calls).toEqual([]);
  });

  it('refuses the reserved key __proto__ (an object would drop it) with 400 invalidRequest naming it', async () => {
    const res = await call('PUT', `/verification/${id}/metadata`, {
      raw: '{"plan": "pro", "__proto__": "x"}',
      token: goodToken,
    });
    expect([res.status, res.body]).toEqual([
      400,
      { errorIds: ['invalidRequest'], systemErrorMessage: 'body["__proto__"] is a reserved key' },
    ]);
    expect(calls).toEqual([]);
  });

  it('leaves the limits to the service, which answers them with their own errorIds', async () => {
    next.set(
      'putMetadata',
      invalidArgument('metadata: maxMetadataLengthExceeded', { errorIds: ['maxMetadataLengthExceeded'] }),
    );
    const res = await call('PUT', `/verification/${id}/metadata`, {
      body: { k: 'v'.repeat(1025) },
      token: goodToken,
    });
    expect([res.status, res.body]).toEqual([400, er('maxMetadataLengthExceeded')]);
    expect(calls).toEqual([['putMetadata', expect.objectContaining({ metadata: { k: 'v'.repeat(1025) } })]]);
  });
});

describe('request paths', () => {
  it('takes a double slash after the base URL (`.../rest/v2/` + `/verification/...`) as one', async () => {
    const details = await call('GET', `//verification/${id}/details`, { token: goodToken });
    expect([details.status, details.body]).toEqual([200, expect.objectContaining({ programId })]);
    const start = await call('POST', '//verification', { body: { programId } });
    expect(start.status).toBe(200);
    const step = await call('POST', `//verification//${id}///step/collectStudentPersonalInfo`, {
      body: { firstName: 'Jane' },
    });
    expect([step.status, step.body.currentStep]).toEqual([200, 'success']);
    // The query keeps its slashes.
    await call(
      'POST',
      `//verification/program/${programId}/step/collectStudentPersonalInfo?trackingId=a//b`,
      {
        body: { firstName: 'Jane' },
      },
    );
    expect(calls.at(-1)).toEqual(['submitPersonalInfo', expect.objectContaining({ trackingId: 'a//b' })]);
  });

  it.each([
    ['GET', '/verification/%E0%A4%A'],
    ['GET', '/verification/%'],
    ['POST', '/verification/%E0%A4%A/expire'],
    ['GET', `/verification/program/${programId}/trackingId/%E0%A4%A`],
    ['GET', '/verification/%FF/details'],
  ])(
    'answers %s %s (a path that does not percent-decode) 400 invalidRequest, not 500',
    async (method, path) => {
      const res = await call(method, path, { token: goodToken });
      expect([res.status, res.body]).toEqual([400, er('invalidRequest')]);
      expect(calls).toEqual([]);
    },
  );

  it('answers an undecodable step path with the step endpoints’ 400 VR', async () => {
    const res = await call('POST', '/verification/%E0%A4%A/step/collectStudentPersonalInfo', {
      body: { firstName: 'Jane' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ currentStep: 'error', errorIds: ['invalidRequest'] });
  });
});

describe('methods', () => {
  it('answers a method the resource does not support 405 with Allow, not 404', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/verification', 'OPTIONS, POST'],
      ['PATCH', `/verification/${id}`, 'GET, HEAD, OPTIONS'],
      ['GET', '/verification/reverify', 'OPTIONS, POST'],
      ['PUT', `/verification/${id}/step/sso`, 'DELETE, GET, HEAD, OPTIONS'],
    ] as const) {
      const res = await call(method, path, { token: goodToken });
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, allow]);
      expect(res.body).toEqual({
        systemErrorMessage: expect.stringContaining(`Method ${method} is not allowed`),
      });
    }
    expect(calls).toEqual([]);
    // A path that names no resource stays 404, also where a reserved word sits in a template's id.
    expect((await call('DELETE', '/nothing/here')).status).toBe(404);
    expect((await call('POST', '/verification/marketplace/expire')).status).toBe(404);
  });

  it('answers OPTIONS with the methods of that resource only (/report/fields is not /report/{reportId})', async () => {
    const fields = await call('OPTIONS', '/report/fields');
    expect([fields.status, fields.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    const sso = await call('OPTIONS', `/verification/${id}/step/sso`);
    expect(sso.headers.get('allow')).toBe('DELETE, GET, HEAD, OPTIONS');
    expect((await call('OPTIONS', '/nothing/here')).status).toBe(404);
  });
});
