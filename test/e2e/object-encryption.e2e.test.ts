import { randomBytes, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@eligo/local-infra';
import { createFsObjectStore, createS3ObjectStore, type ObjectStore } from '@eligo/runtime';
import { documentsApi, sampleFiles, type UploadFile } from '../support/documents-api';
import { freePort, startEligoSuite, tempDataDir, type EligoSuite } from '../support/eligo-process';
import { programsApi, type Reply } from '../support/programs-api';
import { reportsApi, utcDay } from '../support/reports-api';
import { importUniversity, janeDoe, verificationApi } from '../support/verification-api';

// Identity documents and PII reports rest encrypted in the object store: through a real `eligo start --target
// all`, a person marked ZZPLAINTEXTMARKER uploads documents in both forms and appears in a PII report, and a
// raw listing and read of the bucket (MinIO through the plain S3 API, or the filesystem store's directory)
// finds the marker nowhere, while staff and a PII reporter read everything in the clear through the API.
// Deleting a report deletes its object; objects nothing refers to are swept after the grace period.
const MARKER = 'ZZPLAINTEXTMARKER';
const adminToken = `eligo_admin_${randomBytes(18).toString('hex')}`;
const marked: UploadFile = {
  name: 'passport.pdf',
  type: 'application/pdf',
  bytes: Buffer.concat([sampleFiles.pdf, Buffer.from(`% ${MARKER} Jane Doe\n`)]),
};

interface RawStore {
  /** The store as it is, beside the process (no decryption). */
  store: ObjectStore;
  /** Every stored byte: each S3 object, or every file under the filesystem store's directory. */
  bytes(): Promise<{ name: string; bytes: Buffer }[]>;
}

function minio(bucket: string): RawStore {
  const store = createS3ObjectStore({
    endpoint: process.env.ELIGO_TEST_S3_ENDPOINT!,
    accessKey: process.env.ELIGO_TEST_S3_ACCESS_KEY!,
    secretKey: process.env.ELIGO_TEST_S3_SECRET_KEY!,
    bucket,
  });
  return {
    store,
    async bytes() {
      const found: { name: string; bytes: Buffer }[] = [];
      for await (const { key } of store.list(''))
        found.push({ name: key, bytes: await readAll(await store.get(key)) });
      return found;
    },
  };
}

function filesystem(dataDir: string): RawStore {
  const root = join(dataDir, 'objects');
  return {
    // Only lists, reads and plants objects here: no URL is ever signed with this secret.
    store: createFsObjectStore({ root, publicBaseUrl: 'http://127.0.0.1:9', signingSecret: 'x'.repeat(32) }),
    async bytes() {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return Promise.all(
        entries
          .filter((e) => e.isFile())
          .map(async (e) => ({ name: e.name, bytes: await readFile(join(e.parentPath, e.name)) })),
      );
    },
  };
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe.each(['MinIO', 'the filesystem store'])('personal data at rest with eligo start on %s', (kind) => {
  const data = tempDataDir();
  const bucket = `e2e-enc-${randomBytes(4).toString('hex')}`;
  const raw = kind === 'MinIO' ? minio(bucket) : filesystem(data.dir);
  let suite: EligoSuite;
  let api: ReturnType<typeof programsApi>;
  let docs: ReturnType<typeof documentsApi>;
  let accountId: string;
  let programId: string;
  let organization: { id: number; name: string };

  beforeAll(async () => {
    const port = await freePort();
    suite = await startEligoSuite(adminToken, {
      ELIGO_HTTP_PORT: String(port),
      ELIGO_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ELIGO_DATA_DIR: data.dir,
      ...(kind === 'MinIO' ? { ELIGO_S3_BUCKET: bucket } : { ELIGO_S3_ENDPOINT: '' }),
      ELIGO_REPORTS_POLL_MS: '100',
      ELIGO_DOCUMENTS_ORPHAN_GRACE_SECONDS: '2',
      ELIGO_DOCUMENTS_ORPHAN_SWEEP_MS: '500',
      ELIGO_REPORTS_ORPHAN_GRACE_MS: '2000',
      ELIGO_REPORTS_ORPHAN_SWEEP_MS: '500',
    });
    api = programsApi({ httpUrl: suite.eligo.httpUrl, adminToken });
    docs = documentsApi(api, (url) => url);
    accountId = (await api.createAccount('At Rest Co')).accountId;
    ({ programId } = await api.createProgram(accountId, { offerType: 'staticCode', rewardCode: 'REST-1' }));
    organization = await importUniversity(api, programId, 'At Rest University');
  }, 120_000);
  afterAll(async () => {
    await suite?.stop();
    data.remove();
  });

  const expectStatus = (reply: Reply, status: number) =>
    expect(`${reply.status} ${JSON.stringify(reply.body)}`).toMatch(new RegExp(`^${status} `));

  /** A verification submitted with this first name (test mode: REJECTED goes to docUpload). */
  async function verification(firstName: string) {
    const flow = verificationApi(api);
    const { verificationId } = await flow.started(programId);
    const res = await flow.submit(verificationId, 'collectStudentPersonalInfo', {
      ...janeDoe,
      firstName,
      organization,
    });
    expectStatus(res, 200);
    return res.body as { verificationId: string; currentStep: string; submissionUrl: string };
  }

  it('stores documents of both forms and a PII report with no plaintext, and serves them in the clear', async () => {
    // Form A: the manifest, the PUT to the upload URL, completion.
    const formA = await verification('REJECTED');
    const created = await docs.manifest(formA.submissionUrl, [marked]);
    expectStatus(created, 200);
    expectStatus(await docs.put(created.body.documents[0].uploadUrl, marked), 200);
    expectStatus(await docs.complete(created.body.submissionUrl), 200);
    // Form B: the multipart body.
    const formB = await verification('REJECTED');
    expectStatus(await docs.multipart(formB.submissionUrl, [marked]), 200);

    // A report with the person's data, through a token with the PII role.
    await verification(MARKER);
    const pii = (await api.createToken(accountId, 'pii', ['REPORTER', 'PII'])).token;
    const reports = reportsApi(suite.eligo, api);
    const report = await reportUntil(reports, pii);
    expect(report.text).toContain(MARKER);

    const stored = await raw.bytes();
    expect(stored.length).toBeGreaterThan(0);
    for (const { name, bytes } of stored)
      for (const plaintext of [MARKER, '%PDF-1.4', 'verificationId,'])
        expect(`${name}: ${bytes.includes(plaintext) ? `holds ${plaintext}` : 'ok'}`).toBe(`${name}: ok`);

    // Staff read both uploads through their review links (the admin API's own route: the operator token).
    const queue = await docs.reviews('pending');
    expectStatus(queue, 200);
    const mine = queue.body.reviews.filter((r: { verificationId: string }) =>
      [formA.verificationId, formB.verificationId].includes(r.verificationId),
    );
    expect(mine).toHaveLength(2);
    for (const { reviewId } of mine) {
      const review = await docs.review(reviewId);
      expectStatus(review, 200);
      const res = await fetch(review.body.files[0].url, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(marked.bytes)).toBe(true);
    }

    // Deleting the report deletes its object.
    const keyPrefix = `reports/${accountId}/${report.id}/`;
    expect(await keys(keyPrefix)).toHaveLength(1);
    expectStatus(await reports.remove(pii, report.id), 200);
    expect(await keys(keyPrefix)).toEqual([]);
  }, 120_000);

  it('sweeps objects no document or report refers to, once past the grace period', async () => {
    const orphans = [
      `documents/${randomUUID()}/${randomUUID()}`,
      `reports/${accountId}/${randomBytes(12).toString('hex')}/${randomUUID()}.csv`,
    ];
    for (const key of orphans) await raw.store.put(key, Buffer.from(`${MARKER} Jane Doe`));
    await waitFor('the orphans swept', async () => {
      const left = await Promise.all(orphans.map((key) => raw.store.exists(key)));
      return left.some(Boolean) ? undefined : true;
    });
    // What the API refers to is still there.
    expect((await keys('documents/')).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  async function keys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    for await (const { key } of raw.store.list(prefix)) found.push(key);
    return found;
  }

  /** A PII report of the account, requested again until the marked person's verification is in it. */
  function reportUntil(reports: ReturnType<typeof reportsApi>, token: string) {
    return reports.reportUntil(
      token,
      { startDate: utcDay(-1), endDate: utcDay(1), isPiiIncluded: true, piiReason: 'At rest check' },
      (rows) => rows.some((r) => r.firstName === MARKER),
      'the marked person in the report',
    );
  }
});
