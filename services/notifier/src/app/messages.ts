import type { Transaction } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import { emailLoopContent, emailLoopLink } from '../domain/email-loop';
import { emailContent, smsContent, verificationLink, type MessageContent } from '../domain/send-link';
import type { MailResult } from './ports';
import {
  claimDueMessages,
  insertMessage,
  messageExists,
  updateMessage,
  type MessageRecord,
} from '../repository/messages.repository';
import { afterCommit, type AppContext } from './context';
import { newMessageId } from '../domain/ids';

export const MESSAGE_BATCH = 10;
/** Longer than an SMTP conversation can take (its phases time out after 10 s each). */
const MESSAGE_LEASE_MS = 120_000;
/** The pause before each retry of a mail the server could not take now (attempts 2 to 5). */
const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000];

/**
 * SendLinkRequested: the recipient is fetched from the programs service (events carry no personal data), the
 * message is written with the recipient encrypted (one per request, however often the event arrives), and
 * the sender is woken once it committed.
 */
export async function onSendLinkRequested(
  trx: Transaction,
  ctx: AppContext,
  e: { requestId: string },
): Promise<void> {
  const request = await ctx.programs.sendLinkRequest(e.requestId);
  if (!request) {
    ctx.logger.warn({ requestId: e.requestId }, 'send-link request unknown to the programs service; skipped');
    return;
  }
  const link = verificationLink(ctx.linkTemplate, request.programId, request.trackingId);
  const { recipient } = request;
  const content = recipient.channel === 'EMAIL' ? emailContent(link) : smsContent(link);
  const id = newMessageId();
  const created = await insertMessage(trx, {
    id,
    requestId: e.requestId,
    programId: request.programId,
    channel: recipient.channel,
    recipientEncrypted: ctx.recipients.encrypt(
      recipient.channel === 'EMAIL' ? recipient.email : recipient.phoneNumber,
      id,
    ),
    subject: content.subject,
    body: content.text,
    bodyHtml: content.html,
    createdAt: ctx.now(),
  });
  if (created) afterCommit(trx, () => ctx.wakeMessages());
}

/** EmailLoopCodeIssued as the notifier reads it: ids only, no code and no address. */
export interface EmailLoopCodeIssuedEvent {
  verificationId: string;
  programId: string;
  /** One per code mailed: the message's request id (one message per send, however often the event comes). */
  sendId: string;
  testMode: boolean;
}

/**
 * EmailLoopCodeIssued: the recipient and the code are taken from the verification service (events carry
 * neither), and one message is written, its recipient and its text and HTML encrypted (the code is a
 * credential). A test-mode code is captured at once, never mailed; any other is sent once the transaction
 * committed. A send that already has its message (a redelivery) asks nothing again; a code that is no longer
 * current (replaced, used, expired) is not sent.
 */
export async function onEmailLoopCodeIssued(
  trx: Transaction,
  ctx: AppContext,
  e: EmailLoopCodeIssuedEvent,
): Promise<void> {
  const ids = { verificationId: e.verificationId, sendId: e.sendId };
  if (!isId(e.sendId) || !isId(e.verificationId)) {
    ctx.logger.warn(ids, 'email-loop event without a valid send or verification id; skipped');
    return;
  }
  if (await messageExists(trx, e.sendId)) return;
  const taken = await ctx.verification.emailLoopMessage(e.verificationId, e.sendId);
  if (!taken) {
    ctx.logger.info(ids, 'email-loop code no longer current; nothing to send');
    return;
  }
  const programId = taken.programId || e.programId;
  const now = ctx.now();
  const link = emailLoopLink(ctx.linkTemplate, programId, e.verificationId, taken.code);
  const content = emailLoopContent({ code: taken.code, link, expiresAt: taken.expiresAt, now });
  const id = newMessageId();
  const created = await insertMessage(trx, {
    id,
    kind: 'EMAIL_LOOP',
    requestId: e.sendId,
    programId,
    verificationId: e.verificationId,
    channel: 'EMAIL',
    recipientEncrypted: ctx.recipients.encrypt(taken.email, id),
    subject: content.subject,
    body: '',
    bodyHtml: '',
    bodyEncrypted: ctx.bodies.encrypt(content.text, bodyContext(id, 'text')),
    bodyHtmlEncrypted: ctx.bodies.encrypt(content.html, bodyContext(id, 'html')),
    status: e.testMode ? 'captured' : 'pending',
    createdAt: now,
  });
  if (!created) return;
  if (e.testMode) afterCommit(trx, () => ctx.metrics.message('EMAIL', 'captured'));
  else afterCommit(trx, () => ctx.wakeMessages());
}

/** A sealed part is bound to its message and to its part: neither moves to another row or column. */
const bodyContext = (messageId: string, part: 'text' | 'html') => `${messageId}:${part}`;

/** The text and HTML of a message, decrypted when sealed; throws when they cannot be (another key). */
export function messageContent(ctx: AppContext, m: MessageRecord): Omit<MessageContent, 'subject'> {
  if (m.bodyEncrypted === null || m.bodyHtmlEncrypted === null) return { text: m.body, html: m.bodyHtml };
  return {
    text: ctx.bodies.decrypt(m.bodyEncrypted, bodyContext(m.id, 'text')),
    html: ctx.bodies.decrypt(m.bodyHtmlEncrypted, bodyContext(m.id, 'html')),
  };
}

/** One pass of the message sender: due messages, leased (replicas share the work), sent one by one. */
export async function sendDueMessages(ctx: AppContext): Promise<boolean> {
  const now = ctx.now();
  const claimed = await claimDueMessages(
    ctx.db,
    now,
    new Date(now.getTime() + MESSAGE_LEASE_MS),
    MESSAGE_BATCH,
  );
  for (const message of claimed) await sendMessage(ctx, message);
  return claimed.length === MESSAGE_BATCH;
}

async function sendMessage(ctx: AppContext, message: MessageRecord): Promise<void> {
  const result = await deliver(ctx, message);
  const attempts = message.attempts + 1;
  const now = ctx.now();
  const retryIn = result.status === 'failed' && !result.permanent ? RETRY_DELAYS_MS[attempts - 1] : undefined;
  if (result.status === 'failed') {
    // The reason is in our words and names no address (adapters/smtp-mailer.ts).
    ctx.logger.warn(
      { messageId: message.id, error: result.error, attempts, retry: retryIn !== undefined },
      'mail not sent',
    );
  }
  await updateMessage(ctx.db, message.id, {
    status: retryIn !== undefined ? 'pending' : result.status,
    attempts,
    nextAttemptAt: retryIn !== undefined ? new Date(now.getTime() + retryIn) : null,
    ...(result.status === 'sent' ? { sentAt: now } : {}),
    error: result.status === 'failed' ? result.error : null,
  });
  ctx.metrics.message(message.channel, retryIn !== undefined ? 'retry' : result.status);
}

async function deliver(ctx: AppContext, message: MessageRecord): Promise<MailResult> {
  // Eligo has no SMS gateway: text messages are always kept by the capture, for operators to read.
  if (message.channel === 'SMS') return { status: 'captured' };
  let to: string;
  let content: Omit<MessageContent, 'subject'>;
  try {
    to = ctx.recipients.decrypt(message.recipientEncrypted, message.id);
  } catch {
    return {
      status: 'failed',
      error: 'the recipient cannot be decrypted (another encryption key?)',
      permanent: true,
    };
  }
  try {
    content = messageContent(ctx, message);
  } catch {
    return {
      status: 'failed',
      error: 'the body cannot be decrypted (another encryption key?)',
      permanent: true,
    };
  }
  return ctx.mailer.send({ to, subject: message.subject, text: content.text, html: content.html });
}
