import { topicFor } from '@eligo/runtime';

/** The topic the documents service publishes its domain events on (events.proto of eligo.documents.v1). */
export const documentsTopic = topicFor('documents');
