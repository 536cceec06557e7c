import { z } from 'zod';
import { ajvSaidBefore, zodSays } from '../../test/check-answers';
import { expectPathsAsBefore, expectSchemasAsBefore, plain } from '../../test/document-before';
import { checkBody } from './body-check';
import { expressPath } from './define';
import { docUploadEndpoints, type DocUploadBody } from './doc-upload';
import { DocUploadRequest, Document, UploadedDocument } from './doc-upload-schemas';
import { endpointDocument } from './openapi';
import { codePointString } from './schemas';

type Json = Record<string, unknown>;

describe('the docUpload and upload endpoint definitions', () => {
  const { paths, schemas } = endpointDocument(docUploadEndpoints, 'https://eligo.test');

  it('state the path items the hand-written openapi/doc-upload.paths.ts declared', () => {
    expect(Object.keys(paths)).toEqual([
      '/verification/{verificationId}/step/docUpload',
      '/verification/{verificationId}/step/docUpload/{docUploadToken}',
      '/verification/{verificationId}/step/completeDocUpload',
      '/uploads/{uploadToken}',
    ]);
    expectPathsAsBefore(paths);
  });

  it('name the schemas the hand-written openapi/schemas/document.ts declared, as it declared them', () => {
    expect(Object.keys(schemas).sort()).toEqual([
      'DocUploadRequest',
      'DocUploadResponse',
      'Document',
      'UploadedDocument',
    ]);
    expectSchemasAsBefore(schemas);
  });

  it('state the upload URL’s body as any bytes, which no body can violate', () => {
    const upload = (paths['/uploads/{uploadToken}'] as { put: { requestBody: Json } }).put.requestBody;
    expect(upload).toEqual({
      required: true,
      content: { '*/*': { schema: { description: expect.any(String) } } },
    });
  });

  it('state no security: the operations take no token', () => {
    for (const item of Object.values(paths))
      for (const operation of Object.values(item))
        expect(Object.keys(operation as Json)).not.toContain('security');
  });

  it('register the Express form of their paths', () => {
    expect(docUploadEndpoints.map(expressPath)).toEqual([
      '/verification/:verificationId/step/docUpload',
      '/verification/:verificationId/step/docUpload/:docUploadToken',
      '/verification/:verificationId/step/completeDocUpload',
      '/uploads/:uploadToken',
    ]);
  });
});

describe('the check of form A’s manifest (DocUploadRequest)', () => {
  // Ajv as the request validator ran it on the hand-written schema: the answers below are its answers.
  const png = { fileName: 'id.png', mimeType: 'image/png', fileSize: 100 };
  const file = (fields: Json) => ({ files: [{ ...png, ...fields }] });
  const emoji = (n: number) => '\u{1F600}'.repeat(n);

  it.each<[string, unknown, string | undefined]>([
    ['one file', { files: [png] }, undefined],
    ['no files (the service counts them)', { files: [] }, undefined],
    ['ten files', { files: Array(10).fill(png) }, undefined],
    ['eleven files', { files: Array(11).fill(png) }, 'body.files must NOT have more than 10 items'],
    ['eleven bad files', { files: Array(11).fill(1) }, 'body.files must NOT have more than 10 items'],
    ['null', null, 'body must be object'],
    ['an array', [png], 'body must be object'],
    ['a string', 'x', 'body must be object'],
    ['files not an array', { files: 'x' }, 'body.files must be array'],
    ['a file that is a number', { files: [1] }, 'body.files[0] must be object'],
    ['a file that is null', { files: [null] }, 'body.files[0] must be object'],
    ['a numeric name', file({ fileName: 5 }), 'body.files[0].fileName must be string'],
    ['a null type', file({ mimeType: null }), 'body.files[0].mimeType must be string'],
    ['a size in a string', file({ fileSize: '1' }), 'body.files[0].fileSize must be integer'],
    ['a fractional size', file({ fileSize: 1.5 }), 'body.files[0].fileSize must be integer'],
    ['a boolean size', file({ fileSize: true }), 'body.files[0].fileSize must be integer'],
    ['a negative fraction', file({ fileSize: -1.5 }), 'body.files[0].fileSize must be integer'],
    ['a negative size', file({ fileSize: -1 }), 'body.files[0].fileSize must be >= 0'],
    ['a size of 0 (the service refuses it)', file({ fileSize: 0 }), undefined],
    ['the largest safe size', file({ fileSize: Number.MAX_SAFE_INTEGER }), undefined],
    ['a size of 2^53', file({ fileSize: 2 ** 53 }), 'body.files[0].fileSize must be <= 9007199254740991'],
    ['a size of 2^54', file({ fileSize: 2 ** 54 }), 'body.files[0].fileSize must be <= 9007199254740991'],
    ['no files property', {}, 'body.files is required'],
    ['an empty file', { files: [{}] }, 'body.files[0].fileName is required'],
    ['a file without type', { files: [{ fileName: 'a' }] }, 'body.files[0].mimeType is required'],
    [
      'a file without size',
      { files: [{ fileName: 'a', mimeType: 'b' }] },
      'body.files[0].fileSize is required',
    ],
    ['an unknown property', { files: [], extra: 1 }, 'body has unexpected property extra (allowed: files)'],
    ['only an unknown property', { extra: 1 }, 'body.files is required'],
    [
      'an unknown file property',
      file({ path: '/etc' }),
      'body.files[0] has unexpected property path (allowed: fileName, mimeType, fileSize)',
    ],
    [
      'an unknown file property, nothing else',
      { files: [{ path: 'x' }] },
      'body.files[0].fileName is required',
    ],
    ['a name of 255 characters', file({ fileName: 'x'.repeat(255) }), undefined],
    [
      'a name of 256 characters',
      file({ fileName: 'x'.repeat(256) }),
      'body.files[0].fileName must NOT have more than 255 characters',
    ],
    ['a name of 255 emoji', file({ fileName: emoji(255) }), undefined],
    [
      'a name of 256 emoji',
      file({ fileName: emoji(256) }),
      'body.files[0].fileName must NOT have more than 255 characters',
    ],
    ['an empty name', file({ fileName: '' }), 'body.files[0].fileName must NOT have fewer than 1 characters'],
    ['a type of 127 characters', file({ mimeType: 'a/'.padEnd(127, 'x') }), undefined],
    [
      'a type of 128 characters',
      file({ mimeType: 'a/'.padEnd(128, 'x') }),
      'body.files[0].mimeType must NOT have more than 127 characters',
    ],
    ['an empty type', file({ mimeType: '' }), 'body.files[0].mimeType must NOT have fewer than 1 characters'],
    // The service sanitises names; the manifest's schema has no pattern.
    ['control characters in a name', file({ fileName: 'a\u0000b\n' }), undefined],
    [
      'a second file refused',
      { files: [png, { ...png, fileSize: -1 }] },
      'body.files[1].fileSize must be >= 0',
    ],
    [
      'two files refused: the first',
      {
        files: [
          { ...png, fileName: '' },
          { ...png, fileSize: -1 },
        ],
      },
      'body.files[0].fileName must NOT have fewer than 1 characters',
    ],
    [
      'two fields refused: the first',
      file({ mimeType: 1, fileSize: -1 }),
      'body.files[0].mimeType must be string',
    ],
  ])('%s: %j', (_, body, expected) => {
    expect(zodSays(DocUploadRequest, body)).toEqual(expected);
    expect(ajvSaidBefore('DocUploadRequest', body)).toEqual(expected);
  });

  it('types the checked manifest as the schema infers it', () => {
    const checked = checkBody(DocUploadRequest, { files: [png] });
    const body: DocUploadBody | undefined = checked.ok ? checked.value : undefined;
    expect(body?.files[0]?.fileSize).toBe(100);
  });
});

describe('the response schemas of the documents', () => {
  const entry = { documentId: 'd1', status: 'UPLOADED', mimeType: 'image/png', fileSize: 1, errors: [] };

  it('describe what the routes answer', () => {
    expect(Document.safeParse({ ...entry, uploadUrl: 'https://eligo.test/uploads/t' }).success).toBe(true);
    expect(Document.safeParse({ ...entry, status: 'DONE' }).success).toBe(false);
    expect(
      UploadedDocument.safeParse({ ...entry, errorIds: ['unsupportedDocMimeType'], systemErrorMessage: 'x' })
        .success,
    ).toBe(true);
  });

  it('count the length of a plain string in code points, as JSON Schema does', () => {
    const name = codePointString(1, 2);
    expect(checkBody(name, '\u{1F600}\u{1F600}').ok).toBe(true);
    expect(checkBody(name, 'abc')).toEqual({
      ok: false,
      problem: 'body must NOT have more than 2 characters',
    });
    expect(checkBody(name, '')).toEqual({ ok: false, problem: 'body must NOT have fewer than 1 characters' });
    expect(plain(z.toJSONSchema(name, { io: 'input' }))).toMatchObject({ minLength: 1, maxLength: 2 });
  });
});
