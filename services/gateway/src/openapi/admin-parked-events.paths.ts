import { CONSUMER_NAME, parkingModules } from '../clients/parked-events.client';
import { security, unauthorized } from './admin.paths';
import { errorResponse, jsonResponse } from './refs';

const notFound = errorResponse(
  'No such parked event (a module without consumers, or an id that is not a positive integer, is answered the same)',
  'SystemErrorMessage',
);
const pathParameters = [
  {
    name: 'module',
    in: 'path',
    required: true,
    description: 'The module whose consumer parked the event',
    schema: { type: 'string' },
  },
  {
    name: 'id',
    in: 'path',
    required: true,
    description: "The event's id within its module",
    schema: { type: 'string' },
  },
];

/**
 * Parked events under /rest/admin/v1 (operator token): what consumers set aside after failing on an event
 * ELIGO_EVENT_MAX_ATTEMPTS times in a row, and the replay of one.
 */
export function adminParkedEventsPaths(publicBaseUrl: string) {
  const servers = [{ url: `${publicBaseUrl}/rest/admin/v1`, description: 'Admin API (operator token)' }];
  return {
    '/parked-events': {
      servers,
      get: {
        tags: ['admin'],
        operationId: 'adminListParkedEvents',
        summary: 'Events consumers parked, newest first',
        description:
          'A consumer that fails on one event ELIGO_EVENT_MAX_ATTEMPTS times in a row (an outage of the ' +
          'database, the broker or a peer service excepted: those are retried as long as they last) parks ' +
          'it with its error and goes on with the next event. Alert on ' +
          '`eligo_event_consumer_messages_total{outcome="parked"}`, read the error here, fix its cause, ' +
          'then replay. `Cache-Control: no-store`.',
        security,
        parameters: [
          {
            name: 'module',
            in: 'query',
            description: 'Only this module (default: all of them)',
            schema: { type: 'string', enum: [...parkingModules] },
          },
          {
            name: 'consumer',
            in: 'query',
            description: 'Only this consumer, e.g. `projection`',
            schema: { type: 'string', pattern: CONSUMER_NAME },
          },
          {
            name: 'status',
            in: 'query',
            description: '`parked` (default): those not replayed yet; `all`: replayed ones too',
            schema: { type: 'string', enum: ['parked', 'all'] },
          },
          {
            name: 'limit',
            in: 'query',
            description: 'At most this many (default 100)',
            schema: { type: 'integer', minimum: 1, maximum: 500 },
          },
          {
            name: 'beforeId',
            in: 'query',
            description: 'With `module`: only ids below this one (the next page)',
            schema: { type: 'integer', minimum: 1, maximum: 999999999 },
          },
        ],
        responses: {
          '200': jsonResponse('Parked events', 'ParkedEventList'),
          '400': errorResponse(
            'A query parameter the operation does not have, or a value that does not match its schema (errorIds [invalidRequest])',
            'ErrorResponse',
          ),
          ...unauthorized,
        },
      },
    },
    '/parked-events/{module}/{id}': {
      servers,
      parameters: pathParameters,
      get: {
        tags: ['admin'],
        operationId: 'adminGetParkedEvent',
        summary: 'One parked event: its consumer, error, attempts and CloudEvents headers',
        security,
        responses: {
          '200': jsonResponse('The parked event', 'ParkedEvent'),
          ...unauthorized,
          '404': notFound,
        },
      },
    },
    '/parked-events/{module}/{id}/replay': {
      servers,
      parameters: pathParameters,
      post: {
        tags: ['admin'],
        operationId: 'adminReplayParkedEvent',
        summary: 'Runs a parked event through its consumer again',
        description:
          "Exactly once per event, as every delivery (the consumer's inbox): `applied` when the consumer " +
          'handled it now (it is then marked replayed), `duplicate` when it had been applied already, ' +
          '`failed` when it failed again (it stays parked with the new error and one attempt more).',
        security,
        responses: {
          '200': jsonResponse('The outcome and the event after it', 'ParkedEventReplay'),
          ...unauthorized,
          '404': notFound,
        },
      },
    },
  };
}
