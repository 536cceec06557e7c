import { moduleMetrics, type MetricsRegistry } from '@eligo/runtime';
import type { AttemptOutcome } from '../domain/endpoint-policy';

/** The notifier's Prometheus series (section 12), labelled with the module by moduleMetrics. */
export interface NotifierMetrics {
  attempt(outcome: AttemptOutcome, seconds: number): void;
  /** From the verification's event to the receiver's 2xx (the latency goal is p99 <= 500 ms). */
  eventToDelivery(seconds: number): void;
  delivery(status: 'created' | 'delivered' | 'failed' | 'cancelled', eventType: string, count?: number): void;
  endpointDisabled(reason: string): void;
  message(channel: string, status: string): void;
}

export function notifierMetrics(registry: MetricsRegistry): NotifierMetrics {
  const m = moduleMetrics(registry, 'notifier');
  const attempts = m.counter<'outcome'>({
    name: 'eligo_webhook_attempts_total',
    help: 'Webhook attempts by outcome (delivered, gone, failed, refused)',
    labelNames: ['outcome'],
  });
  const attemptSeconds = m.histogram<'outcome'>({
    name: 'eligo_webhook_attempt_seconds',
    help: 'Duration of one webhook attempt, connection to answer',
    labelNames: ['outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  });
  const eventToDelivery = m.histogram({
    name: 'eligo_webhook_event_to_delivery_seconds',
    help: "From the verification's event to the receiver's 2xx, retries included",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 600, 3600, 86_400],
  });
  const deliveries = m.counter<'status' | 'event_type'>({
    name: 'eligo_webhook_deliveries_total',
    help: 'Logical webhook deliveries created and ended, by status and notifier event type',
    labelNames: ['status', 'event_type'],
  });
  const disabled = m.counter<'reason'>({
    name: 'eligo_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints disabled, by reason (GONE, PERSISTENT_FAILURE)',
    labelNames: ['reason'],
  });
  const messages = m.counter<'channel' | 'status'>({
    name: 'eligo_notifier_messages_total',
    help: 'Send-link messages by channel and final status of an attempt',
    labelNames: ['channel', 'status'],
  });
  return {
    attempt: (outcome, seconds) => {
      attempts.inc({ outcome });
      attemptSeconds.observe({ outcome }, seconds);
    },
    eventToDelivery: (seconds) => eventToDelivery.observe({}, seconds),
    delivery: (status, eventType, count = 1) => deliveries.inc({ status, event_type: eventType }, count),
    endpointDisabled: (reason) => disabled.inc({ reason }),
    message: (channel, status) => messages.inc({ channel, status }),
  };
}
