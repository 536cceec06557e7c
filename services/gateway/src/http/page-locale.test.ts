import { pageTexts, type ThemeIntl } from './page-locale';

const intl: ThemeIntl = {
  locale: 'en-US',
  messages: { 'page.title': 'Verify', 'step.success.title': 'Verified' },
  errorId: { expiredVerification: 'Too late' },
  locales: {
    'fr-FR': { messages: { 'page.title': 'Vérifier' }, errorId: { expiredVerification: 'Trop tard' } },
    de: { messages: { 'page.title': 'Prüfen' }, errorId: {} },
  },
};

describe('pageTexts', () => {
  it.each([
    ['no preference: the theme’s own locale', undefined, undefined, 'en-US', 'Verify'],
    ['?locale= a translation', 'fr-FR', 'de', 'fr-FR', 'Vérifier'],
    ['?locale= in another case', 'fr-fr', undefined, 'fr-FR', 'Vérifier'],
    ['?locale= a language whose translation has a region', 'fr', undefined, 'fr-FR', 'Vérifier'],
    ['?locale= a region of a translated language', 'de-AT', undefined, 'de', 'Prüfen'],
    ['?locale= with no text set: the browser decides', 'ja', 'de-CH,de;q=0.9', 'de', 'Prüfen'],
    ['the browser’s first language with texts', undefined, 'it, fr;q=0.8, de;q=0.7', 'fr-FR', 'Vérifier'],
    ['the browser prefers the theme’s own language', undefined, 'en-GB, fr;q=0.5', 'en-US', 'Verify'],
    ['q-values order the list, not their position', undefined, 'de;q=0.2, fr;q=0.9', 'fr-FR', 'Vérifier'],
    ['nothing matches: the theme’s own', 'zz', 'ja, ko', 'en-US', 'Verify'],
    ['a malformed header: the theme’s own', undefined, ';;;q=x', 'en-US', 'Verify'],
  ])('%s', (_name, requested, header, locale, title) => {
    const texts = pageTexts(intl, requested, header);
    expect([texts.locale, texts.messages['page.title']]).toEqual([locale, title]);
  });

  it('replaces the theme’s texts key by key: a key a translation leaves out keeps the theme’s', () => {
    expect(pageTexts(intl, 'fr-FR', undefined)).toEqual({
      locale: 'fr-FR',
      messages: { 'page.title': 'Vérifier', 'step.success.title': 'Verified' },
      errorId: { expiredVerification: 'Trop tard' },
    });
    expect(pageTexts(intl, 'de', undefined).errorId).toEqual({ expiredVerification: 'Too late' });
  });

  it('a theme without a locale is en-US', () => {
    expect(pageTexts({ ...intl, locale: '' }, undefined, undefined).locale).toBe('en-US');
  });
});
