import { waitFor } from '@eligo/local-infra';
import { PDF, PNG } from './files';
import {
  announce,
  file,
  incomingKey,
  newProgram,
  objectKey,
  put,
  send,
  startDocuments,
  uploadAll,
  verificationAtDocUpload,
  type Harness,
  type TestProgram,
} from './support';

/**
 * The retention job deletes files that are no longer needed: a decided review's after
 * ELIGO_DOCUMENTS_RETENTION_SECONDS (1 s here), an abandoned upload's, a cancelled upload's (again, for late
 * PUTs). The job runs every 200 ms here; the rows stay, marked.
 */
describe('document retention', () => {
  let h: Harness;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments({
      ELIGO_DOCUMENTS_RETENTION_SECONDS: '1',
      ELIGO_DOCUMENTS_RETENTION_SWEEP_MS: '200',
    });
    program = await newProgram(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const exists = (uploadId: string, documentId: string) => h.store.exists(objectKey(uploadId, documentId));
  const arrived = (uploadId: string, documentId: string) => h.store.exists(incomingKey(uploadId, documentId));

  it("deletes a decided review's files after the retention period, and keeps the pending ones", async () => {
    const decided = await uploadAll(h, program, [
      file('a.png', 'image/png', PNG),
      file('b.pdf', 'application/pdf', PDF),
    ]);
    const { reviewId } = await h.documents.unary('completeUpload', {
      verificationId: decided.verificationId,
      uploadId: '',
    });
    const waiting = await uploadAll(h, program, [file('c.png', 'image/png', PNG)]);
    const pending = await h.documents.unary('completeUpload', {
      verificationId: waiting.verificationId,
      uploadId: '',
    });
    await h.documents.unary('decideReview', {
      reviewId,
      decision: 'approve',
      rejectionReasons: [],
      decidedBy: 'operator',
    });

    const row = await waitFor('files_deleted_at of the decided review', async () => {
      const r = await h.db('reviews').where({ id: reviewId }).first();
      return r.files_deleted_at ? r : undefined;
    });
    expect(row.files_deleted_at).toBeInstanceOf(Date);
    for (const d of decided.documents) expect(await exists(decided.uploadId, d.documentId)).toBe(false);
    const { review, files } = await h.documents.unary('getReview', { reviewId });
    expect(files).toEqual([]);
    expect(review!.filesDeletedAt).toBeInstanceOf(Date);
    expect(review!.status).toBe('approved');

    // A pending review is never purged, however old.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await exists(waiting.uploadId, waiting.documents[0]!.documentId)).toBe(true);
    expect((await h.db('reviews').where({ id: pending.reviewId }).first()).files_deleted_at).toBeNull();
  });

  it('cancels an upload abandoned an hour after its tokens expired, and deletes its files', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [
      file('a.png', 'image/png', PNG),
      file('b.png', 'image/png', PNG),
    ]);
    const sent = await send(h, created.documents[0]!.uploadToken, PNG);
    const fresh = await h.db('uploads').where({ id: created.uploadId }).first();
    expect(fresh.status).toBe('open');
    // Two hours ago (the tokens live 15 minutes): abandoned.
    await h
      .db('uploads')
      .where({ id: created.uploadId })
      .update({ created_at: new Date(Date.now() - 2 * 3_600_000) });
    const row = await waitFor('the abandoned upload cancelled', async () => {
      const r = await h.db('uploads').where({ id: created.uploadId }).first();
      return r.files_deleted_at ? r : undefined;
    });
    expect(row.status).toBe('cancelled');
    expect(await exists(created.uploadId, sent.documentId)).toBe(false);
  });

  it("deletes a late PUT's object of a cancelled upload once its PUT URLs expired", async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file('a.png', 'image/png', PNG)]);
    const doc = created.documents[0]!;
    const { putUrl } = await h.documents.unary('beginFileUpload', { uploadToken: doc.uploadToken });
    await h.documents.unary('cancelUpload', { uploadId: created.uploadId });
    // The gateway's PUT was still under way: its bytes land after the cancellation deleted the files.
    await put(putUrl, PNG, 'image/png');
    expect(await arrived(created.uploadId, doc.documentId)).toBe(true);
    await h
      .db('uploads')
      .where({ id: created.uploadId })
      .update({ cancelled_at: new Date(Date.now() - 3_600_000) });
    await waitFor('the late object deleted', async () => {
      const r = await h.db('uploads').where({ id: created.uploadId }).first();
      return r.files_deleted_at ? r : undefined;
    });
    expect(await arrived(created.uploadId, doc.documentId)).toBe(false);
  });
});
