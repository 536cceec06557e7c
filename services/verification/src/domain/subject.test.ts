import { emptySubject, normalizeSubject, type Subject, type SubjectInput } from './subject';

describe('normalizeSubject', () => {
  it.each<[string, SubjectInput, Partial<Subject>]>([
    ['trims names', { firstName: '  Ann ', lastName: '\tLee\n' }, { firstName: 'Ann', lastName: 'Lee' }],
    ['trims and lower-cases the email', { email: ' Ann.Lee@Example.COM ' }, { email: 'ann.lee@example.com' }],
    ['upper-cases two-letter codes', { state: ' ca ', country: 'us' }, { state: 'CA', country: 'US' }],
    ['keeps the case of a region name', { state: ' Ontario ' }, { state: 'Ontario' }],
    ['trims each status', { statuses: [' HOME_BUYER '] }, { statuses: ['HOME_BUYER'] }],
    [
      'trims the organization name',
      { organization: { id: 7, name: '  MIT ' } },
      { organization: { id: 7, name: 'MIT' } },
    ],
    ['keeps metadata as given', { metadata: { ' k ': ' v ' } }, { metadata: { ' k ': ' v ' } }],
    ['fills absent fields with empty ones', {}, emptySubject()],
    [
      'treats explicit undefined and null as absent',
      { firstName: undefined, postalCode: null as unknown as string, universityId: undefined },
      { firstName: '', postalCode: '', universityId: 0 },
    ],
    ['keeps an unset organization unset', { organization: undefined }, { organization: undefined }],
  ])('%s', (_, input, expected) => {
    const result = normalizeSubject(input);
    expect(result).toMatchObject(expected);
    expect(Object.keys(result).sort()).toEqual(Object.keys(emptySubject()).sort());
  });

  it('does not change its input', () => {
    const input = { ...emptySubject(), email: ' A@B.CO ', metadata: { a: 'b' } };
    const result = normalizeSubject(input);
    expect(input.email).toBe(' A@B.CO ');
    expect(result.metadata).not.toBe(input.metadata);
  });

  it('is idempotent', () => {
    const once = normalizeSubject({ firstName: ' Ann ', email: 'A@B.CO', state: 'ny' });
    expect(normalizeSubject(once)).toEqual(once);
  });
});
