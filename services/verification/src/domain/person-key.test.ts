import { normalizedEmail, normalizedIdentity } from './person-key';

describe('normalizedEmail', () => {
  it.each([
    [' Ann.Lee@Example.COM ', 'ann.lee@example.com'],
    ['ann@example.com', 'ann@example.com'],
  ])('%j -> %j', (email, expected) => {
    expect(normalizedEmail(email)).toBe(expected);
  });
});

describe('normalizedIdentity', () => {
  it.each([
    ['Ann', 'Lee', '1990-01-01', 'ann|lee|1990-01-01'],
    ['  ANN ', ' LEE  ', ' 1990-01-01 ', 'ann|lee|1990-01-01'],
    ['José', 'Núñez', '1990-01-01', 'jose|nunez|1990-01-01'],
    // Decomposed input (e + combining acute) folds like the composed one.
    ['Jose\u0301', 'Nu\u0303n\u0303ez', '1990-01-01', 'jose|nunez|1990-01-01'],
    ['Mary  Ann', 'van  der\tBerg', '1990-01-01', 'mary ann|van der berg|1990-01-01'],
    ['ﬁona', 'Ｌｅｅ', '1990-01-01', 'fiona|lee|1990-01-01'],
    ['Zoë', 'Ångström', '1990-01-01', 'zoe|angstrom|1990-01-01'],
    ['a|b', 'c', '1990-01-01', 'a b|c|1990-01-01'],
    // Letters that decompose lose their mark in every script (й = и + breve): both spellings still meet.
    ['李', 'Дмитрий', '1990-01-01', '李|дмитрии|1990-01-01'],
  ])('%j %j %j -> %j', (first, last, birthDate, expected) => {
    expect(normalizedIdentity(first, last, birthDate)).toBe(expected);
  });

  it('keeps first and last name apart', () => {
    expect(normalizedIdentity('Ann Lee', 'Smith', '1990-01-01')).not.toBe(
      normalizedIdentity('Ann', 'Lee Smith', '1990-01-01'),
    );
    expect(normalizedIdentity('a|b', 'c', '1990-01-01').split('|')).toHaveLength(3);
  });
});
