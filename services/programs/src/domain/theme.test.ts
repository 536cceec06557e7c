import { DEFAULT_ERROR_MESSAGES, DEFAULT_FORM_MESSAGES, ERROR_IDS } from '@eligo/vocabulary';
import { emptyTheme, mergeTheme, normaliseTheme, type Theme } from './theme';

function problemsOf(theme: Partial<Theme>): string[] {
  const problems: string[] = [];
  normaliseTheme({ ...emptyTheme(), ...theme }, (field, p) => problems.push(`${field}: ${p}`));
  return problems;
}

describe('mergeTheme', () => {
  it('gives en-US, every label of the hosted form and the whole catalogue when the program has no theme', () => {
    const merged = mergeTheme(emptyTheme());
    expect(merged.locale).toBe('en-US');
    expect(merged.messages).toEqual(DEFAULT_FORM_MESSAGES);
    expect(merged.messages['step.collectPersonalInfo.submit']).toBe('Verify my eligibility');
    expect(merged.errorId).toEqual(DEFAULT_ERROR_MESSAGES);
    expect(Object.keys(merged.errorId)).toHaveLength(ERROR_IDS.length);
  });

  it("overlays the program's texts and keeps the other defaults", () => {
    const merged = mergeTheme({
      locale: 'fr-FR',
      messages: { title: 'Titre' },
      errorId: { invalidEmail: 'Courriel invalide' },
      locales: { de: { messages: { title: 'Titel' }, errorId: {} } },
      customCss: 'a{}',
    });
    // Translations stay as set: the page overlays them when it picks its locale.
    expect(merged.locales).toEqual({ de: { messages: { title: 'Titel' }, errorId: {} } });
    expect(merged).toMatchObject({ locale: 'fr-FR', messages: { title: 'Titre' }, customCss: 'a{}' });
    expect(merged.errorId.invalidEmail).toBe('Courriel invalide');
    expect(merged.errorId.noProgram).toBe(DEFAULT_ERROR_MESSAGES.noProgram);
    expect(merged.messages['page.title']).toBe(DEFAULT_FORM_MESSAGES['page.title']);
  });
});

describe('normaliseTheme', () => {
  it.each<[string, string]>([
    ['en-us', 'en-US'],
    ['zh-hant-tw', 'zh-Hant-TW'],
    ['de', 'de'],
    ['', ''],
  ])('canonicalises locale %j to %j', (locale, canonical) => {
    expect(normaliseTheme({ ...emptyTheme(), locale }, () => undefined).locale).toBe(canonical);
  });

  it.each<[string, Partial<Theme>, string[]]>([
    [
      'a good theme',
      { locale: 'en', messages: { 'a.B-c_9': 'x' }, errorId: { noProgram: 'y' }, customCss: 'p{}' },
      [],
    ],
    ['a bad locale', { locale: 'en_US' }, ['theme.intl.locale: "en_US" is not a BCP 47 language tag']],
    [
      'translations with their own problems, each under its canonical tag',
      {
        locales: {
          'fr-fr': { messages: { 'a b': 'x' }, errorId: {} },
          de: { messages: {}, errorId: { nope: 'x' } },
          en_GB: { messages: {}, errorId: {} },
        },
      },
      [
        'theme.intl.locales.fr-FR.messages: key "a b" must match ^[A-Za-z0-9_.-]{1,100}$',
        'theme.intl.locales.de.errorId: "nope" is not a known errorId',
        'theme.intl.locales: "en_GB" is not a BCP 47 language tag',
      ],
    ],
    [
      'one locale in two spellings',
      {
        locales: {
          'fr-FR': { messages: {}, errorId: {} },
          'fr-fr': { messages: {}, errorId: {} },
        },
      },
      ['theme.intl.locales: "fr-fr" is listed twice (as fr-FR)'],
    ],
    [
      '21 translations',
      {
        locales: Object.fromEntries(
          Array.from({ length: 21 }, (_, i) => [
            `x${String.fromCharCode(97 + i)}`,
            { messages: {}, errorId: {} },
          ]),
        ),
      },
      ['theme.intl.locales: at most 20 locales'],
    ],
    [
      'translations past the byte limit',
      {
        locales: Object.fromEntries(
          ['de', 'fr', 'it', 'es', 'nl'].map((tag) => [
            tag,
            {
              messages: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'é'.repeat(1000)])),
              errorId: {},
            },
          ]),
        ),
      },
      ['theme: must be at most 262144 bytes in total (it travels in every program event)'],
    ],
    [
      'a message key with a space',
      { messages: { 'a b': 'x' } },
      ['theme.intl.messages: key "a b" must match ^[A-Za-z0-9_.-]{1,100}$'],
    ],
    [
      'a 101-character message key',
      { messages: { ['k'.repeat(101)]: 'x' } },
      [`theme.intl.messages: key "${'k'.repeat(101)}" must match ^[A-Za-z0-9_.-]{1,100}$`],
    ],
    [
      'a 2001-character message',
      { messages: { k: 'x'.repeat(2001) } },
      ['theme.intl.messages.k: must be at most 2000 characters'],
    ],
    // Characters, not UTF-16 units (as the OpenAPI document's maxLength counts): 2000 emoji are 4000 units.
    ['a 2000-character message of emoji', { messages: { k: '😀'.repeat(2000) } }, []],
    ['an unknown errorId', { errorId: { nope: 'x' } }, ['theme.intl.errorId: "nope" is not a known errorId']],
    [
      'a 2001-character error text',
      { errorId: { invalidEmail: 'x'.repeat(2001) } },
      ['theme.intl.errorId.invalidEmail: must be at most 2000 characters'],
    ],
    [
      '"<" in CSS',
      { customCss: 'a::after { content: "<" }' },
      ['theme.customCss: must not contain "<" (write \\3c in strings)'],
    ],
    ['a NUL in CSS', { customCss: 'a{}\u0000' }, ['theme.customCss: must not contain control characters']],
    ['65536 bytes of CSS', { customCss: 'a'.repeat(65_536) }, []],
    [
      '65537 bytes of CSS (multi-byte)',
      { customCss: 'é'.repeat(32_768) + 'a' },
      ['theme.customCss: must be at most 65536 bytes'],
    ],
  ])('%s -> %j', (_case, theme, problems) => {
    expect(problemsOf(theme)).toEqual(problems);
  });

  it('caps the whole theme at 256 KiB, so that a program event stays far below the 1 MB Kafka default', () => {
    const messages = (n: number, size: number) =>
      Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`m${String(i).padStart(3, '0')}`, 'v'.repeat(size)]),
      );
    // 131 messages of 4 + 2000 bytes = 262 524 bytes: each within its own limit, together over.
    expect(problemsOf({ messages: messages(131, 2000) })).toEqual([
      'theme: must be at most 262144 bytes in total (it travels in every program event)',
    ]);
    expect(problemsOf({ messages: messages(100, 2000), customCss: 'a'.repeat(60_000) })).toEqual([]);
  });

  it('accepts 500 messages and refuses 501', () => {
    const messages = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, 'v']));
    expect(problemsOf({ messages: messages(500) })).toEqual([]);
    expect(problemsOf({ messages: messages(501) })).toEqual(['theme.intl.messages: at most 500 entries']);
  });
});

describe('normaliseTheme translations', () => {
  it('stores each translation under the canonical form of its tag', () => {
    const theme = normaliseTheme(
      { ...emptyTheme(), locales: { 'fr-fr': { messages: { t: 'x' }, errorId: {} } } },
      () => undefined,
    );
    expect(theme.locales).toEqual({ 'fr-FR': { messages: { t: 'x' }, errorId: {} } });
  });
});
