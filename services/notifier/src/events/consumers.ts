import { programsEventsV1, verificationEventsV1 } from '@eligo/proto';
import { eventHandler, eventType, topicFor, type EventContext, type ServiceConsumer } from '@eligo/runtime';
import type { AppContext } from '../app/context';
import { onEmailLoopCodeIssued, onSendLinkRequested } from '../app/messages';
import { onNotification, onRefire, type NotificationEvent } from '../app/notify';
import { onWebhookConfigured, onWebhookRemoved } from '../app/webhook-changes';
import { notificationOfStepChange, type NotifierEventType } from '../domain/notifications';

/** The ids every verification event carries. */
interface VerificationIds {
  verificationId: string;
  programId: string;
  accountId: string;
  occurredAt?: Date | undefined;
}

const notification = (
  type: NotifierEventType,
  e: VerificationIds,
  { event }: EventContext,
): NotificationEvent => ({
  sourceEventId: event.id,
  type,
  verificationId: e.verificationId,
  programId: e.programId,
  accountId: e.accountId,
  // The event's own time, for the event-to-delivery latency; its CloudEvent time if the body has none.
  occurredAt: e.occurredAt ?? new Date(event.time),
});

/**
 * The notifier's consumers, each with exactly-once effects through the inbox. Each is a consumer group of its
 * own, consuming in parallel: a slow send-link lookup never holds up webhooks, and webhook settings changes
 * are not queued behind verifications. Those that reach people start, when their group is new (a first
 * deployment), at the end of the topic: the history Kafka still holds must not become a burst of old webhooks
 * and mails. Webhook settings are read from the start, which only rebuilds endpoint rows.
 */
export function notifierConsumers(app: AppContext): ServiceConsumer[] {
  const verification = (name: string) => eventType('verification', name);
  const programs = (name: string) => eventType('programs', name);
  return [
    {
      // Successes alone (and refires, which resend them: same partition order), so that their latency does
      // not depend on how many step changes the other consumer works through.
      name: 'verification-success',
      topics: [topicFor('verification')],
      fromBeginning: false,
      handlers: {
        [verification('VerificationSucceeded')]: eventHandler(
          verificationEventsV1.VerificationSucceeded,
          (e, c) => onNotification(c, app, notification('SUCCESS', e, c)),
        ),
        [verification('WebhooksRefireRequested')]: eventHandler(
          verificationEventsV1.WebhooksRefireRequested,
          (e, c) => {
            const { sourceEventId, verificationId, programId, occurredAt } = notification('SUCCESS', e, c);
            return onRefire(c.trx, app, { sourceEventId, verificationId, programId, occurredAt });
          },
        ),
      },
    },
    {
      // The optional notifications: every step change passes through here, most of them for nothing.
      name: 'verification-notifications',
      topics: [topicFor('verification')],
      fromBeginning: false,
      handlers: {
        [verification('VerificationStepChanged')]: eventHandler(
          verificationEventsV1.VerificationStepChanged,
          async (e, c) => {
            const type = notificationOfStepChange(e);
            if (type) await onNotification(c, app, notification(type, e, c));
          },
          // The other step changes (nearly all) are ignored without a transaction.
          (e) => notificationOfStepChange(e) !== undefined,
        ),
        [verification('VerificationExpired')]: eventHandler(
          verificationEventsV1.VerificationExpired,
          (e, c) => onNotification(c, app, notification('EXPIRATION', e, c)),
        ),
      },
    },
    {
      name: 'programs-webhooks',
      topics: [topicFor('programs')],
      handlers: {
        [programs('WebhookConfigured')]: eventHandler(programsEventsV1.WebhookConfigured, (e, { trx }) =>
          onWebhookConfigured(trx, app, e),
        ),
        [programs('WebhookRemoved')]: eventHandler(programsEventsV1.WebhookRemoved, (e, { trx }) =>
          onWebhookRemoved(trx, app, e),
        ),
      },
    },
    {
      name: 'send-link',
      topics: [topicFor('programs')],
      fromBeginning: false,
      handlers: {
        [programs('SendLinkRequested')]: eventHandler(programsEventsV1.SendLinkRequested, (e, { trx }) =>
          onSendLinkRequested(trx, app, e),
        ),
      },
    },
    {
      // Email-loop codes (issue 22), on a group of their own: a person waits for the mail, so it must not
      // queue behind the webhook notifications of the verification topic.
      name: 'email-loop',
      topics: [topicFor('verification')],
      fromBeginning: false,
      handlers: {
        [verification('EmailLoopCodeIssued')]: eventHandler(
          verificationEventsV1.EmailLoopCodeIssued,
          (e, { trx }) => onEmailLoopCodeIssued(trx, app, e),
        ),
      },
    },
  ];
}
