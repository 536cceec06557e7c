import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { documentsApi, sampleFiles, type UploadFile } from '../support/documents-api';
import { freePort, startEligoSuite, type EligoSuite } from '../support/eligo-process';
import { programsApi, type ProgramsApi, type Reply } from '../support/programs-api';
import { staffConsole, type StaffConsole, type StaffSession } from '../support/staff';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';

// The staff console's review queue end to end, against `eligo start --target all` on the suite's Postgres, Kafka
// and MinIO, through the real gateway: two reviewers signed in to the console; the queue filtered by program and
// segment, oldest first (or newest); A claims a review, B's claim, release and decision are 409 reviewClaimed, A
// decides; a claim whose lease ran out (ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS, 5 s here) lets B claim; each file
// is read through the gateway's own route, decrypted, byte for byte with its type, and the read is recorded.
const adminToken = `eligo_admin_${randomBytes(16).toString('hex')}`;
// Long enough for a few calls under load, short enough to wait out.
const LEASE_SECONDS = 5;
const png: UploadFile = { name: 'student-card.png', type: 'image/png', bytes: sampleFiles.png };
const pdf: UploadFile = { name: 'enrolment.pdf', type: 'application/pdf', bytes: sampleFiles.pdf };
let suite: EligoSuite;
let api: ProgramsApi;
let base: string;
let staff: StaffConsole;
let accountId: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  suite = await startEligoSuite(adminToken, {
    ELIGO_HTTP_PORT: String(port),
    ELIGO_PUBLIC_BASE_URL: base,
    ELIGO_DOCUMENTS_REVIEW_CLAIM_SECONDS: String(LEASE_SECONDS),
  });
  api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
  accountId = (await api.createAccount('Review Queue E2E')).accountId;
  staff = staffConsole(api, base);
}, 120_000);
afterAll(async () => {
  await suite?.stop();
});

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

/** A new reviewer (named by the email), signed in to the console. */
const reviewer = (email: string) => staff.member('reviewer', email, email);

/** A test-mode student program of the suite's account. */
async function studentProgram(): Promise<{ programId: string; organization: unknown }> {
  const { programId } = await api.createProgram(accountId, { offerType: 'staticCode', rewardCode: 'Q-10' });
  return { programId, organization: await importUniversity(api, programId, `Queue University ${programId}`) };
}

/** A person of the program at docUpload (firstName REJECTED) who uploads the files: a review waits for staff. */
async function pendingReview(
  program: { programId: string; organization: unknown },
  files: UploadFile[] = [png],
): Promise<{ verificationId: string; reviewId: string }> {
  const flow = verificationApi(api);
  const docs = documentsApi(api, (url) => url);
  const { verificationId } = await flow.started(program.programId);
  const atUpload = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
    ...janeDoe,
    firstName: 'REJECTED',
    organization: program.organization,
  });
  expect(atUpload.body.currentStep).toBe('docUpload');
  const created = await docs.manifest(atUpload.body.submissionUrl, files);
  expectStatus(created, 200);
  for (const [i, file] of files.entries())
    expectStatus(await docs.put(created.body.documents[i].uploadUrl, file), 200);
  expect((await docs.complete(created.body.submissionUrl)).body.currentStep).toBe('pending');
  for (let waited = 0; waited < 20_000; waited += 200) {
    const queue = await api.admin('GET', `/reviews?status=pending&programId=${program.programId}&limit=100`);
    const review = queue.body.reviews.find(
      (r: { verificationId: string }) => r.verificationId === verificationId,
    );
    if (review) return { verificationId, reviewId: review.reviewId };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no pending review for ${verificationId}`);
}

/** Every review id of a listing, page by page (2 a page, so that the cursors are walked). */
async function listed(s: StaffSession, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Reply = await staff.as(
      s,
      'GET',
      `/reviews?${query}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expectStatus(page, 200);
    ids.push(...page.body.reviews.map((r: { reviewId: string }) => r.reviewId));
    cursor = page.body.nextCursor;
  } while (cursor);
  return ids;
}

it('lists the queue by program and segment, oldest first or newest first', async () => {
  const a = await reviewer('queue.lister@example.com');
  const [one, two] = [await studentProgram(), await studentProgram()];
  const first = await pendingReview(one);
  const other = await pendingReview(two);
  const second = await pendingReview(one);

  expect(await listed(a, `status=pending&order=oldest&programId=${one.programId}`)).toEqual([
    first.reviewId,
    second.reviewId,
  ]);
  expect(await listed(a, `status=pending&programId=${one.programId}`)).toEqual([
    first.reviewId,
    second.reviewId,
  ]);
  expect(await listed(a, `status=pending&order=newest&programId=${one.programId}`)).toEqual([
    second.reviewId,
    first.reviewId,
  ]);
  const students = await listed(a, 'status=pending&order=oldest&segment=student');
  expect(students.filter((id) => [first, other, second].some((r) => r.reviewId === id))).toEqual([
    first.reviewId,
    other.reviewId,
    second.reviewId,
  ]);
  expect(await listed(a, 'status=pending&segment=military')).toEqual([]);
  const page = await staff.as(a, 'GET', `/reviews?programId=${one.programId}&limit=1`);
  expect(page.body.reviews[0]).toMatchObject({
    reviewId: first.reviewId,
    segment: 'student',
    claimedBy: null,
    claimExpiresAt: null,
  });

  const bad = await staff.as(a, 'GET', '/reviews?order=sideways');
  expectStatus(bad, 400);
  expect(bad.body.errorIds).toEqual(['invalidRequest']);
}, 120_000);

it('keeps a claimed review from the other reviewer until the holder decides or the lease runs out', async () => {
  const a = await reviewer('queue.alice@example.com');
  const b = await reviewer('queue.bob@example.com');
  const program = await studentProgram();
  const { verificationId, reviewId } = await pendingReview(program);

  // A claims: the review shows the claim and links to its files.
  const claimed = await staff.as(a, 'POST', `/reviews/${reviewId}/claim`);
  expectStatus(claimed, 200);
  expect(claimed.body).toMatchObject({ reviewId, claimedBy: `staff:${a.staffId}`, status: 'pending' });
  expect(Date.parse(claimed.body.claimExpiresAt)).toBeGreaterThan(Date.now() - 1000);
  expect(claimed.body.files).toHaveLength(1);

  // B may neither claim, release nor decide it (A renews first, so that the lease surely runs meanwhile).
  const renewed = await staff.as(a, 'POST', `/reviews/${reviewId}/claim`);
  expectStatus(renewed, 200);
  expect(Date.parse(renewed.body.claimExpiresAt)).toBeGreaterThanOrEqual(
    Date.parse(claimed.body.claimExpiresAt),
  );
  for (const [method, path, body] of [
    ['POST', `/reviews/${reviewId}/claim`, undefined],
    ['DELETE', `/reviews/${reviewId}/claim`, undefined],
    ['POST', `/reviews/${reviewId}/decision`, { decision: 'reject', rejectionReasons: ['DOCUMENT_EXPIRED'] }],
  ] as const) {
    const refused = await staff.as(b, method, path, body);
    expectStatus(refused, 409);
    expect(refused.body.errorIds).toEqual(['reviewClaimed']);
  }

  // A decides, which ends the claim; the verification moves on.
  const decided = await staff.as(a, 'POST', `/reviews/${reviewId}/decision`, { decision: 'approve' });
  expectStatus(decided, 200);
  expect(decided.body).toMatchObject({
    status: 'approved',
    decidedBy: `staff:${a.staffId}`,
    claimedBy: null,
  });
  const afterwards = await staff.as(b, 'POST', `/reviews/${reviewId}/claim`);
  expectStatus(afterwards, 409);
  expect(afterwards.body.errorIds).toBeUndefined();
  for (let waited = 0; ; waited += 200) {
    const status = await verificationApi(api).get(verificationId);
    if (status.body?.currentStep === 'success') break;
    if (waited > 20_000) throw new Error(`${verificationId} did not reach success`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // A claim that is not renewed runs out: B may then take the review, and A's renewal is refused.
  const next = await pendingReview(program);
  expectStatus(await staff.as(a, 'POST', `/reviews/${next.reviewId}/claim`), 200);
  expectStatus(await staff.as(b, 'POST', `/reviews/${next.reviewId}/claim`), 409);
  await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 300));
  const taken = await staff.as(b, 'POST', `/reviews/${next.reviewId}/claim`);
  expectStatus(taken, 200);
  expect(taken.body.claimedBy).toBe(`staff:${b.staffId}`);
  const late = await staff.as(a, 'POST', `/reviews/${next.reviewId}/decision`, { decision: 'approve' });
  expectStatus(late, 409);
  expect(late.body.errorIds).toEqual(['reviewClaimed']);
  // B gives it up: nobody holds it, and A may decide it without a claim.
  const released = await fetch(`${base}/rest/admin/v1/reviews/${next.reviewId}/claim`, {
    method: 'DELETE',
    headers: { cookie: b.cookie, 'x-csrf-token': b.csrf },
  });
  expect(released.status).toBe(204);
  expectStatus(await staff.as(a, 'POST', `/reviews/${next.reviewId}/decision`, { decision: 'approve' }), 200);
}, 120_000);

it('serves each file through the gateway, decrypted, with its type, inline and sandboxed; the read is recorded', async () => {
  const a = await reviewer('queue.reader@example.com');
  const program = await studentProgram();
  const { reviewId } = await pendingReview(program, [png, pdf]);
  const review = await staff.as(a, 'GET', `/reviews/${reviewId}`);
  expectStatus(review, 200);
  expect(review.body.files).toHaveLength(2);

  for (const [i, file] of [png, pdf].entries()) {
    const { documentId, url, expiresAt } = review.body.files[i];
    expect(review.body.documents[i].documentId).toBe(documentId);
    // The gateway's own route under the public base URL; never the store's address.
    expect(url).toBe(`${base}/rest/admin/v1/reviews/${reviewId}/files/${documentId}`);
    expect(expiresAt).toBeNull();
    const res = await fetch(url, { headers: { cookie: a.cookie } });
    expect(res.status).toBe(200);
    expect({
      type: res.headers.get('content-type'),
      length: res.headers.get('content-length'),
      disposition: res.headers.get('content-disposition'),
      nosniff: res.headers.get('x-content-type-options'),
      csp: res.headers.get('content-security-policy'),
      cache: res.headers.get('cache-control'),
    }).toEqual({
      type: file.type,
      length: String(file.bytes.length),
      disposition: 'inline',
      nosniff: 'nosniff',
      csp: "sandbox; default-src 'none'; img-src 'self'; object-src 'self'",
      cache: 'private, no-store',
    });
    expect(Buffer.from(await res.arrayBuffer()).equals(file.bytes)).toBe(true);
  }

  // The operator token reads too; nobody else does.
  const [first] = review.body.files;
  const asOperator = await fetch(first.url, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(asOperator.status).toBe(200);
  await asOperator.arrayBuffer();
  expect((await fetch(first.url)).status).toBe(401);
  // Another review's document, or none at all, is not found.
  const other = await pendingReview(program);
  const wrong = await staff.as(a, 'GET', `/reviews/${other.reviewId}/files/${first.documentId}`);
  expectStatus(wrong, 404);

  const db = new Client({ connectionString: suite.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      'select document_id, reader from documents.file_reads where review_id = $1 order by read_at',
      [reviewId],
    );
    expect(rows).toEqual([
      { document_id: review.body.files[0].documentId, reader: `staff:${a.staffId}` },
      { document_id: review.body.files[1].documentId, reader: `staff:${a.staffId}` },
      { document_id: review.body.files[0].documentId, reader: 'operator' },
    ]);
  } finally {
    await db.end();
  }
}, 120_000);
