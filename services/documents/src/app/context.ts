import { createFieldCipher, type FieldCipher, type Knex, type ObjectStore } from '@eligo/runtime';
import type { VerificationPort } from './ports';

/** What every use case needs: the module's pool on its schema, the stores, the cipher, the verification, time. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  /** Document files, sealed at rest (documentFileStore); review links are its presigned GETs. */
  store: ObjectStore;
  /** The same bucket as it is: where clients' bytes land before they are sealed (incomingKeyOf). */
  incoming: ObjectStore;
  /** Encrypts file names (they can hold a person's name), bound to the document id. */
  fileNames: FieldCipher;
  verification: VerificationPort;
  /** Lifetime of an upload token. */
  uploadUrlTtlMs: number;
  /** How long the files of a decided review are kept. */
  retentionMs: number;
  /** Lifetime of the links staff open to read a review's files. */
  reviewLinkSeconds: number;
  /** How long a claim on a review lasts. */
  reviewClaimMs: number;
  /** How old an object no document refers to must be before the orphan sweep deletes it. */
  orphanGraceMs: number;
  now(): Date;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  store: ObjectStore;
  incoming: ObjectStore;
  encryptionKey: Buffer;
  verification: VerificationPort;
  uploadUrlTtlMs: number;
  retentionMs: number;
  reviewLinkSeconds: number;
  reviewClaimMs: number;
  orphanGraceMs: number;
  now?: () => Date;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    store: options.store,
    incoming: options.incoming,
    fileNames: createFieldCipher(options.encryptionKey, 'documents.file-name'),
    verification: options.verification,
    uploadUrlTtlMs: options.uploadUrlTtlMs,
    retentionMs: options.retentionMs,
    reviewLinkSeconds: options.reviewLinkSeconds,
    reviewClaimMs: options.reviewClaimMs,
    orphanGraceMs: options.orphanGraceMs,
    now: options.now ?? (() => new Date()),
  };
}
