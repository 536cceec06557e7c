import { programsProgramV1, type programsV1, type verificationV1 } from '@eligo/proto';
import { callDependency, decodeGrpcError, type GrpcClient } from '@eligo/runtime';
import type { AttemptOutcome } from '../domain/endpoint-policy';
import type { NotifierEventType, WebhookSettings } from '../domain/notifications';
import { TtlCache } from './ttl-cache';

/**
 * The notifier's ports (docs/architecture.md, "The service template"): the programs and verification services,
 * adapted here, and the outside world (webhook receivers, an SMTP server), whose adapters are in src/adapters/.
 */

export type WebhookLookup =
  | { kind: 'webhook'; webhook: WebhookSettings }
  /** The program exists and has no webhook. */
  | { kind: 'none' }
  | { kind: 'unknown-program' };

export interface SendLinkRecipientView {
  programId: string;
  recipient: { channel: 'EMAIL'; email: string } | { channel: 'SMS'; phoneNumber: string };
  trackingId: string;
}

/** The programs service as the notifier needs it. */
export interface ProgramsPort {
  /** The program's webhook settings (with the signing secret: never log them). */
  webhookOf(programId: string): Promise<WebhookLookup>;
  /** Drops what is cached of a program (its webhook was configured or removed). */
  forget(programId: string): void;
  /** undefined when the programs service does not know the request. */
  sendLinkRequest(requestId: string): Promise<SendLinkRecipientView | undefined>;
}

/** Only the service's own NOT_FOUND means "no such thing"; a transport failure travels on as 503/504. */
function isOwnNotFound(err: unknown): boolean {
  const decoded = decodeGrpcError(err);
  return decoded.codeName === 'NOT_FOUND' && decoded.kind !== undefined;
}

const { WebhookNotification, ProgramMode } = programsProgramV1;
const NOTIFICATION_NAMES: ReadonlyMap<programsProgramV1.WebhookNotification, NotifierEventType> = new Map([
  [WebhookNotification.WEBHOOK_NOTIFICATION_DOCUMENT_REJECTED, 'DOCUMENT_REJECTED'],
  [WebhookNotification.WEBHOOK_NOTIFICATION_MAX_DOC_UPLOAD_ATTEMPTS, 'MAX_DOC_UPLOAD_ATTEMPTS'],
  [WebhookNotification.WEBHOOK_NOTIFICATION_EXPIRATION, 'EXPIRATION'],
]);

export function webhookLookupOf(reply: programsV1.GetWebhookDeliveryResponse): WebhookLookup {
  if (reply.callbackUri === '') return { kind: 'none' };
  return {
    kind: 'webhook',
    webhook: {
      callbackUri: reply.callbackUri,
      signingSecret: reply.signingSecret,
      notifications: reply.notifications.flatMap((n) => NOTIFICATION_NAMES.get(n) ?? []),
      live: reply.mode === ProgramMode.PROGRAM_MODE_LIVE,
      accountId: reply.accountId,
    },
  };
}

const CACHE_ENTRIES = 10_000;

/**
 * Every notification and every attempt needs the program's webhook, so answers are kept for `cacheMs` and
 * concurrent lookups of one program share a call. WebhookConfigured/WebhookRemoved drop a program at once on
 * the replica that consumes them; other replicas see the change within `cacheMs`. "No webhook" is not kept: a
 * webhook configured a moment before a verification succeeds must be found even though the two events travel
 * on different topics (the events of one consumer transaction share a lookup instead: notify.ts). Unknown
 * programs are kept (ids are random: an unknown one never appears later).
 */
export function programsPort(
  client: GrpcClient<typeof programsV1.ProgramsServiceService>,
  cacheMs: number,
): ProgramsPort {
  const cache = new TtlCache<string, Promise<WebhookLookup>>(CACHE_ENTRIES);
  const lookup = async (programId: string): Promise<WebhookLookup> => {
    try {
      const reply = await callDependency('programs', () => client.unary('getWebhookDelivery', { programId }));
      return webhookLookupOf(reply);
    } catch (err) {
      if (isOwnNotFound(err)) return { kind: 'unknown-program' };
      throw err;
    }
  };
  return {
    webhookOf(programId) {
      const cached = cache.get(programId);
      if (cached) return cached;
      const pending = lookup(programId);
      // Shared while in flight; kept afterwards only for as long as the answer may be reused.
      cache.set(programId, pending, 60_000);
      pending.then(
        (found) => {
          if (cache.get(programId) !== pending) return;
          if (found.kind === 'none' || cacheMs === 0) cache.delete(programId);
          else cache.set(programId, pending, cacheMs);
        },
        () => {
          if (cache.get(programId) === pending) cache.delete(programId);
        },
      );
      return pending;
    },
    forget: (programId) => cache.delete(programId),
    async sendLinkRequest(requestId) {
      try {
        const reply = await callDependency('programs', () =>
          client.unary('getSendLinkRequest', { requestId }),
        );
        const r = reply.recipient;
        if (!r) return undefined;
        return {
          programId: reply.programId,
          recipient:
            r.$case === 'email'
              ? { channel: 'EMAIL', email: r.email }
              : { channel: 'SMS', phoneNumber: r.phoneNumber },
          trackingId: reply.trackingId,
        };
      } catch (err) {
        if (isOwnNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}

/** What an email-loop mail is made of (personal data and a credential: never log it). */
export interface EmailLoopMessageView {
  programId: string;
  /** The recipient. */
  email: string;
  /** The one-time code. */
  code: string;
  /** BCP 47; empty when unknown. */
  locale: string;
  /** When the code stops working; undefined when the service did not say. */
  expiresAt: Date | undefined;
}

/** The verification service as the notifier needs it. */
export interface VerificationPort {
  /**
   * The recipient and code of one email-loop send (TakeEmailLoopMessage); undefined when that code is no
   * longer current (replaced, used, expired, the verification left the step) or the verification is unknown:
   * there is nothing to send.
   */
  emailLoopMessage(verificationId: string, sendId: string): Promise<EmailLoopMessageView | undefined>;
}

/**
 * Calls go through the module's client (its deadline, ELIGO_NOTIFIER_DEPENDENCY_DEADLINE_MS, and breaker):
 * a service that does not answer is this service's 503/504 (an outage: the consumer retries the event as long
 * as it lasts); its own errors travel on, and only its own NOT_FOUND means "nothing to send".
 */
export function verificationPort(
  client: GrpcClient<typeof verificationV1.VerificationServiceService>,
): VerificationPort {
  return {
    async emailLoopMessage(verificationId, sendId) {
      try {
        const reply = await callDependency('verification', () =>
          client.unary('takeEmailLoopMessage', { verificationId, sendId }),
        );
        if (!reply.found) return undefined;
        return {
          programId: reply.programId,
          email: reply.email,
          code: reply.code,
          locale: reply.locale,
          expiresAt: reply.expiresAt,
        };
      } catch (err) {
        if (isOwnNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}

/** One attempt of one logical delivery. */
export interface WebhookAttempt {
  /** The program's callbackUri. */
  url: string;
  /** The delivery's id: the webhook-id header, the same on every attempt of the delivery. */
  webhookId: string;
  /** webhook-timestamp (whole seconds are sent); the attempt's own time. */
  timestamp: Date;
  /** The exact JSON body that is signed and sent. */
  body: string;
  /** The program's secret, `whsec_` + base64 of the key (Standard Webhooks). */
  signingSecret: string;
  eventType: NotifierEventType;
  /** Live programs: anything but https is refused without connecting. */
  requireHttps: boolean;
}

export interface AttemptResult {
  outcome: AttemptOutcome;
  /** The receiver's status; 0 when there was none. */
  statusCode: number;
  latencyMs: number;
  /** From a Retry-After header (seconds or HTTP date), in milliseconds from now; undefined when absent. */
  retryAfterMs?: number;
  /** Why it failed, in our words: never the receiver's body. */
  error?: string;
}

/**
 * Sends single signed attempts to receivers, the SSRF guard included (adapters/webhook-sender.ts). Retrying is
 * not its business: the use cases decide what to send and keep the schedule (domain/retry-schedule.ts) in
 * Postgres.
 */
export interface WebhookSender {
  send(attempt: WebhookAttempt): Promise<AttemptResult>;
}

/** An e-mail: a send-link message or an email-loop code. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type MailResult =
  /** Accepted by the SMTP server. */
  | { status: 'sent' }
  /** Kept by the capture: nothing left the process. */
  | { status: 'captured' }
  /**
   * Not sent. `permanent` when retrying cannot help (the server refused with a 5xx). `error` is in our words
   * (the reply code, a connection error's code), never the server's text, which may repeat the address.
   */
  | { status: 'failed'; error: string; permanent: boolean };

/**
 * Where the notifier's e-mails go (swappable infrastructure behind a small interface: docs/architecture.md,
 * "Configuration and embedded defaults"): an SMTP server when ELIGO_SMTP_URL is set (adapters/smtp-mailer.ts),
 * otherwise the local capture (adapters/capture-mailer.ts), where the message row is the mail.
 */
export interface Mailer {
  readonly kind: 'smtp' | 'capture';
  send(mail: Mail): Promise<MailResult>;
  close(): void;
}
