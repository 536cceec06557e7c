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

const ID_BYTES = 12;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
// Web Crypto (global in Node 20 and in browsers), so that this package stays usable by the hosted page's bundle,
// drawn for 64 ids at a time (as Node's randomUUID does): one call per id and the array of strings it was
// joined from took 3.3 us per id, the pool 0.13, and newId was 0.4% of a verification flow's CPU.
const pool = new Uint8Array(ID_BYTES * 64);
let next = pool.length;

export function newId(): string {
  if (next === pool.length) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  let id = '';
  for (const end = next + ID_BYTES; next < end; next++) id += HEX[pool[next]!];
  return id;
}

/** Checked before any lookup: a malformed id names nothing, so it is answered like an unknown one. */
export function isId(value: string): boolean {
  return ID.test(value);
}
