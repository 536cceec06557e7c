import {
  canonicalLocale,
  MAX_LOCALE_LENGTH,
  validDeviceFingerprintHash,
  validExternalUserId,
} from './client-fields';

describe('canonicalLocale', () => {
  it.each<[string, string | undefined]>([
    ['en-US', 'en-US'],
    ['EN-us', 'en-US'],
    ['fr', 'fr'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['es-419', 'es-419'],
    // A deprecated code becomes its preferred form.
    ['iw-IL', 'he-IL'],
    // Variants, extensions and grandfathered tags are beyond the documented shape.
    ['de-DE-1996', undefined],
    ['en-US-u-ca-gregory', undefined],
    ['art-lojban', undefined],
    ['en-a', undefined],
    ['', undefined],
    ['en_US', undefined],
    ['en-', undefined],
    [' en', undefined],
    ['en-US,fr', undefined],
    ['x-private', undefined],
    ['en\u0000', undefined],
    ['abcdefghi', undefined],
  ])('%j -> %j', (value, expected) => {
    expect(canonicalLocale(value)).toBe(expected);
  });

  it('takes every tag of the documented shape (language, script, region) that Intl takes', () => {
    for (const tag of ['aa', 'xyz', 'sr-Latn', 'sr-Latn-RS', 'pt-BR', 'en-001', 'und'])
      expect([tag, canonicalLocale(tag) !== undefined]).toEqual([tag, true]);
    expect(canonicalLocale('e'.repeat(MAX_LOCALE_LENGTH + 1))).toBeUndefined();
  });
});

describe('validExternalUserId', () => {
  it.each<[string, boolean]>([
    ['user-42', true],
    ['a', true],
    ['x'.repeat(256), true],
    ['🎓'.repeat(256), true],
    ['Jane Doe <jane@example.com>', true],
    ['', false],
    ['x'.repeat(257), false],
    ['a\nb', false],
    ['a\u0085', false],
  ])('%j -> %s', (value, expected) => {
    expect(validExternalUserId(value)).toBe(expected);
  });
});

describe('validDeviceFingerprintHash', () => {
  it.each<[string, boolean]>([
    ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', true],
    ['n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=', true],
    ['n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg', true],
    ['a'.repeat(128), true],
    ['', false],
    ['a'.repeat(129), false],
    ['abc def', false],
    ['abc.def', false],
    ['abc\n', false],
  ])('%j -> %s', (value, expected) => {
    expect(validDeviceFingerprintHash(value)).toBe(expected);
  });
});
