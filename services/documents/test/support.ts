import {
  createTestProgram,
  failure,
  freePort,
  importOrganization,
  rawBytes,
  rawStore,
  recordTopic,
  startModules,
  testSubject,
  verificationCalls,
  type TopicRecorder,
  type VerificationResponse,
} from '@eligo/local-infra';
import { documentsV1, organizationsV1, programsProgramV1, programsV1, verificationV1 } from '@eligo/proto';
import type { GrpcClient, Knex } from '@eligo/runtime';
import { definition } from '../src';
import { documentFileStore } from '../src/app/objects';
import { documentsTopic } from '../src/events/topics';

export { failure, rawBytes };
export type DocumentsClient = GrpcClient<typeof documentsV1.DocumentsServiceService>;
export type Document = documentsV1.Document;

/**
 * The documents module with the modules it needs (verification, and what that calls) on a fresh database.
 * The HTTP port is chosen up front so that the public base URL (review links, the filesystem store's upload
 * URLs) names the address the process really listens on.
 */
export async function startDocuments(env: Record<string, string> = {}) {
  const port = await freePort();
  const sut = await startModules('documents', {
    modules: { documents: definition },
    env: { ELIGO_HTTP_PORT: String(port), ELIGO_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...env },
  });
  // The bucket as stored, bypassing the service (no decryption), and as the service reads it (decrypted).
  const store = rawStore(sut);
  return {
    sut,
    documents: sut.client(documentsV1.DocumentsServiceClient),
    verification: sut.client(verificationV1.VerificationServiceClient),
    programs: sut.client(programsV1.ProgramsServiceClient),
    organizations: sut.client(organizationsV1.OrganizationsServiceClient),
    db: sut.db('documents'),
    store,
    files: documentFileStore(store, sut.encryptionKey, sut.httpUrl),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startDocuments>>;

/** A test-mode student program and a university of the catalog it accepts. */
export interface TestProgram {
  programId: string;
  organizationId: number;
}

/** A new account's test-mode student program, with a catalog university for its students. */
export async function newProgram(h: Harness): Promise<TestProgram> {
  const { programId } = await createTestProgram(h.programs, {
    offerType: programsProgramV1.OfferType.OFFER_TYPE_STATIC_CODE,
    rewardCode: 'SAVE10',
  });
  return {
    programId,
    organizationId: await importOrganization(h, programId, `Documents University ${programId}`),
  };
}

/** A verification of the program at its docUpload step (test mode: firstName UPLOAD). */
export async function verificationAtDocUpload(
  h: Harness,
  program: TestProgram,
): Promise<VerificationResponse> {
  const started = await verificationCalls(() => h.verification).start(program.programId);
  const vr = await submitStudent(h, program, started.verificationId, 'UPLOAD');
  if (vr.currentStep !== 'docUpload') throw new Error(`expected docUpload, got ${JSON.stringify(vr)}`);
  return vr;
}

/** A verification that succeeded at once (test mode, firstName Jane): it has no docUpload step any more. */
export async function succeededVerification(h: Harness, program: TestProgram): Promise<VerificationResponse> {
  const started = await verificationCalls(() => h.verification).start(program.programId);
  const done = await submitStudent(h, program, started.verificationId, 'Jane');
  if (done.currentStep !== 'success') throw new Error(`expected success, got ${JSON.stringify(done)}`);
  return done;
}

export const submitStudent = (
  h: Harness,
  program: TestProgram,
  verificationId: string,
  firstName: string,
): Promise<VerificationResponse> =>
  verificationCalls(() => h.verification).submit(
    verificationId,
    'collectStudentPersonalInfo',
    testSubject({ firstName, organization: { id: program.organizationId, name: '' } }),
  );

export interface FileToSend {
  fileName: string;
  mimeType: string;
  bytes: Buffer;
}

export const file = (fileName: string, mimeType: string, bytes: Buffer): FileToSend => ({
  fileName,
  mimeType,
  bytes,
});

/** Announces the files (form A) with their true sizes. */
export async function announce(h: Harness, verificationId: string, files: FileToSend[]) {
  return h.documents.unary('createUpload', {
    verificationId,
    docUploadToken: '',
    files: files.map((f) => ({ fileName: f.fileName, mimeType: f.mimeType, fileSize: f.bytes.length })),
  });
}

/** What the gateway does with one upload URL: claim the token, PUT the bytes to the store, finish. */
export async function send(h: Harness, token: string, bytes: Buffer): Promise<Document> {
  const { putUrl, mimeType } = await h.documents.unary('beginFileUpload', { uploadToken: token });
  await put(putUrl, bytes, mimeType);
  const { document } = await h.documents.unary('finishFileUpload', { uploadToken: token });
  return document!;
}

export async function put(url: string, bytes: Buffer, contentType: string): Promise<void> {
  const res = await fetch(url, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
  if (!res.ok) throw new Error(`PUT to the object store answered ${res.status}: ${await res.text()}`);
}

/** A verification at docUpload with every file announced and sent; returns the upload and its documents. */
export async function uploadAll(h: Harness, program: TestProgram, files: FileToSend[]) {
  const vr = await verificationAtDocUpload(h, program);
  const created = await announce(h, vr.verificationId, files);
  const documents: Document[] = [];
  for (const [i, d] of created.documents.entries())
    documents.push(await send(h, d.uploadToken, files[i]!.bytes));
  return { verificationId: vr.verificationId, uploadId: created.uploadId, documents };
}

export const objectKey = (uploadId: string, documentId: string) => `documents/${uploadId}/${documentId}`;
/** Where a PUT's bytes land until FinishFileUpload seals them under objectKey. */
export const incomingKey = (uploadId: string, documentId: string) =>
  `${objectKey(uploadId, documentId)}.incoming`;

/** Rows of each table, for "nothing was stored" assertions. */
export async function rowCounts(db: Knex): Promise<Record<'uploads' | 'documents' | 'reviews', number>> {
  const count = async (table: string) =>
    Number(((await db(table).count<{ count: string }[]>('* as count')) as { count: string }[])[0]!.count);
  return {
    uploads: await count('uploads'),
    documents: await count('documents'),
    reviews: await count('reviews'),
  };
}

/** Everything published on the documents topic of the suite's Kafka; pick messages by key (verification id). */
export const subscribeDocumentsTopic = (): Promise<TopicRecorder> => recordTopic(documentsTopic);
