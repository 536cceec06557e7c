import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServiceUnderTest, type ServiceUnderTest } from '@eligo/local-infra';
import { definition as organizationsDefinition } from '@eligo/organizations';
import { definition as programsDefinition } from '@eligo/programs';
import {
  programsProgramV1,
  programsV1,
  reportsV1,
  verificationV1,
  verificationVerificationV1,
} from '@eligo/proto';
import {
  createClient,
  createDb,
  createFsObjectStore,
  createS3ObjectStore,
  decodeGrpcError,
  type ObjectStore,
  type DecodedGrpcError,
  type GrpcClient,
  type Knex,
} from '@eligo/runtime';
import { definition as verificationDefinition } from '@eligo/verification';
import { parse } from 'csv-parse/sync';
import { definition } from '../src';

export type ReportsClient = GrpcClient<typeof reportsV1.ReportsServiceService>;
export type ProgramsClient = GrpcClient<typeof programsV1.ProgramsServiceService>;
export type VerificationClient = GrpcClient<typeof verificationV1.VerificationServiceService>;
export type Subject = verificationVerificationV1.Subject;
export type Program = programsProgramV1.Program;
export const { ReportStatus, BatchStatus, VerificationModeInclusion } = reportsV1;
const { OfferType } = programsProgramV1;

export interface Harness {
  sut: ServiceUnderTest;
  reports: ReportsClient;
  programs: ProgramsClient;
  verification: VerificationClient;
  /** A pool on the reports schema, for assertions on stored rows. */
  db: Knex;
  /**
   * The bucket the process writes reports to, as stored (no decryption): MinIO, or the filesystem store when
   * the suite runs without S3 (ELIGO_S3_ENDPOINT empty).
   */
  store: ObjectStore;
  stop(): Promise<void>;
}

/**
 * The reports module with the modules it reads from, in one process, on real Postgres, Kafka and MinIO (or
 * the filesystem store in place of MinIO, with ELIGO_S3_ENDPOINT: '').
 */
export async function startReports(env: Record<string, string> = {}): Promise<Harness> {
  const sut = await startServiceUnderTest({
    modules: {
      programs: programsDefinition,
      organizations: organizationsDefinition,
      verification: verificationDefinition,
      reports: definition,
    },
    targets: ['programs', 'organizations', 'verification', 'reports'],
    env: {
      ELIGO_ORGANIZATIONS_SEED: 'none',
      ELIGO_VERIFICATION_PROGRAM_CACHE_MS: '0',
      ELIGO_REPORTS_POLL_MS: '50',
      ...env,
    },
  });
  const options = { deadlineMs: 20_000, breaker: false } as const;
  const reports = createClient(reportsV1.ReportsServiceClient, sut.grpcAddress, options);
  const programs = createClient(programsV1.ProgramsServiceClient, sut.grpcAddress, options);
  const verification = createClient(verificationV1.VerificationServiceClient, sut.grpcAddress, options);
  const db = createDb({ url: sut.databaseUrl, schema: 'reports', poolMax: 4, applicationName: 'reports-it' });
  const store = sut.config.s3
    ? createS3ObjectStore(sut.config.s3)
    : // Only listed and read here: no URL is ever signed with this secret.
      createFsObjectStore({
        root: join(sut.config.dataDir, 'objects'),
        publicBaseUrl: sut.httpUrl,
        signingSecret: 'x'.repeat(32),
      });
  return {
    sut,
    reports,
    programs,
    verification,
    db,
    store,
    async stop() {
      reports.close();
      programs.close();
      verification.close();
      await db.destroy();
      await sut.stop();
    },
  };
}

/**
 * Every byte the store holds, read without the service: each S3 object through the plain S3 API, or every
 * file under the filesystem store's directory (records, blobs and writes in progress alike).
 */
export async function rawBytes(h: Harness): Promise<{ name: string; bytes: Buffer }[]> {
  if (h.sut.config.s3) {
    const found: { name: string; bytes: Buffer }[] = [];
    for await (const { key } of h.store.list('')) {
      const chunks: Buffer[] = [];
      for await (const chunk of await h.store.get(key)) chunks.push(chunk as Buffer);
      found.push({ name: key, bytes: Buffer.concat(chunks) });
    }
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

/** A new account with one program (test mode, age segment, static code), or another program of an account. */
export async function newProgram(
  h: Harness,
  overrides: Partial<Program> = {},
  accountId?: string,
): Promise<Program> {
  const account = accountId ?? (await h.programs.unary('createAccount', { name: 'Acme' })).account!.accountId;
  const { program } = await h.programs.unary('createProgram', {
    program: programsProgramV1.Program.create({
      accountId: account,
      name: 'Summer offer',
      segment: 'age',
      offerType: OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
      ...overrides,
    }),
  });
  return program!;
}

export const person = (extra: Partial<Subject> = {}): Subject =>
  verificationVerificationV1.Subject.create({
    firstName: 'Jane',
    lastName: 'Doe',
    birthDate: '2000-01-31',
    email: 'jane.doe@example.com',
    postalCode: '10001',
    country: 'US',
    phoneNumber: '+12025550143',
    ...extra,
  });

/** Starts a verification of the program and submits the age form; answers its id and step. */
export async function verify(
  h: Harness,
  program: Program,
  options: { subject?: Subject; trackingId?: string } = {},
): Promise<{ verificationId: string; currentStep: string }> {
  const started = (
    await h.verification.unary('startVerification', {
      programId: program.programId,
      trackingId: options.trackingId ?? '',
      requestId: '',
      metadata: {},
      locale: '',
    })
  ).verification!;
  const answer = await h.verification.unary('submitPersonalInfo', {
    verificationId: started.verificationId,
    programId: '',
    trackingId: '',
    step: 'collectAgePersonalInfo',
    input: { $case: 'subject', subject: options.subject ?? person() },
    requestId: '',
  });
  return { verificationId: started.verificationId, currentStep: answer.verification!.currentStep };
}

/** Polls until `probe` answers something other than undefined (the projection is fed asynchronously). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the projection has the verifications with these steps. */
export async function projected(h: Harness, expected: Record<string, string>): Promise<void> {
  await eventually(async () => {
    const rows: { verification_id: string; current_step: string | null; created_at: Date | null }[] = await h
      .db('verification_rows')
      .whereIn('verification_id', Object.keys(expected))
      .select('verification_id', 'current_step', 'created_at');
    const done = rows.filter((r) => r.created_at && r.current_step === expected[r.verification_id]);
    return done.length === Object.keys(expected).length ? true : undefined;
  });
}

/** The decoded error of a call that must fail (the test fails if it succeeds). */
export async function failure(call: Promise<unknown>): Promise<DecodedGrpcError> {
  try {
    await call;
  } catch (err) {
    return decodeGrpcError(err);
  }
  throw new Error('expected the call to fail');
}

/** Waits for a report to leave PENDING and answers it. */
export async function finished(h: Harness, accountId: string, reportId: string): Promise<reportsV1.Report> {
  return eventually(async () => {
    const { report } = await h.reports.unary('getReportStatus', { accountId, reportId });
    return report!.status === ReportStatus.REPORT_STATUS_PENDING ? undefined : report!;
  });
}

/** DownloadReport read whole: the first message's report and the CSV's bytes. */
export async function download(
  h: Harness,
  accountId: string,
  reportId: string,
  tokenId = 'token-1',
  piiAllowed = true,
): Promise<{ report: reportsV1.Report; csv: string }> {
  let report: reportsV1.Report | undefined;
  const chunks: Buffer[] = [];
  for await (const { part } of h.reports.serverStream('downloadReport', {
    accountId,
    reportId,
    tokenId,
    piiAllowed,
  })) {
    if (part?.$case === 'report') report = part.report;
    if (part?.$case === 'chunk') chunks.push(part.chunk);
  }
  return { report: report!, csv: Buffer.concat(chunks).toString('utf8') };
}

/** CSV rows as objects keyed by the header. */
export function rowsOf(csv: string): Record<string, string>[] {
  return parse(csv, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

export const today = (): string => new Date().toISOString().slice(0, 10);
