import { topicFor } from '@eligo/runtime';

/** The topic the organizations service publishes its domain events on (events.proto of eligo.organizations.v1). */
export const organizationsTopic = topicFor('organizations');
