import type { ServiceUnderTest } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import { programsApi, unknownId, type ProgramsApi, type Reply } from '../support/programs-api';
import {
  importUniversity,
  janeDoe as person,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// The REST v2 verification flow through the gateway against the real verification and programs services, in
// a test-mode student program (new programs start in test mode): start, submit, outcomes, errors, and the
// token endpoints' tenancy.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let owner: Awaited<ReturnType<ProgramsApi['tenant']>>;
let intruder: Awaited<ReturnType<ProgramsApi['tenant']>>;
let programId: string;
/** A complete student subject: the person and a school the program accepts. */
let janeDoe: typeof person & { organization: { id: number; name: string } };
/** URLs in responses are built on the configured public address, not on the address a request came to. */
const publicBase = 'https://verify.example.test';
const rewardCode = 'SPRING-10';

beforeAll(async () => {
  eligo = await startAllInProcess({ ELIGO_PUBLIC_BASE_URL: publicBase, ELIGO_ORGANIZATIONS_SEED: 'none' });
  api = programsApi(eligo);
  flow = verificationApi(api);
  owner = await api.tenant('Owner');
  intruder = await api.tenant('Intruder');
  // New programs start in test mode; a static code is what a test-mode success shows.
  ({ programId } = await api.createProgram(owner.account.accountId, {
    offerType: 'staticCode',
    rewardCode,
  }));
  janeDoe = { ...person, organization: await importUniversity(api, programId) };
}, 180_000);
afterAll(async () => eligo?.stop());

const step = 'collectStudentPersonalInfo';
const er = (errorId: string) => ({ errorIds: [errorId], systemErrorMessage: expect.any(String) });
const v2 = `${publicBase}/rest/v2`;
/** Asserts the status, showing the body when it differs. */
const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

describe('POST /verification', () => {
  it("answers the program's first step with a submissionUrl under the public base", async () => {
    const res = await flow.start(programId, 'order-1');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      verificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
      currentStep: step,
      errorIds: [],
      segment: 'student',
      subSegment: null,
    });
    expect(res.body.submissionUrl).toBe(`${v2}/verification/${res.body.verificationId}/step/${step}`);
  });

  it('answers 404 noProgram for an unknown program', async () => {
    expect(await flow.start(unknownId)).toMatchObject({ status: 404, body: er('noProgram') });
  });
});

describe('student personal info in test mode', () => {
  it('succeeds at once with a rewardCode for any firstName but REJECTED', async () => {
    const { verificationId } = await flow.started(programId);
    const res = await flow.submit(verificationId, step, janeDoe);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      verificationId,
      currentStep: 'success',
      errorIds: [],
      rewardCode,
      rewardData: { rewardCode },
      redirectUrl: null,
    });
    expect(res.body).not.toHaveProperty('submissionUrl');
    // GET answers the same state.
    expect((await flow.get(verificationId)).body).toMatchObject({ currentStep: 'success' });
  });

  it('moves firstName REJECTED to docUpload, with the docUpload submissionUrl', async () => {
    const { verificationId } = await flow.started(programId);
    const res = await flow.submit(verificationId, step, { ...janeDoe, firstName: 'REJECTED' });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
    });
    // The attempt's token ends the URL (document upload binds to the attempt).
    expect(res.body.submissionUrl).toMatch(
      new RegExp(`^${v2}/verification/${verificationId}/step/docUpload/[A-Za-z0-9_-]{22}$`),
    );
    expect(res.body).not.toHaveProperty('rewardCode');
  });

  it('refuses an unknown property with 400 invalidRequest naming the allowed keys', async () => {
    const { verificationId } = await flow.started(programId);
    const res = await flow.submit(verificationId, step, { ...janeDoe, nickname: 'JD' });
    expectStatus(res, 400);
    expect(res.body).toMatchObject({ verificationId, currentStep: 'error', errorIds: ['invalidRequest'] });
    expect(res.body.systemErrorMessage).toMatch(/nickname/);
    for (const key of ['firstName', 'lastName', 'birthDate', 'email', 'universityId', 'metadata'])
      expect(res.body.systemErrorMessage).toContain(key);
    // Nothing reached the service: the verification still waits for the student's info.
    expect((await flow.get(verificationId)).body).toMatchObject({ currentStep: step, errorIds: [] });
  });

  it('answers an invalid email with 400 and the same step, which can be submitted again', async () => {
    const { verificationId } = await flow.started(programId);
    const res = await flow.submit(verificationId, step, { ...janeDoe, email: 'not-an-email' });
    expectStatus(res, 400);
    expect(res.body).toMatchObject({ verificationId, currentStep: step });
    expect(res.body.errorIds).toContain('invalidEmail');
    expect(res.body.submissionUrl).toBe(`${v2}/verification/${verificationId}/step/${step}`);
    expect((await flow.submit(verificationId, step, janeDoe)).body).toMatchObject({ currentStep: 'success' });
  });

  it('starts and submits in one request on the program shape', async () => {
    const res = await flow.submitToProgram(programId, 'Student', janeDoe, 'one-shot');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'success', rewardCode });
    expect((await flow.byTrackingId(programId, 'one-shot')).body).toMatchObject({
      verificationId: res.body.verificationId,
      currentStep: 'success',
    });
  });
});

describe('unknown and malformed verifications', () => {
  it.each([unknownId, 'nope'])('answers 404 ER noVerification for %s', async (id) => {
    expect(await flow.get(id)).toMatchObject({ status: 404, body: er('noVerification') });
    expect(await flow.submit(id, step, janeDoe)).toMatchObject({ status: 404, body: er('noVerification') });
  });
});

describe('token endpoints: history and details', () => {
  let verificationId: string;
  const trackingId = 'customer-42';

  beforeAll(async () => {
    ({ verificationId } = await flow.started(programId, trackingId));
    expectStatus(await flow.submit(verificationId, step, janeDoe), 200);
  });

  it.each([
    ['no token', undefined],
    ['a garbage token', 'garbage'],
  ])('answer 401 with %s', async (_name, token) => {
    const sem = { systemErrorMessage: 'Access token is empty or invalid' };
    expect(await flow.history(programId, trackingId, token)).toMatchObject({ status: 401, body: sem });
    expect(await flow.details(verificationId, token)).toMatchObject({ status: 401, body: sem });
  });

  it('give the owner the history and the details', async () => {
    const history = await flow.history(programId, trackingId, owner.token.token);
    expectStatus(history, 200);
    expect(history.body).toEqual([expect.objectContaining({ verificationId, currentStep: 'success' })]);
    const details = await flow.details(verificationId, owner.token.token);
    expectStatus(details, 200);
    expect(details.body).toMatchObject({
      programId,
      trackingId,
      lastResponse: { verificationId, currentStep: 'success' },
      personInfo: { firstName: 'Jane', lastName: 'Doe', email: janeDoe.email, birthDate: janeDoe.birthDate },
      docUploadRejectionCount: 0,
    });
  });

  it('answer 404 to another account, as for an unknown verification', async () => {
    const token = intruder.token.token;
    expect(await flow.history(programId, trackingId, token)).toMatchObject({ status: 404 });
    expect(await flow.details(verificationId, token)).toMatchObject({
      status: 404,
      body: er('noVerification'),
    });
    // The same answer as for a verification that does not exist: existence does not leak.
    const unknown = (await flow.details(unknownId, token)).body;
    const foreign = (await flow.details(verificationId, token)).body;
    expect(foreign.systemErrorMessage.replace(verificationId, '<id>')).toBe(
      unknown.systemErrorMessage.replace(unknownId, '<id>'),
    );
  });
});
