import { createFieldCipher, type FieldCipher, type Knex } from '@eligo/runtime';
import type { ProgramRulesSource } from './ports';

/** What every use case needs: the module's pool on its schema, the PII cipher, program rules, limits. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  /** Encrypts add-school requesters' names and email, each bound to the request id and field name. */
  requesters: FieldCipher;
  programs: ProgramRulesSource;
  /** Add-school requests per program per UTC day. */
  addSchoolDailyLimit: number;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  programs: ProgramRulesSource;
  addSchoolDailyLimit: number;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    requesters: createFieldCipher(options.encryptionKey, 'organizations.add-school-requester'),
    programs: options.programs,
    addSchoolDailyLimit: options.addSchoolDailyLimit,
  };
}
