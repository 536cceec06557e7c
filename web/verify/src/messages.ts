import { DEFAULT_ERROR_MESSAGES, DEFAULT_FORM_MESSAGES } from '@eligo/vocabulary';
import type { Intl } from './start';

export interface Messages {
  /** A label's text: the program's theme, else the default; `{name}` placeholders filled from vars. */
  t(key: string, vars?: Record<string, string | number>): string;
  /** The person-facing text of an errorId (never the integrator's systemErrorMessage). */
  error(errorId: string): string;
  locale: string;
}

/** ACTIVE_DUTY → "Active duty": statuses, review times and rejection reasons without a message of their own. */
export function humanize(value: string): string {
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function messagesOf(intl: Intl | undefined): Messages {
  const texts: Record<string, string> = { ...DEFAULT_FORM_MESSAGES, ...intl?.messages };
  const errors: Record<string, string> = { ...DEFAULT_ERROR_MESSAGES, ...intl?.errorId };
  return {
    locale: intl?.locale ?? 'en-US',
    t: (key, vars = {}) =>
      (texts[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) =>
        name in vars ? String(vars[name]) : whole,
      ),
    error: (errorId) => errors[errorId] ?? humanize(errorId),
  };
}
