import { z } from 'zod';
import { CONSUMER_NAME, parkingModules } from '../clients/parked-events.client';
import { adminOperation, unauthorized } from './admin-common';
import { er, sem } from './common';
import { defineEndpoint, type QueryOf } from './define';
import { integer, oneOf, text } from './query';
import { stringMap } from './schemas-maps';
import { integerValue } from './schemas-numbers';

/**
 * Parked events under /rest/admin/v1 (operator token), described once: what consumers set aside after
 * failing on an event ELIGO_EVENT_MAX_ATTEMPTS times in a row, and the replay of one. The routes are
 * routes/admin/parked-events.ts.
 */
export const ParkedEvent = z
  .object({
    module: z.string().meta({ description: 'The module whose consumer parked it' }),
    id: integerValue().min(1).meta({ description: 'Its id within the module' }),
    consumer: z.string().meta({ description: 'The consumer, e.g. `projection`' }),
    ceId: z.string().meta({ format: 'uuid', description: 'CloudEvents id' }),
    ceType: z.string().meta({
      description: 'CloudEvents type, e.g. `eligo.verification.v1.VerificationMetadataChanged`',
    }),
    topic: z.string(),
    partition: integerValue().min(0),
    offset: z.string().meta({ description: 'Kafka offset (decimal; 64-bit)' }),
    error: z.string().meta({
      description: 'The last failure: error class, code and message (never payload data)',
    }),
    attempts: integerValue().min(1).meta({ description: 'Failed attempts, replays included' }),
    parkedAt: z.string().meta({ format: 'date-time' }),
    replayedAt: z.string().nullable().meta({ format: 'date-time', description: 'null while parked' }),
    headers: stringMap().meta({ description: 'The CloudEvents headers as delivered' }),
    payloadBytes: integerValue().min(0).meta({
      description: 'Size of the protobuf payload, kept in the database',
    }),
  })
  .meta({ id: 'ParkedEvent' });

export const ParkedEventList = z.object({ events: z.array(ParkedEvent) }).meta({ id: 'ParkedEventList' });

export const ParkedEventReplay = z
  .object({
    outcome: z.enum(['applied', 'duplicate', 'ignored', 'invalid', 'failed']),
    event: ParkedEvent,
  })
  .meta({ id: 'ParkedEventReplay' });

export type ParkedEventJson = z.input<typeof ParkedEvent>;
export type ParkedEventListJson = z.input<typeof ParkedEventList>;
export type ParkedEventReplayJson = z.input<typeof ParkedEventReplay>;

const eventParams = z.object({
  module: z.string().meta({ description: 'The module whose consumer parked the event' }),
  id: z.string().meta({ description: "The event's id within its module" }),
});
const notFound = sem(
  'No such parked event (a module without consumers, or an id that is not a positive integer, is answered the same)',
);

export const listParkedEvents = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/parked-events',
  operationId: 'adminListParkedEvents',
  summary: 'Events consumers parked, newest first',
  description:
    'A consumer that fails on one event ELIGO_EVENT_MAX_ATTEMPTS times in a row (an outage of the ' +
    'database, the broker or a peer service excepted: those are retried as long as they last) parks ' +
    'it with its error and goes on with the next event. Alert on ' +
    '`eligo_event_consumer_messages_total{outcome="parked"}`, read the error here, fix its cause, ' +
    'then replay. `Cache-Control: no-store`.',
  strictQuery: true,
  query: z.object({
    module: oneOf(parkingModules, { description: 'Only this module (default: all of them)' }).optional(),
    consumer: text({
      description: 'Only this consumer, e.g. `projection`',
      maxLength: 64,
      schema: { type: 'string', pattern: CONSUMER_NAME },
      pattern: {
        source: CONSUMER_NAME,
        message: 'must be a consumer name: lowercase letters, digits and hyphens',
      },
    }).optional(),
    status: oneOf(['parked', 'all'], {
      description: '`parked` (default): those not replayed yet; `all`: replayed ones too',
    }).optional(),
    limit: integer({ description: 'At most this many (default 100)', min: 1, max: 500 }).optional(),
    beforeId: integer({
      description: 'With `module`: only ids below this one (the next page)',
      min: 1,
      max: 999_999_999,
    }).optional(),
  }),
  responses: {
    '200': { description: 'Parked events', body: ParkedEventList },
    '400': er(
      'A query parameter the operation does not have, or a value that does not match its schema (errorIds [invalidRequest])',
    ),
    ...unauthorized,
  },
});

export const getParkedEvent = defineEndpoint({
  ...adminOperation,
  method: 'get',
  path: '/parked-events/{module}/{id}',
  operationId: 'adminGetParkedEvent',
  summary: 'One parked event: its consumer, error, attempts and CloudEvents headers',
  params: eventParams,
  responses: {
    '200': { description: 'The parked event', body: ParkedEvent },
    ...unauthorized,
    '404': notFound,
  },
});

export const replayParkedEvent = defineEndpoint({
  ...adminOperation,
  method: 'post',
  path: '/parked-events/{module}/{id}/replay',
  operationId: 'adminReplayParkedEvent',
  summary: 'Runs a parked event through its consumer again',
  description:
    "Exactly once per event, as every delivery (the consumer's inbox): `applied` when the consumer " +
    'handled it now (it is then marked replayed), `duplicate` when it had been applied already, ' +
    '`failed` when it failed again (it stays parked with the new error and one attempt more).',
  params: eventParams,
  responses: {
    '200': { description: 'The outcome and the event after it', body: ParkedEventReplay },
    ...unauthorized,
    '404': notFound,
  },
});

export type ParkedEventListQuery = QueryOf<typeof listParkedEvents>;

export const adminParkedEventEndpoints = [listParkedEvents, getParkedEvent, replayParkedEvent] as const;
