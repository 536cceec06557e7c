/** A report column: its CSV header and what it holds. */
export interface ReportField {
  name: string;
  description: string;
}

export type FieldScope = 'STANDARD' | 'PII' | 'METADATA';

/** The columns of every verification report, in CSV order. */
export const STANDARD_FIELDS: readonly ReportField[] = [
  { name: 'verificationId', description: 'The verification id' },
  { name: 'programId', description: 'The program the verification ran in' },
  { name: 'programName', description: 'The name of that program' },
  { name: 'trackingId', description: "The integrator's tracking id, when one was given" },
  { name: 'segment', description: 'The segment verified (student, military, ...)' },
  { name: 'subSegment', description: 'The sub-segment reached (e.g. veteran, nurse)' },
  { name: 'mode', description: 'LIVE or TEST' },
  { name: 'currentStep', description: 'The step the verification is on' },
  { name: 'outcome', description: 'SUCCESS, ERROR, EXPIRED, PENDING_REVIEW, DOC_UPLOAD or IN_PROGRESS' },
  { name: 'errorIds', description: 'Error ids of the last step, separated by "|"' },
  { name: 'verificationMethod', description: 'INSTANT or MANUAL, once decided' },
  { name: 'organizationId', description: 'The catalog organization accepted' },
  { name: 'organizationName', description: 'Its name' },
  { name: 'docUploadCount', description: 'Document uploads submitted for review' },
  { name: 'reviewOutcome', description: 'APPROVED or REJECTED: the last document review' },
  { name: 'rejectionReasons', description: 'Rejection reasons of the last review, separated by "|"' },
  { name: 'metadataKeys', description: 'Keys of the verification metadata, separated by "|"' },
  { name: 'conversionCount', description: 'Conversions recorded against the verification' },
  { name: 'conversionTotals', description: 'Their amounts summed per currency, e.g. "USD 12.50|EUR 3.00"' },
  { name: 'conversionTags', description: 'Tags of those conversions, separated by "|"' },
  { name: 'created', description: 'When the verification started (ISO 8601, UTC)' },
  { name: 'lastUpdated', description: 'When its step last changed' },
  { name: 'completed', description: 'When it ended in success or error' },
];

/** Personal information: only in reports that asked for it, by a token with the PII role. */
export const PII_FIELDS: readonly ReportField[] = [
  { name: 'firstName', description: "The person's first name" },
  { name: 'lastName', description: "The person's last name" },
  { name: 'email', description: "The person's email address" },
  { name: 'phoneNumber', description: "The person's phone number" },
  { name: 'birthDate', description: "The person's birth date (YYYY-MM-DD)" },
  { name: 'postalCode', description: "The person's postal code" },
  { name: 'country', description: "The person's country (ISO 3166-1 alpha-2)" },
];

/** At most this many metadata columns: keys beyond it (sorted) are left out of a report. */
export const MAX_METADATA_COLUMNS = 100;

/**
 * A metadata key's column. Values are the integrator's and may hold personal information, so they are
 * reported with the PII columns only; without them, metadataKeys tells which keys a verification has.
 */
export function metadataField(key: string): ReportField {
  return {
    name: `metadata.${key}`,
    description: `The value of metadata key "${key}" (reports with personal information only)`,
  };
}

export function fieldSets(metadataKeys: readonly string[]): { scope: FieldScope; fields: ReportField[] }[] {
  return [
    { scope: 'STANDARD', fields: [...STANDARD_FIELDS] },
    { scope: 'PII', fields: [...PII_FIELDS] },
    { scope: 'METADATA', fields: metadataKeys.slice(0, MAX_METADATA_COLUMNS).map(metadataField) },
  ];
}
