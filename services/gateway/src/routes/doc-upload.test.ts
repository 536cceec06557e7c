import { request } from 'node:http';
import { documentsV1, verificationVerificationV1 } from '@eligo/proto';
import { failedPrecondition, invalidArgument, resourceExhausted, unavailable } from '@eligo/runtime';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import type { DocumentsClient } from '../clients/documents.client';
import { UPLOAD_CHUNK_BYTES } from '../upload/multipart-files';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';

// The docUpload step as mounted by mountRest, against a recording stand-in for the documents service:
// routing, content-type dispatch, body rules, the calls each form makes (form B's messages byte for byte) and
// the answers. The documents service itself is covered by its own integration tests.
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

/** One UploadFiles call as the stand-in saw it: the messages, and how the gateway's stream of them ended. */
interface UploadCall {
  messages: documentsV1.UploadFilesRequest[];
  /** The iterable's error: the gateway gave up on the call (the service keeps nothing). */
  failure?: unknown;
  /** The stream was read to its end (the gateway half-closed). */
  ended: boolean;
  signal: AbortSignal | undefined;
}
/** A planned UploadFiles failure on receiving `start`, before any byte of the body. */
class FailOnStart {
  constructor(readonly error: Error) {}
}

const completed: documentsV1.UploadFilesResponse = {
  outcome: documentsV1.UploadOutcome.UPLOAD_OUTCOME_COMPLETED,
  verification: vr({ currentStep: 'pending', docUploadToken: '' }),
  documents: [],
};

/** UploadFiles: reads the stream to its end, then answers as planned (completed by default). */
async function uploadFiles(
  messages: AsyncIterable<documentsV1.UploadFilesRequest>,
  signal?: AbortSignal,
): Promise<documentsV1.UploadFilesResponse> {
  const call: UploadCall = { messages: [], ended: false, signal };
  calls.push(['uploadFiles', call]);
  const next = planned.get('uploadFiles')?.shift();
  const early = next instanceof FailOnStart ? next.error : undefined;
  try {
    for await (const message of messages) {
      call.messages.push(message);
      if (early) throw early;
    }
  } catch (err) {
    if (err !== early) call.failure = err;
    throw err;
  }
  call.ended = true;
  if (next instanceof Error) throw next;
  return (next as documentsV1.UploadFilesResponse | undefined) ?? completed;
}

const documents = standIn<DocumentsClient>('documents', {
  createUpload: answer('createUpload', created),
  completeUpload: answer('completeUpload', () => ({
    verification: vr({ currentStep: 'pending', docUploadToken: '' }),
    reviewId: 'r1',
  })),
  uploadFiles,
});

let app: TestRestApp;
let url: string;

beforeAll(async () => {
  // The docUpload step takes no token: the kit's authenticator, which refuses every account token, is never
  // reached.
  app = await startTestRestApp({ publicBaseUrl: base, bodyLimit: '1mb', documents });
  url = `${app.origin}/rest/v2`;
});
afterAll(() => app.close());
beforeEach(() => {
  calls.length = 0;
  planned.clear();
});

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
/** The one UploadFiles call of a test. */
function uploadCall(): UploadCall {
  expect(methods()).toEqual(['uploadFiles']);
  return calls[0]![1] as UploadCall;
}
/** What a call's messages carried: its start, and each file's header with its bytes joined. */
function received(call: UploadCall) {
  const files: { fileName: string; mimeType: string; bytes: Buffer; chunks: number[] }[] = [];
  let start: documentsV1.UploadFilesStart | undefined;
  for (const { part } of call.messages) {
    if (part?.$case === 'start') start = part.start;
    else if (part?.$case === 'file') files.push({ ...part.file, bytes: Buffer.alloc(0), chunks: [] });
    else if (part?.$case === 'chunk') {
      const file = files.at(-1)!;
      file.bytes = Buffer.concat([file.bytes, part.chunk]);
      file.chunks.push(part.chunk.length);
    }
  }
  return { start, files };
}

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
    expect(calls).toEqual([]);
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
  /** A streamed body the test writes as it likes: chunked, or with a declared length it may not keep to. */
  function streamed(headers: Record<string, string> = { 'transfer-encoding': 'chunked' }) {
    const boundary = 'b0undary';
    const req = request(`${url}${step}`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    });
    // The server answers before the body is read and then closes the connection with the rest unread: a
    // client still sending may get that close as a reset before the answer (TCP drops what it had not read
    // yet), which is then status 0; `complete` says whether the answer's body arrived whole.
    const answered = new Promise<{
      status: number;
      connection: string | undefined;
      body: string;
      complete: boolean;
    }>((resolve) => {
      req.on('error', () => resolve({ status: 0, connection: undefined, body: '', complete: false }));
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('close', () =>
          resolve({
            status: res.statusCode!,
            connection: res.headers.connection,
            body,
            complete: res.complete,
          }),
        );
      });
    });
    req.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file1"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    return { req, answered };
  }

  it('streams start, then each file’s header and bytes in order, and answers pending', async () => {
    const big = Buffer.from(Array.from({ length: 700 * 1024 }, (_, i) => (i * 7) % 251));
    const res = await post(
      step,
      form(['file1', big, 'front.png'], ['file2', PDF, 'letter.pdf', 'application/pdf']),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      verificationId: id,
      currentStep: 'pending',
      errorIds: [],
      statusUrl: `${base}/rest/v2/verification/${id}`,
    });
    expect(res.body).not.toHaveProperty('submissionUrl');
    const call = uploadCall();
    expect(call.messages[0]).toEqual({
      part: { $case: 'start', start: { verificationId: id, docUploadToken: '' } },
    });
    expect(call.ended).toBe(true);
    const { files } = received(call);
    expect(files.map((f) => [f.fileName, f.mimeType])).toEqual([
      ['front.png', 'image/png'],
      ['letter.pdf', 'application/pdf'],
    ]);
    expect(files[0]!.bytes.equals(big)).toBe(true);
    expect(files[1]!.bytes.equals(PDF)).toBe(true);
    // Socket-sized pieces joined: a few messages per file, never the whole file in one.
    expect(files[0]!.chunks.length).toBeGreaterThan(1);
    expect(files[0]!.chunks.slice(0, -1).every((n) => n >= UPLOAD_CHUNK_BYTES && n < big.length)).toBe(true);
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
    expect(received(uploadCall()).files.map((f) => f.fileName)).toEqual(['a.png', 'b.png', 'c.png']);
  });

  it('refuses a part name used twice with 400 invalidRequest, giving the call up', async () => {
    const res = await post(step, form(['file', PNG, 'a.png'], ['file', PNG, 'b.png']));
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', /Part file appears twice/)]);
    const call = uploadCall();
    expect(call.ended).toBe(false);
    expect(call.failure).toMatchObject({ errorIds: ['invalidRequest'] });
  });

  it('passes the attempt token of the path in start', async () => {
    const res = await post(`${step}/attempt_2`, form(['file1', PNG, 'a.png']));
    expect(res.status).toBe(200);
    expect(received(uploadCall()).start).toEqual({ verificationId: id, docUploadToken: 'attempt_2' });
  });

  it('refuses a fourth file with 400 invalidNumberOfFiles, giving the call up', async () => {
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
    expect(uploadCall()).toMatchObject({ ended: false, failure: { errorIds: ['invalidNumberOfFiles'] } });
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
  ])('refuses %s with 400 invalidRequest, giving the call up', async (_, body, message) => {
    const res = await post(step, body);
    expect([res.status, res.body]).toEqual([400, stepError('invalidRequest', message)]);
    expect(res.headers.get('connection')).toBe('close');
    expect(uploadCall()).toMatchObject({ ended: false, failure: { errorIds: ['invalidRequest'] } });
  });

  it('forwards an oversized file up to one byte past the limit, not the rest, for the service to refuse', async () => {
    plan('uploadFiles', {
      outcome: documentsV1.UploadOutcome.UPLOAD_OUTCOME_REFUSED,
      verification: vr({ errorIds: ['invalidFileSizeMax'] }),
      documents: [
        doc(1, { documentId: '', uploadToken: '', errors: ['TOO_LARGE'], fileSize: MAX_FILE_BYTES + 1 }),
      ],
    });
    const res = await post(step, form(['file1', Buffer.alloc(MAX_FILE_BYTES + 4096, 1), 'big.png']));
    const call = uploadCall();
    expect(call.ended).toBe(true);
    expect(received(call).files.map((f) => [f.fileName, f.bytes.length])).toEqual([
      ['big.png', MAX_FILE_BYTES + 1],
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
      errorIds: ['invalidFileSizeMax'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/attempt_1`,
      documents: [{ errors: ['TOO_LARGE'] }],
    });
    for (const d of res.body.documents) expect(d).not.toHaveProperty('uploadUrl');
  });

  it('answers REJECTED (bytes not their declared type) 400 unsupportedDocMimeType with each file’s errors', async () => {
    plan('uploadFiles', {
      outcome: documentsV1.UploadOutcome.UPLOAD_OUTCOME_REJECTED,
      verification: vr(),
      documents: [
        doc(1, { documentId: '', uploadToken: '', status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] }),
        doc(2, { documentId: '', uploadToken: '' }),
      ],
    });
    const res = await post(step, form(['file1', PNG, 'a.png'], ['file2', PNG, 'b.png']));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      currentStep: 'docUpload',
      errorIds: ['unsupportedDocMimeType'],
      submissionUrl: `${base}/rest/v2/verification/${id}/step/docUpload/attempt_1`,
      documents: [
        { status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] },
        { status: 'AWAITING_UPLOAD', errors: [] },
      ],
    });
    for (const d of res.body.documents) expect(d).not.toHaveProperty('uploadUrl');
  });

  it('answers the service’s refusal at start (wrong step) without reading the body, closing the connection', async () => {
    plan(
      'uploadFiles',
      new FailOnStart(failedPrecondition('Not at docUpload', { errorIds: ['invalidStep'] })),
    );
    // Declares 20 MiB and sends a fraction: the answer comes without the rest.
    const { req, answered } = streamed({ 'content-length': String(20 * MiB) });
    req.write(Buffer.alloc(64 * 1024, 7));
    const res = await answered;
    req.destroy();
    expect([res.status, JSON.parse(res.body)]).toEqual([400, stepError('invalidStep', 'Not at docUpload')]);
    expect(res.connection).toBe('close');
    expect(received(uploadCall())).toEqual({ start: { verificationId: id, docUploadToken: '' }, files: [] });
  });

  it('passes the review limit (429 ER) through', async () => {
    plan(
      'uploadFiles',
      new FailOnStart(resourceExhausted('No more reviews', { errorIds: ['docReviewLimitExceeded'] })),
    );
    const res = await post(step, form(['file1', PNG, 'a.png']));
    expect([res.status, res.body]).toEqual([
      429,
      { errorIds: ['docReviewLimitExceeded'], systemErrorMessage: 'No more reviews' },
    ]);
  });

  it('answers 502 SEM when the document store did not take a file', async () => {
    plan(
      'uploadFiles',
      unavailable('The file could not be stored; upload it again', { reason: 'documentStoreFailed' }),
    );
    const res = await post(step, form(['file1', PNG, 'a.png']));
    expect([res.status, res.body]).toEqual([
      502,
      { systemErrorMessage: 'The file could not be stored; upload it again' },
    ]);
    // The body was read to its end: the connection may serve another request.
    expect(res.headers.get('connection')).not.toBe('close');
  });

  it('refuses a declared body over 31 MiB with 413 before reading it, calling no service', async () => {
    const res = await raw(
      step,
      { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(31 * MiB + 1) },
      '',
    );
    expect([res.status, JSON.parse(res.body).errorIds]).toEqual([413, ['invalidRequest']]);
    expect(calls).toEqual([]);
  });

  it('stops reading a chunked body at 31 MiB with 413, giving the call up', async () => {
    const { req, answered } = streamed();
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
    const res = await answered;
    req.destroy();
    // The client kept sending: whether the 413 reached it before the reset is the network's race.
    if (res.status !== 0) expect([res.status, res.connection]).toEqual([413, 'close']);
    if (res.complete) expect(JSON.parse(res.body).errorIds).toEqual(['invalidRequest']);
    const call = uploadCall();
    expect(call).toMatchObject({ ended: false, failure: { status: 413, errorIds: ['invalidRequest'] } });
    // Nothing past the limit was forwarded: the file stops at busboy's limit at most.
    expect(received(call).files[0]!.bytes.length).toBeLessThanOrEqual(MAX_FILE_BYTES + 1);
  });

  it('gives the call up (aborted, nothing kept) when the client goes away mid-body', async () => {
    const { req } = streamed({ 'content-length': String(5 * MiB) });
    req.write(Buffer.alloc(300 * 1024, 7));
    await until(async () => (calls[0]?.[1] as UploadCall | undefined)?.messages.length === 3);
    req.destroy();
    const call = uploadCall();
    await until(async () => call.failure !== undefined);
    expect(call.ended).toBe(false);
    await until(async () => call.signal?.aborted === true);
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
