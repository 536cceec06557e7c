import { randomBytes } from 'node:crypto';
import type { ProgramMode, Webhook } from './program';

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

/** What the notifier needs to deliver a program's webhooks (GetWebhookDelivery). */
export interface WebhookDelivery {
  /** The program's owner and mode, also when it has no webhook (the notifier keeps them in its view). */
  accountId: string;
  mode: ProgramMode;
  /** Null when the program has no webhook. */
  webhook: (Webhook & { signingSecret: string }) | null;
}
