import { randomBytes } from 'node:crypto';
import type { ServiceUnderTest } from '@eligo/local-infra';
import { waitFor } from '@eligo/local-infra';
import { startAllInProcess } from '../support/in-process';
import {
  programsApi,
  unknownId,
  type IssuedToken,
  type ProgramsApi,
  type Reply,
} from '../support/programs-api';
import {
  parseCsv,
  piiColumns,
  reportsApi,
  standardColumns,
  utcDay,
  type FinishedReport,
  type ReportsApi,
} from '../support/reports-api';
import { importUniversity, verificationApi } from '../support/verification-api';

// Reports, conversions and bulk re-verification end to end through the gateway (`--target all` on the
// suite's Postgres, Kafka and MinIO): verifications made over REST in a test-mode and a live-mode program,
// conversions recorded against them, then CSV reports read from the projection the events feed, with and
// without personal information, the PII access log, report fields, tenancy, deletion, and a re-verification
// batch and its report.
const publicBase = 'https://verify.example.test';
const v2 = `${publicBase}/rest/v2`;
const HEX24 = /^[0-9a-f]{24}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** REST v2 timestamps (report and batch `created`) are epoch milliseconds, as every other one of the API. */
const epochMs = expect.any(Number);
/** Letters only: names need letters, and a value this random is found in a report only if it was copied. */
const suffix = Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');

let eligo: ServiceUnderTest;
let api: ProgramsApi;
let reports: ReportsApi;
let ownerId: string;
let otherProgramId: string;
/** REPORTER only. */
let reporter: IssuedToken;
/** REPORTER and PII. */
let piiReporter: IssuedToken;
let noRole: IssuedToken;
let bulk: IssuedToken;
let otherReporter: IssuedToken;
let otherBulk: IssuedToken;
let testProgram: { programId: string; name: string };
let liveProgram: { programId: string; name: string };
let organization: { id: number; name: string };

interface Made {
  key: string;
  live: boolean;
  firstName: string;
  lastName: string;
  email: string;
  birthDate: string;
  metadata: Record<string, string>;
  /** The step the submission ends on (test-mode triggers decide it in the test program). */
  step: 'success' | 'docUpload' | 'error';
  trackingId: string;
  verificationId: string;
}

/** What each verification is made of; filled with its ids in beforeAll. */
const made: Made[] = (
  [
    ['alice', false, `Alice${suffix}`, { crmId: `crm-${suffix}-1`, campaign: `spring-${suffix}` }, 'success'],
    ['bob', false, `Bob${suffix}`, { crmId: `crm-${suffix}-2` }, 'success'],
    ['rejected', false, 'REJECTED', { campaign: `fall-${suffix}` }, 'docUpload'],
    ['failed', false, '__ERROR__', {}, 'error'],
    ['carol', true, `Carol${suffix}`, { region: `west-${suffix}` }, 'success'],
  ] as const
).map(([key, live, firstName, metadata, step]) => ({
  key,
  live,
  firstName,
  lastName: `${key[0]!.toUpperCase()}${key.slice(1)}son${suffix}`,
  email: `${key}.${suffix}@example.test`,
  birthDate: live ? '1990-05-17' : '2000-01-31',
  metadata: { ...metadata },
  step,
  trackingId: `order-${key}-${suffix}`,
  verificationId: '',
}));
const byKey = (key: string): Made => made.find((m) => m.key === key)!;
const idsOf = (list: Made[]) => list.map((m) => m.verificationId).sort();
const inTestProgram = () => made.filter((m) => !m.live);
const inLiveProgram = () => made.filter((m) => m.live);

/** The conversions the conversion tests record, as the report shows them. */
const conversions: Record<
  string,
  { conversionCount: string; conversionTotals: string; conversionTags: string }
> = {
  alice: { conversionCount: '2', conversionTotals: 'EUR 3.00|USD 12.50', conversionTags: 'a|b' },
  carol: { conversionCount: '1', conversionTotals: 'USD 2.25', conversionTags: '' },
};
const noConversion = { conversionCount: '0', conversionTotals: '', conversionTags: '' };

/** A window around today (UTC): every verification of the suite started in it. */
const around = { startDate: utcDay(-1), endDate: utcDay(1) };

beforeAll(async () => {
  eligo = await startAllInProcess({
    ELIGO_PUBLIC_BASE_URL: publicBase,
    ELIGO_ORGANIZATIONS_SEED: 'none',
    ELIGO_REPORTS_POLL_MS: '100',
  });
  api = programsApi(eligo);
  reports = reportsApi(eligo, api);
  const flow = verificationApi(api);

  ownerId = (await api.createAccount('Reports Co')).accountId;
  reporter = await api.createToken(ownerId, 'reporter', ['REPORTER']);
  piiReporter = await api.createToken(ownerId, 'pii', ['REPORTER', 'PII']);
  noRole = await api.createToken(ownerId, 'plain');
  bulk = await api.createToken(ownerId, 'bulk', ['BULK_VERIFIER']);
  const otherId = (await api.createAccount('Other Co')).accountId;
  otherReporter = await api.createToken(otherId, 'reporter', ['REPORTER']);
  otherBulk = await api.createToken(otherId, 'bulk', ['BULK_VERIFIER']);
  otherProgramId = (await api.createProgram(otherId, { name: `Other ${suffix}` })).programId;

  // New programs start in test mode: the first name decides the outcome there.
  testProgram = await api.createProgram(ownerId, {
    name: `Reports Test ${suffix}`,
    offerType: 'staticCode',
    rewardCode: 'REPORT10',
  });
  organization = await importUniversity(api, testProgram.programId, `Reports University ${suffix}`);
  // A live age program decides by the birth date: an adult succeeds at once.
  liveProgram = await api.createProgram(ownerId, {
    name: `Reports Live ${suffix}`,
    segment: 'age',
    mode: 'live',
    minAge: 18,
  });

  for (const m of made) {
    const programId = m.live ? liveProgram.programId : testProgram.programId;
    const { verificationId } = await flow.started(programId, m.trackingId);
    const person = { firstName: m.firstName, lastName: m.lastName, birthDate: m.birthDate, email: m.email };
    const metadata = Object.keys(m.metadata).length ? { metadata: m.metadata } : {};
    const res = m.live
      ? await flow.submit(verificationId, 'collectAgePersonalInfo', {
          ...person,
          postalCode: '94105',
          country: 'US',
          ...metadata,
        })
      : await flow.submit(verificationId, 'collectStudentPersonalInfo', {
          ...person,
          organization,
          ...metadata,
        });
    if (res.body?.currentStep !== m.step)
      throw new Error(`${m.key}: expected ${m.step}, got ${res.status} ${JSON.stringify(res.body)}`);
    m.verificationId = verificationId;
  }
}, 180_000);
afterAll(async () => eligo?.stop());

/** Asserts the status, showing the body when it differs. */
const expectStatus = (reply: { status: number; body?: unknown; text?: string }, status: number) =>
  expect(`${reply.status} ${JSON.stringify(reply.body ?? reply.text)}`).toMatch(new RegExp(`^${status} `));
const sem = { systemErrorMessage: expect.any(String) };
const er = (errorId: string) => ({ errorIds: [errorId], systemErrorMessage: expect.any(String) });
const rowOf = (rows: Record<string, string>[], verificationId: string) =>
  rows.find((r) => r.verificationId === verificationId);

/** What the report shows of a verification made by the suite (standard columns). */
function expectedRow(m: Made): Record<string, unknown> {
  const program = m.live ? liveProgram : testProgram;
  const outcome = { success: 'SUCCESS', docUpload: 'DOC_UPLOAD', error: 'ERROR' }[m.step];
  return {
    verificationId: m.verificationId,
    programId: program.programId,
    programName: program.name,
    trackingId: m.trackingId,
    segment: m.live ? 'age' : 'student',
    subSegment: '',
    mode: m.live ? 'LIVE' : 'TEST',
    currentStep: m.step,
    outcome,
    errorIds: m.step === 'error' ? 'simulatedError' : '',
    metadataKeys: Object.keys(m.metadata).sort().join('|'),
    ...(conversions[m.key] ?? noConversion),
    ...(m.step === 'success' ? { verificationMethod: 'INSTANT' } : {}),
    // Only a student success names the school it was accepted for.
    ...(m.step === 'success' && !m.live
      ? { organizationId: String(organization.id), organizationName: organization.name }
      : {}),
    docUploadCount: '0',
    created: expect.stringMatching(ISO),
    lastUpdated: expect.stringMatching(ISO),
    completed: m.step === 'docUpload' ? '' : expect.stringMatching(ISO),
  };
}

/** The projection has every verification in its final step (events arrive through Kafka). */
const projected = (rows: Record<string, string>[]) =>
  made.every((m) => {
    const row = rowOf(rows, m.verificationId);
    return (
      row !== undefined &&
      row.currentStep === m.step &&
      row.programName !== '' &&
      row.metadataKeys === Object.keys(m.metadata).sort().join('|')
    );
  });
let projection: Promise<FinishedReport> | undefined;
/** A full report of the owner once the projection caught up (requested once, shared by the tests). */
const projectedReport = () =>
  (projection ??= reports.reportUntil(reporter.token, around, projected, 'every verification in a report'));

describe('conversions', () => {
  it('records a conversion by verification id and by account and tracking id, answering {id}', async () => {
    const alice = byKey('alice');
    const byId = await reports.convertVerification(alice.verificationId, {
      amount: 12.5,
      currency: 'usd',
      tags: ['a'],
    });
    expectStatus(byId, 200);
    expect(byId.body).toEqual({ id: expect.any(String) });
    expect(byId.body.id).not.toBe('');

    // By tracking id the account's own token is required.
    const byTracking = await reports.convertTracking(
      ownerId,
      alice.trackingId,
      { amount: 3, currency: 'EUR', tags: ['b'] },
      reporter.token,
    );
    expectStatus(byTracking, 200);
    expect(byTracking.body).toEqual({ id: expect.any(String) });
    expect(byTracking.body.id).not.toBe(byId.body.id);

    // No currency: USD.
    const carol = await reports.convertTracking(
      ownerId,
      byKey('carol').trackingId,
      { amount: 2.25 },
      reporter.token,
    );
    expectStatus(carol, 200);
  });

  it.each([
    ['negative', { amount: -1 }],
    ['a string', { amount: 'x', currency: 'USD' }],
    ['missing', { currency: 'USD', tags: ['a'] }],
  ])('answers 400 "Invalid amount" for an amount that is %s', async (_what, body) => {
    const alice = byKey('alice');
    for (const res of [
      await reports.convertVerification(alice.verificationId, body),
      await reports.convertTracking(ownerId, alice.trackingId, body, reporter.token),
    ])
      expect(res).toMatchObject({ status: 400, body: { systemErrorMessage: 'Invalid amount' } });
  });

  it('answers 404 SEM for an unknown verification or tracking id', async () => {
    for (const res of [
      await reports.convertVerification(unknownId, { amount: 1 }),
      await reports.convertVerification('nope', { amount: 1 }),
      await reports.convertTracking(ownerId, `no-such-order-${suffix}`, { amount: 1 }, reporter.token),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(sem);
    }
  });

  it("answers 404 to another account's token by verification id, and 401 to an invalid one", async () => {
    const alice = byKey('alice');
    const other = await reports.convertVerification(alice.verificationId, { amount: 1 }, otherReporter.token);
    expect(other).toMatchObject({ status: 404, body: sem });
    const invalid = await reports.convertVerification(alice.verificationId, { amount: 1 }, 'garbage');
    expect(invalid).toMatchObject({ status: 401, body: sem });
  });

  it("answers 401 by tracking id without the account's token, the same for an unknown account", async () => {
    const { trackingId } = byKey('alice');
    for (const res of [
      await reports.convertTracking(ownerId, trackingId, { amount: 1 }),
      await reports.convertTracking(ownerId, trackingId, { amount: 1 }, 'garbage'),
      await reports.convertTracking(ownerId, trackingId, { amount: 1 }, otherReporter.token),
      await reports.convertTracking(unknownId, trackingId, { amount: 1 }, otherReporter.token),
    ])
      expect(res).toMatchObject({ status: 401, body: sem });
  });
});

describe('POST /report/verification', () => {
  it('answers 401 without a token and 403 to a token without the REPORTER role', async () => {
    const anonymous = await reports.requestReport(undefined, around);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ systemErrorMessage: expect.stringMatching(/token/i) });
    for (const token of [noRole, bulk]) {
      const res = await reports.requestReport(token.token, around);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(sem);
    }
  });

  it('refuses dates that are missing, malformed or in the wrong order with 400', async () => {
    for (const body of [
      { startDate: utcDay(0) },
      { ...around, startDate: '2026-02-30' },
      { startDate: utcDay(0), endDate: utcDay(-1) },
    ]) {
      const res = await reports.requestReport(reporter.token, body);
      expectStatus(res, 400);
      expect(res.body.systemErrorMessage).toEqual(expect.any(String));
    }
  });

  it('answers 202 PENDING, COMPLETE at statusUrl, then the CSV at retrievalUrl', async () => {
    const res = await reports.requestReport(reporter.token, around);
    expectStatus(res, 202);
    const id = res.body.id as string;
    expect(res.body).toEqual({
      id: expect.stringMatching(HEX24),
      status: 'PENDING',
      statusUrl: `${v2}/report/${id}/status`,
      retrievalUrl: null,
      created: epochMs,
    });

    const done = await waitFor('the report COMPLETE at its statusUrl', async () => {
      const status = await reports.follow('GET', res.body.statusUrl, { token: reporter.token });
      expectStatus(status, 200);
      expect(['PENDING', 'COMPLETE']).toContain(status.body.status);
      return status.body.status === 'COMPLETE' ? status.body : undefined;
    });
    expect(done).toEqual({ ...res.body, status: 'COMPLETE', retrievalUrl: `${v2}/report/${id}` });

    const got = await reports.download(reporter.token, id);
    expectStatus(got, 200);
    expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="report-${id}.csv"`);
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(parseCsv(got.text).header).toEqual(standardColumns);
  });

  it('reports every verification of the account with its step, outcome, metadata keys and conversions', async () => {
    const { header, rows } = await projectedReport();
    expect(header).toEqual(standardColumns);
    // The account's verifications, each once, and nothing else.
    expect(rows.map((r) => r.verificationId).sort()).toEqual(idsOf(made));
    for (const m of made)
      expect({ key: m.key, ...rowOf(rows, m.verificationId) }).toMatchObject({
        key: m.key,
        ...expectedRow(m),
      });
    // In the order they started.
    const started = rows.map((r) => r.created);
    expect(started).toEqual([...started].sort());
  }, 90_000);

  it('leaves out verifications outside the dates: a window without today has only the header', async () => {
    await projectedReport();
    const past = await reports.report(reporter.token, { startDate: utcDay(-30), endDate: utcDay(-2) });
    expect(past.rows).toEqual([]);
    expect(past.header).toEqual(standardColumns);
    expect(past.text.trim()).toBe(standardColumns.join(','));
  }, 90_000);

  it('keeps to the programIds asked for', async () => {
    await projectedReport();
    const test = await reports.report(reporter.token, { ...around, programIds: [testProgram.programId] });
    expect(test.rows.map((r) => r.verificationId).sort()).toEqual(idsOf(inTestProgram()));
    const live = await reports.report(reporter.token, { ...around, programIds: [liveProgram.programId] });
    expect(live.rows.map((r) => r.verificationId)).toEqual(idsOf(inLiveProgram()));
    const both = await reports.report(reporter.token, {
      ...around,
      programIds: [liveProgram.programId, testProgram.programId],
    });
    expect(both.rows.map((r) => r.verificationId).sort()).toEqual(idsOf(made));
  }, 90_000);

  it('keeps to test-mode or live-mode verifications with verificationModeInclusion', async () => {
    await projectedReport();
    const test = await reports.report(reporter.token, { ...around, verificationModeInclusion: 'TEST' });
    expect(test.rows.map((r) => r.verificationId).sort()).toEqual(idsOf(inTestProgram()));
    expect(new Set(test.rows.map((r) => r.mode))).toEqual(new Set(['TEST']));
    const live = await reports.report(reporter.token, { ...around, verificationModeInclusion: 'LIVE' });
    expect(live.rows.map((r) => r.verificationId)).toEqual(idsOf(inLiveProgram()));
    expect(live.rows.map((r) => r.mode)).toEqual(['LIVE']);
    const all = await reports.report(reporter.token, { ...around, verificationModeInclusion: 'ALL' });
    expect(all.rows.map((r) => r.verificationId).sort()).toEqual(idsOf(made));
  }, 90_000);

  it('answers GET /report/{id} right after the request with 202 PENDING or 200, never anything else', async () => {
    const res = await reports.requestReport(reporter.token, around);
    expectStatus(res, 202);
    const id = res.body.id as string;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const got = await reports.download(reporter.token, id);
      expect([200, 202]).toContain(got.status);
      if (got.status === 200) {
        expect(got.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        expect(parseCsv(got.text).header).toEqual(standardColumns);
        break;
      }
      expect(got.body).toEqual({
        id,
        status: 'PENDING',
        statusUrl: `${v2}/report/${id}/status`,
        retrievalUrl: null,
        created: res.body.created,
      });
      if (Date.now() > deadline) throw new Error(`report ${id} still 202 after 60 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});

describe('personal information', () => {
  const piiAccessOf = async (reportId: string) => {
    const res = await api.admin('GET', `/pii-access?accountId=${ownerId}`);
    expectStatus(res, 200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (res.body.accesses as { reportId: string; action: string }[]).filter(
      (a) => a.reportId === reportId,
    );
  };
  /** What a report without personal information must never hold: the suite's names, emails and values. */
  const secrets = () =>
    made.flatMap((m) => [
      // The test triggers are words a report shows anyway (reviewOutcome REJECTED).
      ...(m.firstName === 'REJECTED' || m.firstName === '__ERROR__' ? [] : [m.firstName]),
      m.lastName,
      m.email,
      m.birthDate,
      ...Object.values(m.metadata),
    ]);

  it('answers 403 to a token without the PII role, and 400 without a reason', async () => {
    const denied = await reports.requestReport(reporter.token, {
      ...around,
      isPiiIncluded: true,
      piiReason: 'Audit',
    });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(sem);
    for (const reason of [{ piiReason: '' }, { piiReason: '   ' }, {}]) {
      const res = await reports.requestReport(piiReporter.token, {
        ...around,
        isPiiIncluded: true,
        ...reason,
      });
      expectStatus(res, 400);
      expect(res.body.systemErrorMessage).toEqual(expect.any(String));
    }
  });

  it('adds the names, emails and metadata values submitted, and logs the request and the download', async () => {
    await projectedReport();
    const piiReason = `Chargeback dispute ${suffix}`;
    const res = await reports.requestReport(piiReporter.token, { ...around, isPiiIncluded: true, piiReason });
    expectStatus(res, 202);
    const id = res.body.id as string;
    const requested = {
      id: expect.any(String),
      accountId: ownerId,
      tokenId: piiReporter.tokenId,
      reportId: id,
      action: 'REQUESTED',
      reason: piiReason,
      occurredAt: expect.stringMatching(ISO),
    };
    expect(await piiAccessOf(id)).toEqual([requested]);

    await reports.waitComplete(piiReporter.token, id);
    // Generating it is not a download.
    expect(await piiAccessOf(id)).toEqual([requested]);
    const { header, rows } = await reports.fetchCsv(piiReporter.token, id);
    const metadataColumns = ['metadata.campaign', 'metadata.crmId', 'metadata.region'];
    expect(header).toEqual([...standardColumns, ...piiColumns, ...metadataColumns]);
    expect(rows.map((r) => r.verificationId).sort()).toEqual(idsOf(made));
    for (const m of made) {
      const row = rowOf(rows, m.verificationId)!;
      expect({ key: m.key, ...row }).toMatchObject({
        key: m.key,
        ...expectedRow(m),
        firstName: m.firstName,
        lastName: m.lastName,
        email: m.email,
        birthDate: m.birthDate,
        ...(m.live ? { postalCode: '94105', country: 'US' } : {}),
        ...Object.fromEntries(metadataColumns.map((c) => [c, m.metadata[c.slice('metadata.'.length)] ?? ''])),
      });
    }

    const log = await piiAccessOf(id);
    expect(log).toHaveLength(2);
    expect(log).toContainEqual(requested);
    expect(log).toContainEqual({
      ...requested,
      action: 'DOWNLOADED',
      occurredAt: expect.stringMatching(ISO),
    });
  }, 90_000);

  it('has no PII column, and none of the names, emails or metadata values, in a report without it', async () => {
    const { id, header, text } = await projectedReport();
    expect(header).toEqual(standardColumns);
    for (const secret of secrets()) expect(text).not.toContain(secret);
    // The PII token without isPiiIncluded gets the same columns.
    const plain = await reports.report(piiReporter.token, around);
    expect(plain.header).toEqual(standardColumns);
    for (const secret of secrets()) expect(plain.text).not.toContain(secret);
    // Neither report is in the PII access log.
    expect(await piiAccessOf(id)).toEqual([]);
    expect(await piiAccessOf(plain.id)).toEqual([]);
  }, 90_000);

  it("does not hand a report's personal information to a token of the account without the PII role", async () => {
    await projectedReport();
    const piiReason = `Fraud review ${suffix}`;
    const res = await reports.requestReport(piiReporter.token, { ...around, isPiiIncluded: true, piiReason });
    expectStatus(res, 202);
    const id = res.body.id as string;
    await reports.waitComplete(piiReporter.token, id);
    // The status holds no personal information: any REPORTER token of the account may read it.
    expect((await reports.status(reporter.token, id)).body).toMatchObject({ id, status: 'COMPLETE' });
    // The data does: without the PII role, refused as the request would have been, and nothing logged.
    const got = await reports.download(reporter.token, id);
    expectStatus(got, 403);
    expect(got.body).toEqual(sem);
    for (const secret of secrets()) expect(got.text).not.toContain(secret);
    expect((await piiAccessOf(id)).map((a) => a.action)).toEqual(['REQUESTED']);
  }, 90_000);

  it('keeps the PII access log to the operator', async () => {
    expect((await api.admin('GET', '/pii-access', { token: piiReporter.token })).status).toBe(401);
    expect((await api.admin('GET', '/pii-access', { token: undefined })).status).toBe(401);
  });
});

describe('GET /report/fields', () => {
  const names = (res: Reply, scope: string) =>
    (res.body as { scope: string; fields: { name: string }[] }[])
      .find((s) => s.scope === scope)
      ?.fields.map((f) => f.name);

  it('answers 401 without a token and 403 without the REPORTER role', async () => {
    expect(await reports.fields(undefined)).toMatchObject({ status: 401, body: sem });
    expect(await reports.fields(noRole.token)).toMatchObject({ status: 403, body: sem });
  });

  it('lists the STANDARD, PII and METADATA columns, the metadata keys of the programs asked for', async () => {
    const all = await waitFor('every metadata key in the fields', async () => {
      const res = await reports.fields(reporter.token);
      expectStatus(res, 200);
      return names(res, 'METADATA')?.length === 3 ? res : undefined;
    });
    expect(all.body).toEqual([
      {
        scope: 'STANDARD',
        fields: standardColumns.map((name) => ({ name, description: expect.any(String) })),
      },
      { scope: 'PII', fields: piiColumns.map((name) => ({ name, description: expect.any(String) })) },
      {
        scope: 'METADATA',
        fields: ['metadata.campaign', 'metadata.crmId', 'metadata.region'].map((name) => ({
          name,
          description: expect.any(String),
        })),
      },
    ]);

    const test = await reports.fields(reporter.token, [testProgram.programId]);
    expectStatus(test, 200);
    expect(names(test, 'STANDARD')).toEqual(standardColumns);
    expect(names(test, 'PII')).toEqual(piiColumns);
    expect(names(test, 'METADATA')).toEqual(['metadata.campaign', 'metadata.crmId']);
    const live = await reports.fields(reporter.token, [liveProgram.programId]);
    expect(names(live, 'METADATA')).toEqual(['metadata.region']);
    const both = await reports.fields(reporter.token, [testProgram.programId, liveProgram.programId]);
    expect(names(both, 'METADATA')).toEqual(['metadata.campaign', 'metadata.crmId', 'metadata.region']);
  }, 90_000);

  it.each([
    ['a malformed program id', () => ['nope']],
    ['an unknown program id', () => [unknownId]],
    ["another account's program id", () => [otherProgramId]],
    ['one bad id among good ones', () => [testProgram.programId, otherProgramId]],
  ])('answers 400 invalidRequest for %s', async (_what, programIds) => {
    expect(await reports.fields(reporter.token, programIds())).toMatchObject({
      status: 400,
      body: er('invalidRequest'),
    });
  });
});

describe('tenancy and deletion', () => {
  it("answers 404 to another account's token for a report, as for an unknown one", async () => {
    const { id } = await reports.report(reporter.token, around);
    for (const res of [
      await reports.status(otherReporter.token, id),
      await reports.download(otherReporter.token, id),
      await reports.remove(otherReporter.token, id),
      await reports.status(reporter.token, unknownId),
      await reports.download(reporter.token, unknownId),
      await reports.status(reporter.token, 'nope'),
      await reports.download(reporter.token, 'nope'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(sem);
    }
    // The other account's DELETE changed nothing.
    expect((await reports.download(reporter.token, id)).status).toBe(200);
  });

  it("gives another account none of the account's verifications, and refuses its programs", async () => {
    await projectedReport();
    const other = await reports.report(otherReporter.token, around);
    expect(other.rows).toEqual([]);
    const refused = await reports.requestReport(otherReporter.token, {
      ...around,
      programIds: [testProgram.programId],
    });
    expect(refused).toMatchObject({ status: 400, body: er('invalidRequest') });
  }, 90_000);

  it('deletes a report: GET and its status answer 410, and DELETE again answers DELETED', async () => {
    const { id, status } = await reports.report(reporter.token, around);
    const deleted = await reports.remove(reporter.token, id);
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ ...status, status: 'DELETED', retrievalUrl: null });
    const gone = await reports.download(reporter.token, id);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(sem);
    const after = await reports.status(reporter.token, id);
    expect(after).toMatchObject({ status: 410, body: sem });
    expect(await reports.remove(reporter.token, id)).toMatchObject({
      status: 200,
      body: { status: 'DELETED' },
    });
  });
});

describe('bulk re-verification', () => {
  it('answers 401 without a token and 403 to a token without the BULK_VERIFIER role', async () => {
    const body = { programId: testProgram.programId, verificationIds: [byKey('alice').verificationId] };
    expect(await reports.reverify(undefined, body)).toMatchObject({ status: 401, body: sem });
    for (const token of [reporter, noRole])
      expect(await reports.reverify(token.token, body)).toMatchObject({ status: 403, body: sem });
  });

  it("answers 404 for another account's program or an unknown one, and 400 for an empty list", async () => {
    const ids = [byKey('alice').verificationId];
    for (const programId of [otherProgramId, unknownId]) {
      const res = await reports.reverify(bulk.token, { programId, verificationIds: ids });
      expect(res.status).toBe(404);
      expect(res.body.systemErrorMessage).toEqual(expect.any(String));
    }
    const empty = await reports.reverify(bulk.token, {
      programId: testProgram.programId,
      verificationIds: [],
    });
    expect(empty.status).toBe(400);
  });

  it('re-verifies every id of the batch once, and reports each with its outcome', async () => {
    const unknown = randomBytes(12).toString('hex');
    // The program's verifications, an id nobody issued, and a verification of another program.
    const items: [string, string][] = [
      [byKey('alice').verificationId, 'ELIGIBLE'],
      [byKey('bob').verificationId, 'ELIGIBLE'],
      [byKey('rejected').verificationId, 'NEEDS_REVIEW'],
      [byKey('failed').verificationId, 'INELIGIBLE'],
      [unknown, 'NOT_FOUND'],
      [byKey('carol').verificationId, 'NOT_FOUND'],
    ];
    const started = await reports.reverify(bulk.token, {
      programId: testProgram.programId,
      verificationIds: items.map(([id]) => id),
    });
    expectStatus(started, 202);
    const batchId = started.body.batchId as string;
    expect(started.body).toEqual({
      batchId: expect.stringMatching(HEX24),
      statusUrl: `${v2}/verification/reverify/${batchId}`,
      reportUrl: `${v2}/report/reverify/${batchId}`,
    });

    const seen: { totalRecords: number; recordsProcessed: number }[] = [];
    const done = await reports.waitBatchComplete(bulk.token, started.body.statusUrl, 60_000, (b) =>
      seen.push(b),
    );
    expect(done).toEqual({
      batchId,
      created: epochMs,
      status: 'COMPLETE',
      totalRecords: items.length,
      recordsProcessed: items.length,
    });
    for (const b of seen) {
      expect(b.totalRecords).toBe(items.length);
      expect(b.recordsProcessed).toBeLessThanOrEqual(items.length);
    }

    // The batch is the account's, and its status needs the BULK_VERIFIER role.
    expect(await reports.follow('GET', started.body.statusUrl, { token: otherBulk.token })).toMatchObject({
      status: 404,
      body: sem,
    });
    expect(await reports.follow('GET', started.body.statusUrl, { token: reporter.token })).toMatchObject({
      status: 403,
      body: sem,
    });
    // Its report needs the REPORTER role, of the same account.
    expect(await reports.follow('POST', started.body.reportUrl, { token: bulk.token })).toMatchObject({
      status: 403,
      body: sem,
    });
    expect(
      await reports.follow('POST', started.body.reportUrl, { token: otherReporter.token }),
    ).toMatchObject({
      status: 404,
      body: sem,
    });

    const reportRequest = await reports.follow('POST', started.body.reportUrl, { token: reporter.token });
    expectStatus(reportRequest, 202);
    const reportId = reportRequest.body.id as string;
    expect(reportRequest.body).toEqual({
      id: expect.stringMatching(HEX24),
      status: 'PENDING',
      statusUrl: `${v2}/report/${reportId}/status`,
      retrievalUrl: null,
      created: epochMs,
    });
    await reports.waitComplete(reporter.token, reportId);
    const { header, rows } = await reports.fetchCsv(reporter.token, reportId);
    expect(header.slice(0, 6)).toEqual([
      'batchId',
      'verificationId',
      'reverifyOutcome',
      'reverifyErrorIds',
      'reverifyOrganizationId',
      'processed',
    ]);
    // One row per id, in the order asked for.
    expect(rows.map((r) => [r.verificationId, r.reverifyOutcome])).toEqual(items);
    for (const row of rows) {
      expect(row.batchId).toBe(batchId);
      expect(row.processed).toMatch(ISO);
    }
    expect(rowOf(rows, byKey('failed').verificationId)!.reverifyErrorIds).toBe('simulatedError');
    expect(rowOf(rows, byKey('alice').verificationId)).toMatchObject({
      reverifyErrorIds: '',
      programId: testProgram.programId,
    });
    expect(rowOf(rows, unknown)).toMatchObject({ reverifyErrorIds: '', programId: '', trackingId: '' });
  }, 90_000);
});
