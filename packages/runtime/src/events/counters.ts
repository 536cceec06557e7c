/**
 * Counting hook for whoever wires Prometheus (prom-client lives elsewhere in the runtime): events code
 * reports what happened and stays free of a metrics library.
 */
export type EventCounterName =
  | 'outbox_published'
  | 'outbox_publish_failures'
  | 'inbox_applied'
  | 'inbox_duplicates'
  | 'inbox_ignored'
  | 'inbox_invalid'
  | 'inbox_parked';

export type EventCounter = (
  name: EventCounterName,
  labels: Readonly<Record<string, string>>,
  value: number,
) => void;
