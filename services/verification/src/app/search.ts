import { searchPageOf, searchQueryOf, type SearchRequest } from '../domain/search';
import {
  searchVerifications as searchRows,
  type VerificationSummaryRecord,
} from '../repository/search.repository';
import type { AppContext } from './context';

export type VerificationSummary = Omit<VerificationSummaryRecord, 'position'>;

/**
 * SearchVerifications (staff, the admin API): any account's verifications by tracking id, email or program,
 * newest first, one page at a time. The email is matched through the keyed HMAC stored with the verification
 * (ctx.person.lookupHash of the folded address, as submit.ts stores it): the address itself is never compared,
 * stored or logged here.
 */
export async function searchVerifications(
  ctx: AppContext,
  request: SearchRequest,
): Promise<{ verifications: VerificationSummary[]; nextPageToken: string }> {
  const query = searchQueryOf(request);
  const rows = await searchRows(ctx.db, {
    trackingId: query.trackingId,
    emailHash: query.email === null ? null : ctx.person.lookupHash(query.email),
    programId: query.programId,
    after: query.after,
    // One more than asked tells whether another page follows, without a count.
    limit: query.limit + 1,
  });
  const page = searchPageOf(rows, query.limit);
  return {
    verifications: page.items.map(summaryOf),
    nextPageToken: page.nextPageToken,
  };
}

/** The row without its position: the token carries that, once, for the page's last row. */
function summaryOf(row: VerificationSummaryRecord): VerificationSummary {
  const { position, ...summary } = row;
  void position;
  return summary;
}
