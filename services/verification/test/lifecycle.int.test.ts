import type { TopicRecorder } from '@eligo/local-infra';
import { parseCloudEventHeaders } from '@eligo/runtime';
import {
  failure,
  flowCalls,
  importOrganization,
  jane,
  newProgram,
  startVerification,
  subscribeVerificationTopic,
  type Harness,
  type Subject,
} from './support';

/** What the service does on its own or on a retry: the expiry sweep, idempotent calls, the staff view. */
describe('verification lifecycle', () => {
  let h: Harness;
  let topic: TopicRecorder;
  const calls = flowCalls(() => h);
  beforeAll(async () => {
    h = await startVerification({ ELIGO_VERIFICATION_EXPIRY_SWEEP_MS: '200' });
    topic = await subscribeVerificationTopic();
  });
  afterAll(async () => {
    await topic?.stop();
    await h?.stop();
  });

  const stepOf = async (id: string) =>
    ((await h.db('verifications').where({ id }).first()) as { current_step: string }).current_step;

  it('expires a verification nobody reads again, and publishes VerificationExpired', async () => {
    const program = await newProgram(h.programs, { consolationRewardCode: 'SORRY5' });
    const { verificationId } = await calls.start(program.programId);
    await h
      .db('verifications')
      .where({ id: verificationId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const deadline = Date.now() + 10_000;
    while ((await stepOf(verificationId)) !== 'error' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await stepOf(verificationId)).toBe('error');
    const types = (await topic.keyed(verificationId, 4)).map((m) => parseCloudEventHeaders(m.headers).type);
    expect(types).toContain('eligo.verification.v1.VerificationExpired');
    const read = (await h.client.unary('getVerification', { verificationId })).verification!;
    expect([read.currentStep, read.errorIds, read.consolationRewardCode]).toEqual([
      'error',
      ['expiredVerification'],
      'SORRY5',
    ]);
  });

  it('takes one of several submissions sent at once; the others answer what the verification then is', async () => {
    const program = await newProgram(h.programs);
    await importOrganization(h, program.programId, 'At Once University');
    const { verificationId } = await calls.start(program.programId);
    const s = jane({ organization: { id: 0, name: 'At Once University' } });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        calls.submit(verificationId, 'collectStudentPersonalInfo', s, `once-${i}`),
      ),
    );
    const taken = answers.filter((a) => a.errorIds.length === 0);
    expect(taken.map((a) => a.currentStep)).toEqual(['success']);
    for (const other of answers.filter((a) => a !== taken[0]))
      expect([other.currentStep, other.errorIds]).toEqual(['success', ['invalidStep']]);
    const steps = await h.db('verification_steps').where({ verification_id: verificationId }).pluck('step');
    expect(steps.sort()).toEqual(['collectStudentPersonalInfo', 'success']);
  });

  it('answers a retried submission what it answered the first time, and takes the step once', async () => {
    const program = await newProgram(h.programs);
    await importOrganization(h, program.programId, 'Retry University');
    const { verificationId } = await calls.start(program.programId);
    const s = jane({ organization: { id: 0, name: 'Retry University' } });
    const first = await calls.submit(verificationId, 'collectStudentPersonalInfo', s, 'req-1');
    const retried = await calls.submit(verificationId, 'collectStudentPersonalInfo', s, 'req-1');
    expect(first.currentStep).toBe('success');
    expect(retried).toEqual(first);
    // Another request is a second submission, which the ended verification refuses.
    const other = await calls.submit(verificationId, 'collectStudentPersonalInfo', s, 'req-2');
    expect(other.errorIds).toEqual(['invalidStep']);
    const steps = await h.db('verification_steps').where({ verification_id: verificationId }).orderBy('id');
    expect(steps.map((r: { trigger: string; step: string }) => [r.trigger, r.step])).toEqual([
      ['start', 'collectStudentPersonalInfo'],
      ['submitPersonalInfo', 'success'],
    ]);
  });

  it('starts one verification for a retried start or program-shape call', async () => {
    const program = await newProgram(h.programs, { segment: 'age', minAge: 18 });
    const a = await calls.start(program.programId, 'retry-start', 'start-1');
    const b = await calls.start(program.programId, 'retry-start', 'start-1');
    expect(b.verificationId).toBe(a.verificationId);
    const person = jane({ postalCode: '10001', phoneNumber: '+14155552671', country: 'US' });
    const once = await calls.submitToProgram(
      program.programId,
      'collectAgePersonalInfo',
      person,
      'retry-p',
      'p-1',
    );
    const twice = await calls.submitToProgram(
      program.programId,
      'collectAgePersonalInfo',
      person,
      'retry-p',
      'p-1',
    );
    expect(twice).toEqual(once);
    expect(once.verification!.currentStep).toBe('success');
    const rows = await h.db('verifications').where({ program_id: program.programId });
    expect(rows.map((r: { tracking_id: string }) => r.tracking_id).sort()).toEqual([
      'retry-p',
      'retry-start',
    ]);
    const tooLong = await failure(calls.start(program.programId, '', 'x'.repeat(65)));
    expect([tooLong.codeName, tooLong.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidRequest']]);
  });

  it('verifies military in one request on the program shape, the form implying the status', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    await importOrganization(h, program.programId, 'Eligo Army', { type: 'MILITARY' });
    const member = (extra: Partial<Subject> = {}) =>
      jane({ organization: { id: 0, name: 'Eligo Army' }, ...extra });
    const active = await calls.submitToProgram(
      program.programId,
      'collectActiveMilitaryPersonalInfo',
      member(),
    );
    expect([active.verification!.currentStep, active.verification!.subSegment]).toEqual([
      'success',
      'activeDuty',
    ]);
    const inactive = await calls.submitToProgram(
      program.programId,
      'collectInactiveMilitaryPersonalInfo',
      member({ dischargeDate: '2020-05-01' }),
    );
    expect([inactive.verification!.currentStep, inactive.verification!.subSegment]).toEqual([
      'success',
      'veteran',
    ]);

    // A program for reservists only: the active form implies RESERVIST; the inactive form implies nothing
    // the program accepts, so nothing starts.
    const reservists = await newProgram(h.programs, { segment: 'military', subSegments: ['reservist'] });
    const reservist = await calls.submitToProgram(
      reservists.programId,
      'collectActiveMilitaryPersonalInfo',
      member(),
    );
    expect(reservist.verification!.subSegment).toBe('reservist');
    const refused = await failure(
      calls.submitToProgram(reservists.programId, 'collectInactiveMilitaryPersonalInfo', jane(), 'none'),
    );
    expect([refused.codeName, refused.errorIds]).toEqual(['INVALID_ARGUMENT', ['invalidStep']]);
    expect(
      await h.db('verifications').where({ program_id: reservists.programId, tracking_id: 'none' }),
    ).toEqual([]);
  });

  it('shows staff the whole verification with every step it took', async () => {
    const program = await newProgram(h.programs, { segment: 'senior', minAge: 55 });
    const { verificationId } = await calls.start(program.programId, 'staff');
    const bad = await calls.submit(
      verificationId,
      'collectSeniorPersonalInfo',
      jane({ email: 'nope', postalCode: '94105' }),
    );
    expect(bad.errorIds).toEqual(['invalidEmail']);
    await calls.submit(verificationId, 'collectSeniorPersonalInfo', jane({ postalCode: '94105' }));
    const { verification } = await h.client.unary('getVerificationAdmin', { verificationId });
    expect(verification).toMatchObject({
      verificationId,
      accountId: program.accountId,
      segment: 'senior',
      currentStep: 'success',
      testMode: true,
      details: { programId: program.programId, trackingId: 'staff', personInfo: { firstName: 'Jane' } },
    });
    expect(verification!.steps.map((s) => [s.trigger, s.previousStep, s.step, s.errorIds])).toEqual([
      ['start', '', 'collectSeniorPersonalInfo', []],
      ['submitPersonalInfo', 'collectSeniorPersonalInfo', 'collectSeniorPersonalInfo', ['invalidEmail']],
      ['submitPersonalInfo', 'collectSeniorPersonalInfo', 'success', []],
    ]);
    expect(verification!.steps.every((s) => s.occurredAt instanceof Date)).toBe(true);
    const unknown = await failure(h.client.unary('getVerificationAdmin', { verificationId: 'f'.repeat(24) }));
    expect([unknown.codeName, unknown.errorIds]).toEqual(['NOT_FOUND', ['noVerification']]);
  });
});
