import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, request, Server, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import { failedPrecondition, invalidArgument, resourceExhausted } from '@eligo/runtime';
import type { DocumentsClient } from '../clients/documents.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';

// The docUpload step as mounted by mountRest, against a recording stand-in for the documents service and a
// local HTTP server standing in for the object store: routing, content-type dispatch, body rules, the calls
// each form makes and the answers. The documents service itself is covered by its own integration tests.
const base = 'https://eligo.example.com';
const id = '0123456789abcdef01234567';
const MiB = 1024 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');

const vr = (fields: Partial<verificationVerificationV1.VerificationResponse> = {}) =>
  verificationVerificationV1.VerificationResponse.fromPartial({
    verificationId: id,
    currentStep: 'docUpload',
    segment: 'student',
    locale: 'en-US',
    docUploadToken: 'attempt_1',
    ...fields,
  });
const doc = (i: number, fields: Partial<documentsV1.Document> = {}) =>
  documentsV1.Document.fromPartial({
    documentId: `d${i}`,
    status: 'AWAITING_UPLOAD',
    mimeType: 'image/png',
    fileSize: 100,
    uploadToken: `tok_${i}`,
    ...fields,
  });

/** CreateUpload's default: every file accepted, one document per manifest entry. */
const created = (req: documentsV1.CreateUploadRequest): documentsV1.CreateUploadResponse => ({
  verification: vr(),
  uploadId: 'u1',
  documents: req.files.map((f, i) => doc(i + 1, { mimeType: f.mimeType, fileSize: f.fileSize })),
});

const calls: [string, unknown][] = [];
/** Planned answers per method, used in order (a reply, or an error to throw); the default after that. */
const planned = new Map<string, unknown[]>();
const plan = (method: string, ...answers: unknown[]) => planned.set(method, answers);
const answer =
  <Req, Res>(method: string, fallback: (req: Req) => Res) =>
  async (req: Req): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method)?.shift();
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback(req);
  };

let storeUrl: string;
const documents: DocumentsClient = {
  createUpload: answer('createUpload', created),
  beginFileUpload: answer('beginFileUpload', (req: documentsV1.BeginFileUploadRequest) => ({
    documentId: `d${req.uploadToken.slice(4)}`,
    putUrl: `${storeUrl}/bucket/${req.uploadToken}?X-Amz-Signature=s1`,
    fileSize: 0,
    mimeType: 'image/png',
  })),
  finishFileUpload: answer('finishFileUpload', (req: documentsV1.FinishFileUploadRequest) => ({
    document: doc(Number(req.uploadToken.slice(4)), { status: 'UPLOADED', uploadToken: '' }),
  })),
  completeUpload: answer('completeUpload', () => ({
    verification: vr({ currentStep: 'pending', docUploadToken: '' }),
    reviewId: 'r1',
  })),
  cancelUpload: answer('cancelUpload', () => ({})),
  listReviews: answer('listReviews', () => ({ reviews: [], nextCursor: '' })),
  getReview: answer('getReview', () => ({ review: undefined, files: [] })),
  decideReview: answer('decideReview', () => ({ review: undefined })),
  claimReview: answer('claimReview', () => ({ review: undefined, files: [] })),
  releaseReview: answer('releaseReview', () => ({ review: undefined })),
  readReviewFile: () => {
    throw new Error('the doc-upload routes read no review file');
  },
};

/** What the stand-in object store received, and what it answers next. */
interface StoredPut {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
const puts: StoredPut[] = [];
let storeStatus = 200;

let app: TestRestApp;
let url: string;
let spoolRoot: string;
const servers: Server[] = [];

beforeAll(async () => {
  // Form B spools into a directory of this suite, to see it emptied after every request.
  spoolRoot = await mkdtemp(join(tmpdir(), 'gateway-doc-upload-test-'));

  const store = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      puts.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(storeStatus).end(storeStatus === 200 ? '' : '<Error>AccessDenied</Error>');
    });
  });
  storeUrl = await listen(store);

  // The docUpload step takes no token: the kit's authenticator, which refuses every account token, is never
  // reached.
  app = await startTestRestApp({
    publicBaseUrl: base,
    bodyLimit: '1mb',
    documents,
    uploadSpoolDir: spoolRoot,
  });
  url = `${app.origin}/rest/v2`;
});
afterAll(async () => {
  for (const s of servers) s.close();
  await rm(spoolRoot, { recursive: true, force: true });
  app.close();
});
beforeEach(() => {
  calls.length = 0;
  planned.clear();
  puts.length = 0;
  storeStatus = 200;
});

async function listen(handler: Server | RequestListener): Promise<string> {
  const server = handler instanceof Server ? handler : createServer(handler);
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function post(path: string, body: unknown, contentType = 'application/json') {
  const init: RequestInit = { method: 'POST' };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': contentType };
  }
  const res = await fetch(`${url}${path}`, init);
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
}

const step = `/verification/${id}/step/docUpload`;
const png = (name = 'id.png', bytes = PNG) => ({
  fileName: name,
  mimeType: 'image/png',
  fileSize: bytes.length,
});
const stepError = (errorId: string, message: string | RegExp = /./) => ({
  verificationId: id,
  currentStep: 'error',
  errorIds: [errorId],
  systemErrorMessage: typeof message === 'string' ? message : expect.stringMatching(message),
});
const methods = () => calls.map(([m]) => m);
const spoolLeft = () => readdir(spoolRoot);

describe('form A: a JSON manifest', () => {
  it('answers each document with its upload URL and completeDocUpload as the next submissionUrl', async () => {
    const files = [png('front.png'), { fileName: 'letter.pdf', mimeType: 'application/pdf', fileSize: 5000 }];
    const res = await post(step, { files });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId: id,
      currentStep: 'docUpload',
      errorIds: [],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/completeDocUpload`,
      documents: [
        {
          documentId: 'd1',
          status: 'AWAITING_UPLOAD',
          mimeType: 'image/png',
          fileSize: PNG.length,
          uploadUrl: `${base}/uploads/tok_1`,
          errors: [],
        },
        { documentId: 'd2', mimeType: 'application/pdf', fileSize: 5000, uploadUrl: `${base}/uploads/tok_2` },
      ],
    });
    expect(calls).toEqual([['createUpload', { verificationId: id, docUploadToken: '', files }]]);
  });

  it('passes the attempt token of the path on, and answers 404 noVerification for a malformed one', async () => {
    const ok = await post(`${step}/Att3mpt_-x`, { files: [png()] });
    expect(ok.status).toBe(200);
    expect(calls).toEqual([['createUpload', expect.objectContaining({ docUploadToken: 'Att3mpt_-x' })]]);
    calls.length = 0;
    for (const token of ['a.b', 'x'.repeat(129), 'a%20b']) {
      const res = await post(`${step}/${token}`, { files: [png()] });
      expect([token, res.status, res.body.errorIds]).toEqual([token, 404, ['noVerification']]);
    }
    const badId = await post('/verification/nope/step/docUpload', { files: [png()] });
    expect([badId.status, badId.body.errorIds]).toEqual([404, ['noVerification']]);
    expect(calls).toEqual([]);
  });

  it('answers a refused manifest 400 with the docUpload VR and each file’s errors, no upload URL', async () => {
    plan('createUpload', {
      verification: vr({ errorIds: ['invalidFileSizeMax'] }),
      uploadId: '',
      documents: [
        doc(1, { documentId: '', uploadToken: '' }),
        doc(2, { documentId: '', uploadToken: '', errors: ['TOO_LARGE'] }),
      ],
    });
    const res = await post(step, { files: [png(), { ...png('big.png'), fileSize: 10 * MiB + 1 }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
      errorIds: ['invalidFileSizeMax'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/attempt_1`,
    });
    expect(res.body.documents.map((d: { errors: string[] }) => d.errors)).toEqual([[], ['TOO_LARGE']]);
    for (const d of res.body.documents) expect(d).not.toHaveProperty('uploadUrl');
  });

  it.each([
    ['an unknown property', { files: [png()], extra: 1 }, /unexpected property extra/],
    ['an unknown file property', { files: [{ ...png(), path: '/etc' }] }, /unexpected property path/],
    ['no files', {}, /files/],
    ['an empty name', { files: [{ ...png(), fileName: '' }] }, /fileName/],
    ['a negative size', { files: [{ ...png(), fileSize: -1 }] }, /fileSize/],
    ['a fractional size', { files: [{ ...png(), fileSize: 1.5 }] }, /fileSize/],
    ['a size past 2^53', { files: [{ ...png(), fileSize: 2 ** 54 }] }, /fileSize/],
    ['a long type', { files: [{ ...png(), mimeType: 'a/'.padEnd(128, 'x') }] }, /mimeType/],
    ['11 files', { files: Array.from({ length: 11 }, () => png()) }, /files/],
  ])('refuses %s with the step’s 400 invalidRequest, without a service call', async (_, body, message) => {
    const res = await post(step, body);
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', message)]);
    expect(calls).toEqual([]);
  });

  it.each([
    [{ files: [{ ...png(), fileSize: 1.5 }] }, 'body.files[0].fileSize must be integer'],
    [
      { files: [png(), { ...png(), mimeType: '' }] },
      'body.files[1].mimeType must NOT have fewer than 1 characters',
    ],
    [
      { files: [{ ...png(), fileName: '\u{1F600}'.repeat(256) }] },
      'body.files[0].fileName must NOT have more than 255 characters',
    ],
    [{ files: 'front.png' }, 'body.files must be array'],
    [[png()], 'body must be object'],
    ['', 'body.files is required'],
  ])('names the refused field of %j in the words of the document’s schema', async (body, message) => {
    const res = await post(step, body);
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', message)]);
    expect(calls).toEqual([]);
  });

  it('takes a file name of 255 characters, counted as the document counts them (an emoji is one)', async () => {
    const res = await post(step, { files: [{ ...png(), fileName: '\u{1F600}'.repeat(255) }] });
    expect(res.status).toBe(200);
    expect(methods()).toEqual(['createUpload']);
  });

  it('leaves counting files to the service: four reach it, and its invalidNumberOfFiles is the step’s 400', async () => {
    plan('createUpload', invalidArgument('Upload 1 to 3 files', { errorIds: ['invalidNumberOfFiles'] }));
    const res = await post(step, { files: [png(), png(), png(), png()] });
    expect([res.status, res.body]).toEqual([400, stepError('invalidNumberOfFiles', 'Upload 1 to 3 files')]);
    expect(methods()).toEqual(['createUpload']);
  });

  it('passes the review limit (429 ER) and a wrong step (400 invalidStep) through', async () => {
    plan(
      'createUpload',
      resourceExhausted('No more reviews', { errorIds: ['docReviewLimitExceeded'] }),
      failedPrecondition('Not at docUpload', { errorIds: ['invalidStep'] }),
    );
    const limited = await post(step, { files: [png()] });
    expect([limited.status, limited.body]).toEqual([
      429,
      { errorIds: ['docReviewLimitExceeded'], systemErrorMessage: 'No more reviews' },
    ]);
    const wrong = await post(step, { files: [png()] });
    expect([wrong.status, wrong.body]).toEqual([400, stepError('invalidStep', 'Not at docUpload')]);
  });

  it('answers malformed JSON with the step’s 400 invalidRequest', async () => {
    const res = await post(step, '{"files": [', 'application/json');
    expect([res.status, res.body]).toEqual([
      400,
      stepError('invalidRequest', 'Request body is not valid JSON'),
    ]);
  });
});

describe('the Content-Type chooses the form', () => {
  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'file1=x'],
    ['application/octet-stream', 'raw'],
  ])('refuses %s with 400 invalidRequest naming the accepted types', async (contentType, body) => {
    const res = await post(step, body, contentType);
    expect([res.status, res.body]).toEqual([
      400,
      stepError('invalidRequest', 'Content-Type must be application/json or multipart/form-data'),
    ]);
    expect(calls).toEqual([]);
  });

  it('refuses a request without a body the same way', async () => {
    const res = await post(step, undefined);
    expect([res.status, res.body.errorIds]).toEqual([400, ['invalidRequest']]);
  });

  it('refuses multipart without a boundary', async () => {
    const res = await post(step, 'x', 'multipart/form-data');
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', /needs a boundary/)]);
  });
});

function form(...parts: [string, Buffer | string, string?, string?][]): FormData {
  const data = new FormData();
  for (const [name, value, fileName, type] of parts) {
    if (fileName === undefined) data.append(name, value as string);
    else data.append(name, new Blob([value], { type: type ?? 'image/png' }), fileName);
  }
  return data;
}

describe('form B: the files as multipart/form-data', () => {
  it('stores every file through the documents service and the store, then answers pending', async () => {
    const res = await post(
      step,
      form(['file1', PNG, 'front.png'], ['file2', PDF, 'letter.pdf', 'application/pdf']),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId: id,
      currentStep: 'pending',
      errorIds: [],
      statusUrl: `${base}/rest/v2/verification/${id}`,
    });
    expect(res.body).not.toHaveProperty('submissionUrl');
    expect(calls).toEqual([
      [
        'createUpload',
        {
          verificationId: id,
          docUploadToken: '',
          files: [
            { fileName: 'front.png', mimeType: 'image/png', fileSize: PNG.length },
            { fileName: 'letter.pdf', mimeType: 'application/pdf', fileSize: PDF.length },
          ],
        },
      ],
      ['beginFileUpload', { uploadToken: 'tok_1' }],
      ['finishFileUpload', { uploadToken: 'tok_1' }],
      ['beginFileUpload', { uploadToken: 'tok_2' }],
      ['finishFileUpload', { uploadToken: 'tok_2' }],
      ['completeUpload', { verificationId: id, uploadId: 'u1' }],
    ]);
    // The bytes went to each presigned URL whole, with their length and the service's type.
    expect(
      puts.map((p) => [p.method, p.url, p.headers['content-length'], p.headers['content-type']]),
    ).toEqual([
      ['PUT', '/bucket/tok_1?X-Amz-Signature=s1', String(PNG.length), 'image/png'],
      ['PUT', '/bucket/tok_2?X-Amz-Signature=s1', String(PDF.length), 'image/png'],
    ]);
    expect(puts[0]!.body.equals(PNG)).toBe(true);
    expect(puts[1]!.body.equals(PDF)).toBe(true);
    expect(await spoolLeft()).toEqual([]);
  });

  it('takes the part names real clients send: `file` alone, or any name beginning with file', async () => {
    const res = await post(step, form(['file', PNG, 'a.png']));
    expect([res.status, res.body.currentStep]).toEqual([200, 'pending']);
    calls.length = 0;
    const three = await post(
      step,
      form(['file0', PNG, 'a.png'], ['file9', PNG, 'b.png'], ['files[]', PNG, 'c.png']),
    );
    expect([three.status, three.body.currentStep]).toEqual([200, 'pending']);
    expect(calls[0]).toEqual([
      'createUpload',
      expect.objectContaining({
        files: ['a.png', 'b.png', 'c.png'].map((fileName) => expect.objectContaining({ fileName })),
      }),
    ]);
  });

  it('refuses a part name used twice with 400 invalidRequest, calling no service', async () => {
    const res = await post(step, form(['file', PNG, 'a.png'], ['file', PNG, 'b.png']));
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', /Part file appears twice/)]);
    expect(calls).toEqual([]);
    expect(await spoolLeft()).toEqual([]);
  });

  it('passes the attempt token of the path to CreateUpload', async () => {
    const res = await post(`${step}/attempt_2`, form(['file1', PNG, 'a.png']));
    expect(res.status).toBe(200);
    expect(calls[0]).toEqual(['createUpload', expect.objectContaining({ docUploadToken: 'attempt_2' })]);
  });

  it('refuses a fourth file with 400 invalidNumberOfFiles, calling no service', async () => {
    const res = await post(
      step,
      form(
        ['file1', PNG, 'a.png'],
        ['file2', PNG, 'b.png'],
        ['file3', PNG, 'c.png'],
        ['file4', PNG, 'd.png'],
      ),
    );
    expect([res.status, res.body]).toEqual([
      400,
      stepError('invalidNumberOfFiles', 'At most 3 files may be uploaded'),
    ]);
    expect(calls).toEqual([]);
    expect(puts).toEqual([]);
    expect(await spoolLeft()).toEqual([]);
  });

  it.each([
    [
      'a file in another part',
      form(['file1', PNG, 'a.png'], ['document', PNG, 'b.png']),
      /"document" is not accepted/,
    ],
    ['a text field', form(['file1', PNG, 'a.png'], ['comment', 'hi']), /"comment" is not a file/],
    // busboy takes a part without a file name for a field.
    ['a file without a name', form(['file1', PNG, '']), /"file1" is not a file/],
  ])('refuses %s with 400 invalidRequest, calling no service', async (_, body, message) => {
    const res = await post(step, body);
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', message)]);
    expect(res.headers.get('connection')).toBe('close');
    expect(calls).toEqual([]);
    expect(await spoolLeft()).toEqual([]);
  });

  it('reports an oversized file at one byte past the limit, without spooling the rest, for the service to refuse', async () => {
    plan('createUpload', {
      verification: vr({ errorIds: ['invalidFileSizeMax'] }),
      uploadId: '',
      documents: [doc(1, { documentId: '', uploadToken: '', errors: ['TOO_LARGE'], fileSize: 10 * MiB + 1 })],
    });
    const res = await post(step, form(['file1', Buffer.alloc(10 * MiB + 4096, 1), 'big.png']));
    expect(calls).toEqual([
      [
        'createUpload',
        expect.objectContaining({
          files: [{ fileName: 'big.png', mimeType: 'image/png', fileSize: 10 * MiB + 1 }],
        }),
      ],
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorIds: ['invalidFileSizeMax'],
      documents: [{ errors: ['TOO_LARGE'] }],
    });
    expect(puts).toEqual([]);
    expect(await spoolLeft()).toEqual([]);
  });

  it('cancels the upload and answers 400 unsupportedDocMimeType when a file is refused once stored', async () => {
    plan('finishFileUpload', {
      document: doc(1, { status: 'REJECTED', uploadToken: '', errors: ['UNSUPPORTED_TYPE'] }),
    });
    const res = await post(step, form(['file1', PNG, 'a.png'], ['file2', PNG, 'b.png']));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
      errorIds: ['unsupportedDocMimeType'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/attempt_1`,
      documents: [
        { documentId: 'd1', status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] },
        { documentId: 'd2', status: 'AWAITING_UPLOAD', errors: [] },
      ],
    });
    for (const d of res.body.documents) expect(d).not.toHaveProperty('uploadUrl');
    expect(methods()).toEqual(['createUpload', 'beginFileUpload', 'finishFileUpload', 'cancelUpload']);
    expect(calls[3]).toEqual(['cancelUpload', { uploadId: 'u1' }]);
  });

  it('answers 502 when the store refuses a file, after resetting it and cancelling the upload', async () => {
    storeStatus = 403;
    const res = await post(step, form(['file1', PNG, 'a.png']));
    expect([res.status, res.body]).toEqual([
      502,
      { systemErrorMessage: 'The file could not be stored; upload it again' },
    ]);
    expect(methods()).toEqual(['createUpload', 'beginFileUpload', 'finishFileUpload', 'cancelUpload']);
    expect(JSON.stringify(res.body)).not.toContain('AccessDenied');
    expect(await spoolLeft()).toEqual([]);
  });

  it('refuses a declared body over 31 MiB with 413 before reading it', async () => {
    const res = await raw(
      step,
      { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(31 * MiB + 1) },
      '',
    );
    expect([res.status, JSON.parse(res.body).errorIds]).toEqual([413, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });

  it('stops reading a chunked body at 31 MiB with 413, calling no service', async () => {
    const boundary = 'b0undary';
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}${step}`, {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'transfer-encoding': 'chunked',
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', (err: NodeJS.ErrnoException) =>
        err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
      );
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      );
      // Far more than the limit, one MiB at a time as the server takes it.
      const chunk = Buffer.alloc(MiB, 3);
      let sent = 0;
      const more = () => {
        while (sent < 40 && !req.destroyed) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', more);
        }
      };
      more();
    });
    expect(status).toBe(413);
    expect(calls).toEqual([]);
    await until(async () => (await spoolLeft()).length === 0);
  });

  it('removes the spooled files of a client that goes away mid-body, calling no service', async () => {
    const boundary = 'b0undary';
    const req = request(`${url}${step}`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(5 * MiB),
      },
    });
    req.on('error', () => undefined);
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    req.write(Buffer.alloc(256 * 1024, 7));
    await until(async () => (await spoolLeft()).length === 1);
    req.destroy();
    await until(async () => (await spoolLeft()).length === 0);
    expect(calls).toEqual([]);
  });
});

describe('completeDocUpload (form A, after the files)', () => {
  const complete = `/verification/${id}/step/completeDocUpload`;

  it('submits the latest upload and answers pending', async () => {
    const res = await post(complete, undefined);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currentStep: 'pending',
      statusUrl: `${base}/rest/v2/verification/${id}`,
    });
    expect(calls).toEqual([['completeUpload', { verificationId: id, uploadId: '' }]]);
  });

  it('answers the service’s invalidStep with the step’s 400', async () => {
    plan('completeUpload', failedPrecondition('file 2 (not sent)', { errorIds: ['invalidStep'] }));
    const res = await post(complete, undefined);
    expect([res.status, res.body]).toEqual([400, stepError('invalidStep', 'file 2 (not sent)')]);
  });
});

/** A request with exactly these headers (fetch would set Content-Length itself). */
function raw(path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
