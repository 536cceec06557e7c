import { exportJWK, generateKeyPair, SignJWT } from 'jose';
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
    expect([err.codeName, err.errorIds, err.httpStatus]).toEqual([
      'RESOURCE_EXHAUSTED',
      ['verificationLimitExceeded'],
      429,
    ]);
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
    expect(ssnStep.currentStep).toBe('collectSocialSecurityNumber');
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
    expect(good.verification!.currentStep).toBe('success');
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
    expect((await h.client.unary('getSsoLoginUrl', { verificationId })).loginUrl).toBe(
      'https://login.example.edu/sso',
    );
    const cancelled = await h.client.unary('skipStep', { requestId: '', verificationId, step: 'sso' });
    expect(cancelled.verification!.currentStep).toBe('docUpload');
    const gone = await failure(h.client.unary('getSsoLoginUrl', { verificationId }));
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
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
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
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(other.privateKey);
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
});
