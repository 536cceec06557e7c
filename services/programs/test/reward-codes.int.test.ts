import { status } from '@grpc/grpc-js';
import {
  failure,
  newAccount,
  newProgram,
  OfferType,
  outboxEvents,
  startPrograms,
  type Harness,
} from './support';

describe('reward codes', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const poolProgram = () => newProgram(h.client, accountId, { offerType: OfferType.OFFER_TYPE_REWARD_POOL });
  const codes = (n: number, prefix = 'CODE') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  it('adds trimmed unique codes, skips those already in the pool, and reports the pool size', async () => {
    const { programId } = await poolProgram();
    const first = await h.client.unary('addRewardCodes', { programId, codes: [' A1 ', 'A2', 'A1', 'A3'] });
    expect(first).toEqual({ added: 3, remaining: 3 });
    const second = await h.client.unary('addRewardCodes', { programId, codes: ['A2', 'A3', 'A4'] });
    expect(second).toEqual({ added: 1, remaining: 4 });
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.rewardCodesRemaining).toBe(4);
    const types = (await outboxEvents(h.db, programId)).map((e) => e.type.split('.').pop());
    expect(types).toEqual(['ProgramCreated', 'ProgramUpdated', 'ProgramUpdated']);
  });

  it('accepts 10000 codes in one call and refuses 10001', async () => {
    const { programId } = await poolProgram();
    expect(await h.client.unary('addRewardCodes', { programId, codes: codes(10_000) })).toEqual({
      added: 10_000,
      remaining: 10_000,
    });
    const err = await failure(h.client.unary('addRewardCodes', { programId, codes: codes(10_001, 'MORE') }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
    expect(err.message).toBe('codes: at most 10000 codes per call (got 10001)');
  });

  it.each([
    ['no codes', [], 'codes: at least one code is required'],
    ['a code with a space', ['OK', 'NOT OK'], 'codes[1]: must not contain whitespace or control characters'],
    ['a blank code', ['  '], 'codes[0]: must not be empty'],
    ['a code over 128 characters', ['x'.repeat(129)], 'codes[0]: must be at most 128 characters'],
  ])('refuses %s and adds none of the others', async (_case, batch, message) => {
    const { programId } = await poolProgram();
    const err = await failure(h.client.unary('addRewardCodes', { programId, codes: batch }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.message).toBe(message);
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.rewardCodesRemaining).toBe(0);
  });

  it('answers NOT_FOUND noProgram for an unknown program', async () => {
    for (const call of [
      () => h.client.unary('addRewardCodes', { programId: '0123456789abcdef01234567', codes: ['A'] }),
      () => h.client.unary('claimRewardCode', { programId: 'bad', verificationId: 'v1' }),
    ]) {
      const err = await failure(call());
      expect(err.code).toBe(status.NOT_FOUND);
      expect(err.errorIds).toEqual(['noProgram']);
    }
  });

  it('claims the static code, or nothing for a no-code offer, without touching a pool', async () => {
    const staticProgram = await newProgram(h.client, accountId, {
      offerType: OfferType.OFFER_TYPE_STATIC_CODE,
      rewardCode: 'STATIC-1',
    });
    await h.client.unary('addRewardCodes', { programId: staticProgram.programId, codes: ['POOLED'] });
    expect(
      await h.client.unary('claimRewardCode', { programId: staticProgram.programId, verificationId: 'v1' }),
    ).toEqual({ rewardCode: 'STATIC-1', remaining: 0 });
    const noCode = await newProgram(h.client, accountId);
    expect(
      await h.client.unary('claimRewardCode', { programId: noCode.programId, verificationId: 'v1' }),
    ).toEqual({
      rewardCode: '',
      remaining: 0,
    });
    const { program } = await h.client.unary('getProgram', {
      programId: staticProgram.programId,
      accountId: '',
    });
    expect(program!.rewardCodesRemaining).toBe(0); // not a pool offer
  });

  it('hands the same code to the same verification again, without using another', async () => {
    const { programId } = await poolProgram();
    await h.client.unary('addRewardCodes', { programId, codes: ['P1', 'P2', 'P3'] });
    const first = await h.client.unary('claimRewardCode', { programId, verificationId: 'ver-1' });
    expect(first).toEqual({ rewardCode: 'P1', remaining: 2 });
    const again = await h.client.unary('claimRewardCode', { programId, verificationId: 'ver-1' });
    expect(again).toEqual(first);
    const other = await h.client.unary('claimRewardCode', { programId, verificationId: 'ver-2' });
    expect(other).toEqual({ rewardCode: 'P2', remaining: 1 });
    const before = (await outboxEvents(h.db, programId)).length;
    expect(before).toBe(2); // claims emit no events
  });

  it('answers FAILED_PRECONDITION noRemainingRewardCodes when the pool is empty (the gateway says 409)', async () => {
    const { programId } = await poolProgram();
    const err = await failure(h.client.unary('claimRewardCode', { programId, verificationId: 'v' }));
    expect(err.code).toBe(status.FAILED_PRECONDITION);
    expect(err.errorIds).toEqual(['noRemainingRewardCodes']);
    expect(err.message).toBe('No reward codes remaining');
  });

  it.each([
    ['empty', ''],
    ['longer than 64 characters', 'v'.repeat(65)],
  ])('refuses a verification id that is %s', async (_case, verificationId) => {
    const { programId } = await poolProgram();
    const err = await failure(h.client.unary('claimRewardCode', { programId, verificationId }));
    expect(err.code).toBe(status.INVALID_ARGUMENT);
    expect(err.errorIds).toEqual(['invalidRequest']);
  });

  it('hands each of 100 codes out exactly once to 200 concurrent claims; the other 100 find none', async () => {
    const { programId } = await poolProgram();
    const pool = codes(100, 'RACE');
    await h.client.unary('addRewardCodes', { programId, codes: pool });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        h.client.unary('claimRewardCode', { programId, verificationId: `verification-${i}` }),
      ),
    );
    const claimed = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.rewardCode] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(claimed).toHaveLength(100);
    expect(new Set(claimed)).toEqual(new Set(pool));
    expect(refused).toHaveLength(100);
    for (const reason of refused) {
      const err = await failure(Promise.reject(reason));
      expect({ code: err.code, errorIds: err.errorIds }).toEqual({
        code: status.FAILED_PRECONDITION,
        errorIds: ['noRemainingRewardCodes'],
      });
    }
    const rows = (await h.db
      .withSchema('programs')
      .table('reward_codes')
      .where({ program_id: programId })
      .select('code', 'claimed_by')) as { code: string; claimed_by: string | null }[];
    expect(rows.every((r) => r.claimed_by !== null)).toBe(true);
    expect(new Set(rows.map((r) => r.claimed_by)).size).toBe(100);
    const { program } = await h.client.unary('getProgram', { programId, accountId });
    expect(program!.rewardCodesRemaining).toBe(0);
  });

  it('gives one code to a verification that claims concurrently with itself', async () => {
    const { programId } = await poolProgram();
    await h.client.unary('addRewardCodes', { programId, codes: codes(20, 'SELF') });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        h.client.unary('claimRewardCode', { programId, verificationId: 'same' }),
      ),
    );
    expect(new Set(results.map((r) => r.rewardCode)).size).toBe(1);
    const [row] = (await h.db
      .withSchema('programs')
      .table('reward_codes')
      .where({ program_id: programId })
      .whereNotNull('claimed_by')
      .count({ n: '*' })) as { n: string }[];
    expect(Number(row!.n)).toBe(1);
  });
});
