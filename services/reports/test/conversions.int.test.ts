import { randomBytes } from 'node:crypto';
import { status as Status } from '@grpc/grpc-js';
import {
  download,
  failure,
  finished,
  newProgram,
  projected,
  rowsOf,
  startReports,
  today,
  verify,
  VerificationModeInclusion,
  type Harness,
  type Program,
} from './support';

const hexId = () => randomBytes(12).toString('hex');

/** Conversions recorded against verifications (by id, by the account's tracking id) and shown in reports. */
describe('conversions', () => {
  let h: Harness;
  let offer: Program;

  const record = (
    target: { verificationId: string } | { accountId: string; trackingId: string },
    body: Record<string, unknown> = {},
    accountId = '',
  ) =>
    h.reports.unary('recordConversion', {
      target:
        'verificationId' in target
          ? { $case: 'verificationId', verificationId: target.verificationId }
          : { $case: 'tracking', tracking: target },
      amount: '12.5',
      currency: '',
      tags: [],
      accountId,
      ...body,
    });

  beforeAll(async () => {
    h = await startReports();
    offer = await newProgram(h);
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('records against a verification the projection has not seen yet (asked of the verification service)', async () => {
    const { verificationId } = await verify(h, offer, { trackingId: 'order-1' });
    // At once, before the events can have reached the projection.
    const { conversionId } = await record(
      { verificationId },
      { amount: '10', currency: 'usd', tags: ['spring'] },
    );
    expect(conversionId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await h.db('conversions').where({ id: conversionId }).first();
    expect(stored).toMatchObject({
      verification_id: verificationId,
      account_id: offer.accountId,
      currency: 'USD',
    });
    expect(stored.amount).toBe('10.0000');
  });

  it('sums conversions per currency in the report, by id and by tracking id (the most recent verification)', async () => {
    const older = await verify(h, offer, { trackingId: 'cart-9' });
    const newer = await verify(h, offer, { trackingId: 'cart-9' });
    await projected(h, { [older.verificationId]: 'success', [newer.verificationId]: 'success' });
    await record({ verificationId: newer.verificationId }, { amount: '12.5', tags: ['a', 'b'] });
    await record(
      { accountId: offer.accountId, trackingId: 'cart-9' },
      { amount: '0.25', currency: 'USD', tags: ['b'] },
    );
    await record(
      { accountId: offer.accountId, trackingId: 'cart-9' },
      { amount: '3', currency: 'EUR', tags: [] },
    );

    const { report } = await h.reports.unary('createVerificationReport', {
      accountId: offer.accountId,
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
    await finished(h, offer.accountId, report!.reportId);
    const rows = rowsOf((await download(h, offer.accountId, report!.reportId)).csv);
    const row = (id: string) => rows.find((r) => r.verificationId === id);
    expect(row(newer.verificationId)).toMatchObject({
      conversionCount: '3',
      conversionTotals: 'EUR 3.00|USD 12.75',
      conversionTags: 'a|b',
    });
    expect(row(older.verificationId)).toMatchObject({ conversionCount: '0', conversionTotals: '' });
  });

  it.each([['-1'], ['abc'], [''], ['Infinity'], ['1e12']])(
    'refuses the amount %j with "Invalid amount"',
    async (amount) => {
      const { verificationId } = await verify(h, offer);
      expect(await failure(record({ verificationId }, { amount }))).toMatchObject({
        code: Status.INVALID_ARGUMENT,
        message: 'Invalid amount',
      });
    },
  );

  it('refuses an unknown currency and bad tags, storing nothing', async () => {
    const { verificationId } = await verify(h, offer);
    for (const body of [
      { currency: 'XYZ' },
      { currency: 'dollars' },
      { tags: ['x'.repeat(65)] },
      { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
    ])
      expect(await failure(record({ verificationId }, body))).toMatchObject({
        code: Status.INVALID_ARGUMENT,
      });
    expect(await h.db('conversions').where({ verification_id: verificationId })).toEqual([]);
  });

  it('answers NOT_FOUND for an unknown verification, account or tracking id, and for another account', async () => {
    const { verificationId } = await verify(h, offer, { trackingId: 'mine' });
    expect(await failure(record({ verificationId: hexId() }))).toMatchObject({
      code: Status.NOT_FOUND,
      message: 'Verification not found',
    });
    expect(await failure(record({ verificationId: 'nope' }))).toMatchObject({ code: Status.NOT_FOUND });
    expect(await failure(record({ accountId: hexId(), trackingId: 'mine' }))).toMatchObject({
      code: Status.NOT_FOUND,
      message: 'Account or tracking id not found',
    });
    expect(await failure(record({ accountId: offer.accountId, trackingId: 'unknown' }))).toMatchObject({
      code: Status.NOT_FOUND,
    });
    const stranger = await newProgram(h);
    expect(await failure(record({ verificationId }, {}, stranger.accountId))).toMatchObject({
      code: Status.NOT_FOUND,
    });
    expect((await record({ verificationId }, {}, offer.accountId)).conversionId).toBeTruthy();
  });
});
