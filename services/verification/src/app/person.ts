import type { AppContext } from './context';

/** The person's data as stored (encrypted as one JSON document): every subject field but the SSN. */
export type StoredPerson = Record<string, unknown> & {
  firstName?: string;
  lastName?: string;
  email?: string;
  birthDate?: string;
  organization?: { id: number; name: string };
  metadata?: Record<string, string>;
  /** The client's identifier of the person (bodies other than the student's); '' or absent: none. */
  externalUserId?: string;
};

const personContext = (verificationId: string) => `${verificationId}:person`;
const metadataContext = (verificationId: string) => `${verificationId}:metadata`;

export function sealPerson(ctx: AppContext, verificationId: string, person: StoredPerson): Buffer {
  return ctx.person.encrypt(JSON.stringify(person), personContext(verificationId));
}

export function openPerson(
  ctx: AppContext,
  verificationId: string,
  stored: Buffer | null,
): StoredPerson | null {
  return stored
    ? (JSON.parse(ctx.person.decrypt(stored, personContext(verificationId))) as StoredPerson)
    : null;
}

export function sealMetadata(
  ctx: AppContext,
  verificationId: string,
  metadata: Record<string, string>,
): Buffer {
  return ctx.person.encrypt(JSON.stringify(metadata), metadataContext(verificationId));
}

export function openMetadata(
  ctx: AppContext,
  verificationId: string,
  stored: Buffer | null,
): Record<string, string> {
  return stored
    ? (JSON.parse(ctx.person.decrypt(stored, metadataContext(verificationId))) as Record<string, string>)
    : {};
}
