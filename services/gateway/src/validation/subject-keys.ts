import { SUBJECT_KEYS } from '@eligo/vocabulary';

/**
 * The keys each personal-info body may have, keyed by the <Type> of the step path
 * (collect<Type>PersonalInfo): the verification domain's table of the spec's subjects (Student also takes
 * universityId), so that the gateway refuses exactly what the service would. Any other key is 400
 * invalidRequest. The subject schemas (endpoints/verification-subjects.ts) take the same table.
 */
export const subjectKeys: Record<string, readonly string[]> = SUBJECT_KEYS;

/** The subject types of the step paths, in the spec's order. */
export const subjectTypes: readonly string[] = Object.keys(subjectKeys);
