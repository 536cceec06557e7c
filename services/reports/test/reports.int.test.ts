import { status as Status } from '@grpc/grpc-js';
import {
  download,
  failure,
  finished,
  newProgram,
  person,
  projected,
  ReportStatus,
  rowsOf,
  startReports,
  today,
  verify,
  VerificationModeInclusion,
  type Harness,
  type Program,
} from './support';
import { REPORT_PART_BYTES } from '../src/app/report-parts';

const { VERIFICATION_MODE_INCLUSION_ALL: ALL, VERIFICATION_MODE_INCLUSION_LIVE: LIVE } =
  VerificationModeInclusion;

/** Verification reports through the reports service's gRPC API, from verifications run for real. */
describe('verification reports', () => {
  let h: Harness;
  let offer: Program;
  let second: Program;
  let ids: { success: string; failed: string; documents: string; other: string; foreign: string };

  const request = (overrides: Record<string, unknown> = {}) => ({
    accountId: offer.accountId,
    tokenId: 'token-1',
    startDate: today(),
    endDate: today(),
    format: 'CSV',
    piiIncluded: false,
    piiReason: '',
    programIds: [] as string[],
    modeInclusion: ALL,
    piiAllowed: false,
    ...overrides,
  });
  const create = async (overrides: Record<string, unknown> = {}) =>
    (await h.reports.unary('createVerificationReport', request(overrides))).report!;
  const generated = async (overrides: Record<string, unknown> = {}) => {
    const report = await create(overrides);
    expect(report.status).toBe(ReportStatus.REPORT_STATUS_PENDING);
    expect((await finished(h, offer.accountId, report.reportId)).status).toBe(
      ReportStatus.REPORT_STATUS_COMPLETE,
    );
    const { csv } = await download(h, offer.accountId, report.reportId);
    return { report: (await finished(h, offer.accountId, report.reportId))!, csv };
  };

  beforeAll(async () => {
    h = await startReports();
    offer = await newProgram(h, { name: '=Summer offer' });
    second = await newProgram(h, { name: 'Winter offer' }, offer.accountId);
    const foreignProgram = await newProgram(h);
    const success = await verify(h, offer, {
      trackingId: '=HYPERLINK("x")',
      subject: person({ metadata: { order: 'ord-secret-991', channel: 'app' } }),
    });
    const failed = await verify(h, offer, { subject: person({ firstName: '__ERROR__' }) });
    const documents = await verify(h, offer, {
      trackingId: 'customer-7',
      subject: person({ firstName: 'REJECTED' }),
    });
    const other = await verify(h, second, {
      subject: person({ firstName: 'Ada', email: 'ada@example.com' }),
    });
    const foreign = await verify(h, foreignProgram);
    ids = {
      success: success.verificationId,
      failed: failed.verificationId,
      documents: documents.verificationId,
      other: other.verificationId,
      foreign: foreign.verificationId,
    };
    await projected(h, {
      [ids.success]: 'success',
      [ids.failed]: 'error',
      [ids.documents]: 'docUpload',
      [ids.other]: 'success',
      [ids.foreign]: 'success',
    });
  }, 120_000);

  afterAll(async () => {
    await h?.stop();
  });

  it("reports the account's verifications of the range, one row each, in start order", async () => {
    const { report, csv } = await generated();
    expect(report.kind).toBe('VERIFICATION');
    const rows = rowsOf(csv);
    expect(rows.map((r) => r.verificationId)).toEqual([ids.success, ids.failed, ids.documents, ids.other]);
    const [success, failed, documents, other] = rows;
    expect(success).toMatchObject({
      programId: offer.programId,
      programName: "'=Summer offer",
      trackingId: `'=HYPERLINK("x")`,
      segment: 'age',
      mode: 'TEST',
      currentStep: 'success',
      outcome: 'SUCCESS',
      errorIds: '',
      verificationMethod: 'INSTANT',
      metadataKeys: 'channel|order',
      conversionCount: '0',
    });
    expect(Date.parse(success!.created!)).not.toBeNaN();
    expect(success!.completed).not.toBe('');
    expect(failed).toMatchObject({ currentStep: 'error', outcome: 'ERROR', errorIds: 'simulatedError' });
    expect(documents).toMatchObject({
      currentStep: 'docUpload',
      outcome: 'DOC_UPLOAD',
      trackingId: 'customer-7',
    });
    expect(documents!.completed).toBe('');
    expect(other).toMatchObject({ programId: second.programId, programName: 'Winter offer' });
    // No personal information without asking for it.
    expect(Object.keys(success!)).not.toContain('firstName');
    for (const secret of [
      'Jane',
      'Doe',
      'jane.doe@example.com',
      'ada@example.com',
      '2000-01-31',
      'ord-secret-991',
    ])
      expect(csv).not.toContain(secret);
  });

  it('filters by program and by mode, and a range without verifications gives the header only', async () => {
    const byProgram = rowsOf((await generated({ programIds: [second.programId] })).csv);
    expect(byProgram.map((r) => r.verificationId)).toEqual([ids.other]);
    const live = await generated({ modeInclusion: LIVE });
    expect(rowsOf(live.csv)).toEqual([]);
    expect(live.csv.split('\r\n')[0]).toMatch(/^verificationId,programId,programName,/);
    const before = await generated({ startDate: '2020-01-01', endDate: '2020-12-31' });
    expect(rowsOf(before.csv)).toEqual([]);
    expect(before.report.rowCount).toBe(0);
  });

  it('includes personal information and metadata values only when asked for and allowed, and logs the access', async () => {
    const { report, csv } = await generated({
      piiIncluded: true,
      piiAllowed: true,
      piiReason: ' Audit #12 ',
    });
    const rows = rowsOf(csv);
    expect(rows[0]).toMatchObject({
      verificationId: ids.success,
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      birthDate: '2000-01-31',
      'metadata.channel': 'app',
      'metadata.order': 'ord-secret-991',
    });
    expect(rows[3]).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', 'metadata.order': '' });

    const { accesses } = await h.reports.unary('listPiiAccess', {
      accountId: offer.accountId,
      pageSize: 10,
      pageToken: '',
    });
    const mine = accesses.filter((a) => a.reportId === report.reportId);
    expect(mine.map((a) => a.action).sort()).toEqual(['DOWNLOADED', 'REQUESTED']);
    // A token of the account without the PII role gets none of it, and no access is logged.
    expect(await failure(download(h, offer.accountId, report.reportId, 'token-2', false))).toMatchObject({
      code: Status.PERMISSION_DENIED,
    });
    const again = await h.reports.unary('listPiiAccess', {
      accountId: offer.accountId,
      pageSize: 10,
      pageToken: '',
    });
    expect(again.accesses.filter((a) => a.reportId === report.reportId)).toHaveLength(2);
    expect(mine.every((a) => a.reason === 'Audit #12' && a.tokenId === 'token-1')).toBe(true);
  });

  it('refuses personal information without the PII role or without a reason, storing nothing', async () => {
    const before = await h.db('reports').count<{ count: string }[]>({ count: '*' });
    expect(await failure(create({ piiIncluded: true, piiReason: 'audit' }))).toMatchObject({
      code: Status.PERMISSION_DENIED,
    });
    expect(await failure(create({ piiIncluded: true, piiAllowed: true, piiReason: '  ' }))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      errorIds: ['invalidRequest'],
    });
    const after = await h.db('reports').count<{ count: string }[]>({ count: '*' });
    expect(after[0]!.count).toBe(before[0]!.count);
  });

  it.each([
    ['a malformed start date', { startDate: '2026-02-30' }],
    ['an end before the start', { startDate: '2026-03-02', endDate: '2026-03-01' }],
    ['more than a year', { startDate: '2024-01-01', endDate: '2025-12-31' }],
    ['another format', { format: 'XLSX' }],
    ['a malformed program id', { programIds: ['nope'] }],
  ])('refuses %s with invalidRequest', async (_name, overrides) => {
    expect(await failure(create(overrides))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      errorIds: ['invalidRequest'],
    });
  });

  it("refuses another account's program as an invalid program id", async () => {
    const foreign = await newProgram(h);
    expect(await failure(create({ programIds: [foreign.programId] }))).toMatchObject({
      code: Status.INVALID_ARGUMENT,
      errorIds: ['invalidRequest'],
    });
  });

  it("answers NOT_FOUND for another account's report, and DELETED once deleted", async () => {
    const { report } = await generated();
    const stranger = await newProgram(h);
    const other = { accountId: stranger.accountId, reportId: report.reportId };
    expect(await failure(h.reports.unary('getReportStatus', other))).toMatchObject({
      code: Status.NOT_FOUND,
    });
    expect(await failure(download(h, other.accountId, other.reportId))).toMatchObject({
      code: Status.NOT_FOUND,
    });
    expect(await failure(h.reports.unary('deleteReport', other))).toMatchObject({ code: Status.NOT_FOUND });

    const mine = { accountId: offer.accountId, reportId: report.reportId };
    const key = (await h.db('reports').where({ id: report.reportId }).first()).object_key as string;
    expect(await h.store.exists(key)).toBe(true);
    const deleted = (await h.reports.unary('deleteReport', mine)).report!;
    expect(deleted.status).toBe(ReportStatus.REPORT_STATUS_DELETED);
    expect(await h.store.exists(key)).toBe(false);
    expect((await h.reports.unary('deleteReport', mine)).report!.status).toBe(
      ReportStatus.REPORT_STATUS_DELETED,
    );
    const after = await download(h, mine.accountId, mine.reportId);
    expect(after.report.status).toBe(ReportStatus.REPORT_STATUS_DELETED);
    expect(after.csv).toBe('');
  });

  it('lists the fields by scope, with the metadata keys of the programs asked for', async () => {
    const all = (await h.reports.unary('listReportFields', { accountId: offer.accountId, programIds: [] }))
      .fieldSets;
    expect(all.map((s) => s.scope)).toEqual(['STANDARD', 'PII', 'METADATA']);
    expect(all[0]!.fields.map((f) => f.name)).toContain('conversionTotals');
    expect(all[1]!.fields.map((f) => f.name)).toContain('email');
    expect(all[2]!.fields.map((f) => f.name)).toEqual(['metadata.channel', 'metadata.order']);
    const onlySecond = await h.reports.unary('listReportFields', {
      accountId: offer.accountId,
      programIds: [second.programId],
    });
    expect(onlySecond.fieldSets[2]!.fields).toEqual([]);
    const foreign = await newProgram(h);
    for (const programIds of [['nope'], [foreign.programId]])
      expect(
        await failure(h.reports.unary('listReportFields', { accountId: offer.accountId, programIds })),
      ).toMatchObject({ code: Status.INVALID_ARGUMENT, errorIds: ['invalidRequest'] });
  });

  it('uploads a report larger than a part in parts of the size the report asks the store for', async () => {
    // Rows straight into the projection, in a range of their own: about 7 MiB of CSV, more than one 5 MiB
    // report part and less than the store's own 8 MiB, which would have sent it in one piece.
    await h.db.raw(
      `insert into reports.verification_rows
         (verification_id, account_id, program_id, segment, tracking_id, test_mode, current_step, created_at)
       select substr(md5('part-size:' || g), 1, 24), ?, ?, 'age', repeat('t', 300) || g, true, 'success',
              timestamptz '2021-03-01' + g * interval '1 second'
       from generate_series(1, 16000) g`,
      [offer.accountId, offer.programId],
    );
    const { report, csv } = await generated({ startDate: '2021-03-01', endDate: '2021-03-01' });
    expect(rowsOf(csv)).toHaveLength(16000);
    const { object_key: key } = await h.db('reports').where({ id: report.reportId }).first('object_key');
    const { size, etag } = await h.store.stat(key as string);
    expect(size).toBeGreaterThan(REPORT_PART_BYTES);
    expect(size).toBeLessThan(8 * 1024 * 1024);
    // S3 ends a multipart object's etag with its number of parts.
    expect(etag).toMatch(new RegExp(`-${Math.ceil(size / REPORT_PART_BYTES)}$`));
  });
});
