import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import {
  recordTopic,
  startServiceUnderTest,
  type ServiceUnderTest,
  type TopicRecorder,
} from '@eligo/local-infra';
import { definition as organizationsDefinition } from '@eligo/organizations';
import { definition as programsDefinition } from '@eligo/programs';
import {
  documentsV1,
  organizationsV1,
  programsProgramV1,
  programsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import {
  createClient,
  createDb,
  createFsObjectStore,
  createS3ObjectStore,
  decodeGrpcError,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
  type ObjectStore,
} from '@eligo/runtime';
import { definition as verificationDefinition } from '@eligo/verification';
import { definition } from '../src';
import { documentFileStore } from '../src/app/objects';
import { documentsTopic } from '../src/events/topics';

export type DocumentsClient = GrpcClient<typeof documentsV1.DocumentsServiceService>;
export type VerificationClient = GrpcClient<typeof verificationV1.VerificationServiceService>;
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type OrganizationsClient = GrpcClient<typeof organizationsV1.OrganizationsServiceService>;
export type Document = documentsV1.Document;
export type VerificationResponse = verificationVerificationV1.VerificationResponse;

export interface Harness {
  sut: ServiceUnderTest;
  documents: DocumentsClient;
  verification: VerificationClient;
  programs: ProgramsClient;
  organizations: OrganizationsClient;
  /** A pool on the documents schema, for assertions on stored rows. */
  db: Knex;
  /**
   * The process's bucket as stored, bypassing the service (no decryption): MinIO, or the filesystem store
   * when the suite runs without S3 (ELIGO_S3_ENDPOINT empty).
   */
  store: ObjectStore;
  /** The same bucket as the service reads it: document files decrypted. */
  files: ObjectStore;
  stop(): Promise<void>;
}

/**
 * The documents module with the modules it needs (verification, and what that calls) on a fresh database.
 * The HTTP port is chosen up front so that the public base URL (review links, the filesystem store's upload
 * URLs) names the address the process really listens on.
 */
export async function startDocuments(env: Record<string, string> = {}): Promise<Harness> {
  const port = await freePort();
  const sut = await startServiceUnderTest({
    modules: {
      programs: programsDefinition,
      organizations: organizationsDefinition,
      verification: verificationDefinition,
      documents: definition,
    },
    targets: ['programs', 'organizations', 'verification', 'documents'],
    env: {
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_ORGANIZATIONS_PROGRAM_CACHE_MS: '0',
      ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
      ELIGO_HTTP_PORT: String(port),
      ELIGO_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
  });
  const options = { deadlineMs: 20_000, breaker: false } as const;
  const documents = createClient(documentsV1.DocumentsServiceClient, sut.grpcAddress, options);
  const verification = createClient(verificationV1.VerificationServiceClient, sut.grpcAddress, options);
  const programs = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
  const organizations = createClient(organizationsV1.OrganizationsServiceClient, sut.grpcAddress, options);
  const db = createDb({ url: sut.databaseUrl, schema: 'documents', poolMax: 4, applicationName: 'doc-it' });
  const store = rawStoreOf(sut);
  const files = documentFileStore(store, sut.encryptionKey, sut.httpUrl);
  return {
    sut,
    documents,
    verification,
    programs,
    organizations,
    db,
    store,
    files,
    async stop() {
      documents.close();
      verification.close();
      programs.close();
      organizations.close();
      await db.destroy();
      await sut.stop();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The store the process writes to, opened beside it (the filesystem one only lists and reads here). */
function rawStoreOf(sut: ServiceUnderTest): ObjectStore {
  if (sut.config.s3) return createS3ObjectStore(sut.config.s3);
  return createFsObjectStore({
    root: join(sut.config.dataDir, 'objects'),
    publicBaseUrl: sut.httpUrl,
    signingSecret: 'x'.repeat(32),
  });
}

/**
 * Every byte the store holds, read without the service: each S3 object through the plain S3 API, or every
 * file under the filesystem store's directory (records, blobs and writes in progress alike).
 */
export async function rawBytes(h: Harness): Promise<{ name: string; bytes: Buffer }[]> {
  if (h.sut.config.s3) {
    const found: { name: string; bytes: Buffer }[] = [];
    for await (const { key } of h.store.list(''))
      found.push({ name: key, bytes: await readStream(await h.store.get(key)) });
    return found;
  }
  const root = join(h.sut.config.dataDir, 'objects');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((e) => e.isFile())
      .map(async (e) => ({ name: e.name, bytes: await readFile(join(e.parentPath, e.name)) })),
  );
}

export async function readStream(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A test-mode student program and a university of the catalog it accepts. */
export interface TestProgram {
  programId: string;
  organizationId: number;
}

/** A new account's test-mode student program, with a catalog university for its students. */
export async function newProgram(h: Harness): Promise<TestProgram> {
  const { account } = await h.programs.unary('createAccount', { name: 'Acme' });
  const { program } = await h.programs.unary('createProgram', {
    program: programsProgramV1.Program.create({
      accountId: account!.accountId,
      name: 'Offer',
      segment: 'student',
      offerType: programsProgramV1.OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
    }),
  });
  const programId = program!.programId;
  const name = `Documents University ${programId}`;
  const imported = await h.organizations.unary('importOrganizations', {
    rows: [
      {
        line: 1,
        organization: {
          externalKey: `it:${name}`,
          name,
          type: 'UNIVERSITY',
          country: 'US',
          domains: [],
          city: '',
          state: '',
          loginUrl: '',
        },
      },
    ],
  });
  if (imported.rejected.length > 0) throw new Error(`import failed: ${JSON.stringify(imported.rejected)}`);
  // The import reply carries counts, not ids: read the id back.
  const { organization } = await h.organizations.unary('checkEligibility', {
    programId,
    organizationId: 0,
    organizationName: name,
  });
  return { programId, organizationId: organization!.id };
}

/** A verification of the program at its docUpload step (test mode: firstName UPLOAD). */
export async function verificationAtDocUpload(
  h: Harness,
  program: TestProgram,
): Promise<VerificationResponse> {
  const { verification: started } = await h.verification.unary('startVerification', {
    programId: program.programId,
    trackingId: '',
    metadata: {},
    locale: '',
    requestId: '',
  });
  const vr = await submitStudent(h, program, started!.verificationId, 'UPLOAD');
  if (vr.currentStep !== 'docUpload') throw new Error(`expected docUpload, got ${JSON.stringify(vr)}`);
  return vr;
}

export async function submitStudent(
  h: Harness,
  program: TestProgram,
  verificationId: string,
  firstName: string,
): Promise<VerificationResponse> {
  const { verification } = await h.verification.unary('submitPersonalInfo', {
    verificationId,
    programId: '',
    trackingId: '',
    step: 'collectStudentPersonalInfo',
    requestId: '',
    input: {
      $case: 'subject',
      subject: verificationVerificationV1.Subject.create({
        firstName,
        lastName: 'Doe',
        birthDate: '2000-01-31',
        email: 'jane.doe@example.com',
        organization: { id: program.organizationId, name: '' },
      }),
    },
  });
  return verification!;
}

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

/** The decoded error of a call that must fail (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<DecodedGrpcError> {
  try {
    await call;
  } catch (err) {
    return decodeGrpcError(err);
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** Everything published on the documents topic of the suite's Kafka; pick messages by key (verification id). */
export const subscribeDocumentsTopic = (): Promise<TopicRecorder> => recordTopic(documentsTopic);
