import { invalidRequest } from './problems';
import { isId } from './ids';

/**
 * Keyset position in the add-school request list (newest first): the last row's created_at and id. Opaque to
 * callers (base64url JSON), so that its form can change; created_at is stored to the millisecond precisely
 * so that it round-trips through a JavaScript Date.
 */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify({ t: cursor.createdAt.getTime(), i: cursor.id })).toString('base64url');
}

export function decodePageToken(token: string): PageCursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      t?: unknown;
      i?: unknown;
    };
    if (Number.isSafeInteger(value.t) && typeof value.i === 'string' && isId(value.i))
      return { createdAt: new Date(value.t as number), id: value.i };
  } catch {
    // falls through to the same answer as a well-formed but meaningless token
  }
  throw invalidRequest('pageToken: is not a token returned by ListAddSchoolRequests');
}
