import { notFound } from '@eligo/runtime';
import { isId, newId } from '../domain/ids';
import { validateSendLink, type Recipient, type SendLinkInput } from '../domain/send-link';
import * as events from '../events/publish';
import { findSendLinkRequest, insertSendLinkRequest } from '../repository/send-link-requests.repository';
import type { AppContext } from './context';
import { readProgram } from './program-access';

/**
 * SendLink: records the request with the recipient encrypted (bound to the request id) and announces it
 * with ids only; the notifier fetches the recipient over GetSendLinkRequest when it sends.
 */
export async function sendLink(
  ctx: AppContext,
  request: SendLinkInput & { programId: string; accountId: string },
): Promise<string> {
  const { program } = await readProgram(ctx.db, request.programId, request.accountId);
  const { recipient, trackingId } = validateSendLink(request);
  const id = newId();
  const plaintext = recipient.channel === 'EMAIL' ? recipient.email : recipient.phoneNumber;
  await ctx.db.transaction(async (trx) => {
    await insertSendLinkRequest(trx, {
      id,
      programId: program.id,
      channel: recipient.channel,
      recipient: ctx.sendLinkRecipients.encrypt(plaintext, id),
      trackingId,
    });
    await events.sendLinkRequested(trx, ctx.schema, {
      requestId: id,
      programId: program.id,
      accountId: program.accountId,
      channel: recipient.channel,
    });
  });
  return id;
}

export interface SendLinkRequestView {
  requestId: string;
  programId: string;
  recipient: Recipient;
  trackingId: string;
  createdAt: Date;
}

/** GetSendLinkRequest (notifier, service-to-service): the decrypted recipient. */
export async function getSendLinkRequest(ctx: AppContext, requestId: string): Promise<SendLinkRequestView> {
  const record = isId(requestId) ? await findSendLinkRequest(ctx.db, requestId) : undefined;
  if (!record) throw notFound('Send-link request not found');
  const value = ctx.sendLinkRecipients.decrypt(record.recipient, record.id);
  return {
    requestId: record.id,
    programId: record.programId,
    recipient:
      record.channel === 'EMAIL'
        ? { channel: 'EMAIL', email: value }
        : { channel: 'SMS', phoneNumber: value },
    trackingId: record.trackingId,
    createdAt: record.createdAt,
  };
}
