import { createFieldCipher, type AllowCidrs, type FieldCipher, type Knex } from '@eligo/runtime';
import type { OidcClient, ProgramRulesSource } from './ports';

/** What every use case needs: the module's pool on its schema, the ciphers, program rules, limits. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  /** Encrypts add-school requesters' names and email, each bound to the request id and field name. */
  requesters: FieldCipher;
  programs: ProgramRulesSource;
  /** Add-school requests per program per UTC day. */
  addSchoolDailyLimit: number;
  sso: {
    /** Encrypts organizations' OpenID client secrets, each bound to the organization id. */
    clientSecrets: FieldCipher;
    /** HMACs sign-on states and encrypts their nonce and PKCE verifier, bound to the state's HMAC. */
    signOns: FieldCipher;
    oidc: OidcClient;
    /** ELIGO_WEBHOOK_ALLOW_CIDRS: the address rules of issuers. */
    allowCidrs: AllowCidrs;
  };
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  programs: ProgramRulesSource;
  addSchoolDailyLimit: number;
  oidc: OidcClient;
  allowCidrs: AllowCidrs;
}): AppContext {
  return {
    db: options.db,
    schema: options.schema,
    requesters: createFieldCipher(options.encryptionKey, 'organizations.add-school-requester'),
    programs: options.programs,
    addSchoolDailyLimit: options.addSchoolDailyLimit,
    sso: {
      clientSecrets: createFieldCipher(options.encryptionKey, 'organizations.sso-client-secret'),
      signOns: createFieldCipher(options.encryptionKey, 'organizations.sso-sign-on'),
      oidc: options.oidc,
      allowCidrs: options.allowCidrs,
    },
  };
}
