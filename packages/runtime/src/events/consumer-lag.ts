import type { Subscription } from './event-bus';

/** How many messages of one partition a consumer group has yet to handle: the end offset minus its position. */
export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * What a Kafka subscription adds: its lag, asked of the brokers. The in-process bus has none to report (its
 * consumers are in the same process as the publishers), so callers check with reportsLag.
 */
export interface LagReporting {
  lag(): Promise<PartitionLag[]>;
}

export function reportsLag(subscription: Subscription): subscription is Subscription & LagReporting {
  return typeof (subscription as Partial<LagReporting>).lag === 'function';
}
