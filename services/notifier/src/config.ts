import { z } from 'zod';
import { ConfigError, loadServiceConfig, type Config } from '@eligo/runtime';
import { DEFAULT_RETRY_SCHEDULE, parseDuration, parseRetrySchedule } from './domain/retry-schedule';
import { parseAllowCidrs } from '@eligo/runtime';
import { checkLinkTemplate } from './domain/send-link';

export type AllowCidrs = ReturnType<typeof parseAllowCidrs>;

/**
 * A setting parsed by one of the delivery core's parsers at boot, so that a bad value stops the process with
 * the variable's name and the parser's reason instead of failing the first delivery.
 */
const parsed = <T>(fallback: string, parse: (text: string) => T) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parse(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** Settings of the notifier service only; shared ones come from the runtime Config. */
const schema = z.object({
  ELIGO_NOTIFIER_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
  // Non-public ranges webhooks may still reach (tests, private deployments); empty = public unicast only.
  ELIGO_WEBHOOK_ALLOW_CIDRS: parsed('', parseAllowCidrs),
  // One attempt, connection to the end of the answer: a receiver must answer 2xx within it.
  ELIGO_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  // The delay before each attempt (ms once parsed); a delivery fails once all are used.
  ELIGO_WEBHOOK_RETRY_SCHEDULE: parsed(DEFAULT_RETRY_SCHEDULE, parseRetrySchedule),
  // An endpoint with no success for this long is disabled (and its program owner told).
  ELIGO_WEBHOOK_DISABLE_AFTER: parsed('5d', parseDuration),
  // The dispatcher's poll for due retries; new deliveries wake it at once.
  ELIGO_WEBHOOK_DISPATCH_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  // Attempts in flight at once per notifier process.
  ELIGO_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(16),
  // How long a program's webhook settings are reused; WebhookConfigured/WebhookRemoved drop them sooner.
  ELIGO_NOTIFIER_WEBHOOK_CACHE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  // Unset: send-link and email-loop mails are kept by the local capture (ListMessages) instead of being sent.
  ELIGO_SMTP_URL: optionalText.pipe(
    z
      .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, like smtp://mail:587' })
      .optional(),
  ),
  ELIGO_SMTP_FROM: z.string().trim().min(3).default('Eligo <no-reply@eligo.local>'),
  // The link of a send-link message; {programId} and {trackingId} are replaced (URL-encoded). Email-loop mails
  // link to the same page, with ?verificationId= and the code in the fragment.
  ELIGO_SEND_LINK_URL: optionalText,
  // Each call to the programs service (webhook settings, send-link recipients) and to the verification service
  // (the recipient and code of an email-loop mail).
  ELIGO_NOTIFIER_DEPENDENCY_DEADLINE_MS: z.coerce.number().int().min(100).max(10_000).default(3000),
});

/** The settings as the service reads them, typed by the loader: no hand-written copy to keep in step. */
export type NotifierConfig = ReturnType<typeof loadNotifierConfig>;

export function loadNotifierConfig(config: Config) {
  const env = loadServiceConfig(schema, config.env);
  const linkTemplate = env.ELIGO_SEND_LINK_URL ?? `${config.http.publicBaseUrl}/verify/{programId}`;
  try {
    checkLinkTemplate(linkTemplate);
  } catch (err) {
    throw new ConfigError([`ELIGO_SEND_LINK_URL: ${(err as Error).message}`]);
  }
  return {
    schema: 'notifier',
    poolMax: env.ELIGO_NOTIFIER_DB_POOL_MAX ?? config.database.poolMax,
    webhook: {
      allowCidrs: env.ELIGO_WEBHOOK_ALLOW_CIDRS,
      timeoutMs: env.ELIGO_WEBHOOK_TIMEOUT_MS,
      retrySchedule: env.ELIGO_WEBHOOK_RETRY_SCHEDULE,
      disableAfterMs: env.ELIGO_WEBHOOK_DISABLE_AFTER,
      dispatchIntervalMs: env.ELIGO_WEBHOOK_DISPATCH_MS,
      concurrency: env.ELIGO_WEBHOOK_CONCURRENCY,
      cacheMs: env.ELIGO_NOTIFIER_WEBHOOK_CACHE_MS,
    },
    mail: { smtpUrl: env.ELIGO_SMTP_URL, from: env.ELIGO_SMTP_FROM, linkTemplate },
    dependencyDeadlineMs: env.ELIGO_NOTIFIER_DEPENDENCY_DEADLINE_MS,
  };
}
