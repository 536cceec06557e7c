import type { verificationV1 } from '@eligo/proto';
import type {
  VerificationSearchPageJson,
  VerificationSummaryJson,
} from '../endpoints/admin-verification-search';
import { present } from './program';

/** A verification as the staff search lists it; times in epoch milliseconds, no tracking id is null. */
export function verificationSummaryToJson(v: verificationV1.VerificationSummary): VerificationSummaryJson {
  return {
    verificationId: v.verificationId,
    programId: v.programId,
    accountId: v.accountId,
    segment: v.segment,
    currentStep: v.currentStep,
    testMode: v.testMode,
    // Every stored verification has both (a missing one is a fault of the service: 500, logged).
    created: present(v.createdAt, 'createdAt').getTime(),
    updated: present(v.updatedAt, 'updatedAt').getTime(),
    trackingId: v.trackingId || null,
  };
}

/** One page of the search: the service's next_page_token is the admin API's nextCursor. */
export function verificationSearchPageToJson(
  reply: verificationV1.SearchVerificationsResponse,
): VerificationSearchPageJson {
  return {
    verifications: reply.verifications.map(verificationSummaryToJson),
    nextCursor: reply.nextPageToken || null,
  };
}
