import { createHmac } from 'node:crypto';
import { createFieldCipher, deriveKey, type FieldCipher, type Knex } from '@eligo/runtime';
import type { OrganizationsPort, ProgramsPort } from './ports';

/** What every use case needs: the module's pool on its schema, the PII cipher, the other services, time. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  /** Encrypts the person's data and metadata, bound to the verification id and the field. */
  person: FieldCipher;
  programs: ProgramsPort;
  organizations: OrganizationsPort;
  /** How long an unfinished verification lives. */
  expiryMs: number;
  /**
   * The token of a verification's upload attempt (the last segment of its docUpload submissionUrl): derived,
   * not stored, and different for each attempt, so a form left open from a rejected attempt cannot post to
   * the next one.
   */
  docUploadToken(verificationId: string, attempt: number): string;
  now(): Date;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  programs: ProgramsPort;
  organizations: OrganizationsPort;
  expiryMs: number;
  now?: () => Date;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    person: createFieldCipher(options.encryptionKey, 'verification.person'),
    programs: options.programs,
    organizations: options.organizations,
    expiryMs: options.expiryMs,
    docUploadToken: docUploadTokens(options.encryptionKey),
    now: options.now ?? (() => new Date()),
  };
}

function docUploadTokens(encryptionKey: Buffer): AppContext['docUploadToken'] {
  const key = deriveKey(encryptionKey, 'verification.doc-upload-token');
  return (verificationId, attempt) =>
    createHmac('sha256', key).update(`${verificationId}:${attempt}`).digest('base64url').slice(0, 22);
}
