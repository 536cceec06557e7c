import { reportsLag } from '../events/consumer-lag';
import type { Subscription } from '../events/event-bus';
import type { Logger } from '../logging/logger';
import { moduleMetrics, type MetricsRegistry } from '../metrics/registry';

/** Often enough for an alert on lag that grows; rare enough to cost the brokers nothing. */
export const lagIntervalMs = 15_000;

/**
 * `eligo_event_consumer_lag{module, consumer, topic, partition}`: messages each consumer has yet to handle,
 * asked of Kafka at start and every lagIntervalMs (a scrape never waits for the brokers). A consumer still
 * joining its group after a restart shows here, not in readiness. Returns stop(); the in-process bus reports
 * no lag, and then nothing is polled.
 */
export function startConsumerLagGauge(
  registry: MetricsRegistry,
  module: string,
  consumers: { name: string; subscription: Subscription }[],
  logger: Logger,
): () => void {
  const reporting = consumers.flatMap(({ name, subscription }) =>
    reportsLag(subscription) ? [{ name, subscription }] : [],
  );
  if (reporting.length === 0) return () => undefined;
  const gauge = moduleMetrics(registry, module).gauge<'consumer' | 'topic' | 'partition'>({
    name: 'eligo_event_consumer_lag',
    help: 'Messages a consumer has yet to handle, per partition (end offset minus committed position)',
    labelNames: ['consumer', 'topic', 'partition'],
  });
  let polling = false;
  let stopped = false;
  const poll = async (): Promise<void> => {
    if (polling || stopped) return; // a slow answer (brokers away) is not queued behind
    polling = true;
    try {
      for (const { name, subscription } of reporting) {
        for (const { topic, partition, lag } of await subscription.lag())
          gauge.set({ consumer: name, topic, partition }, lag);
      }
    } catch (err) {
      if (!stopped) logger.warn({ err }, 'could not read the consumers lag from Kafka; trying again later');
    } finally {
      polling = false;
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), lagIntervalMs);
  timer.unref();
  // Not waiting for a poll in flight: it only sets gauges, and it must not hold a stop while brokers are away.
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
