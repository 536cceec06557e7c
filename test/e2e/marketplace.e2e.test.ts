import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi, type Reply } from '../support/programs-api';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// POST /verification/marketplace through the gateway against the real verification and programs services:
// a marketplace partner's signed token (a compact JWS verified with the program's subjectTokenKey) starts a
// verification and is decided in the same request, like the program path shape of the personal-info steps.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let accountId: string;
/** The partner's signing key; its public half is the programs' subjectTokenKey. */
let partnerKey: KeyObject;
let subjectTokenKey: string;
let studentProgram: string;
let university: { id: number; name: string };
const publicBase = 'https://verify.example.test';
const v2 = `${publicBase}/rest/v2`;
const rewardCode = 'MARKET-10';

beforeAll(async () => {
  eligo = await startAllInProcess({ ELIGO_PUBLIC_BASE_URL: publicBase, ELIGO_ORGANIZATIONS_SEED: 'none' });
  api = programsApi(eligo);
  flow = verificationApi(api);
  ({ accountId } = await api.createAccount('Marketplace'));
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  partnerKey = privateKey;
  subjectTokenKey = JSON.stringify(publicKey.export({ format: 'jwk' }));
  ({ programId: studentProgram } = await program({ segment: 'student' }));
  university = await importUniversity(api, studentProgram, 'Eligo Marketplace University');
}, 180_000);
afterAll(async () => eligo?.stop());

/** A test-mode program of the account that takes the partner's tokens (new programs start in test mode). */
const program = (settings: Record<string, unknown>) =>
  api.createProgram(accountId, { offerType: 'staticCode', rewardCode, subjectTokenKey, ...settings });

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A compact JWS (EdDSA) of a subject, as a marketplace partner signs it for a program: with the claims the
 * service requires (aud the program id, issued now, 5 minutes to live, a fresh jti), which `claims` overrides.
 */
function token(payload: object, programId = studentProgram, key = partnerKey, claims: object = {}): string {
  const iat = Math.floor(Date.now() / 1000);
  const body = { aud: programId, iat, exp: iat + 300, jti: randomUUID(), ...payload, ...claims };
  const signingInput = `${base64url(JSON.stringify({ alg: 'EdDSA' }))}.${base64url(JSON.stringify(body))}`;
  return `${signingInput}.${base64url(sign(null, Buffer.from(signingInput), key))}`;
}

const marketplace = (body: unknown): Promise<Reply> => api.v2('POST', '/verification/marketplace', { body });

/** Asserts the status, showing the body when it differs. */
const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

const student = () => ({ ...janeDoe, organization: university });
const invalidRequest = (message: string | RegExp) => ({
  currentStep: 'error',
  errorIds: ['invalidRequest'],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
/** Whether a verification was started with the tracking id (GET by tracking id). */
const startedWith = async (programId: string, trackingId: string) => {
  const res = await flow.byTrackingId(programId, trackingId);
  return res.status === 404 ? 0 : 1;
};

describe('POST /verification/marketplace', () => {
  it('starts a verification and answers its instant success, with the tracking id', async () => {
    const res = await marketplace({
      programId: studentProgram,
      marketplaceToken: token(student()),
      trackingId: 'mp-order-1',
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      verificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
      currentStep: 'success',
      errorIds: [],
      segment: 'student',
      rewardCode,
      instantMatchAttempts: 1,
    });
    const byTracking = await flow.byTrackingId(studentProgram, 'mp-order-1');
    expect(byTracking.body).toMatchObject({
      verificationId: res.body.verificationId,
      currentStep: 'success',
    });
  });

  it('takes the token as verificationToken, and answers docUpload like a submission', async () => {
    const res = await marketplace({
      programId: studentProgram,
      verificationToken: token({ ...student(), firstName: 'REJECTED' }),
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'docUpload', errorIds: [] });
    expect(res.body.submissionUrl).toMatch(
      new RegExp(`^${v2}/verification/${res.body.verificationId}/step/docUpload/[A-Za-z0-9_-]{22}$`),
    );
  });

  it('answers bad data in a good token with a recoverable 400 VR, fixed at its submissionUrl', async () => {
    const res = await marketplace({
      programId: studentProgram,
      marketplaceToken: token({ ...student(), email: 'not-an-email' }),
    });
    expectStatus(res, 400);
    const step = 'collectStudentPersonalInfo';
    expect(res.body).toMatchObject({ currentStep: step, errorIds: ['invalidEmail'] });
    const { verificationId } = res.body;
    expect(res.body.submissionUrl).toBe(`${v2}/verification/${verificationId}/step/${step}`);
    // The step also takes a corrected token, under either name.
    const fixed = await flow.submit(verificationId, 'collectMarketplaceToken', {
      verificationToken: token(student()),
    });
    expectStatus(fixed, 200);
    expect(fixed.body).toMatchObject({ verificationId, currentStep: 'success', rewardCode });
  });

  it('decides a licensed professional by the status the token carries', async () => {
    const { programId } = await program({
      segment: 'licensedProfessional',
      subSegments: ['veterinarian', 'architect'],
    });
    // Any catalog organization: a licensed professional program does not restrict the types.
    const person = { ...janeDoe, postalCode: '10001', organization: university };
    const res = await marketplace({
      programId,
      marketplaceToken: token({ ...person, statuses: ['ARCHITECT'] }, programId),
    });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'success', subSegment: 'architect' });
    const refused = await marketplace({
      programId,
      marketplaceToken: token({ ...person, statuses: ['LIBRARIAN'] }, programId),
    });
    expectStatus(refused, 400);
    expect(refused.body).toMatchObject({
      currentStep: 'collectLicensedProfessionalPersonalInfo',
      errorIds: ['invalidRequest'],
      availableStatuses: ['VETERINARIAN', 'ARCHITECT'],
      systemErrorMessage:
        "statuses: 'LIBRARIAN' is not an allowed value. Allowed values: VETERINARIAN, ARCHITECT",
    });
  });

  it.each<[string, () => unknown, string | RegExp]>([
    [
      'a token signed with another key',
      () => token(student(), studentProgram, generateKeyPairSync('ed25519').privateKey),
      /^The subject token was refused: the signature does not verify/,
    ],
    [
      'a payload with a key the form does not take',
      () => token({ ...student(), nickname: 'JD' }),
      /^Unexpected property 'nickname'\. Allowed keys: firstName, lastName, birthDate, email/,
    ],
    [
      'an expired token',
      () => token(student(), studentProgram, partnerKey, { exp: Math.floor(Date.now() / 1000) - 120 }),
      'The subject token was refused: it has expired',
    ],
    [
      'a token for another program',
      () => token(student(), unknownId),
      'The subject token was refused: its "aud" claim is not the program id',
    ],
    ['a token that is not a JWS', () => 'not-a-token', /^body\.marketplaceToken /],
  ])('starts nothing for %s: 400 VR invalidRequest', async (_what, makeToken, message) => {
    const trackingId = `refused-${Math.random().toString(36).slice(2)}`;
    const res = await marketplace({ programId: studentProgram, marketplaceToken: makeToken(), trackingId });
    expectStatus(res, 400);
    expect(res.body).toEqual(invalidRequest(message));
    expect(await startedWith(studentProgram, trackingId)).toBe(0);
  });

  it('refuses a body without exactly one token, or without a programId', async () => {
    const marketplaceToken = token(student());
    for (const [body, message] of [
      [{ programId: studentProgram }, 'body must have exactly one of marketplaceToken, verificationToken'],
      [
        { programId: studentProgram, marketplaceToken, verificationToken: marketplaceToken },
        'body must have exactly one of marketplaceToken, verificationToken',
      ],
      [{ marketplaceToken }, 'body.programId is required'],
    ] as const) {
      const res = await marketplace(body);
      expect([body, res.status, res.body]).toEqual([body, 400, invalidRequest(message)]);
    }
  });

  it('refuses a program without a subjectTokenKey, or one that starts on collectMilitaryStatus', async () => {
    const { programId: keyless } = await api.createProgram(accountId, { segment: 'age' });
    const noKey = await marketplace({ programId: keyless, marketplaceToken: token(janeDoe, keyless) });
    expect([noKey.status, noKey.body]).toEqual([400, invalidRequest(/accepts no subject tokens/)]);
    const { programId: military } = await program({ segment: 'military' });
    const wrongStep = await marketplace({ programId: military, marketplaceToken: token(janeDoe, military) });
    expectStatus(wrongStep, 400);
    expect(wrongStep.body).toMatchObject({ currentStep: 'error', errorIds: ['invalidStep'] });
  });

  it('answers 404 noProgram and 403 inactiveProgram as an ER, like the start', async () => {
    const unknown = await marketplace({
      programId: unknownId,
      marketplaceToken: token(student(), unknownId),
    });
    expect([unknown.status, unknown.body.errorIds]).toEqual([404, ['noProgram']]);
    const { programId } = await program({ segment: 'age', startDate: '2099-01-01' });
    const early = await marketplace({ programId, marketplaceToken: token(janeDoe, programId) });
    expect([early.status, early.body.errorIds]).toEqual([403, ['inactiveProgram']]);
  });
});
