import { randomBytes } from 'node:crypto';

/**
 * The HMAC-SHA256 key the notifier signs webhook bodies with (Standard Webhooks scheme): `whsec_` followed by
 * 32 random bytes in standard base64 (44 characters with the '=' padding), the form the Standard Webhooks
 * libraries decode. Stored encrypted (the notifier needs it back), shown to the owner once. Secrets made
 * earlier in base64url stay valid: the notifier decodes either alphabet.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSigningSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}
