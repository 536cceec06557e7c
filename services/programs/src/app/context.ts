import { createFieldCipher, deriveKey, type FieldCipher, type Knex } from '@eligo/runtime';
import type { AllowCidrs } from '../domain/webhook-address';

/** What every use case needs: the module's pool on its schema, the ciphers, and the OAuth settings. */
export interface AppContext {
  db: Knex;
  /** The Postgres schema (for the outbox). */
  schema: string;
  webhookSecrets: FieldCipher;
  sendLinkRecipients: FieldCipher;
  /**
   * Seals the HTTP instant-match source's secret, bound to the program id; the verification service opens it
   * with the same purpose (its app/sources/source-secret.ts).
   */
  sourceSecrets: FieldCipher;
  oauth: OAuthSettings;
  /** ELIGO_WEBHOOK_ALLOW_CIDRS, the notifier's setting: non-public ranges a webhook callback may name. */
  webhookAllowCidrs: AllowCidrs;
}

export interface OAuthSettings {
  /** HS256 key of OAuth access tokens, derived from the master key for this purpose only. */
  signingKey: Uint8Array;
  ttlSeconds: number;
}

export function createAppContext(options: {
  db: Knex;
  schema: string;
  encryptionKey: Buffer;
  oauthTokenTtlSeconds: number;
  webhookAllowCidrs: AllowCidrs;
}): AppContext {
  const { encryptionKey } = options;
  return {
    db: options.db,
    schema: options.schema,
    webhookSecrets: createFieldCipher(encryptionKey, 'programs.webhook-secret'),
    sendLinkRecipients: createFieldCipher(encryptionKey, 'programs.send-link-recipient'),
    sourceSecrets: createFieldCipher(encryptionKey, 'programs.instant-source-secret'),
    oauth: {
      signingKey: new Uint8Array(deriveKey(encryptionKey, 'programs.oauth-access-token')),
      ttlSeconds: options.oauthTokenTtlSeconds,
    },
    webhookAllowCidrs: options.webhookAllowCidrs,
  };
}
