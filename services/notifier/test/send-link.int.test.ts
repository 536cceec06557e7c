import { decodeQuotedPrintable, startSmtpCapture, waitFor, type SmtpCapture } from '@eligo/local-infra';
import { notifierV1 } from '@eligo/proto';
import { newProgram, startNotifier, type Harness } from './support';

const { MessageChannel, MessageKind, MessageStatus } = notifierV1;

/** The message of a send-link request as the operator sees it, once it reached `status`. */
async function messageOf(h: Harness, requestId: string, status: notifierV1.MessageStatus) {
  return waitFor(`message of ${requestId}`, async () => {
    const { messages } = await h.notifier.unary('listMessages', {
      limit: 0,
      cursor: '',
      requestId,
      verificationId: '',
    });
    return messages.find((m) => m.status === status);
  });
}

describe('with an SMTP server', () => {
  let h: Harness;
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    h = await startNotifier({
      ELIGO_SMTP_URL: smtp.url,
      ELIGO_SMTP_FROM: 'Eligo Test <links@eligo.test>',
      ELIGO_SEND_LINK_URL: 'https://verify.example.com/v/{programId}?t={trackingId}',
    });
  }, 180_000);
  afterAll(async () => {
    await h?.stop();
    await smtp?.stop();
  });

  it('mails the verification link to the recipient, once, and logs it as SENT', async () => {
    const { programId, accountId } = await newProgram(h.programs);
    const email = `student-${Date.now()}@example.com`;
    const { requestId } = await h.programs.unary('sendLink', {
      programId,
      accountId,
      recipient: { $case: 'email', email },
      trackingId: 'crm 7',
    });
    const mail = await smtp.waitForMail((m) => m.to.includes(email), 30_000);
    expect(mail.from).toBe('links@eligo.test');
    const text = decodeQuotedPrintable(mail.raw);
    expect(text).toContain(`https://verify.example.com/v/${programId}?t=crm%207`);
    expect(text).toContain('Subject: Verify your eligibility');

    const message = await messageOf(h, requestId, MessageStatus.MESSAGE_STATUS_SENT);
    expect(message).toMatchObject({
      requestId,
      programId,
      kind: MessageKind.MESSAGE_KIND_SEND_LINK,
      verificationId: '',
      channel: MessageChannel.MESSAGE_CHANNEL_EMAIL,
      recipient: email,
      subject: 'Verify your eligibility',
      error: '',
    });
    expect(message.body).toContain(`https://verify.example.com/v/${programId}?t=crm%207`);
    expect(message.sentAt).toBeInstanceOf(Date);
    // The recipient is personal data: stored encrypted only.
    const [row] = await h.db('messages').where({ request_id: requestId }).select('recipient_encrypted');
    expect((row as { recipient_encrypted: Buffer }).recipient_encrypted.toString('latin1')).not.toContain(
      email,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.mails().filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('keeps a text message in the capture: there is no SMS gateway', async () => {
    const { programId, accountId } = await newProgram(h.programs);
    const { requestId } = await h.programs.unary('sendLink', {
      programId,
      accountId,
      recipient: { $case: 'phoneNumber', phoneNumber: '+14155550100' },
      trackingId: '',
    });
    const message = await messageOf(h, requestId, MessageStatus.MESSAGE_STATUS_CAPTURED);
    expect(message).toMatchObject({ channel: MessageChannel.MESSAGE_CHANNEL_SMS, recipient: '+14155550100' });
    expect(message.body).toBe(
      `Verify your eligibility for an offer: https://verify.example.com/v/${programId}?t=`,
    );
  });
});

describe('without an SMTP server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotifier({ ELIGO_PUBLIC_BASE_URL: 'https://eligo.example.com' });
  }, 180_000);
  afterAll(async () => h?.stop());

  it('keeps the mail in the local capture, readable by operators', async () => {
    const { programId, accountId } = await newProgram(h.programs);
    const email = `capture-${Date.now()}@example.com`;
    const { requestId } = await h.programs.unary('sendLink', {
      programId,
      accountId,
      recipient: { $case: 'email', email },
      trackingId: 'crm-9',
    });
    const message = await messageOf(h, requestId, MessageStatus.MESSAGE_STATUS_CAPTURED);
    expect(message).toMatchObject({
      channel: MessageChannel.MESSAGE_CHANNEL_EMAIL,
      recipient: email,
      programId,
    });
    expect(message.body).toContain(`https://eligo.example.com/verify/${programId}?trackingId=crm-9`);
    expect(message.sentAt).toBeUndefined();
    const all = await h.notifier.unary('listMessages', {
      limit: 100,
      cursor: '',
      requestId: '',
      verificationId: '',
    });
    expect(all.messages.map((m) => m.messageId)).toContain(message.messageId);
  });
});

describe('with an SMTP server that cannot be reached', () => {
  let h: Harness;
  beforeAll(async () => {
    // Port 1 on loopback: nothing listens, every connection is refused at once.
    h = await startNotifier({ ELIGO_SMTP_URL: 'smtp://127.0.0.1:1' });
  }, 180_000);
  afterAll(async () => h?.stop());

  it('keeps the message for a retry later, saying why in its own words', async () => {
    const { programId, accountId } = await newProgram(h.programs);
    const email = `unreachable-${Date.now()}@example.com`;
    const { requestId } = await h.programs.unary('sendLink', {
      programId,
      accountId,
      recipient: { $case: 'email', email },
      trackingId: '',
    });
    const row = await waitFor('the failed attempt', async () => {
      const [found] = await h.db('messages').where({ request_id: requestId }).where('attempts', '>', 0);
      return found as { attempts: number; next_attempt_at: Date; created_at: Date } | undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.next_attempt_at.getTime() - row.created_at.getTime()).toBeGreaterThanOrEqual(30_000);
    const message = await messageOf(h, requestId, MessageStatus.MESSAGE_STATUS_PENDING);
    expect(message.error).toMatch(/^SMTP failed \(E[A-Z]+\)$/);
    expect(message.error).not.toContain(email);
  });
});
