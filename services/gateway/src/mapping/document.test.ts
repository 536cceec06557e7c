import { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import {
  docUploadCreatedToJson,
  docUploadRefusedToJson,
  documentToJson,
  rejectedDocumentToJson,
  uploadUrl,
} from './document';

const base = 'https://eligo.example.com';
const id = '0123456789abcdef01234567';
const vr = (fields: Partial<verificationVerificationV1.VerificationResponse> = {}) =>
  verificationVerificationV1.VerificationResponse.fromPartial({
    verificationId: id,
    currentStep: 'docUpload',
    segment: 'student',
    locale: 'en-US',
    docUploadToken: 'attempt-1',
    ...fields,
  });
const doc = (fields: Partial<documentsV1.Document> = {}) =>
  documentsV1.Document.fromPartial({
    documentId: 'd1',
    status: 'AWAITING_UPLOAD',
    mimeType: 'image/png',
    fileSize: 2048,
    uploadToken: 'tok_1',
    fileName: 'id.png',
    ...fields,
  });

describe('documents[] entries', () => {
  it('gives a file awaiting its bytes the gateway upload URL, never the token or the file name', () => {
    expect(documentToJson(doc(), base)).toEqual({
      documentId: 'd1',
      status: 'AWAITING_UPLOAD',
      mimeType: 'image/png',
      fileSize: 2048,
      uploadUrl: `${base}/uploads/tok_1`,
      errors: [],
    });
  });

  it('has no upload URL without a token, nor when no base is given (form B, the upload PUT)', () => {
    expect(documentToJson(doc({ uploadToken: '', errors: ['TOO_LARGE'] }), base)).toEqual({
      documentId: 'd1',
      status: 'AWAITING_UPLOAD',
      mimeType: 'image/png',
      fileSize: 2048,
      errors: ['TOO_LARGE'],
    });
    expect(documentToJson(doc())).not.toHaveProperty('uploadUrl');
  });

  it('refuses a status the document does not list (a service bug, answered 500), rather than pass it on', () => {
    expect(() => documentToJson(doc({ status: 'LOST' }))).toThrow(
      'documents service replied with document status LOST',
    );
  });

  it('escapes a token that is not URL-safe', () => {
    expect(uploadUrl(base, 'a/b?c')).toBe(`${base}/uploads/a%2Fb%3Fc`);
  });
});

describe('form A responses', () => {
  it('200: the VR with completeDocUpload as submissionUrl and each document with its uploadUrl, in order', () => {
    const json = docUploadCreatedToJson(
      vr(),
      [doc(), doc({ documentId: 'd2', uploadToken: 'tok_2', mimeType: 'application/pdf' })],
      base,
    );
    expect(json).toMatchObject({
      verificationId: id,
      currentStep: 'docUpload',
      errorIds: [],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/completeDocUpload`,
    });
    expect(json.documents.map((d) => [d.documentId, d.uploadUrl])).toEqual([
      ['d1', `${base}/uploads/tok_1`],
      ['d2', `${base}/uploads/tok_2`],
    ]);
  });

  it('400: the docUpload VR unchanged (submissionUrl with its attempt token) and the errors, no upload URL', () => {
    const json = docUploadRefusedToJson(
      vr({ errorIds: ['invalidFileSizeMax'] }),
      [
        doc({ uploadToken: '', documentId: '' }),
        doc({ uploadToken: '', documentId: '', errors: ['TOO_LARGE'] }),
      ],
      base,
    );
    expect(json).toMatchObject({
      currentStep: 'docUpload',
      errorIds: ['invalidFileSizeMax'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/attempt-1`,
    });
    expect(json.documents.map((d) => d.errors)).toEqual([[], ['TOO_LARGE']]);
    for (const d of json.documents) expect(d).not.toHaveProperty('uploadUrl');
  });

  it('400 with the errorIds the gateway names (form B file refused once its bytes were seen)', () => {
    const json = docUploadRefusedToJson(
      vr(),
      [doc({ status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] })],
      base,
      ['unsupportedDocMimeType'],
    );
    expect(json.errorIds).toEqual(['unsupportedDocMimeType']);
    expect(json.documents).toEqual([
      {
        documentId: 'd1',
        status: 'REJECTED',
        mimeType: 'image/png',
        fileSize: 2048,
        errors: ['UNSUPPORTED_TYPE'],
      },
    ]);
  });
});

it("the upload PUT's 400 names the refused file's errors and errorIds [unsupportedDocMimeType]", () => {
  expect(
    rejectedDocumentToJson(doc({ status: 'REJECTED', uploadToken: '', errors: ['UNSUPPORTED_TYPE'] })),
  ).toEqual({
    documentId: 'd1',
    status: 'REJECTED',
    mimeType: 'image/png',
    fileSize: 2048,
    errors: ['UNSUPPORTED_TYPE'],
    errorIds: ['unsupportedDocMimeType'],
    systemErrorMessage: 'The file was refused (UNSUPPORTED_TYPE)',
  });
});
