import {
  download,
  eventually,
  finished,
  newProgram,
  ReportStatus,
  startReports,
  today,
  VerificationModeInclusion,
  type Harness,
} from './support';

/** Reports past the retention lose their data: the status turns DELETED (REST 410) and the object is gone. */
describe('report retention', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startReports({ ELIGO_REPORTS_RETENTION_MS: '1000', ELIGO_REPORTS_PURGE_INTERVAL_MS: '200' });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('purges a finished report once the retention has passed', async () => {
    const program = await newProgram(h);
    const { report } = await h.reports.unary('createVerificationReport', {
      accountId: program.accountId,
      tokenId: 't',
      startDate: today(),
      endDate: today(),
      format: 'CSV',
      piiIncluded: false,
      piiReason: '',
      programIds: [],
      modeInclusion: VerificationModeInclusion.VERIFICATION_MODE_INCLUSION_ALL,
      piiAllowed: false,
    });
    expect((await finished(h, program.accountId, report!.reportId)).status).toBe(
      ReportStatus.REPORT_STATUS_COMPLETE,
    );
    const key = (await h.db('reports').where({ id: report!.reportId }).first()).object_key as string;
    expect(await h.store.exists(key)).toBe(true);
    await eventually(async () => {
      const { report: now } = await h.reports.unary('getReportStatus', {
        accountId: program.accountId,
        reportId: report!.reportId,
      });
      return now!.status === ReportStatus.REPORT_STATUS_DELETED ? true : undefined;
    });
    expect(await h.store.exists(key)).toBe(false);
    const after = await download(h, program.accountId, report!.reportId);
    expect(after.report.status).toBe(ReportStatus.REPORT_STATUS_DELETED);
    expect(after.csv).toBe('');
  });
});
