/** The types a reviewer can open in a browser; anything else is refused (UNSUPPORTED_TYPE). */
export const ALLOWED_MIME_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'application/pdf'] as const;
export type AllowedMimeType = (typeof ALLOWED_MIME_TYPES)[number];

// Names clients commonly send for an allowed type; the stored type is always the canonical one.
const ALIASES: Readonly<Record<string, AllowedMimeType>> = { 'image/jpg': 'image/jpeg' };

/** A declared Content-Type as a bare, lower-case type/subtype (parameters dropped, aliases resolved). */
export function normaliseMimeType(value: string): string {
  const bare = (value.split(';')[0] ?? '').trim().toLowerCase();
  // hasOwn: a client's type may be any text, `__proto__` or `constructor` included.
  return Object.hasOwn(ALIASES, bare) ? ALIASES[bare]! : bare;
}

export function isAllowedMimeType(value: string): value is AllowedMimeType {
  return (ALLOWED_MIME_TYPES as readonly string[]).includes(value);
}
