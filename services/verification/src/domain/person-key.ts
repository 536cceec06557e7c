/**
 * The normalised values a person is looked up by (person limits, personId). They are keyed with an HMAC
 * elsewhere; here only the folding, so two spellings of the same person give one key and the folding can be
 * tested without secrets.
 */

/** Mailbox providers treat addresses case-insensitively in practice: Ann@X.com and ann@x.com are one. */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

const COMBINING_MARKS = /\p{M}/gu;
const SEPARATOR = '|';

/**
 * One name as the key sees it: compatibility-decomposed with the accents dropped (José = Jose, ﬁ = fi),
 * lower case, single spaces. Forms and keyboards differ in exactly these ways for the same person. A "|"
 * in a name becomes a space, so the separator of the key always separates its parts.
 */
function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replaceAll(SEPARATOR, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** `first|last|YYYY-MM-DD`, the identity a person limit counts when the email differs between attempts. */
export function normalizedIdentity(firstName: string, lastName: string, birthDate: string): string {
  return [foldName(firstName), foldName(lastName), birthDate.trim()].join(SEPARATOR);
}
