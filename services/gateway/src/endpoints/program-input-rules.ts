import { SEGMENTS, IPV4_SOURCE, IPV6_SOURCE } from '@eligo/vocabulary';
import { CONTROL_CHARACTER_CLASS, described, TRIMMED_SPACE_CLASS } from '../openapi/schemas/text';

/**
 * The limits and patterns of program settings, the same rules the programs service applies, so that what the
 * schemas admit the service accepts: the admin API's program bodies (endpoints/admin-programs-input.ts) and
 * REST v2's webhook and limit (endpoints/program.ts) state them from here. Each pattern registers its refusal
 * in words (`described`).
 */

/**
 * Limits of services/programs/src/domain (program-validation.ts, codes.ts, countries.ts, theme.ts,
 * embed-origins.ts).
 */
export const MAX_AGE = 150;
export const MAX_DOCUMENT_REJECTIONS = 10;
export const MAX_ORGANIZATION_IDS = 1000;
export const MAX_COUNTRIES = 250;
export const MAX_CODE_LENGTH = 128;
export const MAX_URL_LENGTH = 2048;
export const MAX_MESSAGES = 500;
/** Translations a theme may carry (services/programs domain/theme.ts MAX_THEME_LOCALES). */
export const MAX_THEME_LOCALES = 20;
export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_CUSTOM_CSS_BYTES = 65_536;
export const MAX_LIMIT_QUANTITY = 1000;
export const MAX_LIMIT_DAYS = 3650;
export const MAX_REWARD_CODES = 10_000;
export const MAX_SUBJECT_TOKEN_KEY_LENGTH = 8192;
export const MAX_EMBED_ORIGINS = 20;
export const MAX_EMBED_ORIGIN_LENGTH = 255;
/** Segments whose programs may bound the person's age (AGE_BOUNDED_SEGMENTS of the programs service). */
export const AGE_BOUNDED_SEGMENTS = ['age', 'senior'] as const;

export const SUB_SEGMENTS = [...new Set(Object.values(SEGMENTS).flat())];
const CONTROL = CONTROL_CHARACTER_CLASS;
const SPACE = TRIMMED_SPACE_CLASS;

/**
 * A reward code as a person types it at a checkout: 1 to 128 characters, no whitespace, no control
 * characters. Reward-pool uploads (RewardCodesRequest) may carry surrounding whitespace, which is trimmed.
 */
const CODE = `[^${SPACE}${CONTROL}]{1,${MAX_CODE_LENGTH}}`;
export const CODE_MESSAGE = `must be 1 to ${MAX_CODE_LENGTH} characters without whitespace or control characters`;
export const CODE_PATTERN = described(`^${CODE}$`, CODE_MESSAGE);
export const PADDED_CODE_PATTERN = described(
  `^[${SPACE}]*${CODE}[${SPACE}]*$`,
  `${CODE_MESSAGE} (surrounding whitespace is trimmed)`,
);

/**
 * An absolute http or https URL in ASCII, as the programs service's URL check takes it (the WHATWG URL parser
 * with its refusals): a host name of letters, digits and single inner hyphens whose last label starts with a
 * letter (a numeric last label would be read as an IPv4 address), an IPv4 address or a bracketed IPv6 one;
 * a port up to 65535; no user name or password; then a path, query and fragment of the characters RFC 3986
 * allows there (percent-encode anything else), so that the URL is also a `format: uri` when it is answered.
 */
const LABEL = '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
const TOP_LABEL = '[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*';
const HOST = `(?:(?:${LABEL}\\.)*${TOP_LABEL}|${IPV4_SOURCE}|\\[(?:${IPV6_SOURCE})\\])`;
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
const URI_CHARACTER = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})";
export const PATH_AND_QUERY = `(?:[/?]${URI_CHARACTER}*)?`;
/** A redirect may also carry a fragment; a webhook may not (PATH_AND_QUERY alone). */
export const PATH_QUERY_AND_FRAGMENT = `${PATH_AND_QUERY}(?:#${URI_CHARACTER}*)?`;
export const httpUrl = (rest: string, message: string) =>
  ({
    type: 'string',
    maxLength: MAX_URL_LENGTH,
    pattern: described(`^[Hh][Tt][Tt][Pp][Ss]?://${HOST}${PORT}${rest}$`, message),
  }) as const;
export const URL_MESSAGE =
  'must be an absolute http or https URL in ASCII (host name, IPv4 or [IPv6] address, no user name or password)';

/**
 * A web origin a program lets embed its hosted page and call REST v2 from a browser (embedOrigins), as the
 * programs service takes it (services/programs/src/domain/embed-origins.ts): `https://host[:port]`, or plain
 * http for the developer's own machine (`http://localhost[:port]`, `http://127.0.0.1[:port]`); a port from 1
 * to 65535 without leading zeros; nothing after the port, not even a slash; no wildcard. The host is in ASCII:
 * an internationalised name in its xn-- form, hence hyphens may follow each other inside a label (unlike
 * HOST). Scheme and host in any case: the service stores them in lower case, without the default port.
 */
const ORIGIN_LABEL = '[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*';
const ORIGIN_TOP_LABEL = '[A-Za-z][A-Za-z0-9]*(?:-+[A-Za-z0-9]+)*';
const ORIGIN_HOST = `(?:(?:${ORIGIN_LABEL}\\.)*${ORIGIN_TOP_LABEL}|${IPV4_SOURCE}|\\[(?:${IPV6_SOURCE})\\])`;
const ORIGIN_PORT =
  '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?';
const DEVELOPMENT_HOST = '(?:[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|127\\.0\\.0\\.1)';
export const ORIGIN_PATTERN = described(
  `^(?:[Hh][Tt][Tt][Pp][Ss]://${ORIGIN_HOST}|[Hh][Tt][Tt][Pp]://${DEVELOPMENT_HOST})${ORIGIN_PORT}$`,
  'must be a web origin in ASCII, https://host[:port] (http only for localhost and 127.0.0.1), without ' +
    'path, query, fragment, user name or trailing slash; wildcards (https://*.example.com) are not allowed ' +
    'in this version: list each origin',
);

/**
 * Dates as the mapping reads them: YYYY-MM-DD (UTC midnight) or an RFC 3339 date-time with seconds and an
 * upper-case T and Z or a ±hh:mm offset. The year is 0001-9999 (the span of a protobuf Timestamp); a
 * date-time in year 0001 or 9999 could leave that span once its offset is applied, so its year is 0002-9998.
 */
const DD = '(?:0[1-9]|[12][0-9]|3[01])';
const MM = '(?:0[1-9]|1[0-2])';
const YEAR = '(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])';
const INNER_YEAR =
  '(?:[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8]|0[1-9][0-9]{2}|00[1-9][0-9]|000[2-9])';
const TIME =
  '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
export const DATE_PATTERN = described(
  `^(?:${YEAR}-${MM}-${DD}|${INNER_YEAR}-${MM}-${DD}T${TIME})$`,
  'must be a date (YYYY-MM-DD) or an RFC 3339 date-time with seconds and Z or an offset (YYYY-MM-DDThh:mm:ssZ)',
);

/** The theme's locale: a BCP 47 tag of the forms the programs service canonicalizes, or empty. */
export const LOCALE_MAX_LENGTH = 35;
const LOCALE_TAG =
  '(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?' +
  '(?:-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))?';
const LOCALE_FORMS = 'a BCP 47 language tag (language[-Script][-REGION][-variant], e.g. en-US)';
export const LOCALE_PATTERN = described(`^(?:|${LOCALE_TAG})$`, `must be ${LOCALE_FORMS}, or empty`);
/** A translation's key (Intl.locales): a tag, never empty. */
export const LOCALE_KEY_PATTERN = described(`^${LOCALE_TAG}$`, `must be ${LOCALE_FORMS}`);
export const MESSAGE_KEY_PATTERN = described(
  '^[A-Za-z0-9_.-]{1,100}$',
  'must be 1 to 100 letters, digits, _ . or -',
);
/** multilineText's rule, plus "<", and with the form feed, which CSS counts as a line break. */
export const CUSTOM_CSS_PATTERN = described(
  '^[^<\\u0000-\\u0008\\u000b\\u000e-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$',
  'must not contain "<" (write \\3c in strings) or control characters other than tabs and line breaks',
);
