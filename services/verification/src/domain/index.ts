// The verification domain: pure rules of the flow (steps, subjects, decisions), no I/O.
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
} from './client-fields';
export {
  MAX_METADATA_KEY_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  metadataKeys,
  metadataProblems,
  metadataRequestProblem,
  RESERVED_METADATA_KEYS,
} from './metadata';
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
  SUBJECT_TYPES,
  subjectTypeOfStep,
  type CollectStep,
  type Step,
  type SubjectType,
  type SubmissionStep,
} from './steps';
export {
  emptySubject,
  normalizeSubject,
  type OrganizationRef,
  type Subject,
  type SubjectInput,
} from './subject';
export {
  allowedKeysMessage,
  GENERIC_SUBJECT_KEYS,
  hasKey,
  keysOfSubmission,
  SUBJECT_KEYS,
  unexpectedKeys,
  type SubjectKey,
} from './subject-fields';
export { invalidRequestMessage, validateSubject, type ValidationContext } from './subject-validation';
export { allows, isTransition, nextSteps, TRIGGERS, type Trigger } from './transitions';
