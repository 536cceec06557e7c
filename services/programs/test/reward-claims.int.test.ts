import { setTimeout as sleep } from 'node:timers/promises';
import { status } from '@grpc/grpc-js';
import { failure, newAccount, newProgram, OfferType, startPrograms, type Harness } from './support';

/**
 * The reconciler's view of the pool: claims not yet confirmed are listed once they are older than a time,
 * a confirmed claim is kept for good, a released one goes back to the pool. Every change is idempotent.
 */
describe('reward claims', () => {
  let h: Harness;
  let accountId: string;
  beforeAll(async () => {
    h = await startPrograms();
    accountId = await newAccount(h.client);
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A pool program with `codes`. */
  async function pool(codes: string[]): Promise<string> {
    const { programId } = await newProgram(h.client, accountId, {
      offerType: OfferType.OFFER_TYPE_REWARD_POOL,
    });
    await h.client.unary('addRewardCodes', { programId, codes });
    return programId;
  }
  const claim = async (programId: string, verificationId: string) =>
    (await h.client.unary('claimRewardCode', { programId, verificationId })).rewardCode;
  const remaining = async (programId: string) =>
    (await h.client.unary('getProgram', { programId, accountId })).program!.rewardCodesRemaining;
  /** A moment after every claim made so far (the database stamps claims with its own clock). */
  const afterNow = async () => {
    await sleep(20);
    const claimedBefore = new Date();
    await sleep(20);
    return claimedBefore;
  };
  const list = async (programId: string, claimedBefore: Date, pageSize = 0, pageToken = '') =>
    h.client.unary('listUnconfirmedRewardClaims', { programId, claimedBefore, pageSize, pageToken });
  const listed = async (programId: string, claimedBefore: Date) =>
    (await list(programId, claimedBefore)).claims.map((c) => [c.verificationId, c.rewardCode]);
  const confirm = (programId: string, verificationId: string, rewardCode: string) =>
    h.client.unary('confirmRewardClaim', { programId, verificationId, rewardCode });
  const release = (programId: string, verificationId: string, rewardCode: string, claimedBefore: Date) =>
    h.client.unary('releaseRewardClaim', { programId, verificationId, rewardCode, claimedBefore });

  it('lists the unconfirmed claims made before a time, of one program or of all, page by page', async () => {
    const programId = await pool(['L1', 'L2', 'L3', 'L4']);
    const other = await pool(['O1']);
    expect(await claim(programId, 'ver-a')).toBe('L1');
    expect(await claim(programId, 'ver-b')).toBe('L2');
    expect(await claim(other, 'ver-o')).toBe('O1');
    const cutoff = await afterNow();
    expect(await claim(programId, 'ver-late')).toBe('L3'); // claimed after the cutoff

    const first = await list(programId, cutoff, 1);
    expect(first.claims).toEqual([
      { programId, verificationId: 'ver-a', rewardCode: 'L1', claimedAt: expect.any(Date) },
    ]);
    expect(first.claims[0]!.claimedAt!.getTime()).toBeLessThan(cutoff.getTime());
    const second = await list(programId, cutoff, 1, first.nextPageToken);
    expect(second.claims.map((c) => c.verificationId)).toEqual(['ver-b']);
    const last = await list(programId, cutoff, 1, second.nextPageToken);
    expect(last).toEqual({ claims: [], nextPageToken: '' });

    // Without a program: every program's claims (this suite's other tests made claims too).
    const all = await h.client.unary('listUnconfirmedRewardClaims', {
      programId: '',
      claimedBefore: cutoff,
      pageSize: 1000,
      pageToken: '',
    });
    const ours = all.claims.filter((c) => c.programId === programId || c.programId === other);
    expect(ours.map((c) => c.rewardCode)).toEqual(['L1', 'L2', 'O1']);

    // Confirmed and released claims are settled: no longer listed.
    expect(await confirm(programId, 'ver-a', 'L1')).toEqual({ confirmed: true });
    expect((await release(programId, 'ver-b', 'L2', cutoff)).released).toBe(true);
    expect(await listed(programId, await afterNow())).toEqual([['ver-late', 'L3']]);
  });

  it('releases a claim back to the pool once; the code and the verification may then claim again', async () => {
    const programId = await pool(['R1', 'R2']);
    expect(await claim(programId, 'ver-1')).toBe('R1');
    expect(await remaining(programId)).toBe(1);
    const cutoff = await afterNow();

    expect(await release(programId, 'ver-1', 'R1', cutoff)).toEqual({ released: true, remaining: 2 });
    expect(await remaining(programId)).toBe(2);
    // Releasing again changes nothing.
    expect(await release(programId, 'ver-1', 'R1', cutoff)).toEqual({ released: false, remaining: 2 });
    expect(await listed(programId, await afterNow())).toEqual([]);

    // The released code is the lowest unclaimed one again: another verification gets it.
    expect(await claim(programId, 'ver-2')).toBe('R1');
    // The released verification claims afresh, and keeps what it got on a retry.
    expect(await claim(programId, 'ver-1')).toBe('R2');
    expect(await claim(programId, 'ver-1')).toBe('R2');
    expect(await remaining(programId)).toBe(0);
    // ver-1's old code now belongs to ver-2: a stale release of it for ver-1 does nothing.
    expect((await release(programId, 'ver-1', 'R1', await afterNow())).released).toBe(false);
    expect(await claim(programId, 'ver-2')).toBe('R1');
  });

  it('never releases a confirmed claim; confirming is idempotent and needs the code the verification holds', async () => {
    const programId = await pool(['C1', 'C2']);
    expect(await claim(programId, 'ver-c')).toBe('C1');

    expect(await confirm(programId, 'ver-c', 'C2')).toEqual({ confirmed: false }); // not its code
    expect(await confirm(programId, 'ver-x', 'C1')).toEqual({ confirmed: false }); // not its verification
    expect(await confirm(programId, 'ver-c', 'C1')).toEqual({ confirmed: true });
    expect(await confirm(programId, 'ver-c', 'C1')).toEqual({ confirmed: true });

    const cutoff = await afterNow();
    expect(await release(programId, 'ver-c', 'C1', cutoff)).toEqual({ released: false, remaining: 1 });
    expect(await listed(programId, cutoff)).toEqual([]);
    expect(await claim(programId, 'ver-c')).toBe('C1');
    expect(await claim(programId, 'ver-d')).toBe('C2');

    // A released claim cannot be confirmed.
    const released = await pool(['X1']);
    expect(await claim(released, 'ver-r')).toBe('X1');
    expect((await release(released, 'ver-r', 'X1', await afterNow())).released).toBe(true);
    expect(await confirm(released, 'ver-r', 'X1')).toEqual({ confirmed: false });
    expect(await remaining(released)).toBe(1);
  });

  it('keeps a claim the verification asked for again after the given time (a success in flight)', async () => {
    const programId = await pool(['F1']);
    expect(await claim(programId, 'ver-f')).toBe('F1');
    const cutoff = await afterNow();
    // The verification is succeeding right now: its retried claim renews the claim.
    expect(await claim(programId, 'ver-f')).toBe('F1');

    expect(await listed(programId, cutoff)).toEqual([]);
    expect(await release(programId, 'ver-f', 'F1', cutoff)).toEqual({ released: false, remaining: 0 });
    expect(await listed(programId, await afterNow())).toEqual([['ver-f', 'F1']]);
  });

  it('refuses a request without claimed_before, a bad page token or an empty verification id', async () => {
    const programId = await pool(['V1']);
    for (const call of [
      () => h.client.unary('listUnconfirmedRewardClaims', { programId, pageSize: 0, pageToken: '' }),
      () => list(programId, new Date(), 0, 'not-a-token'),
      () => h.client.unary('releaseRewardClaim', { programId, verificationId: 'v', rewardCode: 'V1' }),
      () => release(programId, '', 'V1', new Date()),
      () => confirm(programId, '', 'V1'),
    ]) {
      const err = await failure(call());
      expect([err.code, err.errorIds]).toEqual([status.INVALID_ARGUMENT, ['invalidRequest']]);
    }
  });
});
