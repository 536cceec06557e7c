import { ERROR_IDS, type ErrorId } from './error-ids';

/**
 * The spec's limits of one upload (docs/architecture.md, "Wire details"): 1 to 3 files of at most 10 MiB
 * each.
 */
export const MIN_FILES = 1;
export const MAX_FILES = 3;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export type DocumentStatus = 'AWAITING_UPLOAD' | 'UPLOADING' | 'UPLOADED' | 'REJECTED';
export type UploadStatus = 'open' | 'submitted' | 'cancelled';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';
export const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'rejected'];
/** Who decided a review: staff through the admin API, or the test-mode rules at once. */
export type DecidedBy = 'staff' | 'test-mode';

/** Why one file is refused, as the REST documents[].errors entry shows it. */
export type DocumentError = 'ZERO_SIZE' | 'TOO_LARGE' | 'UNSUPPORTED_TYPE';

/** The errorId the verification response carries for each refusal of a file. */
export const ERROR_ID_OF: Readonly<Record<DocumentError, ErrorId>> = {
  ZERO_SIZE: ERROR_IDS.invalidFileSizeEmpty,
  TOO_LARGE: ERROR_IDS.invalidFileSizeMax,
  UNSUPPORTED_TYPE: ERROR_IDS.unsupportedDocMimeType,
};

/** Each errorId once, in the order the refusals first appear (files in manifest order). */
export function errorIdsOf(errors: readonly DocumentError[]): ErrorId[] {
  return [...new Set(errors.map((e) => ERROR_ID_OF[e]))];
}
