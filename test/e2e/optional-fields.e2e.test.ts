import { startEligoSuite, type EligoProcess, type EligoSuite } from '../support/eligo-process';
import { programsApi, type ProgramsApi, type Reply } from '../support/programs-api';
import { reportsApi, utcDay, type ReportsApi } from '../support/reports-api';
import { janeDoe, verificationApi, type VerificationApi } from '../support/verification-api';

// The optional fields that real clients of the v2 API send besides the spec's (issue 17), through REST
// against a real `eligo start`: metadata and locale on POST /verification; locale, externalUserId,
// phoneNumber and deviceFingerprintHash on the personal-info bodies other than the student's (whose keys the
// spec fixes); trackingId on the add-school request; externalUserId on send-link. What each is stored as and
// where it shows; what stays a 400.
const token = `eligo_admin_${'optional'.repeat(4)}`;
let suite: EligoSuite;
let eligo: EligoProcess;
let api: ProgramsApi;
let flow: VerificationApi;
let reports: ReportsApi;
let accountToken: string;
let piiToken: string;
let studentProgram: string;
let seniorProgram: string;

beforeAll(async () => {
  suite = await startEligoSuite(token, { ELIGO_REPORTS_POLL_MS: '100' });
  eligo = suite.eligo;
  api = programsApi({ httpUrl: eligo.httpUrl, adminToken: token });
  flow = verificationApi(api);
  reports = reportsApi(eligo, api);
  const tenant = await api.tenant('Optional Fields');
  accountToken = tenant.token.token;
  piiToken = (await api.createToken(tenant.account.accountId, 'pii', ['REPORTER', 'PII'])).token;
  studentProgram = tenant.program.programId;
  seniorProgram = (await api.createProgram(tenant.account.accountId, { name: 'Seniors', segment: 'senior' }))
    .programId;
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

/** Asserts the status, showing the body when it differs. */
const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));
const invalid = (message: string | RegExp) => ({
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
const start = (body: object) => api.v2('POST', '/verification', { body });
const metadataOf = (id: string) => api.v2('GET', `/verification/${id}/metadata`, { token: accountToken });
const putMetadata = (id: string, raw: string) =>
  api.v2('PUT', `/verification/${id}/metadata`, { token: accountToken, raw });
const SENIOR = 'collectSeniorPersonalInfo';
const senior = { ...janeDoe, birthDate: '1950-01-31' };

describe('POST /verification {programId, trackingId?, metadata?, locale?}', () => {
  it('stores the metadata as the verification’s and answers every response in the locale, canonical', async () => {
    const res = await start({
      programId: studentProgram,
      trackingId: 'order-1',
      metadata: { orderId: 'A-1', 'utm.source': 'mail' },
      locale: 'FR-ca',
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'collectStudentPersonalInfo', locale: 'fr-CA' });
    const id = res.body.verificationId as string;
    expect((await metadataOf(id)).body).toEqual({ orderId: 'A-1', 'utm.source': 'mail' });
    expect((await flow.get(id)).body.locale).toBe('fr-CA');
    const details = await flow.details(id, accountToken);
    expect(details.body).toMatchObject({ lastResponse: { locale: 'fr-CA' }, externalUserId: null });
    // Without one, the program's (en-US by default).
    expect((await start({ programId: studentProgram })).body.locale).toBe('en-US');
  });

  it.each<[string, object, number, object]>([
    [
      'a locale that is no BCP 47 tag',
      { locale: 'en_US' },
      400,
      invalid(
        'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
      ),
    ],
    [
      'a locale that is not well-formed',
      { locale: 'en-US-x' },
      400,
      invalid(
        'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
      ),
    ],
    [
      'the reserved metadata key __proto__',
      JSON.parse('{"metadata": {"__proto__": "x"}}') as object,
      400,
      invalid('body.metadata["__proto__"] is a reserved key'),
    ],
    [
      'a control character in a metadata key',
      { metadata: { 'a\u0000b': 'v' } },
      400,
      invalid(/the key "a\\u0000b" must not contain control characters/),
    ],
    [
      '51 metadata keys',
      { metadata: Object.fromEntries([...Array(51).keys()].map((i) => [`k${i}`, 'v'])) },
      400,
      { errorIds: ['maxMetadataValuesExceeded'], systemErrorMessage: expect.any(String) },
    ],
    [
      'a metadata value over 1024 characters',
      { metadata: { k: 'v'.repeat(1025) } },
      400,
      { errorIds: ['maxMetadataLengthExceeded'], systemErrorMessage: expect.any(String) },
    ],
    [
      'an unknown property',
      { deviceFingerprintHash: 'abc' },
      400,
      invalid(
        'body has unexpected property deviceFingerprintHash (allowed: programId, trackingId, metadata, locale)',
      ),
    ],
  ])('refuses %s', async (_name, extra, status, body) => {
    const res = await start({ programId: studentProgram, ...extra });
    expect([res.status, res.body]).toEqual([status, body]);
  });
});

describe('PUT /verification/{id}/metadata', () => {
  it('refuses the reserved key __proto__ and control characters with 400 invalidRequest, naming them', async () => {
    const { verificationId } = await flow.started(studentProgram);
    const reserved = await putMetadata(verificationId, '{"plan": "pro", "__proto__": "x"}');
    expect([reserved.status, reserved.body]).toEqual([400, invalid('body["__proto__"] is a reserved key')]);
    const control = await putMetadata(verificationId, JSON.stringify({ plan: 'line\nbreak' }));
    expect([control.status, control.body]).toEqual([
      400,
      invalid(/metadata\["plan"\] must not contain control characters/),
    ]);
    expect((await metadataOf(verificationId)).body).toEqual({});
    expectStatus(await putMetadata(verificationId, JSON.stringify({ plan: 'Zürich 東京' })), 200);
    expect((await metadataOf(verificationId)).body).toEqual({ plan: 'Zürich 東京' });
  });
});

describe('personal-info bodies', () => {
  it('takes locale, externalUserId, phoneNumber and deviceFingerprintHash on other forms; each shows where it belongs', async () => {
    const { verificationId } = await flow.started(seniorProgram);
    const res = await flow.submit(verificationId, SENIOR, {
      ...senior,
      metadata: { order: '9' },
      locale: 'es-mx',
      externalUserId: 'crm-user-4711',
      phoneNumber: '+1 415 555 0100',
      deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'success', locale: 'es-MX' });
    expect((await flow.get(verificationId)).body.locale).toBe('es-MX');

    const details = await flow.details(verificationId, accountToken);
    expect(details.body).toMatchObject({
      externalUserId: 'crm-user-4711',
      personInfo: { firstName: 'Jane', metadata: { order: '9' } },
      lastResponse: { locale: 'es-MX' },
    });
    // Never stored: nothing shows the device fingerprint.
    expect(JSON.stringify(details.body)).not.toContain('n4bQgYhMfWWaL');
    const staff = await api.admin('GET', `/verifications/${verificationId}`);
    expectStatus(staff, 200);
    expect(staff.body.details.externalUserId).toBe('crm-user-4711');
    expect(JSON.stringify(staff.body)).not.toContain('n4bQgYhMfWWaL');

    // The phone number is personal information: in a report with it, as Age's is.
    const report = await reports.reportUntil(
      piiToken,
      { startDate: utcDay(-1), endDate: utcDay(1), isPiiIncluded: true, piiReason: 'Optional fields e2e' },
      (rows) => rows.some((r) => r.verificationId === verificationId && r.currentStep === 'success'),
      'the senior verification in a report',
    );
    expect(report.rows.find((r) => r.verificationId === verificationId)).toMatchObject({
      // A cell starting with + is quoted against spreadsheet formulas, as every report cell is.
      phoneNumber: "'+1 415 555 0100",
      firstName: 'Jane',
    });
  });

  it('starts and submits in one request on the program path shape, in the body’s locale', async () => {
    const res = await flow.submitToProgram(seniorProgram, 'Senior', { ...senior, locale: 'it' }, 'order-2');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'success', locale: 'it' });
  });

  it('keeps the student form to the spec’s keys: a locale there is an unknown property', async () => {
    const { verificationId } = await flow.started(studentProgram);
    const res = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
      ...janeDoe,
      locale: 'en-US',
    });
    expect([res.status, res.body]).toEqual([
      400,
      {
        verificationId,
        currentStep: 'error',
        errorIds: ['invalidRequest'],
        systemErrorMessage:
          "Unexpected property 'locale'. Allowed keys: firstName, lastName, birthDate, email, organization, " +
          'universityId, metadata',
      },
    ]);
  });

  it.each<[string, object, string]>([
    [
      'a malformed locale',
      { locale: 'en_US' },
      'body.locale must be a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)',
    ],
    [
      'a control character in externalUserId',
      { externalUserId: 'crm\u0000' },
      'body.externalUserId must be 1 to 256 characters without control characters',
    ],
    [
      'a malformed deviceFingerprintHash',
      { deviceFingerprintHash: 'not a hash' },
      'body.deviceFingerprintHash must be 1 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -',
    ],
    [
      'the reserved metadata key __proto__',
      JSON.parse('{"metadata": {"__proto__": "x"}}') as object,
      'body.metadata["__proto__"] is a reserved key',
    ],
    [
      'an unknown key',
      { deviceId: 'x' },
      "Unexpected property 'deviceId'. Allowed keys: firstName, lastName, birthDate, postalCode, email, " +
        'metadata, phoneNumber, locale, deviceFingerprintHash, externalUserId',
    ],
  ])('refuses %s with a 400 naming it, storing nothing', async (_name, extra, message) => {
    const { verificationId } = await flow.started(seniorProgram);
    const res = await flow.submit(verificationId, SENIOR, { ...senior, ...extra });
    expect([res.status, res.body]).toEqual([
      400,
      { verificationId, currentStep: 'error', errorIds: ['invalidRequest'], systemErrorMessage: message },
    ]);
    expect((await flow.get(verificationId)).body).toMatchObject({ currentStep: SENIOR, errorIds: [] });
  });

  it('answers a phone number that is none as the recoverable invalidPhoneNumber', async () => {
    const { verificationId } = await flow.started(seniorProgram);
    const res = await flow.submit(verificationId, SENIOR, { ...senior, phoneNumber: 'call me' });
    expectStatus(res, 400);
    expect(res.body).toMatchObject({ currentStep: SENIOR, errorIds: ['invalidPhoneNumber'] });
  });

  it('refuses an organization with neither an id nor a non-empty name', async () => {
    const { verificationId } = await flow.started(studentProgram);
    for (const organization of [{}, { name: null }, { name: '' }]) {
      const res = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
        ...janeDoe,
        organization,
      });
      expect([res.status, res.body.systemErrorMessage]).toEqual([
        400,
        'body.organization must have an id or a non-empty name',
      ]);
    }
  });
});

describe('POST /organization/addSchool {..., trackingId?}', () => {
  const request = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.edu',
    schoolName: 'Tracked Academy',
    schoolDomain: 'tracked-academy.edu',
    schoolCountry: 'US',
  };

  it('keeps the trackingId with the request and shows it to operators', async () => {
    const res = await api.v2('POST', '/organization/addSchool', {
      body: { ...request, programId: studentProgram, trackingId: 'crm-ticket 42/β' },
    });
    expectStatus(res, 204);
    const list = await api.admin('GET', `/addSchoolRequests?programId=${studentProgram}`);
    expectStatus(list, 200);
    expect(list.body.requests).toEqual([
      expect.objectContaining({ schoolName: 'Tracked Academy', trackingId: 'crm-ticket 42/β' }),
    ]);
  });

  it('refuses a trackingId with a control character', async () => {
    const res = await api.v2('POST', '/organization/addSchool', {
      body: { ...request, programId: studentProgram, trackingId: 'a\u0000b' },
    });
    expect([res.status, res.body]).toEqual([
      400,
      invalid('body.trackingId must not contain control characters'),
    ]);
  });
});

describe('POST /program/{programId}/sendLink {..., externalUserId?}', () => {
  const sendLink = (body: object) =>
    api.v2('POST', `/program/${studentProgram}/sendLink`, { token: accountToken, body });

  it('accepts an externalUserId (not used), and refuses control characters in it and in trackingId', async () => {
    expectStatus(
      await sendLink({ email: 'jane@example.com', trackingId: 'crm-7', externalUserId: 'crm-user-7' }),
      204,
    );
    for (const [extra, message] of [
      [{ externalUserId: 'a\u0007' }, 'body.externalUserId must not contain control characters'],
      [{ trackingId: 'a\nb' }, 'body.trackingId must not contain control characters'],
    ] as const) {
      const res = await sendLink({ email: 'jane@example.com', ...extra });
      expect([res.status, res.body]).toEqual([400, invalid(message)]);
    }
  });
});
