import { CONTROL_CHARACTERS, isPlainText } from './text';

/**
 * Optional fields of the public v2 API that clients send along with a verification (on POST /verification
 * and on the personal-info bodies other than the student's). Each is checked here, the same way for the
 * gateway's JSON, a gRPC caller and a signed token's payload.
 */

/** Longest locale tag taken (RFC 5646 recommends supporting at least 35 characters). */
export const MAX_LOCALE_LENGTH = 35;
export const MAX_EXTERNAL_USER_ID_LENGTH = 256;
export const MAX_DEVICE_FINGERPRINT_HASH_LENGTH = 128;

/**
 * The locales taken: a language (2-3 letters), then optionally a script (4 letters) and a region (2 letters or
 * 3 digits), any case: what clients send (en-US, fr-CA, zh-Hans-CN). Variants and extensions are refused, so
 * that every tag of this shape is one Intl takes and the OpenAPI document can state the rule exactly.
 */
export const LOCALE_PATTERN = '^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|[0-9]{3}))?$';
const LOCALE = new RegExp(LOCALE_PATTERN);

const DEVICE_FINGERPRINT_HASH = new RegExp(`^[A-Za-z0-9+/=_-]{1,${MAX_DEVICE_FINGERPRINT_HASH_LENGTH}}$`);

/**
 * The canonical form of a BCP 47 language tag (`EN-us` -> `en-US`), or undefined when the value is not one
 * tag of the documented shape (LOCALE_PATTERN) that Intl takes. Intl's canonicalisation is the runtime's own, so a stored
 * locale is one every Intl API takes.
 */
export function canonicalLocale(value: string): string | undefined {
  if (value.length > MAX_LOCALE_LENGTH || CONTROL_CHARACTERS.test(value) || !LOCALE.test(value))
    return undefined;
  try {
    const [canonical, ...more] = Intl.getCanonicalLocales(value);
    return canonical !== undefined && more.length === 0 && canonical.length <= MAX_LOCALE_LENGTH
      ? canonical
      : undefined;
  } catch {
    // RangeError: not a well-formed tag (en_US, x-private alone, grandfathered irregular tags).
    return undefined;
  }
}

export const LOCALE_RULE =
  'a BCP 47 language tag of a language, optionally a script and a region (en, en-US, zh-Hans-CN)';

/** The client's identifier of the person: 1 to 256 characters (code points), no control characters. */
export function validExternalUserId(value: string): boolean {
  return isPlainText(value, MAX_EXTERNAL_USER_ID_LENGTH);
}

export const EXTERNAL_USER_ID_RULE = `1 to ${MAX_EXTERNAL_USER_ID_LENGTH} characters without control characters`;

/**
 * A hash of the person's device as a fraud tool computes it (hex, base64 or base64url): checked, then
 * dropped, since nothing here uses it.
 */
export function validDeviceFingerprintHash(value: string): boolean {
  return DEVICE_FINGERPRINT_HASH.test(value);
}

export const DEVICE_FINGERPRINT_HASH_RULE = `1 to ${MAX_DEVICE_FINGERPRINT_HASH_LENGTH} characters of A-Z, a-z, 0-9, +, /, =, _ or -`;
