import type { TopicRecorder } from '@eligo/local-infra';
import { verificationEventsV1 } from '@eligo/proto';
import { parseCloudEventHeaders, type DeliveredMessage } from '@eligo/runtime';
import {
  failure,
  importOrganization,
  newProgram,
  startVerification,
  subject,
  subscribeVerificationTopic,
  type Harness,
  type Subject,
} from './support';

/**
 * The verification events as consumers see them: read back from Kafka (published by the outbox relay),
 * keyed by the verification id, with CloudEvents binary headers, decodable with events.proto, without PII.
 */
describe('verification events on Kafka', () => {
  let h: Harness;
  let topic: TopicRecorder;
  beforeAll(async () => {
    h = await startVerification();
    topic = await subscribeVerificationTopic();
  });
  afterAll(async () => {
    await topic?.stop();
    await h?.stop();
  });

  // Distinctive values, so that finding one in a message can only mean it leaked there.
  const PII = {
    firstName: 'Quillonia',
    lastName: 'Brambleworth',
    email: 'quillonia.brambleworth@pii.example',
    birthDate: '1967-11-23',
  };
  const pii = (extra: Partial<Subject> = {}) => subject({ ...PII, ...extra });

  const start = async (programId: string, trackingId = '') =>
    (
      await h.client.unary('startVerification', {
        requestId: '',
        programId,
        trackingId,
        metadata: {},
        locale: '',
      })
    ).verification!;
  const submit = (verificationId: string, step: string, s: Subject) =>
    h.client.unary('submitPersonalInfo', {
      requestId: '',
      verificationId,
      programId: '',
      trackingId: '',
      step,
      input: { $case: 'subject', subject: s },
    });

  const V = 'eligo.verification.v1.';
  const typeOf = (m: DeliveredMessage) => parseCloudEventHeaders(m.headers).type;
  /** Exactly the messages of the verification once `count` arrived (a short wait catches extra ones). */
  async function eventsOf(verificationId: string, count: number): Promise<DeliveredMessage[]> {
    await topic.keyed(verificationId, count);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return topic.messages.filter((m) => m.key === verificationId);
  }
  function expectNoPii(messages: DeliveredMessage[]) {
    for (const m of messages) {
      const raw = [m.key, m.value.toString('latin1'), JSON.stringify(m.headers)].join('\n').toLowerCase();
      for (const value of Object.values(PII)) expect(raw).not.toContain(value.toLowerCase());
    }
  }

  it('publishes created, step changes and success, keyed by the id, with CloudEvents headers', async () => {
    const program = await newProgram(h.programs);
    const orgId = await importOrganization(h, program.programId, 'Event University');
    const started = await start(program.programId, 'ev-track-1');
    const id = started.verificationId;
    const step = 'collectStudentPersonalInfo';
    const organization = { id: orgId, name: '' };
    // A recoverable error keeps the step: no event for it.
    const bad = await submit(id, step, pii({ organization, email: 'quillonia.brambleworth@' }));
    expect(bad.verification!.errorIds).toEqual(['invalidEmail']);
    const ok = await submit(id, step, pii({ organization }));
    expect(ok.verification!.currentStep).toBe('success');

    const messages = await eventsOf(id, 4);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationStepChanged`,
      `${V}VerificationSucceeded`,
    ]);
    for (const m of messages) {
      const ce = parseCloudEventHeaders(m.headers);
      expect([m.key, ce.subject, ce.source]).toEqual([id, id, '/eligo/verification']);
      expect(m.headers.ce_specversion).toBe('1.0');
      expect(m.headers['content-type']).toBe('application/protobuf');
    }
    expect(new Set(messages.map((m) => m.headers.ce_id)).size).toBe(4);
    expectNoPii(messages);

    const ids = { verificationId: id, programId: program.programId, accountId: program.accountId };
    const [created, first, second, succeeded] = messages.map((m) => m.value);
    expect(verificationEventsV1.VerificationCreated.decode(created!)).toMatchObject({
      ...ids,
      segment: 'student',
      trackingId: 'ev-track-1',
      testMode: true,
    });
    // Each step change carries the verification as it then stands: nothing known yet at the start.
    expect(verificationEventsV1.VerificationStepChanged.decode(first!)).toMatchObject({
      ...ids,
      previousStep: '',
      currentStep: step,
      errorIds: [],
      subSegment: '',
      organizationId: 0,
      organizationName: '',
      verificationMethod: '',
    });
    expect(verificationEventsV1.VerificationStepChanged.decode(second!)).toMatchObject({
      ...ids,
      previousStep: step,
      currentStep: 'success',
      errorIds: [],
      subSegment: '',
      organizationId: orgId,
      organizationName: 'Event University',
      verificationMethod: 'INSTANT',
    });
    expect(verificationEventsV1.VerificationSucceeded.decode(succeeded!)).toMatchObject({
      ...ids,
      segment: 'student',
      subSegment: '',
      verificationMethod: 'INSTANT',
      organizationId: orgId,
      testMode: true,
    });
  });

  it('carries the chosen sub-segment on the step changes that follow it', async () => {
    const program = await newProgram(h.programs, { segment: 'military' });
    const { verificationId } = await start(program.programId);
    await h.client.unary('submitMilitaryStatus', { requestId: '', verificationId, status: 'VETERAN' });
    const messages = await eventsOf(verificationId, 3);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationStepChanged`,
    ]);
    expect(verificationEventsV1.VerificationStepChanged.decode(messages[2]!.value)).toMatchObject({
      previousStep: 'collectMilitaryStatus',
      currentStep: 'collectInactiveMilitaryPersonalInfo',
      subSegment: 'veteran',
      organizationId: 0,
      verificationMethod: '',
    });
  });

  it('publishes VerificationMetadataChanged with the sorted keys only, from PUT and from a submission', async () => {
    const program = await newProgram(h.programs);
    const orgId = await importOrganization(h, program.programId, 'Metadata University');
    const { verificationId } = await start(program.programId);
    const ids = {
      verificationId,
      programId: program.programId,
      accountId: program.accountId,
      testMode: true,
    };
    // Values an integrator might fill with a person's data: none may reach an event.
    const values = {
      zeta: 'Zorblatt-meta-value',
      alpha: 'Auvelline-meta-value',
      order: 'Ordovick-meta-value',
    };
    await h.client.unary('putMetadata', {
      accountId: program.accountId,
      verificationId,
      metadata: { zeta: values.zeta, alpha: values.alpha },
    });
    const submitted = await submit(
      verificationId,
      'collectStudentPersonalInfo',
      pii({ organization: { id: orgId, name: '' }, metadata: { order: values.order } }),
    );
    expect(submitted.verification!.currentStep).toBe('success');

    const messages = await eventsOf(verificationId, 6);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationMetadataChanged`,
      `${V}VerificationMetadataChanged`,
      `${V}VerificationStepChanged`,
      `${V}VerificationSucceeded`,
    ]);
    const decode = (m: DeliveredMessage) => verificationEventsV1.VerificationMetadataChanged.decode(m.value);
    expect(decode(messages[2]!)).toMatchObject({ ...ids, keys: ['alpha', 'zeta'] });
    expect(decode(messages[3]!)).toMatchObject({ ...ids, keys: ['order'] });
    for (const m of messages) {
      const raw = [m.value.toString('latin1'), JSON.stringify(m.headers)].join('\n');
      for (const value of Object.values(values)) expect(raw).not.toContain(value);
    }
    expectNoPii(messages);
  });

  it('publishes VerificationMetadataChanged (keys only) for metadata given at the start, like PutMetadata', async () => {
    const program = await newProgram(h.programs);
    const values = { campaign: 'Vexmorrow-start-value', basket: 'Quindlefox-start-value' };
    const { verification } = await h.client.unary('startVerification', {
      requestId: '',
      programId: program.programId,
      trackingId: '',
      metadata: values,
      locale: 'de',
    });
    const verificationId = verification!.verificationId;
    const messages = await eventsOf(verificationId, 3);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationMetadataChanged`,
    ]);
    expect(verificationEventsV1.VerificationMetadataChanged.decode(messages[2]!.value)).toMatchObject({
      verificationId,
      programId: program.programId,
      accountId: program.accountId,
      testMode: true,
      keys: ['basket', 'campaign'],
    });
    for (const m of messages) {
      const raw = [m.value.toString('latin1'), JSON.stringify(m.headers)].join('\n');
      for (const value of Object.values(values)) expect(raw).not.toContain(value);
    }
  });

  it.each([
    ['on request', (id: string) => h.client.unary('expireVerification', { verificationId: id })],
    [
      'when read after its time',
      async (id: string) => {
        await h
          .db('verifications')
          .where({ id })
          .update({ expires_at: new Date(Date.now() - 1000) });
        return h.client.unary('getVerification', { verificationId: id });
      },
    ],
  ])('publishes VerificationExpired when it expires %s', async (_when, expire) => {
    const program = await newProgram(h.programs);
    const { verificationId } = await start(program.programId);
    await expire(verificationId);
    const messages = await eventsOf(verificationId, 4);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationStepChanged`,
      `${V}VerificationExpired`,
    ]);
    expect(verificationEventsV1.VerificationStepChanged.decode(messages[2]!.value)).toMatchObject({
      previousStep: 'collectStudentPersonalInfo',
      currentStep: 'error',
      errorIds: ['expiredVerification'],
    });
    expect(verificationEventsV1.VerificationExpired.decode(messages[3]!.value)).toMatchObject({
      verificationId,
      programId: program.programId,
      accountId: program.accountId,
      previousStep: 'collectStudentPersonalInfo',
      testMode: true,
    });
  });

  it('publishes VerificationLimitExceeded when the person reached the program limit', async () => {
    const program = await newProgram(h.programs, {
      segment: 'senior',
      verificationLimit: { quantity: 1, days: 30 },
    });
    const step = 'collectSeniorPersonalInfo';
    const senior = pii({ postalCode: '10001' });
    const first = await start(program.programId);
    expect((await submit(first.verificationId, step, senior)).verification!.currentStep).toBe('success');
    const second = await start(program.programId);
    const err = await failure(submit(second.verificationId, step, senior));
    expect(err.errorIds).toEqual(['verificationLimitExceeded']);

    const messages = await eventsOf(second.verificationId, 4);
    expect(messages.map(typeOf)).toEqual([
      `${V}VerificationCreated`,
      `${V}VerificationStepChanged`,
      `${V}VerificationStepChanged`,
      `${V}VerificationLimitExceeded`,
    ]);
    expect(verificationEventsV1.VerificationStepChanged.decode(messages[2]!.value)).toMatchObject({
      previousStep: step,
      currentStep: 'error',
      errorIds: ['verificationLimitExceeded'],
    });
    expect(verificationEventsV1.VerificationLimitExceeded.decode(messages[3]!.value)).toMatchObject({
      verificationId: second.verificationId,
      programId: program.programId,
      accountId: program.accountId,
      testMode: true,
    });
    expectNoPii([...messages, ...(await eventsOf(first.verificationId, 4))]);
  });
});
