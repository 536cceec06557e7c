import type { EventCounter } from '../events/counters';
import { moduleMetrics, type MetricsRegistry } from '../metrics/registry';

/**
 * The consumers' outcomes as `eligo_event_consumer_messages_total{module, consumer, outcome}`: applied,
 * duplicates, ignored, invalid and parked (alert on any parked: an operator must look, then replay).
 */
export function consumerCounter(registry: MetricsRegistry, module: string): EventCounter {
  const messages = moduleMetrics(registry, module).counter<'consumer' | 'outcome'>({
    name: 'eligo_event_consumer_messages_total',
    help: 'Events handled by each consumer, by outcome (parked: failed ELIGO_EVENT_MAX_ATTEMPTS times in a row)',
    labelNames: ['consumer', 'outcome'],
  });
  return (name, labels, value) => {
    if (!name.startsWith('inbox_')) return;
    messages.inc({ consumer: labels.consumer ?? '', outcome: name.slice('inbox_'.length) }, value);
  };
}
