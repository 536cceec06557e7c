import { PNG } from './files';
import {
  announce,
  failure,
  file,
  newProgram,
  startDocuments,
  verificationAtDocUpload,
  type Harness,
} from './support';

/** Upload tokens live ELIGO_DOCUMENTS_UPLOAD_URL_TTL_SECONDS (1 s here). */
describe('upload token expiry', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDocuments({ ELIGO_DOCUMENTS_UPLOAD_URL_TTL_SECONDS: '1' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers 410 for an expired upload URL', async () => {
    const program = await newProgram(h);
    const vr = await verificationAtDocUpload(h, program);
    const created = await announce(h, vr.verificationId, [file('a.png', 'image/png', PNG)]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const err = await failure(
      h.documents.unary('beginFileUpload', { uploadToken: created.documents[0]!.uploadToken }),
    );
    expect([err.codeName, err.reason]).toEqual(['NOT_FOUND', 'uploadUrlUsed']);
    expect(await h.db('documents').where({ upload_id: created.uploadId }).first()).toMatchObject({
      status: 'AWAITING_UPLOAD',
    });
  });
});
