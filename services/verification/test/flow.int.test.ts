import { randomBytes } from 'node:crypto';
import {
  failure,
  importOrganization,
  jane as person,
  newProgram,
  ProgramMode,
  startVerification,
  type Harness,
  flowCalls,
} from './support';

/** The verification flow through the real gRPC API, with the real programs and organizations modules. */
describe('verification flow', () => {
  let h: Harness;
  let university: { id: number; name: string };
  beforeAll(async () => {
    h = await startVerification();
    const program = await newProgram(h.programs);
    university = {
      id: await importOrganization(h, program.programId, 'State University'),
      name: 'State University',
    };
  });
  /** A valid student subject at the imported university. */
  const jane = (extra: Parameters<typeof person>[0] = {}) => person({ organization: university, ...extra });
  afterAll(async () => {
    await h?.stop();
  });

  const calls = flowCalls(() => h);
  const { start } = calls;
  const submit = (verificationId: string, step: string, s = jane()) => calls.submit(verificationId, step, s);

  it('starts on the collect step of the program segment', async () => {
    const program = await newProgram(h.programs);
    const vr = await start(program.programId);
    expect(vr).toMatchObject({
      currentStep: 'collectStudentPersonalInfo',
      errorIds: [],
      segment: 'student',
      locale: 'en-US',
    });
    expect(vr.verificationId).toMatch(/^[0-9a-f]{24}$/);
    expect(vr.subSegment).toBeUndefined();
  });

  it('answers NOT_FOUND noProgram for an unknown program', async () => {
    const err = await failure(start('0123456789abcdef01234567'));
    expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noProgram']]);
  });

  it('answers 403 for a program that has not started or has ended', async () => {
    const future = await newProgram(h.programs, { startDate: new Date(Date.now() + 86_400_000) });
    const early = await failure(start(future.programId));
    expect([early.codeName, early.errorIds]).toEqual(['PERMISSION_DENIED', ['inactiveProgram']]);
    const past = await newProgram(h.programs, {
      startDate: new Date(Date.now() - 2 * 86_400_000),
      endDate: new Date(Date.now() - 86_400_000),
    });
    const late = await failure(start(past.programId));
    expect([late.codeName, late.errorIds]).toEqual(['PERMISSION_DENIED', ['expiredProgram']]);
  });

  it('succeeds in test mode with the reward code, and stays successful', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    const vr = await submit(verificationId, 'collectStudentPersonalInfo');
    expect(vr).toMatchObject({ currentStep: 'success', rewardCode: 'SAVE10', errorIds: [] });
    const again = await h.client.unary('getVerification', { verificationId });
    expect(again.verification).toMatchObject({ currentStep: 'success', rewardCode: 'SAVE10' });
    expect((await submit(verificationId, 'collectStudentPersonalInfo')).errorIds).toEqual(['invalidStep']);
  });

  it.each([
    ['REJECTED', 'docUpload', []],
    ['UPLOAD', 'docUpload', []],
    ['__ERROR__', 'error', ['simulatedError']],
  ])('test mode firstName %s -> %s', async (firstName, step, errorIds) => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    const vr = await submit(verificationId, 'collectStudentPersonalInfo', jane({ firstName }));
    expect([vr.currentStep, vr.errorIds]).toEqual([step, errorIds]);
  });

  it('keeps the step with recoverable errors, then accepts the corrected submission', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    const bad = await submit(
      verificationId,
      'collectStudentPersonalInfo',
      jane({ email: 'jane@', birthDate: '2001-02-30' }),
    );
    expect(bad.currentStep).toBe('collectStudentPersonalInfo');
    expect(bad.errorIds).toEqual(expect.arrayContaining(['invalidEmail', 'invalidBirthDate']));
    const good = await submit(verificationId, 'collectStudentPersonalInfo');
    expect(good.currentStep).toBe('success');
  });

  it('refuses an organization the catalog does not know with invalidOrganization', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    const vr = await submit(
      verificationId,
      'collectStudentPersonalInfo',
      jane({ organization: { id: 987654, name: 'Nowhere' } }),
    );
    expect([vr.currentStep, vr.errorIds]).toEqual(['collectStudentPersonalInfo', ['invalidOrganization']]);
  });

  it('starts and submits in one call on the program path shape, with a tracking id', async () => {
    const program = await newProgram(h.programs);
    const trackingId = `t-${randomBytes(4).toString('hex')}`;
    const { verification } = await h.client.unary('submitPersonalInfo', {
      requestId: '',
      verificationId: '',
      programId: program.programId,
      trackingId,
      step: 'collectStudentPersonalInfo',
      input: { $case: 'subject', subject: jane() },
    });
    expect(verification!.currentStep).toBe('success');
    const byTracking = await h.client.unary('getVerificationByTrackingId', {
      programId: program.programId,
      trackingId,
    });
    expect(byTracking.verification!.verificationId).toBe(verification!.verificationId);
  });

  it('starts nothing on the program shape for a step the program does not start on', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    const err = await failure(
      h.client.unary('submitPersonalInfo', {
        requestId: '',
        verificationId: '',
        programId: program.programId,
        trackingId: 'never-started',
        step: 'collectStudentPersonalInfo',
        input: { $case: 'subject', subject: jane() },
      }),
    );
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidStep']]);
    expect(await h.db('verifications').where({ program_id: program.programId }).count('* as n')).toEqual([
      { n: '0' },
    ]);
  });

  describe('instantMatchAttempts', () => {
    /** What the response, a later read and the stored row say. */
    const attempts = async (verificationId: string) => {
      const read = await h.client.unary('getVerification', { verificationId });
      const row = await h.db('verifications').where({ id: verificationId }).first('instant_match_attempts');
      return [read.verification!.instantMatchAttempts, row.instant_match_attempts];
    };

    it('counts an instant success', async () => {
      const program = await newProgram(h.programs);
      const { verificationId } = await start(program.programId);
      const vr = await submit(verificationId, 'collectStudentPersonalInfo');
      expect([vr.currentStep, vr.instantMatchAttempts]).toEqual(['success', 1]);
      expect(await attempts(verificationId)).toEqual([1, 1]);
    });

    it('counts every submission that reaches the match, not a form that fails validation', async () => {
      const program = await newProgram(h.programs);
      const { verificationId } = await start(program.programId);
      const step = 'collectStudentPersonalInfo';
      const invalid = await submit(verificationId, step, jane({ email: 'jane@' }));
      expect([invalid.errorIds, invalid.instantMatchAttempts]).toEqual([['invalidEmail'], 0]);
      // The organization check is part of the match: a refused organization is an attempt.
      const refused = await submit(verificationId, step, jane({ organization: { id: 987654, name: '' } }));
      expect([refused.errorIds, refused.instantMatchAttempts]).toEqual([['invalidOrganization'], 1]);
      expect(await attempts(verificationId)).toEqual([1, 1]);
      const upload = await submit(verificationId, step, jane({ firstName: 'REJECTED' }));
      expect([upload.currentStep, upload.instantMatchAttempts]).toEqual(['docUpload', 2]);
      expect(await attempts(verificationId)).toEqual([2, 2]);
    });

    it('counts the program path shape and a live decision that ends in error', async () => {
      const live = await newProgram(h.programs, {
        segment: 'age',
        minAge: 21,
        mode: ProgramMode.PROGRAM_MODE_LIVE,
      });
      const { verification } = await calls.submitToProgram(
        live.programId,
        'collectAgePersonalInfo',
        person({ birthDate: `${new Date().getUTCFullYear() - 10}-01-01` }),
      );
      expect([verification!.currentStep, verification!.errorIds, verification!.instantMatchAttempts]).toEqual(
        ['error', ['underagePerson'], 1],
      );
    });
  });

  it('refuses a tracking id over 256 characters instead of cutting it', async () => {
    const program = await newProgram(h.programs);
    const err = await failure(start(program.programId, 'x'.repeat(257)));
    expect([err.codeName, err.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
  });

  it('keeps the person encrypted at rest', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    await submit(verificationId, 'collectStudentPersonalInfo', jane({ lastName: 'Zyxwvut' }));
    const { rows } = await h.db.raw<{ rows: { text: string }[] }>(
      'select t::text as text from verification.verifications t where id = ?',
      [verificationId],
    );
    const text = rows[0]!.text.toLowerCase();
    for (const pii of ['zyxwvut', 'jane.doe@example.com', '2000-01-31']) expect(text).not.toContain(pii);
  });

  it('answers NOT_FOUND noVerification for an unknown or malformed id', async () => {
    for (const verificationId of ['0123456789abcdef01234567', 'nope']) {
      const err = await failure(h.client.unary('getVerification', { verificationId }));
      expect([err.codeName, err.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
    }
  });

  it('military: status first, then the active collect step with the sub-segment', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    const vr = await start(program.programId);
    expect(vr.currentStep).toBe('collectMilitaryStatus');
    expect(vr.availableStatuses).toContain('ACTIVE_DUTY');
    const bad = await h.client.unary('submitMilitaryStatus', {
      requestId: '',
      verificationId: vr.verificationId,
      status: 'PIRATE',
    });
    expect(bad.verification!.errorIds).toEqual(['invalidMilitaryStatus']);
    const next = await h.client.unary('submitMilitaryStatus', {
      requestId: '',
      verificationId: vr.verificationId,
      status: 'ACTIVE_DUTY',
    });
    expect(next.verification).toMatchObject({
      currentStep: 'collectActiveMilitaryPersonalInfo',
      subSegment: 'activeDuty',
    });
  });

  it('expires on request, then refuses to expire again', async () => {
    const program = await newProgram(h.programs, { consolationRewardCode: 'SORRY5' });
    const { verificationId } = await start(program.programId);
    const first = await h.client.unary('expireVerification', { verificationId });
    expect(first.alreadyFinal).toBe(false);
    expect(first.verification).toMatchObject({
      currentStep: 'error',
      errorIds: ['expiredVerification'],
      consolationRewardCode: 'SORRY5',
    });
    const second = await h.client.unary('expireVerification', { verificationId });
    expect(second.alreadyFinal).toBe(true);
  });

  it('expires a verification whose time is up when it is read', async () => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    await h
      .db('verifications')
      .where({ id: verificationId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const { verification } = await h.client.unary('getVerification', { verificationId });
    expect([verification!.currentStep, verification!.errorIds]).toEqual(['error', ['expiredVerification']]);
  });
});
