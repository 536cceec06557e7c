import { status } from '@grpc/grpc-js';
import { failure, newAccount, newProgram, OfferType, startPrograms, type Harness } from './support';

/** GetRewardCodePoolLevel: the pool as the staff console shows it, and when it runs low. */
describe('GetRewardCodePoolLevel', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const level = (programId: string, account = accountId) =>
    h.client.unary('getRewardCodePoolLevel', { programId, accountId: account });
  const codes = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const pool = async () =>
    (await newProgram(h.client, accountId, { offerType: OfferType.OFFER_TYPE_REWARD_POOL })).programId;

  it('counts the codes as they are added, claimed, confirmed and released, and says when the pool is low', async () => {
    const programId = await pool();
    // Never filled: empty, hence low (ClaimRewardCode would answer noRemainingRewardCodes).
    expect(await level(programId)).toEqual({
      pooled: true,
      total: 0,
      unused: 0,
      claimed: 0,
      low: true,
      lowThreshold: 1,
    });

    await h.client.unary('addRewardCodes', { programId, codes: codes(20, 'L') });
    expect(await level(programId)).toEqual({
      pooled: true,
      total: 20,
      unused: 20,
      claimed: 0,
      low: false,
      lowThreshold: 2,
    });

    for (let i = 0; i < 18; i++)
      await h.client.unary('claimRewardCode', { programId, verificationId: `v${i}` });
    // 2 left of 20: exactly 10%, not below it.
    expect(await level(programId)).toMatchObject({ total: 20, unused: 2, claimed: 18, low: false });
    const { rewardCode } = await h.client.unary('claimRewardCode', { programId, verificationId: 'v18' });
    expect(await level(programId)).toMatchObject({ total: 20, unused: 1, claimed: 19, low: true });
    // A confirmed claim stays claimed; a released one is unused again.
    await h.client.unary('confirmRewardClaim', { programId, verificationId: 'v0', rewardCode: 'L-0' });
    await h.client.unary('releaseRewardClaim', {
      programId,
      verificationId: 'v18',
      rewardCode,
      claimedBefore: new Date(Date.now() + 60_000),
    });
    expect(await level(programId)).toMatchObject({ total: 20, unused: 2, claimed: 18, low: false });

    // unused agrees with what GetProgram shows as remaining.
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.rewardCodesRemaining).toBe(2);
  });

  it('caps the threshold at 50 codes for a large pool', async () => {
    const programId = await pool();
    await h.client.unary('addRewardCodes', { programId, codes: codes(1000, 'BIG') });
    expect(await level(programId)).toMatchObject({ total: 1000, unused: 1000, low: false, lowThreshold: 50 });
  });

  it('answers not pooled, all 0 and never low, for a static-code or no-code program (even with codes)', async () => {
    const staticProgram = await newProgram(h.client, accountId, {
      offerType: OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'STATIC-1',
    });
    await h.client.unary('addRewardCodes', { programId: staticProgram.programId, codes: ['UNUSED-1'] });
    const noCode = await newProgram(h.client, accountId);
    const none = { pooled: false, total: 0, unused: 0, claimed: 0, low: false, lowThreshold: 0 };
    expect(await level(staticProgram.programId)).toEqual(none);
    expect(await level(noCode.programId)).toEqual(none);
  });

  it('answers an operator (no account) for any program, and NOT_FOUND noProgram otherwise', async () => {
    const programId = await pool();
    expect((await level(programId, '')).pooled).toBe(true);
    const other = await newAccount(h.client, 'Other');
    for (const [id, account] of [
      [programId, other],
      ['0123456789abcdef01234567', ''],
      ['not-an-id', ''],
    ] as const) {
      const err = await failure(level(id, account));
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
  });
});
