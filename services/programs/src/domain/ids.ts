import { randomBytes } from 'node:crypto';

/**
 * Ids of accounts, tokens, programs and send-link requests: 24 lowercase hex characters from a CSPRNG
 * (docs/architecture.md, "Data ownership"), so that an id alone grants nothing by being guessed.
 */
const ID = /^[0-9a-f]{24}$/;

export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** A malformed id is answered like an unknown one (never reveal which ids exist); this keeps it off the db. */
export function isId(value: string): boolean {
  return ID.test(value);
}
