/** The notifierEventType of a delivery: header X-Eligo-Notifier-Event-Type, and body field except SUCCESS. */
export type NotifierEventType = 'SUCCESS' | 'DOCUMENT_REJECTED' | 'MAX_DOC_UPLOAD_ATTEMPTS' | 'EXPIRATION';

/** The notifications a program opts in to; SUCCESS is always sent to a program with a webhook. */
export const OPTIONAL_NOTIFICATIONS = ['DOCUMENT_REJECTED', 'MAX_DOC_UPLOAD_ATTEMPTS', 'EXPIRATION'] as const;
export type OptionalNotification = (typeof OPTIONAL_NOTIFICATIONS)[number];

export const NOTIFIER_EVENT_TYPES: readonly NotifierEventType[] = ['SUCCESS', ...OPTIONAL_NOTIFICATIONS];

/** The verification's error id when its last allowed review rejected the documents. */
const REVIEW_LIMIT_ERROR = 'docReviewLimitExceeded';

/**
 * The notification a step change stands for, if any. A review that rejects documents sends the verification
 * from pending back to docUpload; the last allowed rejection ends it on the error step instead.
 */
export function notificationOfStepChange(change: {
  previousStep: string;
  currentStep: string;
  errorIds: readonly string[];
}): NotifierEventType | undefined {
  if (change.previousStep === 'pending' && change.currentStep === 'docUpload') return 'DOCUMENT_REJECTED';
  if (change.currentStep === 'error' && change.errorIds.includes(REVIEW_LIMIT_ERROR))
    return 'MAX_DOC_UPLOAD_ATTEMPTS';
  return undefined;
}

/** A program's webhook as the notifier uses it (from the programs service). */
export interface WebhookSettings {
  callbackUri: string;
  signingSecret: string;
  /** The optional notifications opted in to. */
  notifications: readonly NotifierEventType[];
  /** Live programs are only sent to https callback URIs. */
  live: boolean;
  accountId: string;
}

export type SkipReason = 'no-webhook' | 'not-opted-in';

/**
 * Why a notification is not delivered, or undefined when a delivery is to be made (unless the endpoint is
 * disabled: that is checked by the statement that records the delivery, against the endpoint row itself).
 */
export function skipReason(
  type: NotifierEventType,
  webhook: WebhookSettings | undefined,
): SkipReason | undefined {
  if (!webhook) return 'no-webhook';
  if (type !== 'SUCCESS' && !webhook.notifications.includes(type)) return 'not-opted-in';
  return undefined;
}

/**
 * The JSON a receiver gets: ids only (the receiver calls the details endpoint for the rest). Success keeps the
 * body integrators have always had; the optional notifications name themselves.
 */
export function deliveryBody(verificationId: string, type: NotifierEventType): string {
  return JSON.stringify(
    type === 'SUCCESS' ? { verificationId } : { verificationId, notifierEventType: type },
  );
}
