import { startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { programsApi, type IssuedToken, type ProgramsApi } from '../support/programs-api';
import { reportsApi, utcDay, type ReportsApi } from '../support/reports-api';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// Issue 18: a personal-info submission whose metadata key held U+0000 was accepted, travelled in
// VerificationMetadataChanged, and Postgres refused it in the reports projection, which then stalled for
// every account. The edge refuses it (400 invalidRequest naming the field); reports keep following.
const token = `eligo_admin_${'control'.repeat(4)}`;
const STUDENT = 'collectStudentPersonalInfo';
let suite: EligoSuite;
let api: ProgramsApi;
let flow: VerificationApi;
let reports: ReportsApi;
let reporter: IssuedToken;
let programId: string;
let student: typeof janeDoe & { organization: { id: number; name: string } };

beforeAll(async () => {
  suite = await startEligoSuite(token, { ELIGO_REPORTS_POLL_MS: '100' });
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken: token });
  flow = verificationApi(api);
  reports = reportsApi(suite.eligo, api);
  const { accountId } = await api.createAccount('Control Characters');
  reporter = await api.createToken(accountId, 'reporter', ['REPORTER']);
  // New programs start in test mode, where a student of a known school succeeds at once.
  programId = (await api.createProgram(accountId)).programId;
  student = { ...janeDoe, organization: await importUniversity(api, programId) };
}, 120_000);

afterAll(async () => {
  await suite?.stop();
});

it('refuses a metadata key with U+0000 on a personal-info step, and reports still show what follows', async () => {
  const poisoned = await flow.started(programId);
  const refused = await flow.submit(poisoned.verificationId, STUDENT, {
    ...student,
    metadata: { 'order\u0000id': '1' },
  });
  expect([refused.status, refused.body]).toEqual([
    400,
    {
      verificationId: poisoned.verificationId,
      currentStep: 'error',
      errorIds: ['invalidRequest'],
      systemErrorMessage: 'body.metadata key "order\\u0000id" must not contain control characters',
    },
  ]);
  // Nothing was submitted: the verification still waits for its personal info.
  expect((await flow.get(poisoned.verificationId)).body.currentStep).toBe(STUDENT);
  // The same on the path shape that starts the verification in the same request: nothing is started.
  const onProgram = await flow.submitToProgram(programId, 'Student', {
    ...student,
    metadata: { k: 'a\u0000' },
  });
  expect([onProgram.status, onProgram.body]).toEqual([
    400,
    {
      currentStep: 'error',
      errorIds: ['invalidRequest'],
      systemErrorMessage: 'body.metadata.k must not contain control characters',
    },
  ]);

  const { verificationId } = await flow.started(programId);
  const done = await flow.submit(verificationId, STUDENT, { ...student, metadata: { orderId: '1' } });
  expect([done.status, done.body.currentStep]).toEqual([200, 'success']);
  const { rows } = await reports.reportUntil(
    reporter.token,
    { startDate: utcDay(-1), endDate: utcDay(1) },
    (found) => found.some((r) => r.verificationId === verificationId && r.currentStep === 'success'),
    'the verification after the refused one in the report',
    30_000,
  );
  expect(rows.find((r) => r.verificationId === verificationId)).toMatchObject({
    currentStep: 'success',
    metadataKeys: 'orderId',
  });
}, 60_000);
