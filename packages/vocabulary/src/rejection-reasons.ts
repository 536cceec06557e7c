/**
 * The rejection reasons of a document review: the upper-case codes a reviewer chooses from, which the person's
 * docUpload step (rejectionReasons) and the program's webhook receive. The admin API takes any code of 2 to 64
 * A-Z, 0-9 and _ (an operator's own codes too); these are the ones Eligo's console offers and its hosted page
 * words for the person (DEFAULT_FORM_MESSAGES `rejectionReason.<code>`, overridable by the program's theme).
 */
export const REJECTION_REASONS = [
  'DOCUMENT_UNREADABLE',
  'DOCUMENT_EXPIRED',
  'DOCUMENT_OUTDATED',
  'DOCUMENT_PASSWORD_PROTECTED',
  'DOCUMENT_UNSUPPORTED',
  'DOCUMENT_LIKELY_FRAUD',
  'MISSING_INFORMATION',
  'MISSING_INFORMATION_PERSON_NAME',
  'MISSING_INFORMATION_ORGANIZATION_NAME',
  'MISMATCH_PERSON_FIRST_NAME',
  'MISMATCH_PERSON_LAST_NAME',
  'MISMATCH_ORGANIZATION',
  'MISMATCH_STATUS',
  'INELIGIBLE_ORGANIZATION',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** What the person reads for each reason (the hosted page's default text). */
export const REJECTION_REASON_MESSAGES: Readonly<Record<RejectionReason, string>> = {
  DOCUMENT_UNREADABLE: 'The document could not be read: make sure it is sharp, whole and well lit.',
  DOCUMENT_EXPIRED: 'The document has expired.',
  DOCUMENT_OUTDATED: 'The document is not from the current period.',
  DOCUMENT_PASSWORD_PROTECTED: 'The document is protected by a password.',
  DOCUMENT_UNSUPPORTED: 'This kind of document does not show your eligibility.',
  DOCUMENT_LIKELY_FRAUD: 'The document could not be accepted.',
  MISSING_INFORMATION: 'The document does not show all the information needed.',
  MISSING_INFORMATION_PERSON_NAME: 'The document does not show your name.',
  MISSING_INFORMATION_ORGANIZATION_NAME: 'The document does not show the name of your organization.',
  MISMATCH_PERSON_FIRST_NAME: 'The first name on the document is not the one you entered.',
  MISMATCH_PERSON_LAST_NAME: 'The last name on the document is not the one you entered.',
  MISMATCH_ORGANIZATION: 'The organization on the document is not the one you chose.',
  MISMATCH_STATUS: 'The document does not show your current status (for example, enrolled or employed).',
  INELIGIBLE_ORGANIZATION: 'Your organization is not eligible for this offer.',
};
