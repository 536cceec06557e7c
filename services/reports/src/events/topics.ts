import { topicFor } from '@eligo/runtime';

/** The topic the reports service publishes its domain events on (events.proto of eligo.reports.v1). */
export const reportsTopic = topicFor('reports');
