import { DEFAULT_ERROR_MESSAGES, DEFAULT_FORM_MESSAGES, isErrorId } from '@eligo/vocabulary';
import { CONTROL_CHARACTERS } from './invalid';
import { charLength } from './text';

/** A program's own theme, as stored: only what the program sets; the defaults are applied when it is read. */
export interface Theme {
  /** BCP 47 tag, canonical form; empty = the default locale. */
  locale: string;
  messages: Record<string, string>;
  errorId: Record<string, string>;
  /** Translations by canonical BCP 47 tag: for a page in that locale, they replace the texts above key by key. */
  locales: Record<string, LocaleTexts>;
  customCss: string;
}

/** A theme's texts for one locale. */
export interface LocaleTexts {
  messages: Record<string, string>;
  errorId: Record<string, string>;
}

export const DEFAULT_LOCALE = 'en-US';
export const MAX_MESSAGES = 500;
export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_CUSTOM_CSS_BYTES = 65_536;
/** Translations a theme may carry (the byte limit below counts them too). */
export const MAX_THEME_LOCALES = 20;
/**
 * The whole theme, in UTF-8 bytes (locale, message keys and texts, errorId keys and texts, CSS). The per-field
 * limits alone allow a theme of several MB, but the theme travels in every ProgramCreated/ProgramUpdated
 * snapshot and Kafka refuses messages over 1 MB by default: one such event would stop the outbox relay.
 */
export const MAX_THEME_BYTES = 262_144;
const MESSAGE_KEY = /^[A-Za-z0-9_.-]{1,100}$/;

export function emptyTheme(): Theme {
  return { locale: '', messages: {}, errorId: {}, locales: {}, customCss: '' };
}

/**
 * What GetTheme answers: the defaults (a text for every label of the hosted form and for every errorId)
 * overlaid by the program's own theme.
 */
export function mergeTheme(own: Theme): Theme {
  return {
    locale: own.locale || DEFAULT_LOCALE,
    messages: { ...DEFAULT_FORM_MESSAGES, ...own.messages },
    errorId: { ...DEFAULT_ERROR_MESSAGES, ...own.errorId },
    // As set: a translation overlays the texts above, defaults included, when a page picks its locale.
    locales: own.locales,
    customCss: own.customCss,
  };
}

/**
 * Validates a theme and returns it with the locale in canonical form (en-us -> en-US), reporting each
 * problem with its field path.
 */
export function normaliseTheme(theme: Theme, report: (field: string, problem: string) => void): Theme {
  const locale = theme.locale === '' ? '' : canonicalLocale(theme.locale);
  if (locale === undefined)
    report('theme.intl.locale', `${JSON.stringify(theme.locale)} is not a BCP 47 language tag`);
  checkTexts(theme, 'theme.intl', report);
  const tags = Object.keys(theme.locales);
  if (tags.length > MAX_THEME_LOCALES) report('theme.intl.locales', `at most ${MAX_THEME_LOCALES} locales`);
  const locales: Record<string, LocaleTexts> = {};
  for (const tag of tags) {
    const canonical = canonicalLocale(tag);
    if (canonical === undefined) {
      report('theme.intl.locales', `${JSON.stringify(tag)} is not a BCP 47 language tag`);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(locales, canonical))
      report('theme.intl.locales', `${JSON.stringify(tag)} is listed twice (as ${canonical})`);
    const texts = theme.locales[tag]!;
    checkTexts(texts, `theme.intl.locales.${canonical}`, report);
    locales[canonical] = { messages: texts.messages, errorId: texts.errorId };
  }
  if (Buffer.byteLength(theme.customCss, 'utf8') > MAX_CUSTOM_CSS_BYTES)
    report('theme.customCss', `must be at most ${MAX_CUSTOM_CSS_BYTES} bytes`);
  // The stylesheet ends up inside a <style> element of the form: "<" would let it close the element and
  // inject markup. CSS has no need for it outside strings, where \3c is the escape.
  if (theme.customCss.includes('<'))
    report('theme.customCss', 'must not contain "<" (write \\3c in strings)');
  if (CONTROL_CHARACTERS.test(theme.customCss.replace(/[\t\n\r\f]/g, '')))
    report('theme.customCss', 'must not contain control characters');
  if (themeBytes(theme) > MAX_THEME_BYTES)
    report('theme', `must be at most ${MAX_THEME_BYTES} bytes in total (it travels in every program event)`);
  return { ...theme, locale: locale ?? theme.locale, locales };
}

/** The canonical form of a BCP 47 tag (en-us -> en-US); undefined if it is not one. */
function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** The limits of a set of texts (the theme's own, or one translation's), each problem under `at`. */
function checkTexts(texts: LocaleTexts, at: string, report: (field: string, problem: string) => void): void {
  const messageKeys = Object.keys(texts.messages);
  if (messageKeys.length > MAX_MESSAGES) report(`${at}.messages`, `at most ${MAX_MESSAGES} entries`);
  for (const key of messageKeys) {
    if (!MESSAGE_KEY.test(key))
      report(`${at}.messages`, `key ${JSON.stringify(key)} must match ${MESSAGE_KEY.source}`);
    if (charLength(texts.messages[key] ?? '') > MAX_MESSAGE_LENGTH)
      report(`${at}.messages.${key}`, `must be at most ${MAX_MESSAGE_LENGTH} characters`);
  }
  for (const [key, value] of Object.entries(texts.errorId)) {
    if (!isErrorId(key)) report(`${at}.errorId`, `${JSON.stringify(key)} is not a known errorId`);
    else if (charLength(value) > MAX_MESSAGE_LENGTH)
      report(`${at}.errorId.${key}`, `must be at most ${MAX_MESSAGE_LENGTH} characters`);
  }
}

function themeBytes(theme: Theme): number {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  let total = bytes(theme.locale) + bytes(theme.customCss);
  const maps = [theme.messages, theme.errorId];
  for (const [tag, texts] of Object.entries(theme.locales)) {
    total += bytes(tag);
    maps.push(texts.messages, texts.errorId);
  }
  for (const map of maps) for (const [key, value] of Object.entries(map)) total += bytes(key) + bytes(value);
  return total;
}
