import type { programsProgramV1 } from '@eligo/proto';
import {
  failure,
  jane,
  newProgram,
  OfferType,
  ProgramMode,
  startVerification,
  type Harness,
  flowCalls,
} from './support';

/**
 * Reward-pool offers: a live success claims one code of the pool for the verification (the same one on every
 * read), the next gets another, an empty pool refuses new verifications with 409; test mode never takes
 * pool codes.
 */
describe('verification reward codes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const STEP = 'collectAgePersonalInfo';
  const adult = jane({ birthDate: '1980-01-01', postalCode: '10001', country: 'US' });
  const minor = jane({ birthDate: `${new Date().getUTCFullYear() - 18}-01-01`, postalCode: '10001' });

  /** An age program (instant decision in live mode: birth date against minAge 21) with a pool of `codes`. */
  async function poolProgram(mode: programsProgramV1.ProgramMode, codes: string[]) {
    const program = await newProgram(h.programs, {
      segment: 'age',
      minAge: 21,
      mode,
      offerType: OfferType.OFFER_TYPE_REWARD_POOL,
      rewardCode: undefined,
    });
    if (codes.length > 0) await h.programs.unary('addRewardCodes', { programId: program.programId, codes });
    return program;
  }
  const remaining = async (programId: string, accountId: string) =>
    (await h.programs.unary('getProgram', { programId, accountId })).program!.rewardCodesRemaining;
  const calls = flowCalls(() => h);
  const { start } = calls;
  const submit = (verificationId: string, s = adult) => calls.submit(verificationId, STEP, s);

  it('live: each success claims its own pool code, the same on every read, until the pool is empty', async () => {
    const pool = ['POOL-A1', 'POOL-B2'];
    const program = await poolProgram(ProgramMode.PROGRAM_MODE_LIVE, pool);
    const { programId, accountId } = program;

    // A refusal takes no code.
    const young = await start(programId);
    expect((await submit(young.verificationId, minor)).errorIds).toEqual(['underagePerson']);
    expect(await remaining(programId, accountId)).toBe(2);

    const first = await start(programId);
    const firstVr = await submit(first.verificationId);
    expect([firstVr.currentStep, pool.includes(firstVr.rewardCode!)]).toEqual(['success', true]);
    expect(await remaining(programId, accountId)).toBe(1);

    const second = await start(programId);
    const secondVr = await submit(second.verificationId);
    expect(secondVr.currentStep).toBe('success');
    expect([firstVr.rewardCode, secondVr.rewardCode].sort()).toEqual(pool);

    for (const [id, code] of [
      [first.verificationId, firstVr.rewardCode],
      [second.verificationId, secondVr.rewardCode],
    ]) {
      const read = await h.client.unary('getVerification', { verificationId: id! });
      expect(read.verification).toMatchObject({ currentStep: 'success', rewardCode: code });
      // The claim the success made is idempotent: asking again for the verification gives its code.
      const claim = await h.programs.unary('claimRewardCode', { programId, verificationId: id! });
      expect(claim.rewardCode).toBe(code);
    }
    expect(await remaining(programId, accountId)).toBe(0);

    const empty = await failure(
      h.client.unary('startVerification', {
        requestId: '',
        programId,
        trackingId: '',
        metadata: {},
        locale: '',
      }),
    );
    expect([empty.codeName, empty.errorIds]).toEqual(['FAILED_PRECONDITION', ['noRemainingRewardCodes']]);
    const oneCall = await failure(
      h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId: '',
        programId,
        trackingId: 'pool-empty',
        step: STEP,
        input: { $case: 'subject', subject: adult },
      }),
    );
    expect([oneCall.codeName, oneCall.errorIds]).toEqual(['FAILED_PRECONDITION', ['noRemainingRewardCodes']]);
    expect(await h.db('verifications').where({ program_id: programId }).count('* as n')).toEqual([
      { n: '3' },
    ]);
  });

  it('test mode: a pool offer starts with an empty pool and succeeds with a test code, taking none', async () => {
    const emptyPool = await poolProgram(ProgramMode.PROGRAM_MODE_TEST, []);
    expect((await start(emptyPool.programId)).currentStep).toBe(STEP);

    const program = await poolProgram(ProgramMode.PROGRAM_MODE_TEST, ['REAL-1']);
    const { verificationId } = await start(program.programId);
    const vr = await submit(verificationId);
    expect(vr).toMatchObject({
      currentStep: 'success',
      rewardCode: `TEST-${verificationId.slice(0, 8).toUpperCase()}`,
    });
    expect(await remaining(program.programId, program.accountId)).toBe(1);
  });
});
