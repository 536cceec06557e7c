import type { programsProgramV1 } from '@eligo/proto';
import { failure, flowCalls, jane, newProgram, startVerification, type Harness } from './support';

/**
 * A program with require_account_token_to_create admits new verifications only from a caller acting for its
 * account (caller_account_id, the account of the token the gateway authenticated): StartVerification and the
 * program path shape of SubmitPersonalInfo alike. Anyone else is UNAUTHENTICATED, with the body of a missing
 * or invalid token (the gateway's 401), before anything is judged or stored.
 */
describe('programs that require an account token to create verifications', () => {
  let h: Harness;
  let strict: programsProgramV1.Program;
  let open: programsProgramV1.Program;
  let otherAccountId: string;
  const calls = flowCalls(() => h);

  beforeAll(async () => {
    h = await startVerification();
    strict = await newProgram(h.programs, { segment: 'age', requireAccountTokenToCreate: true });
    open = await newProgram(h.programs, { segment: 'age' });
    otherAccountId = (await newProgram(h.programs, { segment: 'age' })).accountId;
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  const start = (programId: string, callerAccountId?: string) =>
    h.client.unary('startVerification', {
      programId,
      trackingId: '',
      requestId: '',
      metadata: {},
      locale: '',
      callerAccountId,
    });
  const startAndSubmit = (programId: string, callerAccountId?: string, step = 'collectAgePersonalInfo') =>
    h.client.unary('submitPersonalInfo', {
      verificationId: '',
      programId,
      trackingId: '',
      step,
      input: { $case: 'subject', subject: jane() },
      requestId: '',
      callerAccountId,
    });
  const storedOf = async (programId: string) =>
    Number(
      (
        (await h.db('verifications').where({ program_id: programId }).count('* as n').first()) as {
          n: string;
        }
      ).n,
    );
  const refused = { codeName: 'UNAUTHENTICATED', message: 'Access token is empty or invalid' };

  it.each([
    ['no caller', undefined],
    ['an empty caller', ''],
    ['a caller of another account', 'other'],
  ])('refuses both creation paths to %s, storing nothing', async (_name, caller) => {
    const callerAccountId = caller === 'other' ? otherAccountId : caller;
    expect(await failure(start(strict.programId, callerAccountId))).toMatchObject(refused);
    expect(await failure(startAndSubmit(strict.programId, callerAccountId))).toMatchObject(refused);
    expect(await storedOf(strict.programId)).toBe(0);
  });

  it('refuses before judging the request: a wrong step is still UNAUTHENTICATED', async () => {
    expect(await failure(startAndSubmit(strict.programId, '', 'collectStudentPersonalInfo'))).toMatchObject(
      refused,
    );
  });

  it("creates for a caller of the program's account, on both paths, and the flow goes on by id", async () => {
    const { verification } = await start(strict.programId, strict.accountId);
    expect(verification!.currentStep).toBe('collectAgePersonalInfo');
    // Steps of an existing verification need no caller: the verification id is the capability.
    expect((await calls.submit(verification!.verificationId, 'collectAgePersonalInfo')).currentStep).toBe(
      'success',
    );
    const submitted = await startAndSubmit(strict.programId, strict.accountId);
    expect(submitted.verification!.currentStep).toBe('success');
  });

  it('leaves a program without the setting open to anyone', async () => {
    expect((await start(open.programId)).verification!.currentStep).toBe('collectAgePersonalInfo');
    expect((await startAndSubmit(open.programId, otherAccountId)).verification!.currentStep).toBe('success');
  });
});
