import { waitFor } from '@eligo/local-infra';
import { rewardClaimsPort } from '../src/app/ports';
import { REWARD_CLAIM_BOUND_MS, reconcileRewardClaims } from '../src/app/reward-reconcile';
import {
  flowCalls,
  jane,
  newProgram,
  OfferType,
  ProgramMode,
  startVerification,
  type Harness,
} from './support';

/**
 * A live pool code is claimed inside the success transaction: when that transaction never commits, the
 * reconciler returns the code to the pool once the claim is older than the bound; a success's code is kept.
 */
describe('reward claim reconciliation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const STEP = 'collectAgePersonalInfo';
  const adult = jane({ birthDate: '1980-01-01', postalCode: '10001', country: 'US' });
  const calls = flowCalls(() => h);

  /** A live age program (instant success for adults) with a pool of `codes`. */
  async function livePool(codes: string[]) {
    const program = await newProgram(h.programs, {
      segment: 'age',
      minAge: 21,
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      offerType: OfferType.OFFER_TYPE_REWARD_POOL,
      rewardCode: undefined,
    });
    await h.programs.unary('addRewardCodes', { programId: program.programId, codes });
    return program;
  }
  const remaining = async ({ programId, accountId }: { programId: string; accountId: string }) =>
    (await h.programs.unary('getProgram', { programId, accountId })).program!.rewardCodesRemaining;
  /** The claim a success transaction makes before it commits (or rolls back). */
  const claim = async (programId: string, verificationId: string) =>
    (await h.programs.unary('claimRewardCode', { programId, verificationId })).rewardCode;
  const step = async (verificationId: string) =>
    (await h.client.unary('getVerification', { verificationId })).verification!.currentStep;

  /** One pass as the job runs it, at `aheadMs` from now. */
  const reconcile = (aheadMs: number) =>
    reconcileRewardClaims(
      { db: h.db, now: () => new Date(Date.now() + aheadMs) },
      { claims: rewardClaimsPort(h.programs), olderThanMs: REWARD_CLAIM_BOUND_MS },
    );
  const pastBound = () => reconcile(REWARD_CLAIM_BOUND_MS + 60_000);
  const nothing = { confirmed: 0, released: 0, unknown: 0, more: false };

  it('releases the code of a verification whose success never committed, after the bound, once', async () => {
    const program = await livePool(['LOST-1', 'LOST-2']);
    const { verificationId } = await calls.start(program.programId);
    expect(await claim(program.programId, verificationId)).toBe('LOST-1');
    expect(await remaining(program)).toBe(1);

    // Within the bound the claim may belong to a success in flight: left alone.
    expect(await reconcile(0)).toEqual(nothing);
    expect(await remaining(program)).toBe(1);

    expect(await pastBound()).toEqual({ ...nothing, released: 1 });
    expect(await remaining(program)).toBe(2);
    expect(await step(verificationId)).toBe(STEP);
    expect(await pastBound()).toEqual(nothing);
    expect(await remaining(program)).toBe(2);

    // The verification may still succeed: it claims again, and that claim is kept.
    const vr = await calls.submit(verificationId, STEP, adult);
    expect(vr).toMatchObject({ currentStep: 'success', rewardCode: 'LOST-1' });
    expect(await pastBound()).toEqual({ ...nothing, confirmed: 1 });
    expect(await remaining(program)).toBe(1);
  });

  it("keeps a succeeded verification's code for good, however often it runs", async () => {
    const program = await livePool(['KEEP-1', 'KEEP-2']);
    const { verificationId } = await calls.start(program.programId);
    const vr = await calls.submit(verificationId, STEP, adult);
    expect(vr).toMatchObject({ currentStep: 'success', rewardCode: 'KEEP-1' });

    expect(await pastBound()).toEqual({ ...nothing, confirmed: 1 });
    expect(await pastBound()).toEqual(nothing);
    expect(await remaining(program)).toBe(1);
    // Confirmed: not even a direct release takes it back.
    const release = await h.programs.unary('releaseRewardClaim', {
      programId: program.programId,
      verificationId,
      rewardCode: 'KEEP-1',
      claimedBefore: new Date(Date.now() + REWARD_CLAIM_BOUND_MS),
    });
    expect(release).toEqual({ released: false, remaining: 1 });
    expect(await h.client.unary('getVerification', { verificationId })).toMatchObject({
      verification: { currentStep: 'success', rewardCode: 'KEEP-1' },
    });
  });

  it('waits for a success committing under the verification lock, and keeps its code', async () => {
    const program = await livePool(['RACE-1']);
    const { verificationId } = await calls.start(program.programId);
    // The success path: the verification locked, the code claimed, the success not yet committed.
    const trx = await h.db.transaction();
    try {
      await trx('verifications').where({ id: verificationId }).forUpdate().first();
      const code = await claim(program.programId, verificationId);
      const pass = pastBound();
      await waitFor('the reconciler to wait for the verification lock', async () => {
        const rows = (await h.db.raw(
          "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )) as { rows: unknown[] };
        return rows.rows.length > 0 ? true : undefined;
      });
      await trx('verifications')
        .where({ id: verificationId })
        .update({ current_step: 'success', reward_code: code });
      await trx.commit();
      expect(await pass).toEqual({ ...nothing, confirmed: 1 });
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect(await remaining(program)).toBe(0);
  });

  it("leaves a claim of a verification this service does not have to its owner's reconciler", async () => {
    const program = await livePool(['OTHER-1']);
    const foreign = 'f'.repeat(24);
    expect(await claim(program.programId, foreign)).toBe('OTHER-1');
    expect(await pastBound()).toEqual({ ...nothing, unknown: 1 });
    expect(await pastBound()).toEqual({ ...nothing, unknown: 1 });
    expect(await remaining(program)).toBe(0);
  });
});
