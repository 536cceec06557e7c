import { randomBytes } from 'node:crypto';

/**
 * Ids of add-school requests (and the programs they name): 24 lowercase hex characters from a CSPRNG
 * (docs/architecture.md, "Data ownership"), so that a request id alone grants nothing by being guessed.
 */
const ID = /^[0-9a-f]{24}$/;

export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** Checked before any lookup: a malformed id is answered without touching the database or another service. */
export function isId(value: string): boolean {
  return ID.test(value);
}
