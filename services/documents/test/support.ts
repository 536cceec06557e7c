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
  createS3ObjectStore,
  decodeGrpcError,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
  type ObjectStore,
} from '@eligo/runtime';
import { definition as verificationDefinition } from '@eligo/verification';
import { definition } from '../src';
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
  /** The suite's MinIO bucket of this process, for assertions on stored objects. */
  store: ObjectStore;
  stop(): Promise<void>;
}

/** The documents module with the modules it needs (verification, and what that calls) on a fresh database. */
export async function startDocuments(env: Record<string, string> = {}): Promise<Harness> {
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
      ...env,
    },
  });
  const options = { deadlineMs: 20_000, breaker: false } as const;
  const documents = createClient(documentsV1.DocumentsServiceClient, sut.grpcAddress, options);
  const verification = createClient(verificationV1.VerificationServiceClient, sut.grpcAddress, options);
  const programs = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
  const organizations = createClient(organizationsV1.OrganizationsServiceClient, sut.grpcAddress, options);
  const db = createDb({ url: sut.databaseUrl, schema: 'documents', poolMax: 4, applicationName: 'doc-it' });
  const store = createS3ObjectStore(sut.config.s3!);
  return {
    sut,
    documents,
    verification,
    programs,
    organizations,
    db,
    store,
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
