import {
  IdentifierKind,
  nameBirthDateValue,
  normalizeEmail,
  normalizeId,
  normalizeName,
  rowIdentifiers,
  subjectIdentifiers,
} from './eligibility-identifiers';

describe('eligibility list normalisation', () => {
  it('folds emails: trimmed, lower case, NFC', () => {
    expect(normalizeEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
    // e + combining acute (NFD) and é (NFC) are one address.
    expect(normalizeEmail('Jose\u0301@x.org')).toBe(normalizeEmail('José@x.org'));
  });

  it('folds ids: trimmed and case-folded', () => {
    expect(normalizeId(' M-0042a ')).toBe('m-0042a');
    expect(normalizeId('STRASSE')).toBe(normalizeId('straße'));
  });

  it('folds names: spaces collapsed, case-folded, NFC, accents kept', () => {
    expect(normalizeName('  Mary   Ann\tSMITH ')).toBe('mary ann smith');
    expect(normalizeName('Jose\u0301')).toBe(normalizeName('JOSÉ'));
    expect(normalizeName('José')).not.toBe(normalizeName('Jose'));
  });

  it('keeps the name parts apart whatever they hold', () => {
    expect(nameBirthDateValue('a b', 'c', '2000-01-31')).not.toBe(
      nameBirthDateValue('a', 'b c', '2000-01-31'),
    );
    expect(nameBirthDateValue(' Ann ', 'LEE', '2000-01-31')).toBe(
      nameBirthDateValue('ann', 'lee', '2000-01-31'),
    );
  });
});

describe('rowIdentifiers', () => {
  it('gives one identifier per kind given', () => {
    const read = rowIdentifiers({
      email: 'A@B.co',
      memberId: 'M1',
      employeeId: 'E1',
      firstName: 'Ann',
      lastName: 'Lee',
      birthDate: '2000-02-29',
    });
    expect(read).toEqual({
      identifiers: [
        { kind: IdentifierKind.email, value: 'a@b.co' },
        { kind: IdentifierKind.memberId, value: 'm1' },
        { kind: IdentifierKind.employeeId, value: 'e1' },
        { kind: IdentifierKind.nameBirthDate, value: '["ann","lee","2000-02-29"]' },
      ],
    });
  });

  it.each([
    [{}, 'no identifier'],
    [{ email: '  ' }, 'no identifier'],
    [{ email: 'not-an-address' }, 'email is not an email address'],
    [{ firstName: 'Ann', lastName: 'Lee' }, 'must be given together'],
    [{ firstName: 'Ann', lastName: 'Lee', birthDate: '2001-02-29' }, 'birthDate is not a YYYY-MM-DD date'],
    [{ memberId: 'x'.repeat(257) }, 'longer than 256'],
    [{ memberId: 'a\u0000b' }, 'control character'],
  ])('refuses %j', (row, reason) => {
    const read = rowIdentifiers(row);
    expect('refusal' in read && read.refusal).toContain(reason);
  });

  it('gives a subject the same values as the row it was listed with', () => {
    const row = rowIdentifiers({
      email: 'Ann@X.org',
      firstName: 'ANN',
      lastName: 'lee',
      birthDate: '2000-01-31',
    });
    const subject = subjectIdentifiers({
      email: ' ann@x.org',
      firstName: 'Ann',
      lastName: 'Lee ',
      birthDate: '2000-01-31',
    });
    expect('identifiers' in row && row.identifiers).toEqual(subject);
  });
});
