import { invalidArgument } from '@eligo/runtime';
import { findPersonalInfo } from '../repository/verifications.repository';
import type { AppContext } from './context';
import { isVerificationId } from '../domain/ids';
import { openMetadata, openPerson } from './person';

/** Ids one call may ask for: bounds the query and the memory of a call; callers split larger sets. */
export const MAX_PERSONAL_INFO_IDS = 1000;

/** The personal information of one verification as the reports service reads it: '' for what is not known. */
export interface PersonalInfo {
  verificationId: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  /** YYYY-MM-DD. */
  birthDate: string;
  postalCode: string;
  country: string;
  metadata: Record<string, string>;
}

/**
 * The personal information of the account's verifications among the ids, for the reports service: one
 * message per verification with a person or metadata, in no set order. Every row is read by one query;
 * another account's, unknown and malformed ids are left out without a word, so that the answer tells nothing
 * of verifications the account does not own. Decrypted values travel to the caller only, never to a log.
 */
export async function* streamPersonalInfo(
  ctx: AppContext,
  input: { accountId: string; verificationIds: readonly string[] },
): AsyncGenerator<PersonalInfo> {
  if (input.verificationIds.length > MAX_PERSONAL_INFO_IDS)
    throw invalidArgument(`verificationIds: at most ${MAX_PERSONAL_INFO_IDS} per call`, {
      errorIds: ['invalidRequest'],
    });
  const ids = [...new Set(input.verificationIds)].filter(isVerificationId);
  if (ids.length === 0 || !input.accountId) return;
  for (const row of await findPersonalInfo(ctx.db, input.accountId, ids)) {
    const person = openPerson(ctx, row.id, row.person);
    const metadata = openMetadata(ctx, row.id, row.metadata);
    if (!person && Object.keys(metadata).length === 0) continue;
    yield {
      verificationId: row.id,
      firstName: text(person?.firstName),
      lastName: text(person?.lastName),
      email: text(person?.email),
      phoneNumber: text(person?.phoneNumber),
      birthDate: text(person?.birthDate),
      postalCode: text(person?.postalCode),
      country: text(person?.country),
      metadata,
    };
  }
}

/** A stored field as the message carries it: '' when the form did not ask for it. */
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
