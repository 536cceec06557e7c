import type { ServiceUnderTest, TopicRecorder } from '@eligo/local-infra';
import { recordTopic, waitFor } from '@eligo/local-infra';
import { parseCloudEventHeaders, topicFor } from '@eligo/runtime';
import { documentsApi, sampleFiles, type UploadFile } from '../support/documents-api';
import { startAllInProcess } from '../support/in-process';
import { programsApi, type ProgramsApi, type Reply } from '../support/programs-api';
import {
  importUniversity,
  janeDoe,
  verificationApi,
  type VerificationApi,
} from '../support/verification-api';

// Document upload end to end through the gateway (`--target all` on the suite's Postgres, Kafka and MinIO):
// a test-mode person whose firstName is REJECTED is sent to docUpload, uploads files in either form, waits
// in pending while staff review, and ends in success (with the success event) or back in docUpload.
let eligo: ServiceUnderTest;
let api: ProgramsApi;
let flow: VerificationApi;
let docs: ReturnType<typeof documentsApi>;
let events: TopicRecorder;
let accountId: string;
const publicBase = 'https://verify.example.test';
const step = 'collectStudentPersonalInfo';
const png: UploadFile = { name: 'student-card.png', type: 'image/png', bytes: sampleFiles.png };
const pdf: UploadFile = { name: 'enrolment.pdf', type: 'application/pdf', bytes: sampleFiles.pdf };

beforeAll(async () => {
  eligo = await startAllInProcess({ ELIGO_PUBLIC_BASE_URL: publicBase, ELIGO_ORGANIZATIONS_SEED: 'none' });
  api = programsApi(eligo);
  flow = verificationApi(api);
  docs = documentsApi(api, (url) => url.replace(publicBase, eligo.httpUrl));
  events = await recordTopic(topicFor('verification'));
  accountId = (await api.createAccount('Documents Co')).accountId;
}, 180_000);
afterAll(async () => {
  await events?.stop();
  await eligo?.stop();
});

const expectStatus = (reply: Reply, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

/** A new test-mode program's verification, sent to docUpload by firstName REJECTED. */
async function atDocUpload(settings: Record<string, unknown> = {}) {
  const { programId } = await api.createProgram(accountId, {
    offerType: 'staticCode',
    rewardCode: 'DOCS-10',
    ...settings,
  });
  const organization = await importUniversity(api, programId, 'Documents E2E University');
  const { verificationId } = await flow.started(programId);
  const res = await flow.submit(verificationId, step, { ...janeDoe, firstName: 'REJECTED', organization });
  expectStatus(res, 200);
  expect(res.body.currentStep).toBe('docUpload');
  expect(res.body.submissionUrl).toMatch(
    new RegExp(`^${publicBase}/rest/v2/verification/${verificationId}/step/docUpload/[A-Za-z0-9_-]+$`),
  );
  return { programId, verificationId, submissionUrl: res.body.submissionUrl as string };
}

async function until(verificationId: string, stepName: string) {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const res = await flow.get(verificationId);
    if (res.body?.currentStep === stepName) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${verificationId} did not reach ${stepName}`);
}

describe('form A: manifest, PUT to each upload URL, completeDocUpload', () => {
  it('REJECTED -> docUpload -> upload -> pending -> staff approves -> success, with the success event', async () => {
    const { verificationId, submissionUrl } = await atDocUpload({
      maxRejections: 3,
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_HALF_HOUR',
    });
    const created = await docs.manifest(submissionUrl, [png, pdf]);
    expectStatus(created, 200);
    expect(created.body).toMatchObject({
      verificationId,
      currentStep: 'docUpload',
      errorIds: [],
      submissionUrl: `${publicBase}/rest/v2/verification/${verificationId}/step/completeDocUpload`,
    });
    expect(created.body.documents).toEqual([
      expect.objectContaining({ mimeType: 'image/png', fileSize: png.bytes.length, errors: [] }),
      expect.objectContaining({ mimeType: 'application/pdf', fileSize: pdf.bytes.length, errors: [] }),
    ]);
    const [first, second] = created.body.documents;
    expect(first.uploadUrl).toMatch(new RegExp(`^${publicBase}/uploads/[A-Za-z0-9_-]+$`));

    expectStatus(await docs.put(first.uploadUrl, png), 200);
    // Completing with a file missing is refused, and changes nothing.
    expectStatus(await docs.complete(created.body.submissionUrl), 400);
    const uploaded = await docs.put(second.uploadUrl, pdf);
    expectStatus(uploaded, 200);
    expect(uploaded.body).toMatchObject({ documentId: second.documentId, status: 'UPLOADED' });
    // An upload URL works once.
    expectStatus(await docs.put(second.uploadUrl, pdf), 410);

    const pending = await docs.complete(created.body.submissionUrl);
    expectStatus(pending, 200);
    expect(pending.body).toMatchObject({
      currentStep: 'pending',
      statusUrl: `${publicBase}/rest/v2/verification/${verificationId}`,
      maxReviewTime: '20_MIN',
      estimatedReviewTime: 'A_HALF_HOUR',
    });
    // The status URL keeps answering pending while the review runs.
    expect((await docs.get(pending.body.statusUrl)).body.currentStep).toBe('pending');

    // Staff find it in the queue, read the files through short-lived links, and approve.
    const queue = await docs.reviews('pending');
    expectStatus(queue, 200);
    const queued = queue.body.reviews.find(
      (r: { verificationId: string }) => r.verificationId === verificationId,
    );
    expect(queued).toBeDefined();
    const review = await docs.review(queued.reviewId);
    expectStatus(review, 200);
    expect(review.body.files).toHaveLength(2);
    const link = review.body.files.find((f: { documentId: string }) => f.documentId === first.documentId);
    // Review links are Eligo's own (the store holds ciphertext only), under the public base URL: the admin API's
    // file route, read with the operator token.
    const downloaded = Buffer.from(
      await (
        await fetch(link.url.replace(publicBase, eligo.httpUrl), {
          headers: { authorization: `Bearer ${eligo.adminToken}` },
        })
      ).arrayBuffer(),
    );
    expect(downloaded.equals(png.bytes)).toBe(true);
    expectStatus(await docs.decide(queued.reviewId, 'approve'), 200);
    expectStatus(await docs.decide(queued.reviewId, 'reject', ['DOCUMENT_UNREADABLE']), 409);

    const done = await until(verificationId, 'success');
    expect(done.body).toMatchObject({ rewardCode: 'DOCS-10', rewardData: { rewardCode: 'DOCS-10' } });
    await waitFor('VerificationSucceeded', () =>
      events.messages.find(
        (m) =>
          m.key === verificationId && parseCloudEventHeaders(m.headers).eventName === 'VerificationSucceeded',
      ),
    );
  });

  it('refuses a bad manifest whole: per-document errors and errorIds, nothing to upload', async () => {
    const { submissionUrl } = await atDocUpload();
    const res = await docs.manifest(submissionUrl, [
      png,
      { name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) },
      { name: 'notes.txt', type: 'text/plain', bytes: sampleFiles.text },
    ]);
    expectStatus(res, 400);
    expect(res.body.errorIds).toEqual(
      expect.arrayContaining(['invalidFileSizeEmpty', 'unsupportedDocMimeType']),
    );
    expect(res.body.documents.map((d: { errors: string[] }) => d.errors)).toEqual([
      [],
      ['ZERO_SIZE'],
      ['UNSUPPORTED_TYPE'],
    ]);
    expect(res.body.documents.every((d: { uploadUrl?: string }) => !d.uploadUrl)).toBe(true);
    const four = await docs.manifest(submissionUrl, [png, png, png, png]);
    expectStatus(four, 400);
    expect(four.body.errorIds).toEqual(['invalidNumberOfFiles']);
  });

  it('an unknown upload URL is 404; bytes that are not what was declared are refused', async () => {
    expectStatus(await docs.put(`${publicBase}/uploads/${'x'.repeat(43)}`, png), 404);
    const { submissionUrl } = await atDocUpload();
    const created = await docs.manifest(submissionUrl, [
      { ...png, bytes: sampleFiles.text.subarray(0, 100) },
    ]);
    expectStatus(created, 200);
    const spoofed = await docs.put(created.body.documents[0].uploadUrl, {
      ...png,
      bytes: sampleFiles.text.subarray(0, 100),
    });
    expectStatus(spoofed, 400);
    expect(spoofed.body.errorIds).toEqual(['unsupportedDocMimeType']);
  });
});

describe('form B: multipart parts file1..file3', () => {
  it('test mode: a file named ACCEPTED is approved at once -> success', async () => {
    const { verificationId, submissionUrl } = await atDocUpload();
    const res = await docs.multipart(submissionUrl, [{ ...png, name: 'ACCEPTED-card.png' }, pdf]);
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ currentStep: 'pending', statusUrl: expect.any(String) });
    await until(verificationId, 'success');
  });

  it('test mode: a file named REJECTED is rejected -> docUpload with the reason and the count', async () => {
    const { programId, verificationId } = await atDocUpload();
    // The form without the attempt token in the path works too.
    const plain = `${publicBase}/rest/v2/verification/${verificationId}/step/docUpload`;
    expectStatus(await docs.multipart(plain, [{ ...png, name: 'REJECTED.png' }]), 200);
    const back = await until(verificationId, 'docUpload');
    expect(back.body.rejectionReasons).toEqual(['DOCUMENT_UNREADABLE']);
    const token = await api.createToken(accountId);
    const details = await flow.details(verificationId, token.token);
    expect(details.body).toMatchObject({ programId, docUploadRejectionCount: 1 });
  });

  it('a spoofed type, too many files and a wrong part name are 400 with nothing stored', async () => {
    const { submissionUrl } = await atDocUpload();
    const spoofed = await docs.multipart(submissionUrl, [
      { name: 'photo.png', type: 'image/png', bytes: sampleFiles.text },
    ]);
    expectStatus(spoofed, 400);
    expect(spoofed.body.errorIds).toEqual(['unsupportedDocMimeType']);
    const many = await docs.multipart(submissionUrl, [png, png, png, png]);
    expectStatus(many, 400);
    expect(many.body.errorIds).toEqual(['invalidNumberOfFiles']);
    expectStatus(await docs.multipart(submissionUrl, [png], ['document']), 400);
    // Still on docUpload: the next, valid upload goes through.
    expectStatus(await docs.multipart(submissionUrl, [png]), 200);
  });

  it('after the last rejection the program allows, uploads and reads answer 429 docReviewLimitExceeded', async () => {
    const { verificationId, submissionUrl } = await atDocUpload({ maxRejections: 1 });
    expectStatus(await docs.multipart(submissionUrl, [{ ...png, name: 'REJECTED.png' }]), 200);
    for (let waited = 0; waited < 20_000; waited += 100) {
      if ((await flow.get(verificationId)).status === 429) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const read = await flow.get(verificationId);
    expectStatus(read, 429);
    expect(read.body.errorIds).toEqual(['docReviewLimitExceeded']);
    const again = await docs.multipart(submissionUrl, [png]);
    expectStatus(again, 429);
    expect(again.body.errorIds).toEqual(['docReviewLimitExceeded']);
  });
});
