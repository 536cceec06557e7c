import type { SubjectType } from '@eligo/vocabulary';
import { checkStepBody } from '../src/endpoints/verification-step-check';
import { subjectSchemas } from '../src/endpoints/verification-subjects';

/**
 * Test support: the personal-info bodies of the verification steps, checked by their subject schemas
 * (endpoints/verification-subjects.ts) as the routes check them, in the step error's words.
 */
export const checkSubject = (type: SubjectType, body: unknown) => checkStepBody(subjectSchemas[type], body);

/** A student's body with every field a student gives, each valid. */
export const fullStudent = {
  firstName: 'Jane',
  lastName: 'Doe',
  birthDate: '2000-01-31',
  email: 'jane@example.com',
  organization: { id: 42, name: 'Stanford University' },
  metadata: { plan: 'pro' },
};

/** Metadata of `count` keys (k0, k1, …), each valued v (the verification service takes at most 50). */
export const metadataOfKeys = (count: number) =>
  Object.fromEntries([...Array(count).keys()].map((i) => [`k${i}`, 'v']));
