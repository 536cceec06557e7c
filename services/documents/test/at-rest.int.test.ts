import { randomUUID } from 'node:crypto';
import { waitFor } from '@eligo/local-infra';
import { PDF, PNG } from './files';
import {
  announce,
  file,
  newProgram,
  objectKey,
  put,
  rawBytes,
  startDocuments,
  uploadAll,
  verificationAtDocUpload,
  type Harness,
  type TestProgram,
} from './support';

const MARKER = 'ZZPLAINTEXTMARKER Jane Doe';
/** A real PDF (file-type takes it) whose bytes carry a person's name. */
const namedPdf = Buffer.concat([PDF, Buffer.from(`% ${MARKER}\n`)]);
const GRACE_SECONDS = 2;

/**
 * Documents are personal data: whatever a client sends is encrypted before it rests in the store, on MinIO and
 * on the filesystem store alike. The raw bucket holds no byte of it in the clear; staff still read it.
 */
describe.each([
  ['MinIO', {}],
  ['the filesystem store', { ELIGO_S3_ENDPOINT: '' }],
])('documents at rest on %s', (_store, storeEnv: Record<string, string>) => {
  let h: Harness;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments({
      ...storeEnv,
      ELIGO_DOCUMENTS_ORPHAN_GRACE_SECONDS: String(GRACE_SECONDS),
      ELIGO_DOCUMENTS_ORPHAN_SWEEP_MS: '200',
    });
    program = await newProgram(h);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const { key } of h.store.list(prefix)) keys.push(key);
    return keys;
  };

  it('keeps no plaintext of an uploaded document in the store, and staff read it whole', async () => {
    const sent = await uploadAll(h, program, [file('scan.pdf', 'application/pdf', namedPdf)]);
    expect(sent.documents[0]!.status).toBe('UPLOADED');
    const { reviewId } = await h.documents.unary('completeUpload', {
      verificationId: sent.verificationId,
      uploadId: sent.uploadId,
    });

    const raw = await rawBytes(h);
    expect(raw.length).toBeGreaterThan(0);
    for (const { name, bytes } of raw) {
      expect(`${name}: ${bytes.includes(MARKER) ? 'plaintext' : 'ok'}`).toBe(`${name}: ok`);
      expect(bytes.includes(PDF.subarray(0, 8))).toBe(false);
    }
    // The upload's bytes rest under the document's key only (the plaintext that arrived is gone).
    expect(await keysUnder(`documents/${sent.uploadId}/`)).toEqual([
      objectKey(sent.uploadId, sent.documents[0]!.documentId),
    ]);

    const { files } = await h.documents.unary('getReview', { reviewId });
    expect(files).toHaveLength(1);
    const res = await fetch(files[0]!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(namedPdf.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(namedPdf)).toBe(true);
  });

  it('still serves a document stored in the clear before encryption', async () => {
    const sent = await uploadAll(h, program, [file('old.png', 'image/png', PNG)]);
    const { reviewId } = await h.documents.unary('completeUpload', {
      verificationId: sent.verificationId,
      uploadId: sent.uploadId,
    });
    // What an earlier version left: the bytes themselves under the document's key.
    await h.store.put(objectKey(sent.uploadId, sent.documents[0]!.documentId), PNG, {
      contentType: 'image/png',
    });
    const { files } = await h.documents.unary('getReview', { reviewId });
    const res = await fetch(files[0]!.url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('deletes every object of a cancelled upload', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [
      file('a.pdf', 'application/pdf', namedPdf),
      file('b.pdf', 'application/pdf', namedPdf),
    ]);
    const [first, second] = created.documents;
    // One file in, one whose PUT landed but was never finished (the gateway went away).
    await uploadOne(first!.uploadToken);
    const { putUrl } = await h.documents.unary('beginFileUpload', { uploadToken: second!.uploadToken });
    await put(putUrl, namedPdf, 'application/pdf');
    expect((await keysUnder(`documents/${created.uploadId}/`)).length).toBe(2);

    await h.documents.unary('cancelUpload', { uploadId: created.uploadId });
    expect(await keysUnder(`documents/${created.uploadId}/`)).toEqual([]);
  });

  it('sweeps objects no document refers to once they are older than the grace period', async () => {
    const kept = await uploadAll(h, program, [file('kept.pdf', 'application/pdf', namedPdf)]);
    const keptKey = objectKey(kept.uploadId, kept.documents[0]!.documentId);
    // Left by a crash, or by a row removed by hand: no row names them.
    const orphans = [
      objectKey(randomUUID(), randomUUID()),
      `${objectKey(randomUUID(), randomUUID())}.incoming`,
      'documents/not-a-document-key',
    ];
    for (const key of orphans) await h.store.put(key, Buffer.from(MARKER));
    // Younger than the grace: an upload may still be on its way to its row.
    expect(await Promise.all(orphans.map((key) => h.store.exists(key)))).toEqual([true, true, true]);

    await waitFor('the orphans swept', async () => {
      const left = await Promise.all(orphans.map((key) => h.store.exists(key)));
      return left.some(Boolean) ? undefined : true;
    });
    expect(await h.store.exists(keptKey)).toBe(true);
  });

  async function uploadOne(token: string) {
    const { putUrl, mimeType } = await h.documents.unary('beginFileUpload', { uploadToken: token });
    await put(putUrl, namedPdf, mimeType);
    const { document } = await h.documents.unary('finishFileUpload', { uploadToken: token });
    expect(document!.status).toBe('UPLOADED');
  }
});
