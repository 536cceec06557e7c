/**
 * The words the services and the gateway share: audience segments, errorIds, ids, subject types and keys, the
 * limits of client fields, metadata and document uploads, program settings' closed lists and the verification
 * triggers. Pure data and rules; this package imports nothing of ours, so any process can take it without
 * another service.
 */
export {
  canonicalLocale,
  DEVICE_FINGERPRINT_HASH_RULE,
  EXTERNAL_USER_ID_RULE,
  LOCALE_PATTERN,
  LOCALE_RULE,
  MAX_DEVICE_FINGERPRINT_HASH_LENGTH,
  MAX_EXTERNAL_USER_ID_LENGTH,
  MAX_LOCALE_LENGTH,
  validDeviceFingerprintHash,
  validExternalUserId,
} from './client-fields';
export { MAX_FILE_BYTES, MAX_UPLOAD_FILES, MIN_UPLOAD_FILES } from './documents';
export { DEFAULT_FORM_MESSAGES } from './form-messages';
export { REJECTION_REASONS, REJECTION_REASON_MESSAGES, type RejectionReason } from './rejection-reasons';
export { DEFAULT_ERROR_MESSAGES, ERROR_IDS, isErrorId, type ErrorId } from './error-ids';
export { ID_HEX, ID_PATTERN, isId, newId } from './ids';
export { IPV4_SOURCE, IPV6_SOURCE } from './ip-patterns';
export {
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  metadataKeys,
  metadataProblems,
  metadataRequestProblem,
  RESERVED_METADATA_KEYS,
} from './metadata';
export { ESTIMATED_REVIEW_TIMES, MAX_REVIEW_TIMES, ORGANIZATION_TYPES } from './program-settings';
export {
  AGE_BOUNDED_SEGMENTS,
  isSegment,
  SEGMENTS,
  segmentNames,
  subSegmentProblems,
  subSegmentsOf,
  type Segment,
} from './segments';
export {
  allowedKeysMessage,
  GENERIC_SUBJECT_KEYS,
  hasKey,
  isOptionalSubjectKey,
  SUBJECT_KEYS,
  SUBJECT_TYPES,
  unexpectedKeys,
  type SubjectKey,
  type SubjectType,
} from './subjects';
export { charLength, CONTROL_CHARACTERS, isPlainText } from './text';
export { TRIGGERS, type Trigger } from './triggers';
