import Negotiator from 'negotiator';

/** The texts of a theme: its own, and each translation's (the programs service's Intl). */
export interface ThemeIntl {
  locale: string;
  messages: Record<string, string>;
  errorId: Record<string, string>;
  locales: Record<string, { messages: Record<string, string>; errorId: Record<string, string> }>;
}

/** What the hosted page shows: one locale, and its texts. */
export interface PageTexts {
  locale: string;
  messages: Record<string, string>;
  errorId: Record<string, string>;
}

export const DEFAULT_PAGE_LOCALE = 'en-US';

/**
 * The hosted page's locale and texts (issue 21: "Locale from ?locale= or the browser, falling back to the
 * program's"): the first of the `?locale=` tag and the browser's Accept-Language that the theme has a text
 * set for, either a translation or the theme's own locale (fr-CA takes fr, fr takes fr-FR, en-GB takes en-US,
 * q-values order the browser's list); otherwise the theme's own locale. A translation replaces
 * the theme's texts key by key, so a key it leaves out keeps the theme's (or the default) text.
 */
export function pageTexts(
  intl: ThemeIntl,
  requested: string | undefined,
  acceptLanguage: string | undefined,
): PageTexts {
  const own = intl.locale || DEFAULT_PAGE_LOCALE;
  // The theme's own locale first: with no preference at all ("*"), negotiator keeps this order.
  const available = [own, ...Object.keys(intl.locales).filter((tag) => tag !== own)];
  const chosen =
    (requested ? best(requested, available) : undefined) ??
    (acceptLanguage ? best(acceptLanguage, available) : undefined) ??
    own;
  const translation = chosen === own ? undefined : intl.locales[chosen];
  return {
    locale: chosen,
    messages: { ...intl.messages, ...translation?.messages },
    errorId: { ...intl.errorId, ...translation?.errorId },
  };
}

/**
 * The first range of the preference (in q order) that names an available locale: as HTTP matches it
 * (negotiator: the range, or a locale its range is a prefix of, or its own prefix), else by its language
 * alone (a browser in en-GB reads an en-US page rather than a default one).
 */
function best(preference: string, available: string[]): string | undefined {
  const match = (range: string) =>
    new Negotiator({ headers: { 'accept-language': range } }).language(available);
  for (const range of new Negotiator({ headers: { 'accept-language': preference } }).languages()) {
    const found = match(range) ?? match(range.split('-')[0]!);
    if (found) return found;
  }
  return undefined;
}
