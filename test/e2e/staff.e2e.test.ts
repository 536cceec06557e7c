import { randomBytes } from 'node:crypto';
import { documentsApi, sampleFiles, type UploadFile } from '../support/documents-api';
import { freePort, startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { call, programsApi, type ProgramsApi, type Reply } from '../support/programs-api';
import { staffConsole, type StaffConsole, type StaffSession } from '../support/staff';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';

// Staff identities end to end, against `eligo start --target all` on the suite's Postgres, Kafka and MinIO:
// the operator creates a reviewer, who signs in to the console and decides a pending document review with
// the session cookie and its CSRF token (decidedBy staff:<id>), is refused what the role does not allow and
// what comes without the token, a member is locked out after 5 wrong passwords, sign-out ends the session,
// and the audit log lists it all.
const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
const png: UploadFile = { name: 'student-card.png', type: 'image/png', bytes: sampleFiles.png };
let suite: EligoSuite;
let api: ProgramsApi;
let base: string;
let staff: StaffConsole;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  suite = await startEligoSuite(adminToken, {
    ELIGO_HTTP_PORT: String(port),
    ELIGO_PUBLIC_BASE_URL: base,
    // This suite signs in more than 10 times a minute from one address; the limit has a test of its own.
    ELIGO_GATEWAY_STAFF_SIGN_IN_PER_MINUTE: '100',
  });
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
  staff = staffConsole(api, base);
}, 120_000);
afterAll(async () => {
  await suite?.stop();
});

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

/** Signs in (201) and gets the session cookie: HttpOnly, SameSite=Strict, for 12 hours. */
async function signedIn(email: string, password: string): Promise<StaffSession> {
  const s = await staff.signedIn(email, password);
  expect(s.setCookie).toMatch(
    /^eligo_staff=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
  );
  return s;
}

/** A test-mode student sent to docUpload (firstName REJECTED) who uploads a file: a review waits for staff. */
async function pendingReview(): Promise<{ verificationId: string; reviewId: string }> {
  const flow = verificationApi(api);
  const docs = documentsApi(api, (url) => url);
  const { accountId } = await api.createAccount('Staff E2E');
  const { programId } = await api.createProgram(accountId, {
    offerType: 'staticCode',
    rewardCode: 'STAFF-10',
  });
  const organization = await importUniversity(api, programId, 'Staff E2E University');
  const { verificationId } = await flow.started(programId);
  const atUpload = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
    ...janeDoe,
    firstName: 'REJECTED',
    organization,
  });
  expect(atUpload.body.currentStep).toBe('docUpload');
  const created = await docs.manifest(atUpload.body.submissionUrl, [png]);
  expectStatus(created, 200);
  expectStatus(await docs.put(created.body.documents[0].uploadUrl, png), 200);
  expect((await docs.complete(created.body.submissionUrl)).body.currentStep).toBe('pending');
  for (let waited = 0; waited < 20_000; waited += 200) {
    const queue = await docs.reviews('pending');
    const review = queue.body.reviews.find(
      (r: { verificationId: string }) => r.verificationId === verificationId,
    );
    if (review) return { verificationId, reviewId: review.reviewId };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no pending review for ${verificationId}`);
}

async function until(verificationId: string, step: string): Promise<Reply> {
  const flow = verificationApi(api);
  for (let waited = 0; waited < 20_000; waited += 100) {
    const res = await flow.get(verificationId);
    if (res.body?.currentStep === step) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${verificationId} did not reach ${step}`);
}

it('a reviewer signs in, decides a review as staff:<id>, is held to the role and the CSRF token, signs out; a member is locked out; the audit log lists it', async () => {
  const startedAt = new Date(Date.now() - 1000).toISOString();
  const reviewer = await staff.create('reviewer', 'Rita.Reviewer@example.com');
  const s = await signedIn('rita.reviewer@example.com', reviewer.password);
  expect(s.staffId).toBe(reviewer.staffId);
  const me = await call(base, 'GET', '/console/session', { headers: { cookie: s.cookie } });
  expect(me.body).toEqual({
    staffId: reviewer.staffId,
    name: 'The reviewer',
    role: 'reviewer',
    csrfToken: s.csrf,
  });

  // The reviewer works the queue and approves; the verification goes on to success.
  const { verificationId, reviewId } = await pendingReview();
  const queue = await staff.as(s, 'GET', '/reviews?status=pending&limit=100', undefined, false);
  expectStatus(queue, 200);
  expect(queue.body.reviews.map((r: { reviewId: string }) => r.reviewId)).toContain(reviewId);
  const withoutCsrf = await staff.as(
    s,
    'POST',
    `/reviews/${reviewId}/decision`,
    { decision: 'approve' },
    false,
  );
  expectStatus(withoutCsrf, 403);
  expect(withoutCsrf.body.errorIds).toEqual(['invalidRequest']);
  const decided = await staff.as(s, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
  expectStatus(decided, 200);
  expect(decided.body).toMatchObject({
    reviewId,
    status: 'approved',
    decidedBy: `staff:${reviewer.staffId}`,
  });
  await until(verificationId, 'success');
  expect((await api.admin('GET', `/reviews/${reviewId}`)).body.decidedBy).toBe(`staff:${reviewer.staffId}`);

  // What a reviewer may not do.
  const account = await staff.as(s, 'POST', '/accounts', { name: 'Not mine to make' });
  expectStatus(account, 403);
  expect(account.body.errorIds).toEqual(['insufficientRole']);
  expectStatus(await staff.as(s, 'GET', '/staff'), 403);

  // Five wrong passwords in a row lock a member; the right one is then refused the same way.
  const other = await staff.create('support', 'sam.support@example.com');
  const wrong = [];
  for (let i = 0; i < 5; i += 1)
    wrong.push(await staff.signIn('sam.support@example.com', 'not the password!'));
  const locked = await staff.signIn('sam.support@example.com', other.password);
  for (const res of [...wrong, locked]) expect([res.status, res.body]).toEqual([401, wrong[0]!.body]);
  expect(locked.headers.get('set-cookie')).toBeNull();
  expect((await api.admin('GET', `/staff/${other.staffId}`)).body.lockedUntil).toBeGreaterThan(Date.now());

  // Sign-out ends the session.
  const out = await call(base, 'DELETE', '/console/session', {
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
  });
  expect(out.status).toBe(204);
  expect(out.headers.get('set-cookie')).toMatch(/^eligo_staff=; Path=\/; Max-Age=0;/);
  expectStatus(await staff.as(s, 'GET', '/reviews', undefined, false), 401);

  // The audit log, oldest first: what the operator and the staff did, with statuses, no email anywhere.
  const audit = await api.admin('GET', `/audit?from=${encodeURIComponent(startedAt)}&limit=500`);
  expectStatus(audit, 200);
  expect(JSON.stringify(audit.body)).not.toMatch(/example\.com|not the password/);
  const actions = (audit.body.entries as Record<string, unknown>[])
    .reverse()
    .map((e) => `${String(e.actorKind)}:${String(e.actorId ?? '-')} ${String(e.action)} ${String(e.status)}`);
  const rita = `staff:${reviewer.staffId}`;
  const sam = `staff:${other.staffId}`;
  const expected = [
    `operator:- adminCreateStaff 201`,
    `${rita} createConsoleSession 201`,
    `operator:- adminCreateAccount 201`,
    `operator:- adminCreateProgram 201`,
    `operator:- adminImportOrganizations 200`,
    `${rita} adminDecideReview 403`,
    `${rita} adminDecideReview 200`,
    `${rita} adminCreateAccount 403`,
    `operator:- adminCreateStaff 201`,
    ...Array.from({ length: 6 }, () => `${sam} createConsoleSession 401`),
    `${rita} deleteConsoleSession 204`,
  ];
  expect(actions).toEqual(expected);
  const decision = (audit.body.entries as Record<string, unknown>[]).find(
    (e) => e.action === 'adminDecideReview' && e.status === 200,
  );
  expect(decision).toMatchObject({
    method: 'POST',
    route: '/rest/admin/v1/reviews/{reviewId}/decision',
    targets: { reviewId },
  });

  const exported = await fetch(`${base}/rest/admin/v1/audit/export?actor=${reviewer.staffId}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(exported.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  const lines = (await exported.text())
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(lines.map((e) => `${e.action} ${e.status}`)).toEqual([
    'createConsoleSession 201',
    'adminDecideReview 403',
    'adminDecideReview 200',
    'adminCreateAccount 403',
    'deleteConsoleSession 204',
  ]);
});
