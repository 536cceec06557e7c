import { topicFor } from '@eligo/runtime';

/** The topic the notifier service publishes its domain events on (events.proto of eligo.notifier.v1). */
export const notifierTopic = topicFor('notifier');
