import { createFieldCipher, type FieldCipher, type Knex } from '@eligo/runtime';
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
    now: options.now ?? (() => new Date()),
  };
}
