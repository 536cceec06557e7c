import { encodeCursor, parsePageQuery } from '../domain/page';
import { listMessages, type MessageRecord } from '../repository/messages.repository';
import type { AppContext } from './context';

export interface MessagesPage {
  messages: (MessageRecord & { recipient: string })[];
  nextCursor: string;
}

/**
 * Send-link messages for operators, newest first: those sent and those the capture kept. Recipients are
 * decrypted here only, for this view; one that cannot be (another key) is shown empty rather than failing
 * the page.
 */
export async function listMessagePage(
  ctx: AppContext,
  request: { limit: number; cursor: string; requestId: string },
): Promise<MessagesPage> {
  const query = parsePageQuery(request);
  const filter = { requestId: request.requestId === '' ? undefined : request.requestId };
  const records = await listMessages(ctx.db, filter, query.limit + 1, query.before);
  const page = records.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    messages: page.map((m) => ({ ...m, recipient: recipientOf(ctx, m) })),
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
