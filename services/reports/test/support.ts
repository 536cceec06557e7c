import {
  createTestProgram,
  failure,
  rawBytes,
  rawStore,
  startModules,
  testSubject,
  verificationCalls,
  waitFor,
  type Program,
  type Subject,
} from '@eligo/local-infra';
import { programsProgramV1, programsV1, reportsV1, verificationV1 } from '@eligo/proto';
import { parse } from 'csv-parse/sync';
import { definition } from '../src';

export { failure, rawBytes, type Program };
export const { ReportStatus, BatchStatus, VerificationModeInclusion } = reportsV1;

/**
 * The reports module with the modules it reads from, in one process, on real Postgres, Kafka and MinIO (or
 * the filesystem store in place of MinIO, with ELIGO_S3_ENDPOINT: '').
 */
export async function startReports(env: Record<string, string> = {}) {
  const sut = await startModules('reports', {
    modules: { reports: definition },
    env: { ELIGO_REPORTS_POLL_MS: '50', ...env },
  });
  return {
    sut,
    reports: sut.client(reportsV1.ReportsServiceClient),
    programs: sut.client(programsV1.ProgramsServiceClient),
    verification: sut.client(verificationV1.VerificationServiceClient),
    db: sut.db('reports'),
    /** The bucket as stored (no decryption): MinIO, or the filesystem store with ELIGO_S3_ENDPOINT: ''. */
    store: rawStore(sut),
    stop: sut.stop,
  };
}
export type Harness = Awaited<ReturnType<typeof startReports>>;

/** A new account with one program (test mode, age segment, static code), or another program of an account. */
export const newProgram = (
  h: Harness,
  overrides: Partial<Program> = {},
  accountId?: string,
): Promise<Program> =>
  createTestProgram(
    h.programs,
    {
      name: 'Summer offer',
      segment: 'age',
      offerType: programsProgramV1.OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'SAVE10',
      ...overrides,
    },
    { accountId },
  );

export const person = (extra: Partial<Subject> = {}): Subject =>
  testSubject({ postalCode: '10001', country: 'US', phoneNumber: '+12025550143', ...extra });

/** Starts a verification of the program and submits the age form; answers its id and step. */
export async function verify(
  h: Harness,
  program: Program,
  options: { subject?: Subject; trackingId?: string } = {},
): Promise<{ verificationId: string; currentStep: string }> {
  const calls = verificationCalls(() => h.verification);
  const { verificationId } = await calls.start(program.programId, { trackingId: options.trackingId });
  const { currentStep } = await calls.submit(
    verificationId,
    'collectAgePersonalInfo',
    options.subject ?? person(),
  );
  return { verificationId, currentStep };
}

/** Polls until `probe` answers something other than undefined (the projection is fed asynchronously). */
export const eventually = <T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> =>
  waitFor('the condition', probe, timeoutMs);

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
