import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { documentsV1 } from '@eligo/proto';
import { MAX_FILE_BYTES } from '@eligo/vocabulary';
import { statementsOf, transactionsOf } from '@eligo/local-infra';
import { PDF, PNG, TEXT } from './files';
import {
  announce,
  failure,
  newProgram,
  rowCounts,
  send,
  startDocuments,
  succeededVerification,
  verificationAtDocUpload,
  type Harness,
  type TestProgram,
} from './support';

type Message = documentsV1.UploadFilesRequest;
const start = (verificationId: string, docUploadToken = ''): Message => ({
  part: { $case: 'start', start: { verificationId, docUploadToken } },
});
const header = (fileName: string, mimeType: string): Message => ({
  part: { $case: 'file', file: { fileName, mimeType } },
});
const chunk = (bytes: Buffer): Message => ({ part: { $case: 'chunk', chunk: bytes } });

/** One file's messages: its header, then its bytes in chunks of `size` (as the gateway forwards a part). */
function* fileMessages(fileName: string, mimeType: string, bytes: Buffer, size = 64 * 1024) {
  yield header(fileName, mimeType);
  for (let at = 0; at < bytes.length; at += size) yield chunk(bytes.subarray(at, at + size));
}

/** A PNG signature followed by noise: sniffed as image/png, of any size. */
const bigPng = (bytes: number) => Buffer.concat([PNG, randomBytes(bytes - PNG.length)]);

/** Form B through the real API: one UploadFiles stream per upload, on Postgres, Kafka and the object store. */
describe('UploadFiles (form B)', () => {
  let h: Harness;
  let program: TestProgram;
  beforeAll(async () => {
    h = await startDocuments();
    program = await newProgram(h);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const upload = (messages: Iterable<Message> | AsyncIterable<Message>, signal?: AbortSignal) =>
    h.documents.clientStream('uploadFiles', toAsync(messages), signal ? { signal } : {});
  const storedKeys = async () => {
    const keys: string[] = [];
    for await (const o of h.store.list('documents/')) keys.push(o.key);
    return keys.sort();
  };

  it('seals each file as it streams, records the upload and answers pending', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const big = bigPng(MAX_FILE_BYTES); // over the store's part size: a multipart write of unknown length
    const reply = await upload([
      start(vr.verificationId, vr.docUploadToken),
      ...fileMessages('id.png', 'image/png', big),
      ...fileMessages('letter.pdf', 'application/pdf', PDF, 7),
    ]);
    expect(reply.outcome).toBe(1); // COMPLETED
    expect(reply.verification).toMatchObject({ verificationId: vr.verificationId, currentStep: 'pending' });
    expect(reply.documents).toEqual([]);

    const documents = await h
      .db('documents as d')
      .join('uploads as u', 'u.id', 'd.upload_id')
      .where('u.verification_id', vr.verificationId)
      .orderBy('d.position')
      .select('d.id', 'd.status', 'd.detected_mime', 'd.file_size', 'd.object_key', 'u.status as upload');
    expect(documents.map((d) => [d.status, d.detected_mime, Number(d.file_size), d.upload])).toEqual([
      ['UPLOADED', 'image/png', big.length, 'submitted'],
      ['UPLOADED', 'application/pdf', PDF.length, 'submitted'],
    ]);
    // Sealed at rest (the raw object is not the bytes), the same bytes once decrypted, no plaintext copy.
    for (const [d, bytes] of [
      [documents[0], big],
      [documents[1], PDF],
    ] as const) {
      const raw = await streamBytes(await h.store.get(d.object_key));
      expect(raw.subarray(0, 64).equals(bytes.subarray(0, 64))).toBe(false);
      expect((await streamBytes(await h.files.get(d.object_key))).equals(bytes)).toBe(true);
    }
    const keys = await storedKeys();
    expect(
      keys.filter((k) => k.startsWith(documents[0].object_key.split('/').slice(0, 2).join('/'))),
    ).toEqual(documents.map((d) => d.object_key).sort());
    const reviews = await h
      .db('reviews')
      .where({ verification_id: vr.verificationId })
      .select('status', 'submitted_at');
    expect(reviews).toHaveLength(1);
    // Recorded submitted at once (the files are all in), at the review's time.
    const [row] = await h.db('uploads').where({ verification_id: vr.verificationId }).select();
    expect(row).toMatchObject({ status: 'submitted', cancelled_at: null });
    expect(row.submitted_at).toEqual(row.created_at);
    expect(row.submitted_at).toEqual(reviews[0].submitted_at);
  });

  it('refuses by size and declared type, all or nothing, keeping nothing', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const before = [await rowCounts(h.db), await storedKeys()];
    const reply = await upload([
      start(vr.verificationId),
      ...fileMessages('ok.png', 'image/png', PNG),
      ...fileMessages('huge.png', 'image/png', bigPng(MAX_FILE_BYTES + 1)),
      header('empty.png', 'image/png'),
    ]);
    expect(reply.outcome).toBe(2); // REFUSED
    expect(reply.verification).toMatchObject({ currentStep: 'docUpload' });
    expect(reply.verification!.errorIds).toEqual(['invalidFileSizeMax', 'invalidFileSizeEmpty']);
    expect(reply.documents.map((d) => [d.documentId, d.status, d.fileSize, d.errors])).toEqual([
      ['', 'REJECTED', PNG.length, []],
      ['', 'REJECTED', MAX_FILE_BYTES + 1, ['TOO_LARGE']],
      ['', 'REJECTED', 0, ['ZERO_SIZE']],
    ]);
    const text = await upload([start(vr.verificationId), ...fileMessages('notes.txt', 'text/plain', TEXT)]);
    expect(text.verification!.errorIds).toEqual(['unsupportedDocMimeType']);
    expect([await rowCounts(h.db), await storedKeys()]).toEqual(before);
  });

  it('rejects bytes that are not their declared type, keeping nothing', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const before = [await rowCounts(h.db), await storedKeys()];
    const reply = await upload([
      start(vr.verificationId),
      ...fileMessages('id.png', 'image/png', bigPng(300_000)),
      ...fileMessages('letter.pdf', 'application/pdf', TEXT),
    ]);
    expect(reply.outcome).toBe(3); // REJECTED
    expect(reply.verification).toMatchObject({ currentStep: 'docUpload', errorIds: [] });
    expect(reply.documents.map((d) => [d.documentId, d.status, d.errors])).toEqual([
      ['', 'AWAITING_UPLOAD', []],
      ['', 'REJECTED', ['UNSUPPORTED_TYPE']],
    ]);
    expect([await rowCounts(h.db), await storedKeys()]).toEqual(before);
  });

  it('answers the verification’s refusal at start, before the files are sent', async () => {
    const done = await succeededVerification(h, program);
    // The stream never ends: only an answer at start can end the call.
    async function* forever() {
      yield start(done.verificationId);
      yield header('a.png', 'image/png');
      await new Promise(() => undefined);
    }
    const err = await failure(upload(forever()));
    expect([err.codeName, err.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
    const unknown = await failure(upload([start(randomBytes(12).toString('hex'))]));
    expect([unknown.codeName, unknown.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
  });

  it.each([
    ['no start', [header('a.png', 'image/png')], 'invalidRequest'],
    ['bytes before a header', [chunk(PNG)], 'invalidRequest'],
    ['start twice', [start('x')], 'invalidRequest'],
    ['no file', [], 'invalidNumberOfFiles'],
    [
      'a fourth file',
      [1, 2, 3, 4].flatMap((i) => [...fileMessages(`${i}.png`, 'image/png', PNG)]),
      'invalidNumberOfFiles',
    ],
  ])('refuses %s with INVALID_ARGUMENT, keeping nothing', async (name, messages, errorId) => {
    const vr = await verificationAtDocUpload(h, program);
    const before = [await rowCounts(h.db), await storedKeys()];
    const first = name === 'no start' ? [] : [start(vr.verificationId)];
    const err = await failure(upload([...first, ...messages]));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', [errorId]]);
    expect([await rowCounts(h.db), await storedKeys()]).toEqual(before);
  });

  it('keeps nothing of a call cancelled while a file is being stored', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const before = [await rowCounts(h.db), await storedKeys()] as const;
    const abort = new AbortController();
    async function* cut() {
      yield start(vr.verificationId);
      yield* fileMessages('a.png', 'image/png', bigPng(1024 * 1024));
      yield* fileMessages('b.png', 'image/png', bigPng(2 * 1024 * 1024).subarray(0, 1024 * 1024));
      abort.abort();
      await new Promise(() => undefined);
    }
    const err = await failure(upload(cut(), abort.signal));
    expect(err.codeName).toBe('CANCELLED');
    // The service learns of the cancel, stops the write in flight and deletes what was stored. The client
    // hears CANCELLED at once, while a file's put may still be finishing (its object appears, then goes): on a
    // busy machine the store was seen clean, then holding that object. So wait for 2 s of the store as before.
    const state = async () => JSON.stringify([await rowCounts(h.db), await storedKeys()]);
    let stableSince = Date.now();
    for (const deadline = Date.now() + 30_000; Date.now() - stableSince < 2000 && Date.now() < deadline;) {
      if ((await state()) !== JSON.stringify(before)) stableSince = Date.now();
      await sleep(100);
    }
    expect([await rowCounts(h.db), await storedKeys()]).toEqual(before);
  });

  it('queues one review when two uploads of one verification race past the check at start', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const before = await storedKeys();
    // Each stream holds its files until both calls were asked for the message after start, which the
    // service asks for only once the verification let the upload begin.
    let begun = 0;
    let release!: () => void;
    const bothBegun = new Promise<void>((resolve) => (release = resolve));
    async function* racer(name: string) {
      yield start(vr.verificationId);
      if (++begun === 2) release();
      await bothBegun;
      yield* fileMessages(name, 'image/png', PNG);
    }
    const results = await Promise.allSettled([upload(racer('a.png')), upload(racer('b.png'))]);
    const outcomes = results.map((r) => (r.status === 'fulfilled' ? 'completed' : 'refused'));
    expect(outcomes.sort()).toEqual(['completed', 'refused']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    const err = await failure(Promise.reject(refused.reason));
    expect([err.codeName, err.errorIds]).toEqual(['FAILED_PRECONDITION', ['invalidStep']]);
    expect(await h.db('reviews').where({ verification_id: vr.verificationId })).toHaveLength(1);
    const uploads = await h.db('uploads').where({ verification_id: vr.verificationId }).select('id');
    expect(uploads).toHaveLength(1);
    // The refused upload's file went too: only the recorded upload's is new in the store.
    const added = (await storedKeys()).filter((k) => !before.includes(k));
    expect(added.map((k) => k.split('/')[1])).toEqual([uploads[0].id]);
  });

  it('replaces a form A upload that was announced and not completed, deleting the file it stored', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const announced = await announce(h, vr.verificationId, [
      { fileName: 'a.png', mimeType: 'image/png', bytes: PNG },
      { fileName: 'b.pdf', mimeType: 'application/pdf', bytes: PDF },
    ]);
    // One of its two files was sent: stored, the upload still open.
    await send(h, announced.documents[0]!.uploadToken, PNG);
    const formA = (await storedKeys()).filter((k) => k.split('/')[1] === announced.uploadId);
    expect(formA).toHaveLength(1);
    const reply = await upload([start(vr.verificationId), ...fileMessages('c.png', 'image/png', PNG)]);
    expect(reply.outcome).toBe(1);
    const [replaced] = await h.db('uploads').where({ id: announced.uploadId }).select('status');
    expect(replaced.status).toBe('cancelled');
    expect((await storedKeys()).filter((k) => formA.includes(k))).toEqual([]);
    expect(await h.db('reviews').where({ verification_id: vr.verificationId })).toHaveLength(1);
  });

  it('records the upload, its documents, its review and their events with one statement after the lock', async () => {
    const vr = await verificationAtDocUpload(h, program);
    const sent = await statementsOf('documents', () =>
      upload([start(vr.verificationId), ...fileMessages('id.png', 'image/png', PNG)]),
    );
    // The recording transaction: the lock, one read, one write; each statement a round trip.
    const [recorded, ...others] = transactionsOf(sent, vr.verificationId).filter((t) => t[0] === 'BEGIN');
    expect(others).toEqual([]);
    expect(recorded).toEqual([
      'BEGIN',
      expect.stringMatching(/^select pg_advisory_xact_lock/),
      expect.stringMatching(/^select exists/),
      expect.stringMatching(
        /^with "upload" as \(insert into "uploads".*"files" as .*"review" as .*"outbox"/s,
      ),
      'COMMIT',
    ]);
    const own = sent.filter((s) => s.values.includes(vr.verificationId));
    expect(own.filter((s) => !s.prepared).map((s) => s.sql)).toEqual([]);
    const events = await h.db('outbox').where({ key: vr.verificationId }).select('event_type');
    expect(events.map((e: { event_type: string }) => e.event_type.replace(/.*\./, ''))).toEqual([
      'DocumentsSubmitted',
    ]);
  });
});

async function* toAsync<T>(items: Iterable<T> | AsyncIterable<T>): AsyncGenerator<T> {
  yield* items;
}

async function streamBytes(stream: AsyncIterable<Buffer | Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}
