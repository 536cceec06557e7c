import { invalidArgument } from '@eligo/runtime';
import { listPiiAccess, type PiiAccess } from '../repository/pii-access.repository';
import type { AppContext } from './context';

const DEFAULT_PAGE = 100;
const MAX_PAGE = 500;

/** The PII access log, newest first, a page at a time (the token is the last entry's time and id). */
export async function pageOfPiiAccess(
  app: AppContext,
  input: { accountId: string; pageSize: number; pageToken: string },
): Promise<{ accesses: PiiAccess[]; nextPageToken: string }> {
  const size = input.pageSize || DEFAULT_PAGE;
  if (size < 1 || size > MAX_PAGE)
    throw invalidArgument(`pageSize: 1 to ${MAX_PAGE}`, { errorIds: ['invalidRequest'] });
  const after = input.pageToken ? decodeToken(input.pageToken) : undefined;
  const accesses = await listPiiAccess(app.db, app.schema, {
    ...(input.accountId ? { accountId: input.accountId } : {}),
    limit: size + 1,
    ...(after ? { after } : {}),
  });
  const page = accesses.slice(0, size);
  const last = page[page.length - 1];
  return {
    accesses: page,
    nextPageToken:
      accesses.length > size && last
        ? Buffer.from(JSON.stringify([last.occurredAt.toISOString(), last.id])).toString('base64url')
        : '',
  };
}

function decodeToken(token: string): { occurredAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as [string, string];
    const occurredAt = new Date(at);
    if (typeof id === 'string' && !Number.isNaN(occurredAt.getTime())) return { occurredAt, id };
  } catch {
    // falls through to the error below
  }
  throw invalidArgument('Invalid page token', { errorIds: ['invalidRequest'] });
}
