import { randomBytes } from 'node:crypto';
import { statementsOf, transactionsOf } from '@eligo/local-infra';
import { GIF, JPEG, PDF, PNG, TEXT } from './files';
import {
  announce,
  failure,
  file,
  newProgram,
  objectKey,
  put,
  rowCounts,
  send,
  startDocuments,
  succeededVerification,
  uploadAll,
  verificationAtDocUpload,
  type Harness,
  type TestProgram,
} from './support';

/** Form A through the real API: announce files, send their bytes to the store, complete. */
describe('document uploads', () => {
  let h: Harness;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments();
    program = await newProgram(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const exists = (uploadId: string, documentId: string) => h.store.exists(objectKey(uploadId, documentId));

  it('takes three files and moves the verification to pending', async () => {
    const vr = await verificationAtDocUpload(h, program);
    expect(vr.currentStep).toBe('docUpload');
    const files = [
      file('student-id.png', 'image/png', PNG),
      file('enrolment.pdf', 'application/pdf', PDF),
      file('card.gif', 'image/gif', GIF),
    ];
    const created = await announce(h, vr.verificationId, files);
    expect(created.verification).toMatchObject({
      verificationId: vr.verificationId,
      currentStep: 'docUpload',
      errorIds: [],
    });
    expect(created.uploadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.documents.map((d) => [d.status, d.mimeType, d.fileSize, d.fileName, d.errors])).toEqual([
      ['AWAITING_UPLOAD', 'image/png', PNG.length, 'student-id.png', []],
      ['AWAITING_UPLOAD', 'application/pdf', PDF.length, 'enrolment.pdf', []],
      ['AWAITING_UPLOAD', 'image/gif', GIF.length, 'card.gif', []],
    ]);
    for (const d of created.documents) expect(d.uploadToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    for (const [i, d] of created.documents.entries()) {
      const begun = await h.documents.unary('beginFileUpload', { uploadToken: d.uploadToken });
      expect(begun).toMatchObject({
        documentId: d.documentId,
        fileSize: files[i]!.bytes.length,
        mimeType: files[i]!.mimeType,
      });
      await put(begun.putUrl, files[i]!.bytes, begun.mimeType);
      const { document } = await h.documents.unary('finishFileUpload', { uploadToken: d.uploadToken });
      expect(document).toMatchObject({
        documentId: d.documentId,
        status: 'UPLOADED',
        errors: [],
        uploadToken: '',
      });
      expect(await exists(created.uploadId, d.documentId)).toBe(true);
    }

    const completed = await h.documents.unary('completeUpload', {
      verificationId: vr.verificationId,
      uploadId: '',
    });
    expect(completed.verification).toMatchObject({
      verificationId: vr.verificationId,
      currentStep: 'pending',
    });
    expect(completed.reviewId).toMatch(/^[0-9a-f-]{36}$/);
    const { verification } = await h.verification.unary('getVerification', {
      verificationId: vr.verificationId,
    });
    expect(verification!.currentStep).toBe('pending');
    const review = await h.db('reviews').where({ id: completed.reviewId }).first();
    expect(review).toMatchObject({
      status: 'pending',
      upload_id: created.uploadId,
      verification_id: vr.verificationId,
    });
    // The stored bytes are the sent ones (once decrypted), under a key made of ids only.
    const stream = await h.files.get(objectKey(created.uploadId, created.documents[1]!.documentId));
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(PDF)).toBe(true);
  });

  it('completes with the upload locked, its documents read and one write for the rest', async () => {
    const { verificationId, uploadId } = await uploadAll(h, program, [file('id.png', 'image/png', PNG)]);
    let reviewId = '';
    const sent = await statementsOf('documents', async () => {
      ({ reviewId } = await h.documents.unary('completeUpload', { verificationId, uploadId: '' }));
    });
    // The upload submitted, its review and DocumentsSubmitted: one statement, after the two reads.
    const [completed, ...others] = transactionsOf(sent, uploadId).filter((t) => t[0] === 'BEGIN');
    expect(others).toEqual([]);
    expect(completed).toEqual([
      'BEGIN',
      expect.stringMatching(/^select .* from "uploads" where "id" = \$1 limit \$2 for update$/),
      expect.stringMatching(/^select .* from "documents"/),
      expect.stringMatching(
        /^with "submitted" as \(update "uploads".*"review" as \(insert into "reviews".*"outbox"/s,
      ),
      'COMMIT',
    ]);
    const [upload] = await h.db('uploads').where({ id: uploadId }).select('status');
    expect(upload.status).toBe('submitted');
    expect(await h.db('reviews').where({ id: reviewId, upload_id: uploadId })).toHaveLength(1);
    const events = await h.db('outbox').where({ key: verificationId }).select('event_type');
    expect(events.map((e: { event_type: string }) => e.event_type.replace(/.*\./, ''))).toEqual([
      'DocumentsSubmitted',
    ]);
  });

  it('accepts image/jpg as image/jpeg and sanitises file names', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [
      file('C:\\scans\\..\\my\u0000 id.jpg', 'Image/JPG', JPEG),
    ]);
    const [doc] = created.documents;
    expect([doc!.mimeType, doc!.fileName]).toEqual(['image/jpeg', 'my id.jpg']);
    expect((await send(h, doc!.uploadToken, JPEG)).status).toBe('UPLOADED');
  });

  describe('a refused manifest stores nothing', () => {
    const MiB = 1024 * 1024;
    it.each([
      [
        'an empty file',
        { fileName: 'a.png', mimeType: 'image/png', fileSize: 0 },
        'ZERO_SIZE',
        'invalidFileSizeEmpty',
      ],
      [
        'a file over 10 MiB',
        { fileName: 'a.png', mimeType: 'image/png', fileSize: 10 * MiB + 1 },
        'TOO_LARGE',
        'invalidFileSizeMax',
      ],
      [
        'an unsupported type',
        { fileName: 'a.txt', mimeType: 'text/plain', fileSize: 10 },
        'UNSUPPORTED_TYPE',
        'unsupportedDocMimeType',
      ],
    ])('%s', async (_, bad, error, errorId) => {
      const vr = await verificationAtDocUpload(h, program);
      const before = await rowCounts(h.db);
      const good = { fileName: 'ok.png', mimeType: 'image/png', fileSize: PNG.length };
      const reply = await h.documents.unary('createUpload', {
        verificationId: vr.verificationId,
        docUploadToken: '',
        files: [good, bad],
      });
      expect(reply.uploadId).toBe('');
      expect(reply.verification).toMatchObject({ currentStep: 'docUpload', errorIds: [errorId] });
      expect(reply.documents.map((d) => [d.errors, d.uploadToken, d.documentId])).toEqual([
        [[], '', ''],
        [[error], '', ''],
      ]);
      expect(await rowCounts(h.db)).toEqual(before);
    });

    it.each([0, 4])('%i files: invalidNumberOfFiles', async (count) => {
      const vr = await verificationAtDocUpload(h, program);
      const before = await rowCounts(h.db);
      const files = Array.from({ length: count }, () => ({
        fileName: 'a.png',
        mimeType: 'image/png',
        fileSize: 70,
      }));
      const err = await failure(
        h.documents.unary('createUpload', { verificationId: vr.verificationId, docUploadToken: '', files }),
      );
      expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidNumberOfFiles']]);
      expect(await rowCounts(h.db)).toEqual(before);
    });
  });

  it("passes the verification service's errors through", async () => {
    const files = [{ fileName: 'a.png', mimeType: 'image/png', fileSize: PNG.length }];
    const unknown = await failure(
      h.documents.unary('createUpload', {
        verificationId: randomBytes(12).toString('hex'),
        docUploadToken: '',
        files,
      }),
    );
    expect([unknown.codeName, unknown.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
    // A verification that succeeded at once has no docUpload step to send files to.
    const done = await succeededVerification(h, program);
    expect(done.currentStep).toBe('success');
    const wrongStep = await failure(
      h.documents.unary('createUpload', { verificationId: done.verificationId, docUploadToken: '', files }),
    );
    expect([wrongStep.codeName, wrongStep.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
  });

  it.each([
    ['PNG bytes declared as image/jpeg', 'photo.jpg', 'image/jpeg', PNG],
    ['text declared as application/pdf', 'letter.pdf', 'application/pdf', TEXT],
  ])('refuses %s and deletes the bytes', async (_, name, mimeType, bytes) => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file(name, mimeType, bytes)]);
    const doc = await send(h, created.documents[0]!.uploadToken, bytes);
    expect([doc.status, doc.errors]).toEqual(['REJECTED', ['UNSUPPORTED_TYPE']]);
    expect(await exists(created.uploadId, doc.documentId)).toBe(false);
    const err = await failure(
      h.documents.unary('completeUpload', { verificationId: vr.verificationId, uploadId: '' }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
  });

  it('lets a token be used once: 404 unknown, 410 while in flight and once used', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file('a.png', 'image/png', PNG)]);
    const token = created.documents[0]!.uploadToken;
    const begun = await h.documents.unary('beginFileUpload', { uploadToken: token });
    const inFlight = await failure(h.documents.unary('beginFileUpload', { uploadToken: token }));
    expect([inFlight.codeName, inFlight.reason]).toEqual(['NOT_FOUND', 'uploadUrlUsed']);
    await put(begun.putUrl, PNG, 'image/png');
    await h.documents.unary('finishFileUpload', { uploadToken: token });
    const used = await failure(h.documents.unary('beginFileUpload', { uploadToken: token }));
    expect([used.codeName, used.reason, used.message]).toEqual([
      'NOT_FOUND',
      'uploadUrlUsed',
      'Upload URL expired or already used',
    ]);
    const unknown = await failure(
      h.documents.unary('beginFileUpload', { uploadToken: randomBytes(32).toString('base64url') }),
    );
    expect([unknown.codeName, unknown.reason, unknown.message]).toEqual([
      'NOT_FOUND',
      undefined,
      'Upload URL not found',
    ]);
    // Finishing again answers the document as it stands.
    const again = await h.documents.unary('finishFileUpload', { uploadToken: token });
    expect(again.document!.status).toBe('UPLOADED');
  });

  it('lets only one of several simultaneous PUTs claim a token', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file('a.png', 'image/png', PNG)]);
    const uploadToken = created.documents[0]!.uploadToken;
    const claims = await Promise.allSettled(
      Array.from({ length: 5 }, () => h.documents.unary('beginFileUpload', { uploadToken })),
    );
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    const unknownFinish = await failure(
      h.documents.unary('finishFileUpload', { uploadToken: randomBytes(32).toString('base64url') }),
    );
    expect([unknownFinish.codeName, unknownFinish.reason]).toEqual(['NOT_FOUND', undefined]);
  });

  it('takes the file again after an interrupted transfer', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file('a.png', 'image/png', PNG)]);
    const { uploadToken: token, documentId } = created.documents[0]!;
    // Nothing arrived.
    await h.documents.unary('beginFileUpload', { uploadToken: token });
    const nothing = await h.documents.unary('finishFileUpload', { uploadToken: token });
    expect([nothing.document!.status, nothing.document!.uploadToken]).toEqual(['AWAITING_UPLOAD', token]);
    // Part of it arrived: the partial object is deleted.
    const second = await h.documents.unary('beginFileUpload', { uploadToken: token });
    await put(second.putUrl, PNG.subarray(0, 20), 'image/png');
    const partial = await h.documents.unary('finishFileUpload', { uploadToken: token });
    expect(partial.document!.status).toBe('AWAITING_UPLOAD');
    expect(await exists(created.uploadId, documentId)).toBe(false);
    // The same URL works until it expires.
    expect((await send(h, token, PNG)).status).toBe('UPLOADED');
  });

  it('refuses to complete before every file is in, and names the missing ones', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [
      file('a.png', 'image/png', PNG),
      file('b.pdf', 'application/pdf', PDF),
    ]);
    await send(h, created.documents[0]!.uploadToken, PNG);
    const before = await rowCounts(h.db);
    const err = await failure(
      h.documents.unary('completeUpload', { verificationId: vr.verificationId, uploadId: '' }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
    expect(err.message).toContain('file 2 (not sent)');
    expect(err.message).not.toContain('b.pdf');
    expect(await rowCounts(h.db)).toEqual(before);
    const { verification } = await h.verification.unary('getVerification', {
      verificationId: vr.verificationId,
    });
    expect(verification!.currentStep).toBe('docUpload');
  });

  it('answers the same review when completed twice, by latest upload or by id', async () => {
    const { verificationId, uploadId } = await uploadAll(h, program, [file('a.png', 'image/png', PNG)]);
    const first = await h.documents.unary('completeUpload', { verificationId, uploadId: '' });
    const second = await h.documents.unary('completeUpload', { verificationId, uploadId });
    expect(second.reviewId).toBe(first.reviewId);
    expect(second.verification!.currentStep).toBe('pending');
    expect(
      await h.db('reviews').where({ upload_id: uploadId }).count<{ count: string }[]>('* as count'),
    ).toEqual([{ count: '1' }]);
    // Simultaneous completions of a fresh upload queue one review.
    const again = await uploadAll(h, program, [file('b.png', 'image/png', PNG)]);
    const racing = await Promise.all(
      Array.from({ length: 3 }, () =>
        h.documents.unary('completeUpload', { verificationId: again.verificationId, uploadId: '' }),
      ),
    );
    expect(new Set(racing.map((r) => r.reviewId)).size).toBe(1);
    expect(
      await h.db('reviews').where({ upload_id: again.uploadId }).count<{ count: string }[]>('* as count'),
    ).toEqual([{ count: '1' }]);
    // Nothing announced: an unknown verification is 404, a known one at docUpload is not ready (400).
    const nobody = await failure(
      h.documents.unary('completeUpload', { verificationId: randomBytes(12).toString('hex'), uploadId: '' }),
    );
    expect([nobody.codeName, nobody.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
    const fresh = await verificationAtDocUpload(h, program);
    const early = await failure(
      h.documents.unary('completeUpload', { verificationId: fresh.verificationId, uploadId: '' }),
    );
    expect([early.codeName, early.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
    // Another verification's upload id is not found.
    const other = await verificationAtDocUpload(h, program);
    const err = await failure(
      h.documents.unary('completeUpload', { verificationId: other.verificationId, uploadId }),
    );
    expect(err.codeName).toBe('NOT_FOUND');
  });

  it('replaces an open upload by a new one, whose files are then the only ones kept', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const first = await announce(h, vr.verificationId, [
      file('a.png', 'image/png', PNG),
      file('b.png', 'image/png', PNG),
    ]);
    const sent = await send(h, first.documents[0]!.uploadToken, PNG);
    const second = await announce(h, vr.verificationId, [file('c.pdf', 'application/pdf', PDF)]);
    expect(await exists(first.uploadId, sent.documentId)).toBe(false);
    const stale = await failure(
      h.documents.unary('beginFileUpload', { uploadToken: first.documents[1]!.uploadToken }),
    );
    expect([stale.codeName, stale.reason]).toEqual(['NOT_FOUND', 'uploadUrlUsed']);
    expect(await h.db('uploads').where({ id: first.uploadId }).first()).toMatchObject({
      status: 'cancelled',
    });
    await send(h, second.documents[0]!.uploadToken, PDF);
    const done = await h.documents.unary('completeUpload', {
      verificationId: vr.verificationId,
      uploadId: '',
    });
    expect(done.verification!.currentStep).toBe('pending');
  });

  it('cancels an open upload and deletes its files', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [
      file('a.png', 'image/png', PNG),
      file('b.png', 'image/png', PNG),
    ]);
    const sent = await send(h, created.documents[0]!.uploadToken, PNG);
    await h.documents.unary('cancelUpload', { uploadId: created.uploadId });
    await h.documents.unary('cancelUpload', { uploadId: created.uploadId });
    expect(await exists(created.uploadId, sent.documentId)).toBe(false);
    const stale = await failure(
      h.documents.unary('beginFileUpload', { uploadToken: created.documents[1]!.uploadToken }),
    );
    expect(stale.reason).toBe('uploadUrlUsed');
    const err = await failure(
      h.documents.unary('completeUpload', { verificationId: vr.verificationId, uploadId: '' }),
    );
    expect(err.errorIds).toEqual(['invalidStep']);
    const unknown = await failure(h.documents.unary('cancelUpload', { uploadId: 'not-an-id' }));
    expect(unknown.codeName).toBe('NOT_FOUND');
  });

  it('keeps file names encrypted at rest and upload tokens only as hashes', async () => {
    const name = 'Quillonia_Brambleworth_passport.png';
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file(name, 'image/png', PNG)]);
    const token = created.documents[0]!.uploadToken;
    const { rows } = await h.db.raw<{ rows: { row: string }[] }>(
      `select d::text as row from documents d where d.id = ?`,
      [created.documents[0]!.documentId],
    );
    const raw = rows[0]!.row;
    expect(raw).not.toContain('Quillonia');
    expect(raw).not.toContain(Buffer.from('Quillonia').toString('hex'));
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(Buffer.from(token).toString('hex'));
    // Staff still read the name.
    expect(created.documents[0]!.fileName).toBe(name);
  });
});
