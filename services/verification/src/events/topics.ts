import { topicFor } from '@eligo/runtime';

/** The topic the verification service publishes its domain events on (events.proto of eligo.verification.v1). */
export const verificationTopic = topicFor('verification');
