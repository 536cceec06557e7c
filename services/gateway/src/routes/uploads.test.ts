import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { documentsV1 } from '@eligo/proto';
import { notFound } from '@eligo/runtime';
import type { DocumentsClient } from '../clients/documents.client';
import { startTestRestApp, type TestRestApp } from '../../test/rest-app';
import { standIn } from '../../test/stand-in';

// PUT {publicBase}/uploads/{token} as mounted by mountRest, through the real proxy to a local server standing
// in for the object store, against a recording stand-in for the documents service.
const MiB = 1024 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
const token = 'k3Jf9_-abcdefghijklmnopqrstuvwxyzABCDEFGHIJ';

const calls: [string, unknown][] = [];
const planned = new Map<string, unknown[]>();
const plan = (method: string, ...answers: unknown[]) => planned.set(method, answers);
const answer =
  <Res>(method: string, fallback: () => Res) =>
  async (req: unknown): Promise<Res> => {
    calls.push([method, req]);
    const next = planned.get(method)?.shift();
    if (next instanceof Error) throw next;
    return (next as Res | undefined) ?? fallback();
  };

let storeUrl: string;
const stored = (fields: Partial<documentsV1.Document> = {}) =>
  documentsV1.Document.fromPartial({
    documentId: 'd1',
    status: 'UPLOADED',
    mimeType: 'image/png',
    fileSize: PNG.length,
    fileName: 'front.png',
    ...fields,
  });
const documents = standIn<DocumentsClient>('documents', {
  beginFileUpload: answer('beginFileUpload', () => ({
    documentId: 'd1',
    putUrl: `${storeUrl}/eligo-documents/uploads/u1/d1?X-Amz-Expires=300&X-Amz-Signature=abc%2Fdef`,
    fileSize: PNG.length,
    mimeType: 'image/png',
  })),
  finishFileUpload: answer('finishFileUpload', () => ({ document: stored() })),
});

interface StoreRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
const received: StoreRequest[] = [];
let storeStatus = 200;

let app: TestRestApp;
let origin: string;
const servers: Server[] = [];

beforeAll(async () => {
  storeUrl = await listen(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks),
        });
        res.writeHead(storeStatus, { 'content-type': 'application/xml' });
        res.end(storeStatus === 200 ? '' : '<Error><Code>SignatureDoesNotMatch</Code></Error>');
      });
    }),
  );
  // Upload URLs carry no token: the kit's authenticator, which refuses every account token, is never reached.
  app = await startTestRestApp({ bodyLimit: '1kb', documents });
  origin = app.origin;
});
afterAll(() => {
  for (const s of servers) s.close();
  app.close();
});
beforeEach(() => {
  calls.length = 0;
  planned.clear();
  received.length = 0;
  storeStatus = 200;
});

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A PUT with exactly these headers; the body is written whole unless `body` is undefined. */
function put(path: string, body: Buffer | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method: 'PUT', headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    // The server may answer and close before a refused body is written through.
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' ? undefined : reject(err)));
    req.end(body);
  });
}
const upload = (body: Buffer, headers: Record<string, string> = {}) =>
  put(`/uploads/${token}`, body, { 'content-length': String(body.length), ...headers });
const methods = () => calls.map(([m]) => m);

describe('PUT /uploads/{uploadToken}', () => {
  it('streams the body to the presigned URL with only the store’s headers, then answers the stored document', async () => {
    const res = await upload(PNG, {
      'content-type': 'text/html',
      authorization: 'Bearer secret',
      cookie: 'session=1',
      'x-amz-meta-owner': 'attacker',
      'x-forwarded-for': '10.0.0.1',
    });
    expect([res.status, res.body]).toEqual([
      200,
      { documentId: 'd1', status: 'UPLOADED', mimeType: 'image/png', fileSize: PNG.length, errors: [] },
    ]);
    expect(calls).toEqual([
      ['beginFileUpload', { uploadToken: token }],
      ['finishFileUpload', { uploadToken: token }],
    ]);
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect(sent!.method).toBe('PUT');
    expect(sent!.url).toBe('/eligo-documents/uploads/u1/d1?X-Amz-Expires=300&X-Amz-Signature=abc%2Fdef');
    expect(sent!.body.equals(PNG)).toBe(true);
    expect(sent!.headers).toEqual({
      host: new URL(storeUrl).host,
      'content-length': String(PNG.length),
      'content-type': 'image/png',
      connection: 'close',
    });
  });

  it('answers 400 with errorIds [unsupportedDocMimeType] when the stored bytes are refused', async () => {
    plan('finishFileUpload', { document: stored({ status: 'REJECTED', errors: ['UNSUPPORTED_TYPE'] }) });
    const res = await upload(PNG);
    expect([res.status, res.body]).toEqual([
      400,
      {
        documentId: 'd1',
        status: 'REJECTED',
        mimeType: 'image/png',
        fileSize: PNG.length,
        errors: ['UNSUPPORTED_TYPE'],
        errorIds: ['unsupportedDocMimeType'],
        systemErrorMessage: 'The file was refused (UNSUPPORTED_TYPE)',
      },
    ]);
  });

  it('answers 411 for a chunked body, before any service call', async () => {
    const chunked = await put(`/uploads/${token}`, PNG, { 'transfer-encoding': 'chunked' });
    expect([chunked.status, chunked.body]).toEqual([
      411,
      { systemErrorMessage: 'Content-Length is required (chunked uploads are not accepted)' },
    ]);
    expect(calls).toEqual([]);
  });

  it('takes a PUT without Content-Length or Transfer-Encoding as an empty body: 400, not the declared size', async () => {
    // What Python's requests sends for an empty form body (Schemathesis found the 411 this once answered).
    const none = await rawStatus(`PUT /uploads/${token} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(none).toBe(400);
  });

  it('answers 413 for a declared length over 10 MiB, before reading the body or calling a service', async () => {
    const res = await put(`/uploads/${token}`, undefined, { 'content-length': String(10 * MiB + 1) });
    expect([res.status, res.body]).toEqual([
      413,
      { systemErrorMessage: 'The file exceeds the limit of 10485760 bytes' },
    ]);
    expect(res.headers.connection).toBe('close');
    expect(calls).toEqual([]);
  });

  it('refuses a body of another length than declared with 400, releasing the token', async () => {
    const res = await upload(Buffer.concat([PNG, PNG]));
    expect([res.status, res.body]).toEqual([
      400,
      {
        systemErrorMessage: `The file must be the declared ${PNG.length} bytes; Content-Length was ${2 * PNG.length}`,
      },
    ]);
    expect(methods()).toEqual(['beginFileUpload', 'finishFileUpload']);
    expect(received).toEqual([]);
  });

  it('answers 502 when the store refuses the body, after resetting the document; the store’s answer stays hidden', async () => {
    storeStatus = 403;
    const res = await upload(PNG);
    expect([res.status, res.body]).toEqual([
      502,
      { systemErrorMessage: 'The file could not be stored; upload it again' },
    ]);
    expect(methods()).toEqual(['beginFileUpload', 'finishFileUpload']);
  });

  it('answers 502 when the store cannot be reached', async () => {
    const closed = createServer();
    const port = (await listen(closed)).split(':').pop();
    closed.close();
    plan('beginFileUpload', {
      documentId: 'd1',
      putUrl: `http://127.0.0.1:${port}/b/k`,
      fileSize: PNG.length,
      mimeType: 'image/png',
    });
    const res = await upload(PNG);
    expect([res.status, res.body]).toEqual([
      502,
      { systemErrorMessage: 'The file could not be stored; upload it again' },
    ]);
    expect(methods()).toEqual(['beginFileUpload', 'finishFileUpload']);
  });

  it('resets the document when the client goes away mid-body', async () => {
    const size = 4 * MiB;
    plan('beginFileUpload', {
      documentId: 'd1',
      putUrl: `${storeUrl}/b/k`,
      fileSize: size,
      mimeType: 'image/png',
    });
    const req = request(`${origin}/uploads/${token}`, {
      method: 'PUT',
      headers: { 'content-length': String(size) },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(MiB, 1));
    await until(() => calls.length === 1);
    req.destroy();
    await until(() => calls.length === 2);
    expect(methods()).toEqual(['beginFileUpload', 'finishFileUpload']);
  });

  it('passes the service’s 404 and 410 through as SEM; a malformed token is 404 without a call', async () => {
    plan(
      'beginFileUpload',
      notFound('No such upload'),
      notFound('The upload URL expired or was used', { reason: 'uploadUrlUsed' }),
    );
    const unknown = await upload(PNG);
    expect([unknown.status, unknown.body]).toEqual([404, { systemErrorMessage: 'No such upload' }]);
    const used = await upload(PNG);
    expect([used.status, used.body]).toEqual([
      410,
      { systemErrorMessage: 'The upload URL expired or was used' },
    ]);
    expect(methods()).toEqual(['beginFileUpload', 'beginFileUpload']);
    calls.length = 0;
    const malformed = await put('/uploads/not.a.token', PNG, { 'content-length': String(PNG.length) });
    expect([malformed.status, malformed.body]).toEqual([404, { systemErrorMessage: 'No such upload' }]);
    expect(calls).toEqual([]);
    expect(received).toEqual([]);
  });

  it('is not under /rest/v2, and no JSON parser reads its body first', async () => {
    const json = Buffer.from(JSON.stringify({ not: 'parsed' }));
    plan('beginFileUpload', {
      documentId: 'd1',
      putUrl: `${storeUrl}/b/k`,
      fileSize: json.length,
      mimeType: 'application/pdf',
    });
    const res = await upload(json, { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(received[0]!.body.equals(json)).toBe(true);
    const v2 = await put(`/rest/v2/uploads/${token}`, PNG, { 'content-length': String(PNG.length) });
    expect(v2.status).toBe(404);
  });
});

describe('the methods and paths under /uploads', () => {
  const send = async (method: string, path: string) => {
    const res = await fetch(`${origin}${path}`, { method });
    const text = await res.text();
    return { status: res.status, allow: res.headers.get('allow'), body: text ? JSON.parse(text) : text };
  };

  it('answers OPTIONS with the methods of an upload URL, and another method 405, calling no service', async () => {
    expect(await send('OPTIONS', `/uploads/${token}`)).toEqual({
      status: 204,
      allow: 'OPTIONS, PUT',
      body: '',
    });
    expect(await send('GET', `/uploads/${token}`)).toEqual({
      status: 405,
      allow: 'OPTIONS, PUT',
      body: { systemErrorMessage: 'Method GET is not allowed here; allowed: OPTIONS, PUT' },
    });
    expect(calls).toEqual([]);
  });

  it('answers a path that is no upload URL 404 SEM', async () => {
    expect(await send('PUT', `/uploads/${token}/more`)).toEqual({
      status: 404,
      allow: null,
      body: { systemErrorMessage: `No endpoint PUT /uploads/${token}/more` },
    });
    expect(calls).toEqual([]);
  });

  it('answers a token that does not percent-decode 400 invalidRequest in JSON, calling no service', async () => {
    // Express decodes the token while it matches the route, before the route's own error handlers exist.
    expect(await send('PUT', '/uploads/%E0%A4%A')).toEqual({
      status: 400,
      allow: null,
      body: {
        errorIds: ['invalidRequest'],
        systemErrorMessage: 'The path is not valid percent-encoded UTF-8',
      },
    });
    expect(calls).toEqual([]);
  });
});

/** The status line of a hand-written request (for header combinations no client library sends). */
function rawStatus(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(origin);
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let data = '';
    socket.on('data', (c: Buffer) => {
      data += c.toString();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
  });
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
