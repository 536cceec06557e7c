import { createHmac } from 'node:crypto';
import { createFieldCipher, deriveKey, type FieldCipher, type Knex } from '@eligo/runtime';
import { AppliedSubmissions } from './applied-submissions';
import type { OrganizationsPort, ProgramsPort } from './ports';
import type { InstantSources } from './sources/sources';

/** What every use case needs: the module's pool on its schema, the PII cipher, the other services, time. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  /** Encrypts the person's data and metadata, bound to the verification id and the field. */
  person: FieldCipher;
  /**
   * Keys the identifiers of eligibility lists (lookupHash only; purpose verification.eligibility-list), so
   * that a list's HMACs cannot be compared with person_email_hash or any other purpose's.
   */
  eligibilityList: FieldCipher;
  programs: ProgramsPort;
  organizations: OrganizationsPort;
  /** The instant-match sources of live programs (LIST, HTTP_SOURCE), with their deadline and budget. */
  sources: InstantSources;
  /** How long an unfinished verification lives. */
  expiryMs: number;
  /**
   * The token of a verification's upload attempt (the last segment of its docUpload submissionUrl): derived,
   * not stored, and different for each attempt, so a form left open from a rejected attempt cannot post to
   * the next one.
   */
  docUploadToken(verificationId: string, attempt: number): string;
  /** The submissions this process recorded through the documents service's call (applied-submissions.ts). */
  appliedSubmissions: AppliedSubmissions;
  now(): Date;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  programs: ProgramsPort;
  organizations: OrganizationsPort;
  sources: InstantSources;
  expiryMs: number;
  now?: () => Date;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    person: createFieldCipher(options.encryptionKey, 'verification.person'),
    eligibilityList: createFieldCipher(options.encryptionKey, 'verification.eligibility-list'),
    programs: options.programs,
    organizations: options.organizations,
    sources: options.sources,
    expiryMs: options.expiryMs,
    docUploadToken: docUploadTokens(options.encryptionKey),
    appliedSubmissions: new AppliedSubmissions(),
    now: options.now ?? (() => new Date()),
  };
}

function docUploadTokens(encryptionKey: Buffer): AppContext['docUploadToken'] {
  const key = deriveKey(encryptionKey, 'verification.doc-upload-token');
  return (verificationId, attempt) =>
    createHmac('sha256', key).update(`${verificationId}:${attempt}`).digest('base64url').slice(0, 22);
}
