import { CompactSign, exportJWK, generateKeyPair } from 'jose';
import {
  failure,
  importOrganization,
  jane,
  newProgram,
  ProgramMode,
  startVerification,
  type Harness,
  flowCalls,
} from './support';
import { signSubjectToken } from './subject-tokens';

/** Person limit, the social security number and sso steps, and subjects sent as signed tokens. */
describe('verification steps and limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startVerification();
  });
  afterAll(async () => {
    await h?.stop();
  });

  const calls = flowCalls(() => h);
  const { start } = calls;
  const submit = (verificationId: string, step: string, s = jane()) => calls.submit(verificationId, step, s);

  it('ends the verification in error with 429 once the person reached the program limit', async () => {
    const program = await newProgram(h.programs, {
      segment: 'senior',
      verificationLimit: { quantity: 1, days: 30 },
    });
    const senior = jane({ birthDate: '1950-05-05', postalCode: '10001' });
    const first = await start(program.programId, 'limit-1');
    expect((await submit(first.verificationId, 'collectSeniorPersonalInfo', senior)).currentStep).toBe(
      'success',
    );
    const second = await start(program.programId, 'limit-1');
    // The same person by email, with the name in other letter case.
    const again = jane({ birthDate: '1950-05-05', postalCode: '10001', firstName: 'JANE' });
    const err = await failure(submit(second.verificationId, 'collectSeniorPersonalInfo', again));
    expect([err.codeName, err.errorIds]).toEqual(['RESOURCE_EXHAUSTED', ['verificationLimitExceeded']]);
    const read = await failure(h.client.unary('getVerification', { verificationId: second.verificationId }));
    expect(read.errorIds).toEqual(['verificationLimitExceeded']);
    const { verifications } = await h.client.unary('listVerificationHistory', {
      accountId: program.accountId,
      programId: program.programId,
      trackingId: 'limit-1',
    });
    expect(verifications.map((v) => [v.currentStep, v.errorIds])).toEqual([
      ['error', ['verificationLimitExceeded']],
      ['success', []],
    ]);
    // Another person is not limited.
    const third = await start(program.programId);
    const other = jane({
      birthDate: '1950-05-05',
      postalCode: '10001',
      email: 'other@example.com',
      firstName: 'Ann',
    });
    expect((await submit(third.verificationId, 'collectSeniorPersonalInfo', other)).currentStep).toBe(
      'success',
    );
  });

  it('a social security number past the person limit ends in error with 429, without a reward', async () => {
    const program = await newProgram(h.programs, {
      segment: 'military',
      verificationLimit: { quantity: 1, days: 30 },
    });
    const army = await importOrganization(h, program.programId, 'US Army Limit', { type: 'MILITARY' });
    const person = jane({
      firstName: 'SSN',
      organization: { id: army, name: '' },
      dischargeDate: '2010-06-01',
    });
    // One person reaches the number on two verifications before either succeeds.
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const { verificationId } = await start(program.programId);
      await h.client.unary('submitMilitaryStatus', { requestId: '', verificationId, status: 'VETERAN' });
      const vr = await submit(verificationId, 'collectInactiveMilitaryPersonalInfo', person);
      expect(vr.currentStep).toBe('collectSocialSecurityNumber');
      ids.push(verificationId);
    }
    const ssn = (verificationId: string) =>
      h.client.unary('submitSocialSecurityNumber', {
        requestId: `ssn-${verificationId}`,
        verificationId,
        socialSecurityNumber: '123-45-6789',
      });
    expect((await ssn(ids[0]!)).verification!.currentStep).toBe('success');
    const err = await failure(ssn(ids[1]!));
    expect([err.codeName, err.errorIds]).toEqual(['RESOURCE_EXHAUSTED', ['verificationLimitExceeded']]);
    // A retry of the call (same request id) is answered the same.
    expect(await failure(ssn(ids[1]!))).toMatchObject({ errorIds: ['verificationLimitExceeded'] });
    const stored = await h.db('verifications').where({ id: ids[1] }).first();
    expect([stored.current_step, stored.error_ids, stored.reward_code, stored.succeeded_at]).toEqual([
      'error',
      ['verificationLimitExceeded'],
      null,
      null,
    ]);
  });

  it('live age programs decide from the birth date', async () => {
    const program = await newProgram(h.programs, {
      segment: 'age',
      mode: ProgramMode.PROGRAM_MODE_LIVE,
      minAge: 21,
    });
    const base = { postalCode: '10001', country: 'US' };
    const young = await start(program.programId);
    const thisYear = new Date().getUTCFullYear();
    const refused = await submit(
      young.verificationId,
      'collectAgePersonalInfo',
      jane({ ...base, birthDate: `${thisYear - 18}-01-01` }),
    );
    expect([refused.currentStep, refused.errorIds]).toEqual(['error', ['underagePerson']]);
    const adult = await start(program.programId);
    const ok = await submit(
      adult.verificationId,
      'collectAgePersonalInfo',
      jane({ ...base, birthDate: '1980-01-01' }),
    );
    expect(ok.currentStep).toBe('success');
  });

  it('asks a military person for the social security number, uses it and never stores it', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    const army = await importOrganization(h, program.programId, 'US Army Test', { type: 'MILITARY' });
    const { verificationId } = await start(program.programId);
    await h.client.unary('submitMilitaryStatus', { requestId: '', verificationId, status: 'VETERAN' });
    const person = jane({
      firstName: 'SSN',
      organization: { id: army, name: '' },
      dischargeDate: '2010-06-01',
    });
    const ssnStep = await submit(verificationId, 'collectInactiveMilitaryPersonalInfo', person);
    // The form reached the match (which asks for the number); the number is a second attempt.
    expect([ssnStep.currentStep, ssnStep.instantMatchAttempts]).toEqual(['collectSocialSecurityNumber', 1]);
    const bad = await h.client.unary('submitSocialSecurityNumber', {
      requestId: '',
      verificationId,
      socialSecurityNumber: '000-12-3456',
    });
    expect(bad.verification!.errorIds).toEqual(['invalidSocialSecurityNumber']);
    const good = await h.client.unary('submitSocialSecurityNumber', {
      requestId: '',
      verificationId,
      socialSecurityNumber: '123-45-6789',
    });
    expect([good.verification!.currentStep, good.verification!.instantMatchAttempts]).toEqual(['success', 2]);
    const { rows } = await h.db.raw<{ rows: { text: string }[] }>(
      'select t::text as text from verification.verifications t where id = ?',
      [verificationId],
    );
    expect(rows[0]!.text).not.toMatch(/123-?45-?6789/);
  });

  it('skips the social security number to docUpload', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    const army = await importOrganization(h, program.programId, 'US Navy Test', { type: 'MILITARY' });
    const { verificationId } = await start(program.programId);
    await h.client.unary('submitMilitaryStatus', { requestId: '', verificationId, status: 'ACTIVE_DUTY' });
    await submit(
      verificationId,
      'collectActiveMilitaryPersonalInfo',
      jane({ firstName: 'SSN', organization: { id: army, name: '' } }),
    );
    const skipped = await h.client.unary('skipStep', {
      requestId: '',
      verificationId,
      step: 'collectSocialSecurityNumber',
    });
    expect(skipped.verification!.currentStep).toBe('docUpload');
  });

  it('sends sso to the organization login page, and cancels it to docUpload', async () => {
    const program = await newProgram(h.programs);
    const withLogin = await importOrganization(h, program.programId, 'Login University', {
      loginUrl: 'https://login.example.edu/sso',
    });
    const { verificationId } = await start(program.programId);
    const sso = await submit(
      verificationId,
      'collectStudentPersonalInfo',
      jane({ firstName: 'SSO', organization: { id: withLogin, name: '' } }),
    );
    expect(sso.currentStep).toBe('sso');
    expect((await h.client.unary('getSsoLoginUrl', { verificationId, redirectUri: '' })).loginUrl).toBe(
      'https://login.example.edu/sso',
    );
    const cancelled = await h.client.unary('skipStep', { requestId: '', verificationId, step: 'sso' });
    expect(cancelled.verification!.currentStep).toBe('docUpload');
    const gone = await failure(h.client.unary('getSsoLoginUrl', { verificationId, redirectUri: '' }));
    expect(gone.codeName).toBe('NOT_FOUND');
  });

  it('takes a DriverLicense subject as a JWS signed with the program key, and refuses other signatures', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const program = await newProgram(h.programs, {
      segment: 'driverLicense',
      subjectTokenKey: JSON.stringify(await exportJWK(publicKey)),
    });
    const claims = {
      firstName: 'Jane',
      lastName: 'Doe',
      state: 'CA',
      driverLicenseNumber: 'D1234567',
      email: 'j@example.com',
    };
    const signer = { alg: 'ES256', programId: program.programId };
    const token = await signSubjectToken({ ...signer, key: privateKey }, claims);
    const { verificationId } = await start(program.programId);
    const { verification } = await h.client.unary('submitPersonalInfo', {
      requestId: '',
      verificationId,
      programId: '',
      trackingId: '',
      step: 'collectDriverLicensePersonalInfo',
      input: { $case: 'subjectToken', subjectToken: token },
    });
    expect(verification!.currentStep).toBe('success');

    const other = await generateKeyPair('ES256');
    const forged = await signSubjectToken({ ...signer, key: other.privateKey }, claims);
    const next = await start(program.programId);
    const err = await failure(
      h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId: next.verificationId,
        programId: '',
        trackingId: '',
        step: 'collectDriverLicensePersonalInfo',
        input: { $case: 'subjectToken', subjectToken: forged },
      }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
  });
  describe('a marketplace token on the program path shape (POST /verification/marketplace)', () => {
    const claims = { firstName: 'Jane', lastName: 'Doe', birthDate: '1980-01-31', email: 'jane@example.com' };
    const keyed = async (segment = 'age') => {
      const { publicKey, privateKey } = await generateKeyPair('EdDSA');
      const program = await newProgram(h.programs, {
        segment,
        subjectTokenKey: JSON.stringify(await exportJWK(publicKey)),
      });
      const sign = (payload: object, key = privateKey) =>
        signSubjectToken({ key, alg: 'EdDSA', programId: program.programId }, payload);
      return { program, sign, privateKey };
    };
    const startWithToken = (programId: string, token: string, trackingId = '') =>
      h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId: '',
        programId,
        trackingId,
        step: 'collectMarketplaceToken',
        input: { $case: 'subjectToken', subjectToken: token },
      });
    const started = async (programId: string) =>
      Number((await h.db('verifications').where({ program_id: programId }).count('* as n'))[0]!.n);

    it('starts a verification and decides the subject the token carries', async () => {
      const { program, sign } = await keyed();
      const { verification } = await startWithToken(program.programId, await sign(claims), 'mp-1');
      expect(verification).toMatchObject({
        currentStep: 'success',
        rewardCode: 'SAVE10',
        segment: 'age',
        instantMatchAttempts: 1,
      });
      const byTracking = await h.client.unary('getVerificationByTrackingId', {
        programId: program.programId,
        trackingId: 'mp-1',
      });
      expect(byTracking.verification!.verificationId).toBe(verification!.verificationId);
      const upload = await startWithToken(
        program.programId,
        await sign({ ...claims, firstName: 'REJECTED' }),
      );
      expect(upload.verification!.currentStep).toBe('docUpload');
      // Bad data in a good token is a recoverable error of the new verification's step.
      const bad = await startWithToken(program.programId, await sign({ ...claims, birthDate: '1980-02-30' }));
      expect([bad.verification!.currentStep, bad.verification!.errorIds]).toEqual([
        'collectAgePersonalInfo',
        ['invalidBirthDate'],
      ]);
    });

    it.each([
      ['signed with another key', 'forged', /signature does not verify/],
      ['whose payload has a key the form does not take', 'nickname', /Unexpected property 'nickname'/],
      ['whose payload is not an object', 'array', /not a JSON object/],
    ])('starts nothing for a token %s', async (_what, kind, message) => {
      const { program, sign, privateKey } = await keyed();
      const other = await generateKeyPair('EdDSA');
      const token =
        kind === 'forged'
          ? await sign(claims, other.privateKey)
          : kind === 'nickname'
            ? await sign({ ...claims, nickname: 'JD' })
            : await new CompactSign(new TextEncoder().encode('[1]'))
                .setProtectedHeader({ alg: 'EdDSA' })
                .sign(privateKey);
      const err = await failure(startWithToken(program.programId, token));
      expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
      expect(err.message).toMatch(message);
      expect(await started(program.programId)).toBe(0);
    });

    it('starts nothing for a program without a subject token key, or one that starts on collectMilitaryStatus', async () => {
      const { sign } = await keyed();
      const plain = await newProgram(h.programs, { segment: 'age' });
      const noKey = await failure(startWithToken(plain.programId, await sign(claims)));
      expect([noKey.codeName, noKey.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
      const military = await keyed('military');
      const wrong = await failure(startWithToken(military.program.programId, await military.sign(claims)));
      expect([wrong.codeName, wrong.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidStep']]);
      expect(await started(plain.programId)).toBe(0);
      expect(await started(military.program.programId)).toBe(0);
    });

    it('answers NOT_FOUND noProgram for an unknown program', async () => {
      const { sign } = await keyed();
      const err = await failure(startWithToken('0123456789abcdef01234567', await sign(claims)));
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
    });
  });
});
