import { randomBytes } from 'node:crypto';

/**
 * The HMAC-SHA256 key the notifier signs webhook bodies with. Prefixed like Stripe's so that integrators
 * recognise it; stored encrypted (the notifier needs it back), shown to the owner once.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export function newWebhookSigningSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}
