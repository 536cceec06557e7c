/**
 * The contract between the delivery core (sending one signed attempt, the SSRF guard, the retry schedule)
 * and the notifier's use cases (which decide what to send and keep the schedule in Postgres).
 */

/** The notifierEventType of a delivery: header X-Eligo-Notifier-Event-Type, and body field except SUCCESS. */
export type NotifierEventType = 'SUCCESS' | 'DOCUMENT_REJECTED' | 'MAX_DOC_UPLOAD_ATTEMPTS' | 'EXPIRATION';

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

export type AttemptOutcome =
  /** 2xx within the timeout. */
  | 'delivered'
  /** 410: the receiver asks for the endpoint to be disabled. */
  | 'gone'
  /** Anything else: another status (3xx included: redirects are never followed), no answer, a timeout. */
  | 'failed'
  /** Refused before connecting: a blocked address (SSRF guard), a scheme not allowed, a malformed URL. */
  | 'refused';

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

export interface WebhookSender {
  send(attempt: WebhookAttempt): Promise<AttemptResult>;
}
