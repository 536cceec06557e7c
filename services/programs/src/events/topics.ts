import { topicFor } from '@eligo/runtime';

/** The topic the programs service publishes its domain events on (events.proto of eligo.programs.v1). */
export const programsTopic = topicFor('programs');
