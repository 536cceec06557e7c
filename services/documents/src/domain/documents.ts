import type { ErrorId } from '@eligo/vocabulary';

// The limits of one upload (1 to 3 files, 10 MiB each) are shared with the gateway: @eligo/vocabulary.

export type DocumentStatus = 'AWAITING_UPLOAD' | 'UPLOADING' | 'UPLOADED' | 'REJECTED';
export type UploadStatus = 'open' | 'submitted' | 'cancelled';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';
export const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'rejected'];
/**
 * Who decided a review: the test-mode rules at once, or a decision through the admin API by the operator token
 * (`operator`) or a named staff identity (`staff:<staffId>`); `staff` is what decisions made before staff had
 * identities (and callers that name no decider) record.
 */
export type DecidedBy = 'test-mode' | 'operator' | 'staff' | `staff:${string}`;

/** Why one file is refused, as the REST documents[].errors entry shows it. */
export type DocumentError = 'ZERO_SIZE' | 'TOO_LARGE' | 'UNSUPPORTED_TYPE';

/** The errorId the verification response carries for each refusal of a file. */
export const ERROR_ID_OF: Readonly<Record<DocumentError, ErrorId>> = {
  ZERO_SIZE: 'invalidFileSizeEmpty',
  TOO_LARGE: 'invalidFileSizeMax',
  UNSUPPORTED_TYPE: 'unsupportedDocMimeType',
};

/** Each errorId once, in the order the refusals first appear (files in manifest order). */
export function errorIdsOf(errors: readonly DocumentError[]): ErrorId[] {
  return [...new Set(errors.map((e) => ERROR_ID_OF[e]))];
}
