import { SUBJECT_KEYS, SUBJECT_TYPES, type SubjectType } from '@eligo/vocabulary';
import { checkSubject, fullStudent } from '../../test/subject-bodies';
import { subjectToProto, type SubjectBody } from './verification-subjects';

/** A personal-info body once checked, as the routes send it on: the proto Subject (null is not given). */
const checked = (type: SubjectType, body: unknown): SubjectBody => {
  const result = checkSubject(type, body);
  if (!result.ok) throw new Error(result.problem);
  return result.value;
};

describe('a checked body as the proto Subject', () => {
  it('converts a full student body, leaving what is missing empty', () => {
    const subject = subjectToProto(checked('Student', fullStudent));
    expect(subject).toMatchObject({
      ...fullStudent,
      postalCode: '',
      statuses: [],
      universityId: 0,
    });
  });

  it('takes every key of every type, with null as not given', () => {
    const sample: Record<string, unknown> = {
      organization: { id: 7 },
      metadata: { a: 'b' },
      statuses: ['HOME_BUYER'],
      universityId: 9,
      locale: 'fr-CA',
      externalUserId: 'user-42',
      deviceFingerprintHash: 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=',
    };
    for (const type of SUBJECT_TYPES) {
      const keys = SUBJECT_KEYS[type];
      const body = Object.fromEntries(keys.map((k) => [k, sample[k] ?? `${k}-value`]));
      const subject = subjectToProto(checked(type, body)) as unknown as Record<string, unknown>;
      for (const key of keys) {
        // The device fingerprint is checked, then dropped: nothing uses it.
        const expected =
          key === 'organization'
            ? { id: 7, name: '' }
            : key === 'deviceFingerprintHash'
              ? undefined
              : (sample[key] ?? `${key}-value`);
        expect([type, key, subject[key]]).toEqual([type, key, expected]);
      }
      const nulls = Object.fromEntries(keys.map((k) => [k, null]));
      expect(subjectToProto(checked(type, nulls))).toMatchObject({ firstName: '', organization: undefined });
    }
  });

  it('takes a universityId from a student, and an organization by name alone', () => {
    expect(subjectToProto(checked('Student', { universityId: 123 })).universityId).toBe(123);
    expect(subjectToProto(checked('Employee', { organization: { name: 'Acme' } })).organization).toEqual({
      id: 0,
      name: 'Acme',
    });
  });
});
