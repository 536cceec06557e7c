import {
  decodeQuotedPrintable,
  failure,
  startSmtpCapture,
  waitFor,
  type SmtpCapture,
} from '@eligo/local-infra';
import { notifierV1, verificationEventsV1 } from '@eligo/proto';
import {
  buildCloudEventHeaders,
  createKafkaEventBus,
  createLogger,
  topicFor,
  type EventBus,
} from '@eligo/runtime';
import { newId } from '@eligo/vocabulary';
import { newProgram, startNotifier, type Harness } from './support';
import { startVerificationStandIn, type VerificationStandIn } from './verification-stand-in';

const { MessageChannel, MessageKind, MessageStatus } = notifierV1;

interface MessageRow {
  kind: string;
  verification_id: string | null;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  recipient_encrypted: Buffer;
  subject: string;
  body: string;
  body_html: string;
  body_encrypted: Buffer | null;
  body_html_encrypted: Buffer | null;
}

/**
 * Email-loop codes (issue 22): EmailLoopCodeIssued published on the suite's Kafka exactly as the verification
 * service's outbox relay would, consumed by the notifier, which takes the recipient and the code from a
 * VerificationService stand-in (a real gRPC server: the verification module's TakeEmailLoopMessage is not
 * this suite's business) and mails them through a real SMTP server, or keeps a test-mode code in the capture.
 */
describe('email-loop messages', () => {
  const programId = newId();
  const linkTemplate = 'https://verify.example.com/verify/{programId}';
  let verification: VerificationStandIn;
  let smtp: SmtpCapture;
  let h: Harness;
  let bus: EventBus;

  beforeAll(async () => {
    verification = await startVerificationStandIn();
    smtp = await startSmtpCapture();
    h = await startNotifier(
      { ELIGO_SMTP_URL: smtp.url, ELIGO_SEND_LINK_URL: linkTemplate },
      { verification: verification.address },
    );
    bus = createKafkaEventBus({
      brokers: h.sut.config.kafka.brokers!,
      clientId: 'notifier-email-loop-it',
      logger: createLogger({ level: 'silent' }),
    });
  }, 180_000);
  afterAll(async () => {
    await bus?.close();
    await h?.stop();
    await smtp?.stop();
    verification?.stop();
  });

  /** A code the verification service will hand out for a new send of the verification: its send id. */
  function plan(verificationId: string, code: string, email: string): string {
    const sendId = newId();
    verification.plan({
      verificationId,
      sendId,
      email,
      code,
      locale: 'en-US',
      expiresAt: new Date(Date.now() + 15 * 60_000),
      programId,
    });
    return sendId;
  }

  /** Publishes EmailLoopCodeIssued (with the headers given: a redelivery of the same event). */
  async function issue(
    e: { verificationId: string; sendId: string; testMode: boolean },
    headers = buildCloudEventHeaders({
      service: 'verification',
      eventName: 'EmailLoopCodeIssued',
      subject: e.verificationId,
    }),
  ) {
    const event = verificationEventsV1.EmailLoopCodeIssued.create({
      ...e,
      programId,
      occurredAt: new Date(),
    });
    const value = Buffer.from(verificationEventsV1.EmailLoopCodeIssued.encode(event).finish());
    await bus.publish([{ topic: topicFor('verification'), key: e.verificationId, value, headers }]);
    return headers;
  }

  const list = (filter: { verificationId?: string; limit?: number; cursor?: string }) =>
    h.notifier.unary('listMessages', {
      limit: filter.limit ?? 100,
      cursor: filter.cursor ?? '',
      requestId: '',
      verificationId: filter.verificationId ?? '',
    });

  /** The verification's messages once the send's is there (events of one verification are handled in order). */
  const messagesOnceThere = (verificationId: string, sendId: string) =>
    waitFor(`the message of send ${sendId}`, async () => {
      const { messages } = await list({ verificationId });
      return messages.some((m) => m.requestId === sendId) ? messages : undefined;
    });

  const rowOf = async (sendId: string) =>
    (await h.db('messages').where({ request_id: sendId }).first()) as MessageRow | undefined;

  /** A stored value does not hold `secret`, however it is read. */
  const hides = (stored: Buffer | null, secret: string) => {
    expect(stored).toBeInstanceOf(Buffer);
    expect(stored!.toString('latin1')).not.toContain(secret);
    expect(stored!.toString('utf8')).not.toContain(secret);
  };

  it('keeps a test-mode code in the capture, sealed at rest, one message per send however often its event comes', async () => {
    const verificationId = newId();
    const email = `loop-${Date.now()}@example.edu`;
    const sendId = plan(verificationId, '042917', email);
    const headers = await issue({ verificationId, sendId, testMode: true });
    // The same event again (the inbox knows its ce_id), then republished under a new ce_id (the send id is
    // the message's key).
    await issue({ verificationId, sendId, testMode: true }, headers);
    await issue({ verificationId, sendId, testMode: true });
    // A later send of the verification comes after them on its partition: once its message is there, the
    // three were handled.
    const later = plan(verificationId, '555123', email);
    await issue({ verificationId, sendId: later, testMode: true });
    const messages = await messagesOnceThere(verificationId, later);

    expect(messages.map((m) => m.requestId).sort()).toEqual([sendId, later].sort());
    const message = messages.find((m) => m.requestId === sendId)!;
    const link = `https://verify.example.com/verify/${programId}?verificationId=${verificationId}#emailToken=042917`;
    expect(message).toMatchObject({
      kind: MessageKind.MESSAGE_KIND_EMAIL_LOOP,
      verificationId,
      programId,
      channel: MessageChannel.MESSAGE_CHANNEL_EMAIL,
      recipient: email,
      subject: 'Your verification code',
      status: MessageStatus.MESSAGE_STATUS_CAPTURED,
      error: '',
    });
    // Listed decrypted: the operator reads the code of a test-mode verification here.
    expect(message.body).toContain('    042917\n');
    expect(message.body).toContain('within 15 minutes');
    expect(message.body).toContain(link);
    expect(message.sentAt).toBeUndefined();
    // The code was asked for once: the redelivery under a new ce_id found the message.
    expect(verification.calls.filter((c) => c.sendId === sendId)).toEqual([{ verificationId, sendId }]);

    // At rest: the text and HTML sealed, nothing of the code or the address in the clear.
    const row = (await rowOf(sendId))!;
    expect(row).toMatchObject({
      kind: 'EMAIL_LOOP',
      verification_id: verificationId,
      status: 'captured',
      attempts: 0,
      next_attempt_at: null,
      subject: 'Your verification code',
      body: '',
      body_html: '',
    });
    hides(row.body_encrypted, '042917');
    hides(row.body_html_encrypted, '042917');
    hides(row.recipient_encrypted, email);

    // Captured at once, never mailed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails().filter((m) => m.to.includes(email))).toEqual([]);
  });

  it('mails a live code through SMTP, decrypting it for the mail only', async () => {
    const verificationId = newId();
    const email = `live-${Date.now()}@example.edu`;
    const sendId = plan(verificationId, '731904', email);
    await issue({ verificationId, sendId, testMode: false });

    const mail = await smtp.waitForMail((m) => m.to.includes(email), 30_000);
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toContain('Subject: Your verification code');
    expect(text).toContain('731904');
    expect(text).toContain(
      `https://verify.example.com/verify/${programId}?verificationId=${verificationId}#emailToken=731904`,
    );
    expect(text).toMatch(/<p style="font-size:32px[^"]*">731904<\/p>/);

    const message = await waitFor('the sent message', async () => {
      const { messages } = await list({ verificationId });
      return messages.find((m) => m.status === MessageStatus.MESSAGE_STATUS_SENT);
    });
    expect(message).toMatchObject({
      requestId: sendId,
      kind: MessageKind.MESSAGE_KIND_EMAIL_LOOP,
      recipient: email,
    });
    expect(message.sentAt).toBeInstanceOf(Date);
    const row = (await rowOf(sendId))!;
    expect([row.status, row.body, row.body_html]).toEqual(['sent', '', '']);
    hides(row.body_encrypted, '731904');
    hides(row.body_html_encrypted, '731904');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails().filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('sends nothing for a code that is no longer current', async () => {
    const verificationId = newId();
    const email = `stale-${Date.now()}@example.edu`;
    // Not planned: the stand-in answers found=false, as for a code replaced, used or expired.
    const stale = newId();
    await issue({ verificationId, sendId: stale, testMode: false });
    const current = plan(verificationId, '100200', email);
    await issue({ verificationId, sendId: current, testMode: false });

    const messages = await messagesOnceThere(verificationId, current);
    expect(messages.map((m) => m.requestId)).toEqual([current]);
    expect(verification.calls).toContainEqual({ verificationId, sendId: stale });
    expect(await rowOf(stale)).toBeUndefined();
    const mail = await smtp.waitForMail((m) => m.to.includes(email), 30_000);
    expect(decodeQuotedPrintable(mail.raw)).toContain('100200');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails().filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it("lists one verification's messages, page by page, apart from the send-link ones", async () => {
    const [first, second] = [newId(), newId()];
    const email = `filter-${Date.now()}@example.edu`;
    const sends = [plan(first, '111111', email), plan(first, '222222', email)];
    for (const sendId of sends) await issue({ verificationId: first, sendId, testMode: true });
    const other = plan(second, '333333', email);
    await issue({ verificationId: second, sendId: other, testMode: true });
    const program = await newProgram(h.programs);
    const { requestId } = await h.programs.unary('sendLink', {
      ...program,
      recipient: { $case: 'email', email },
      trackingId: '',
    });
    await messagesOnceThere(first, sends[1]!);
    await messagesOnceThere(second, other);
    const sendLink = await waitFor('the send-link message', async () => {
      const { messages } = await h.notifier.unary('listMessages', {
        limit: 0,
        cursor: '',
        requestId,
        verificationId: '',
      });
      return messages[0];
    });
    expect(sendLink).toMatchObject({ kind: MessageKind.MESSAGE_KIND_SEND_LINK, verificationId: '' });

    const page1 = await list({ verificationId: first, limit: 1 });
    expect(page1.messages).toHaveLength(1);
    expect(page1.nextCursor).not.toBe('');
    const page2 = await list({ verificationId: first, limit: 1, cursor: page1.nextCursor });
    expect(page2.messages).toHaveLength(1);
    expect(page2.nextCursor).toBe('');
    const listed = [...page1.messages, ...page2.messages];
    expect(listed.map((m) => m.requestId).sort()).toEqual([...sends].sort());
    // Newest first.
    expect(listed[0]!.createdAt!.getTime()).toBeGreaterThanOrEqual(listed[1]!.createdAt!.getTime());
    expect(
      listed.every((m) => m.verificationId === first && m.kind === MessageKind.MESSAGE_KIND_EMAIL_LOOP),
    ).toBe(true);
    expect(listed.map((m) => m.body.includes(m.requestId === sends[0] ? '111111' : '222222'))).toEqual([
      true,
      true,
    ]);
    expect((await list({ verificationId: second })).messages.map((m) => m.requestId)).toEqual([other]);
    expect((await list({ verificationId: newId() })).messages).toEqual([]);

    // Unfiltered, both kinds.
    const all = (await list({})).messages.map((m) => m.requestId);
    expect(all).toEqual(expect.arrayContaining([...sends, other, requestId]));

    const refused = await failure(list({ verificationId: 'NOT-AN-ID' }));
    expect([refused.codeName, refused.message]).toEqual([
      'INVALID_ARGUMENT',
      'verificationId must be 24 lowercase hex characters',
    ]);
  });
});
