import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { failure, flowCalls, newProgram, startVerification, type Harness } from './support';
import { nowSeconds, signSubjectToken } from './subject-tokens';

/**
 * The claims of a subject token (issue 18): exp and iat (a bounded lifetime), aud (the program id), and a jti
 * a program takes once while the token lives. Through the program path shape (the marketplace token) and
 * the verification path.
 */
describe('subject token claims', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const { start } = flowCalls(() => h);
  const STEP = 'collectAgePersonalInfo';
  const person = { firstName: 'Jane', lastName: 'Doe', birthDate: '1980-01-31', email: 'jane@example.com' };
  /** An age program that takes subject tokens, and its partner's signer (`claims` overrides the valid ones). */
  const keyed = async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA');
    const program = await newProgram(h.programs, {
      segment: 'age',
      subjectTokenKey: JSON.stringify(await exportJWK(publicKey)),
    });
    const signer = { key: privateKey, alg: 'EdDSA', programId: program.programId };
    const sign = (claims: object = {}, payload: object = person) => signSubjectToken(signer, payload, claims);
    return { programId: program.programId, sign };
  };
  const submitToken = (
    input: { programId?: string; verificationId?: string },
    token: string,
    requestId = '',
  ) =>
    h.client.unary('submitPersonalInfo', {
      requestId,
      verificationId: input.verificationId ?? '',
      programId: input.programId ?? '',
      trackingId: '',
      step: input.programId ? 'collectMarketplaceToken' : STEP,
      input: { $case: 'subjectToken', subjectToken: token },
    });
  const started = async (programId: string) =>
    Number((await h.db('verifications').where({ program_id: programId }).count('* as n'))[0]!.n);
  const refusal = async (call: Promise<unknown>) => {
    const err = await failure(call);
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
    return err.message;
  };

  it('takes a token with valid claims (aud a string or a list), none of them read as a subject field', async () => {
    const { programId, sign } = await keyed();
    const now = nowSeconds();
    for (const claims of [
      {},
      { aud: ['another-audience', programId], iss: 'partner', nbf: now - 10 },
      // Past exp within the clock skew.
      { iat: now - 300, exp: now - 30 },
    ]) {
      const { verification } = await submitToken({ programId }, await sign(claims));
      expect([claims, verification!.currentStep]).toEqual([claims, 'success']);
    }
  });

  it.each<[string, (now: number) => object, RegExp]>([
    ['without exp', () => ({ exp: undefined }), /missing required "exp" claim/],
    ['expired', (now) => ({ iat: now - 600, exp: now - 120 }), /: it has expired$/],
    ['with exp more than 15 minutes after iat', (now) => ({ exp: now + 16 * 60 }), /longer than 15 minutes/],
    ['with an exp that is not a NumericDate', () => ({ exp: '2099-01-01' }), /"exp" claim must be a number/],
    ['without iat', () => ({ iat: undefined }), /missing required "iat" claim/],
    ['issued in the future', (now) => ({ iat: now + 300, exp: now + 600 }), /"iat" claim timestamp check/],
    ['not valid yet (nbf)', (now) => ({ nbf: now + 300 }), /"nbf" claim timestamp check failed/],
    ['for another program', () => ({ aud: '0123456789abcdef01234567' }), /"aud" claim is not the program id/],
    ['without aud', () => ({ aud: undefined }), /missing required "aud" claim/],
    ['without jti', () => ({ jti: undefined }), /missing required "jti" claim/],
    ['with a jti of a space', () => ({ jti: 'a b' }), /"jti" claim must be 1 to 128 visible ASCII/],
    ['with a jti over 128 characters', () => ({ jti: 'j'.repeat(129) }), /"jti" claim must be 1 to 128/],
  ])('refuses a token %s and starts nothing', async (_what, claims, message) => {
    const { programId, sign } = await keyed();
    const got = await refusal(submitToken({ programId }, await sign(claims(nowSeconds()))));
    expect(got).toMatch(/^The subject token was refused: /);
    expect(got).toMatch(message);
    expect(await started(programId)).toBe(0);
  });

  it('takes a jti once per program: a replay is refused on either path, and starts nothing', async () => {
    const { programId, sign } = await keyed();
    const token = await sign();
    expect((await submitToken({ programId }, token)).verification!.currentStep).toBe('success');
    expect(await refusal(submitToken({ programId }, token))).toMatch(/the token was already used/);
    expect(await started(programId)).toBe(1);
    const { verificationId } = await start(programId);
    expect(await refusal(submitToken({ verificationId }, token))).toMatch(/already used/);
    // Another token with the jti is the same use; another program's jti space is its own.
    const { jti } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string };
    expect(await refusal(submitToken({ verificationId }, await sign({ jti })))).toMatch(/already used/);
    const other = await keyed();
    const elsewhere = await submitToken({ programId: other.programId }, await other.sign({ jti }));
    expect(elsewhere.verification!.currentStep).toBe('success');
  });

  it('uses the token up with a recorded outcome, not with a refusal that stores nothing', async () => {
    const { programId, sign } = await keyed();
    const { verificationId } = await start(programId);
    const jti = randomUUID();
    const unknownKey = await sign({ jti }, { ...person, nickname: 'JD' });
    expect(await refusal(submitToken({ verificationId }, unknownKey))).toMatch(
      /Unexpected property 'nickname'/,
    );
    // A recoverable error is an outcome the verification records: the token is used.
    const badDate = await sign({ jti }, { ...person, birthDate: '1980-02-30' });
    const recoverable = (await submitToken({ verificationId }, badDate)).verification!;
    expect([recoverable.currentStep, recoverable.errorIds]).toEqual([STEP, ['invalidBirthDate']]);
    expect(await refusal(submitToken({ verificationId }, await sign({ jti })))).toMatch(/already used/);
    expect((await submitToken({ verificationId }, await sign())).verification!.currentStep).toBe('success');
  });

  it('answers a retry (same request id) what the first call answered, not a replay', async () => {
    const { programId, sign } = await keyed();
    const token = await sign();
    const first = (await submitToken({ programId }, token, 'mp-retry-1')).verification!;
    const retry = (await submitToken({ programId }, token, 'mp-retry-1')).verification!;
    expect([retry.verificationId, retry.currentStep]).toEqual([first.verificationId, 'success']);
    expect(await refusal(submitToken({ programId }, token, 'mp-retry-2'))).toMatch(/already used/);
    expect(await started(programId)).toBe(1);
  });

  it('purges the uses of expired tokens as it records new ones', async () => {
    const { programId, sign } = await keyed();
    const expired = { program_id: programId, jti: 'expired-use', expires_at: new Date(Date.now() - 1000) };
    await h.db('used_subject_tokens').insert(expired);
    await submitToken({ programId }, await sign());
    const uses = await h.db('used_subject_tokens').where({ program_id: programId }).pluck('jti');
    expect(uses).toHaveLength(1);
    expect(uses).not.toContain('expired-use');
  });
});
