import { randomBytes, randomUUID } from 'node:crypto';
import type { ObjectStore } from '@eligo/runtime';
import { deleteReport } from '../src/app/read-reports';
import type { AppContext } from '../src/app/context';
import {
  download,
  eventually,
  finished,
  newProgram,
  person,
  projected,
  rawBytes,
  ReportStatus,
  startReports,
  today,
  verify,
  VerificationModeInclusion,
  type Harness,
  type Program,
} from './support';

const MARKER = 'ZZPLAINTEXTMARKER';
const GRACE_MS = 2000;

/**
 * Reports are encrypted before they rest in the store, those with personal information (the worker's) and
 * those without (Postgres's COPY), on MinIO and on the filesystem store alike; a deleted report loses its
 * object before its row; objects no report refers to are swept once they are older than the grace period.
 */
describe.each([
  ['MinIO', {}],
  ['the filesystem store', { ELIGO_S3_ENDPOINT: '' }],
])('reports at rest on %s', (_store, storeEnv: Record<string, string>) => {
  let h: Harness;
  let program: Program;
  beforeAll(async () => {
    h = await startReports({
      ...storeEnv,
      ELIGO_REPORTS_ORPHAN_GRACE_MS: String(GRACE_MS),
      ELIGO_REPORTS_ORPHAN_SWEEP_MS: '200',
    });
    program = await newProgram(h);
    const { verificationId, currentStep } = await verify(h, program, {
      subject: person({ firstName: MARKER, lastName: 'Doe', email: 'zz.marker@example.com' }),
    });
    await projected(h, { [verificationId]: currentStep });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  /** A finished report (with personal information unless asked otherwise); answers its id and object key. */
  async function piiReport(pii = true): Promise<{ reportId: string; key: string }> {
    const { report } = await h.reports.unary('createVerificationReport', {
      accountId: program.accountId,
      tokenId: 'token-1',
      startDate: today(),
      endDate: today(),
      format: 'CSV',
      piiIncluded: pii,
      piiReason: pii ? 'audit' : '',
      programIds: [],
      modeInclusion: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_ALL,
      piiAllowed: pii,
    });
    const done = await finished(h, program.accountId, report!.reportId);
    expect(done.status).toBe(ReportStatus.REPORT_STATUS_COMPLETE);
    const row = await h.db('reports').where({ id: report!.reportId }).first();
    return { reportId: report!.reportId, key: row.object_key as string };
  }

  it('keeps no plaintext of a report in the store, and serves it whole to a PII reader', async () => {
    const { reportId, key } = await piiReport();
    const raw = await rawBytes(h);
    expect(raw.length).toBeGreaterThan(0);
    for (const { name, bytes } of raw) {
      for (const secret of [MARKER, 'zz.marker@example.com', 'verificationId'])
        expect(`${name}: ${bytes.includes(secret) ? `holds ${secret}` : 'ok'}`).toBe(`${name}: ok`);
    }
    expect(await h.store.exists(key)).toBe(true);
    const { csv } = await download(h, program.accountId, reportId);
    expect(csv.startsWith('verificationId,')).toBe(true);
    expect(csv).toContain(`${MARKER},Doe,zz.marker@example.com`);
  });

  it('seals a report without personal information as well (Postgres writes its lines), and serves it whole', async () => {
    const { reportId, key } = await piiReport(false);
    expect(await h.store.exists(key)).toBe(true);
    for (const { name, bytes } of await rawBytes(h))
      for (const secret of ['verificationId', program.programId])
        expect(`${name}: ${bytes.includes(secret) ? `holds ${secret}` : 'ok'}`).toBe(`${name}: ok`);
    const { csv } = await download(h, program.accountId, reportId);
    expect(csv.startsWith('verificationId,programId,')).toBe(true);
    expect(csv).toContain(`,${program.programId},`);
    expect(csv).not.toContain(MARKER);
  });

  it('deletes the object before the report: a refused delete leaves it readable, a crash leaves it gone', async () => {
    const { reportId, key } = await piiReport();
    const refusing = {
      delete: () => Promise.reject(new Error('store unavailable')),
    } as unknown as ObjectStore;
    const app = { db: h.db, schema: 'reports', store: refusing } as unknown as AppContext;
    await expect(deleteReport(app, { accountId: program.accountId, reportId })).rejects.toThrow(
      'store unavailable',
    );
    expect((await h.db('reports').where({ id: reportId }).first()).status).toBe('COMPLETE');
    expect((await download(h, program.accountId, reportId)).csv).toContain(MARKER);

    // A crash after the object went and before the row changed: the report answers as deleted.
    await h.store.delete(key);
    const gone = await download(h, program.accountId, reportId);
    expect([gone.report.status, gone.csv]).toEqual([ReportStatus.REPORT_STATUS_DELETED, '']);

    const { report } = await h.reports.unary('deleteReport', { accountId: program.accountId, reportId });
    expect(report!.status).toBe(ReportStatus.REPORT_STATUS_DELETED);
    expect(await h.store.exists(key)).toBe(false);
  });

  it('sweeps objects no report refers to once they are older than the grace period', async () => {
    const { key: kept } = await piiReport();
    // A generator that crashed after its upload, or a report row removed by hand: no row names these.
    const orphans = [
      `reports/${program.accountId}/${randomBytes(12).toString('hex')}/${randomUUID()}.csv`,
      `reports/${program.accountId}/not-a-report-key`,
    ];
    for (const key of orphans) await h.store.put(key, Buffer.from(`${MARKER},Doe\n`));
    // Younger than the grace: a generator may be about to record it.
    expect(await Promise.all(orphans.map((key) => h.store.exists(key)))).toEqual([true, true]);

    await eventually(async () => {
      const left = await Promise.all(orphans.map((key) => h.store.exists(key)));
      return left.some(Boolean) ? undefined : true;
    });
    expect(await h.store.exists(kept)).toBe(true);
  });
});
