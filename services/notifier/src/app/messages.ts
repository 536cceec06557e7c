import type { Knex } from '@eligo/runtime';
import { emailContent, smsContent, verificationLink } from '../domain/send-link';
import type { MailResult } from './ports';
import {
  claimDueMessages,
  insertMessage,
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
  trx: Knex.Transaction,
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
  try {
    to = ctx.recipients.decrypt(message.recipientEncrypted, message.id);
  } catch {
    return {
      status: 'failed',
      error: 'the recipient cannot be decrypted (another encryption key?)',
      permanent: true,
    };
  }
  return ctx.mailer.send({ to, subject: message.subject, text: message.body, html: message.bodyHtml });
}
