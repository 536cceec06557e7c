import { invalidArgument } from '@eligo/runtime';
import { isId } from '@eligo/vocabulary';
import { encodeCursor, parsePageQuery } from '../domain/page';
import { listMessages, type MessageRecord } from '../repository/messages.repository';
import type { AppContext } from './context';
import { messageContent } from './messages';

export interface MessagesPage {
  messages: (MessageRecord & { recipient: string })[];
  nextCursor: string;
}

/**
 * Send-link and email-loop messages for operators, newest first: those sent and those the capture kept (a
 * test-mode code is read here). Recipients and sealed bodies are decrypted here only, for this view; one that
 * cannot be (another key) is shown empty rather than failing the page.
 */
export async function listMessagePage(
  ctx: AppContext,
  request: { limit: number; cursor: string; requestId: string; verificationId: string },
): Promise<MessagesPage> {
  const query = parsePageQuery(request);
  if (request.verificationId !== '' && !isId(request.verificationId))
    throw invalidArgument('verificationId must be 24 lowercase hex characters');
  const filter = {
    requestId: request.requestId === '' ? undefined : request.requestId,
    verificationId: request.verificationId === '' ? undefined : request.verificationId,
  };
  const records = await listMessages(ctx.db, filter, query.limit + 1, query.before);
  const page = records.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    messages: page.map((m) => ({ ...m, recipient: recipientOf(ctx, m), body: bodyOf(ctx, m) })),
    nextCursor:
      records.length > query.limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : '',
  };
}

function recipientOf(ctx: AppContext, message: MessageRecord): string {
  try {
    return ctx.recipients.decrypt(message.recipientEncrypted, message.id);
  } catch {
    return '';
  }
}

function bodyOf(ctx: AppContext, message: MessageRecord): string {
  try {
    return messageContent(ctx, message).text;
  } catch {
    return '';
  }
}
