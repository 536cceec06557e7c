/**
 * Ids of accounts, tokens, programs, verifications, reports, batches, send-link messages and add-school
 * requests: 24 lowercase hex characters (96 bits) from a CSPRNG, so that an id grants nothing by being guessed
 * (docs/architecture.md, "Data ownership"). One rule, so that the gateway refuses exactly what no service
 * could have made.
 */

/** An id's characters without anchors, for patterns that embed one (`msg_<id>`, an object key). */
export const ID_HEX = '[0-9a-f]{24}';

/** An id alone, as an OpenAPI `pattern`. */
export const ID_PATTERN = `^${ID_HEX}$` as const;

const ID = new RegExp(ID_PATTERN);

// Web Crypto (global in Node 20 and in browsers), so that this package stays usable by the hosted page's bundle.
export function newId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Checked before any lookup: a malformed id names nothing, so it is answered like an unknown one. */
export function isId(value: string): boolean {
  return ID.test(value);
}
