/**
 * The rejection reasons a reviewer chooses from, as REST v2 states them: upper-case codes the person's page
 * and the program's webhook receive in rejectionReasons (docs/architecture.md, "Wire details"; the admin API
 * takes any code of 2 to 64 A-Z, 0-9 and _). @eligo/vocabulary has no list of them yet: this is it, with the
 * words the console shows for each.
 */
export const REJECTION_REASONS: readonly { code: string; label: string }[] = [
  { code: 'DOCUMENT_UNREADABLE', label: 'Unreadable (blurred, cropped, too dark)' },
  { code: 'DOCUMENT_EXPIRED', label: 'Expired' },
  { code: 'DOCUMENT_OUTDATED', label: 'Outdated (not of the current period)' },
  { code: 'DOCUMENT_PASSWORD_PROTECTED', label: 'Password protected' },
  { code: 'DOCUMENT_UNSUPPORTED', label: 'Not a kind of document we accept' },
  { code: 'DOCUMENT_LIKELY_FRAUD', label: 'Likely altered or fraudulent' },
  { code: 'MISSING_INFORMATION', label: 'Information missing' },
  { code: 'MISSING_INFORMATION_PERSON_NAME', label: "The person's name is missing" },
  { code: 'MISSING_INFORMATION_ORGANIZATION_NAME', label: "The organization's name is missing" },
  { code: 'MISMATCH_PERSON_FIRST_NAME', label: 'First name does not match' },
  { code: 'MISMATCH_PERSON_LAST_NAME', label: 'Last name does not match' },
  { code: 'MISMATCH_ORGANIZATION', label: 'Organization does not match' },
  { code: 'MISMATCH_STATUS', label: 'Status does not match (e.g. not enrolled)' },
  { code: 'INELIGIBLE_ORGANIZATION', label: 'Organization not eligible' },
];

/** The most reasons one rejection takes (the admin API's limit). */
export const MAX_REJECTION_REASONS = 10;
