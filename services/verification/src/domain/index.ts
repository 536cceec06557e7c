// The verification domain: pure rules of the flow (steps, subjects, decisions), no I/O. The shared words
// (subject types and keys, triggers, client-field and metadata rules) come from @eligo/vocabulary and are
// passed on here so the service's own code has one place to import its domain from.
export {
  allowedKeysMessage,
  GENERIC_SUBJECT_KEYS,
  hasKey,
  SUBJECT_KEYS,
  SUBJECT_TYPES,
  TRIGGERS,
  unexpectedKeys,
  type SubjectKey,
  type SubjectType,
  type Trigger,
} from '@eligo/vocabulary';
export { ageDecision, ageOn, type AgeRefusal } from './age';
export { isCalendarDate, parseCalendarDate, utcToday, type CalendarDate } from './calendar-date';
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
} from '@eligo/vocabulary';
export {
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  metadataKeys,
  metadataProblems,
  metadataRequestProblem,
  RESERVED_METADATA_KEYS,
} from '@eligo/vocabulary';
export {
  decideSocialSecurityNumber,
  decideSubmission,
  validSocialSecurityNumber,
  type Mode,
  type Outcome,
  type SubmissionInput,
} from './outcome';
export { normalizedEmail, normalizedIdentity } from './person-key';
export {
  availableStatuses,
  FIRST_RESPONDER_STATUSES,
  impliedMilitaryStatus,
  isMilitaryStatus,
  isStatusOf,
  LICENSED_PROFESSIONAL_STATUSES,
  LOW_INCOME_STATUSES,
  MEDICAL_STATUSES,
  MILITARY_STATUSES,
  militaryStatusProblem,
  MOVER_STATUSES,
  nextStepForMilitaryStatus,
  statusAllowedForProgram,
  statusRefusalMessage,
  SUB_SEGMENT_OF_STATUS,
  subSegmentOfStatus,
  subSegmentOfStatuses,
  type MilitaryStatus,
  type Status,
  type SubSegment,
} from './statuses';
export { reverifyVerdict, submittedCollectStep, type ReverifyVerdict } from './reverify';
export {
  acceptsSubmission,
  COLLECT_STEPS,
  collectStepOf,
  collectStepsOfSegment,
  firstStep,
  GENERIC_COLLECT_STEP,
  isCollectStep,
  isFinal,
  isMilitaryCollectStep,
  isStep,
  MARKETPLACE_COLLECT_STEP,
  segmentOfSubjectType,
  STEPS,
  subjectTypeOfStep,
  type CollectStep,
  type Step,
  type SubmissionStep,
} from './steps';
export {
  emptySubject,
  normalizeSubject,
  type OrganizationRef,
  type Subject,
  type SubjectInput,
} from './subject';
export { keysOfSubmission } from './subject-fields';
export { invalidRequestMessage, validateSubject, type ValidationContext } from './subject-validation';
export { allows, isTransition, nextSteps } from './transitions';
