import { REJECTION_REASONS as CODES, type RejectionReason } from '@eligo/vocabulary';

/** The words a reviewer reads for each rejection reason (the person's page has its own, in the vocabulary). */
const LABELS: Readonly<Record<RejectionReason, string>> = {
  DOCUMENT_UNREADABLE: 'Unreadable (blurred, cropped, too dark)',
  DOCUMENT_EXPIRED: 'Expired',
  DOCUMENT_OUTDATED: 'Outdated (not of the current period)',
  DOCUMENT_PASSWORD_PROTECTED: 'Password protected',
  DOCUMENT_UNSUPPORTED: 'Not a kind of document we accept',
  DOCUMENT_LIKELY_FRAUD: 'Likely altered or fraudulent',
  MISSING_INFORMATION: 'Information missing',
  MISSING_INFORMATION_PERSON_NAME: "The person's name is missing",
  MISSING_INFORMATION_ORGANIZATION_NAME: "The organization's name is missing",
  MISMATCH_PERSON_FIRST_NAME: 'First name does not match',
  MISMATCH_PERSON_LAST_NAME: 'Last name does not match',
  MISMATCH_ORGANIZATION: 'Organization does not match',
  MISMATCH_STATUS: 'Status does not match (e.g. not enrolled)',
  INELIGIBLE_ORGANIZATION: 'Organization not eligible',
};

/** The rejection reasons a reviewer chooses from (@eligo/vocabulary REJECTION_REASONS), with their words. */
export const REJECTION_REASONS: readonly { code: RejectionReason; label: string }[] = CODES.map((code) => ({
  code,
  label: LABELS[code],
}));

/** The most reasons one rejection takes (the admin API's limit). */
export const MAX_REJECTION_REASONS = 10;
