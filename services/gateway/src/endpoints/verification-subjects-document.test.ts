import { metadataProblems, type SubjectType } from '@eligo/vocabulary';
import { createDocumentValidator } from '../../test/document-validator';
import { checkSubject, metadataOfKeys } from '../../test/subject-bodies';

/**
 * What the document states of the personal-info bodies (the <Type>Subject schemas as the OpenAPI validator
 * reads them) against what the gateway checks, and against the verification service's metadata rules.
 */
const takes = (type: SubjectType, body: unknown) => checkSubject(type, body).ok;

describe('the published subject schemas', () => {
  const validator = createDocumentValidator();

  it('admit exactly the bodies the check takes', () => {
    const bodies: [SubjectType, unknown][] = [
      ['Student', { firstName: 'Jane', organization: { id: 1, name: 'X' }, metadata: { a: 'b' } }],
      ['Student', { firstName: 7 }],
      ['Student', { organization: { id: '1' } }],
      ['Student', { organization: { id: 1, country: 'US' } }],
      ['Student', { metadata: { a: 1 } }],
      ['Student', { phoneNumber: '1' }],
      ['Mover', { statuses: ['HOME_BUYER'] }],
      ['Mover', { statuses: [1] }],
      ['Age', { country: 'US', phoneNumber: '+14155550100' }],
      ['DriverLicense', { driverLicenseNumber: 'D123', state: 'CA', email: null }],
      ['Student', { organization: { id: 1 } }],
      ['Student', { organization: { name: 'Stanford' } }],
      ['Student', { organization: { id: null, name: 'Stanford' } }],
      ['Student', { organization: { id: 1, name: null } }],
      ['Student', { organization: { id: 1, name: '' } }],
      ['Student', { organization: {} }],
      ['Student', { organization: { name: null } }],
      ['Student', { organization: { name: '' } }],
      ['Student', { organization: { id: null, name: null } }],
      ['Student', { organization: null }],
      ['Student', { organization: { id: Number.MAX_SAFE_INTEGER } }],
      ['Student', { organization: { id: 2 ** 53 } }],
      ['Student', { universityId: Number.MAX_SAFE_INTEGER }],
      ['Student', { universityId: 2 ** 53 }],
      ['Student', { locale: 'en-US' }],
      ['Student', JSON.parse('{"metadata": {"__proto__": "x"}}')],
      [
        'Teacher',
        { locale: 'en-US', externalUserId: 'u-1', deviceFingerprintHash: 'abc=', phoneNumber: '+1' },
      ],
      ['Teacher', { locale: null, externalUserId: null, deviceFingerprintHash: null }],
      ['Teacher', { locale: 'en_US' }],
      ['Teacher', { locale: '' }],
      ['Teacher', { locale: 'english' }],
      ['Teacher', { externalUserId: '' }],
      ['Teacher', { externalUserId: 'a\nb' }],
      ['Teacher', { externalUserId: '🎓'.repeat(256) }],
      ['Teacher', { externalUserId: '🎓'.repeat(257) }],
      ['Teacher', { deviceFingerprintHash: 'a.b' }],
      ['Teacher', { deviceFingerprintHash: '' }],
      ['Teacher', { firstName: 'Ja\u0000ne' }],
      ['LowIncome', { statuses: ['SNAP_BENEFITS\u001b'] }],
      ['DriverLicense', { metadata: { a: 'b' }, phoneNumber: '+14155550100' }],
      ['GeneralIdentity', { metadata: null, locale: 'de' }],
      ['Member', { memberId: 'M-1', organizationEmail: 'jane@club.org' }],
      ['Teacher', { organizationEmail: null }],
      ['Teacher', { organizationEmail: 'a\u0000b@school.edu' }],
      ['Student', { organizationEmail: 'jane@stanford.edu' }],
      ['Senior', { organizationEmail: 'jane@acme.com' }],
    ];
    for (const [type, body] of bodies) {
      const published = validator.check(`${type}Subject`, body) === undefined;
      expect([type, body, takes(type, body)]).toEqual([type, body, published]);
    }
  });

  it('take organizationEmail on the forms naming an organization but the student form (issue 22)', () => {
    const body = { organizationEmail: 'jane@org.example.com' };
    expect((['Member', 'Employee', 'Teacher', 'ActiveMilitary'] as const).map((t) => takes(t, body))).toEqual(
      [true, true, true, true],
    );
    expect((['Student', 'Senior', 'Age', 'Mover'] as const).map((t) => takes(t, body))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  // The metadata's sizes are stated, and left to the verification service (a recoverable error).
  const samples: [string, Record<string, string>][] = [
    ['an empty map', {}],
    ['50 keys', metadataOfKeys(50)],
    ['51 keys', metadataOfKeys(51)],
    ['a 64-character key', { ['k'.repeat(64)]: 'v' }],
    ['a 65-character key', { ['k'.repeat(65)]: 'v' }],
    ['a key of 64 characters outside the BMP', { ['𠮷'.repeat(64)]: 'v' }],
    ['an empty key', { '': 'v' }],
    ['a 1024-character value', { k: 'v'.repeat(1024) }],
    ['a 1025-character value', { k: 'v'.repeat(1025) }],
    ['1024 characters outside the BMP', { k: '𠮷'.repeat(1024) }],
    ['an empty value', { k: '' }],
    ['a NUL in a key', { 'a\u0000': 'v' }],
    ['a line break in a value', { k: 'a\nb' }],
    ['a C1 control character in a value', { k: 'a\u0085' }],
    ['a line separator in a key', { 'a\u2028': 'v' }],
    ['the reserved key __proto__', JSON.parse('{"__proto__": "x"}') as Record<string, string>],
    ['keys that only look special', { constructor: 'v', __proto__x: 'v', 'utm.source': 'mail' }],
  ];

  it.each(samples)(
    '%s: the document states the metadata rules exactly as the service applies them',
    (_name, metadata) => {
      const server = metadataProblems(metadata).length === 0;
      const where: [string, unknown][] = [
        ['VerificationMetadata', metadata],
        ['NewVerificationRequest', { programId: 'ab'.repeat(12), metadata }],
        ['StudentSubject', { metadata }],
        ['DriverLicenseSubject', { metadata }],
      ];
      for (const [schema, body] of where)
        expect([schema, validator.check(schema, body) === undefined]).toEqual([schema, server]);
    },
  );
});
